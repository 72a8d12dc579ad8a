"""Resource templates, prompts and completions against hostile input: matching stays
linear, decoded values cannot traverse, exception messages do not leak, and sync completion
functions run off the event loop.

The oracles: the matcher that came before (a regular expression, each ``{name}`` as
``[^/?#]+``), the official SDK's ``UriTemplate`` and ``ResourceSecurity``, R's ``as.integer``, and
the error codes of the MCP specification.
"""

from __future__ import annotations

import re
import subprocess
import threading
import time
from urllib.parse import unquote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mcp.server.mcpserver.resources.templates import DEFAULT_RESOURCE_SECURITY
from mcp.shared.uri_template import InvalidUriTemplate
from mcp.shared.uri_template import UriTemplate as SdkUriTemplate

import mcplite
from mcplite.features import uri_templates
from mcplite.features.uri_templates import UriTemplate
from mcplite.protocol.reading import RequestError
from mcplite.testing import Client
from tests.conftest import RSCRIPT, requires_r

NOT_FOUND = {"2024-11-05": -32002, "2025-11-25": -32002, "2026-07-28": -32602}
"""The resource-not-found code of each version (the specification: -32602 from 2026-07-28)."""

TEMPLATES = (
    "d://{a}",
    "d://days/{y}-{m}-{d}",
    "d://{a}.json",
    "d://x/{a}/{b}",
    "d://{a}/-{b}",
    "d://{a}--{b}.x",
    "{a}://x/{b}",
    "d://{a}-{b}/{c}",
    "p-{a}",
    "d://{a}//{b}",
    "d://{a}-",
)


def _former(template: str) -> re.Pattern[str]:
    """The matcher as it was before these tests: each expression ``[^/?#]+``, the URI matched by
    ``fullmatch``."""
    parts = re.split(r"\{([^{}]*)\}", template)
    pattern = "".join(
        re.escape(part) if i % 2 == 0 else f"(?P<{part}>[^/?#]+)" for i, part in enumerate(parts)
    )
    return re.compile(pattern)


def _former_match(template: str, uri: str) -> dict[str, str] | None:
    found = _former(template).fullmatch(uri)
    if found is None:
        return None
    return {name: unquote(value, errors="surrogateescape") for name, value in found.groupdict().items()}


def _filled(template: str, pieces: list[str]) -> str:
    parts = re.split(r"\{[^{}]*\}", template)
    fills = iter(pieces)
    return "".join(part + (next(fills, "") if i < len(parts) - 1 else "") for i, part in enumerate(parts))


# -- 1. matching in linear time -------------------------------------------------------------------


def test_a_long_uri_that_does_not_match_takes_no_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """The former matcher took 0.5 s for 800 dashes (and 24 s for 2,000 characters)."""
    monkeypatch.setattr(uri_templates, "MAX_URI_LENGTH", 10**6)  # the matcher itself, not the bound
    template = UriTemplate("data://days/{y}-{m}-{d}")
    for uri in ("data://days/" + "-" * 100_000 + "/", "data://days/" + "1-" * 50_000 + "/x"):
        started = time.perf_counter()
        assert template.match(uri) is None
        assert time.perf_counter() - started < 0.05


def test_a_uri_past_the_bound_is_not_found_at_once() -> None:
    server = mcplite.McpServer("days")

    @server.resource("data://days/{y}-{m}-{d}")
    def day(y: str, m: str, d: str) -> str:
        return f"{y}/{m}/{d}"

    with Client(server, "2025-11-25") as client:
        started = time.perf_counter()
        with pytest.raises(RequestError) as caught:
            client.read_resource("data://days/" + "-" * 100_000 + "/")
        assert time.perf_counter() - started < 1.0
        assert caught.value.code == NOT_FOUND["2025-11-25"]
        assert "a resource URI has at most 8192" in caught.value.message
        assert len(caught.value.message) < 400  # the URI is not echoed whole in the message
        assert client.read_resource("data://days/2024-01-31")[0].text == "2024/01/31"


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(
    st.sampled_from(TEMPLATES),
    st.lists(st.text(alphabet="a-./%2F#?x", max_size=4), min_size=3, max_size=3),
    st.text(alphabet="a-./%2F#?x", max_size=8),
    st.booleans(),
)
def test_matching_is_what_the_former_regex_matched(
    template: str, pieces: list[str], noise: str, filled: bool
) -> None:
    uri = _filled(template, pieces) if filled else noise
    assert UriTemplate(template).match(uri) == _former_match(template, uri)


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(
    st.sampled_from(TEMPLATES),
    st.lists(st.text(alphabet="a-./x", min_size=1, max_size=4), min_size=3, max_size=3),
)
def test_matching_agrees_with_the_official_sdk(template: str, pieces: list[str]) -> None:
    """Where the SDK's level-1 matching is comparable: it also takes empty values (so a match of
    its with one may split differently) and decodes what is not UTF-8 as U+FFFD (no '%' here)."""
    uri = _filled(template, pieces)
    theirs = SdkUriTemplate.parse(template).match(uri)
    if theirs is None:
        assert UriTemplate(template).match(uri) is None
    elif all(theirs.values()):
        assert UriTemplate(template).match(uri) == theirs


def test_adjacent_expressions_are_refused_as_the_sdk_refuses_them() -> None:
    server = mcplite.McpServer("adjacent")
    for template in ("d://{a}{b}", "d://x/{a}{b}{c}"):
        with pytest.raises(InvalidUriTemplate):
            SdkUriTemplate.parse(template)
        with pytest.raises(ValueError, match="are adjacent; put a literal between them"):
            server.resource(template)(lambda a, b, c="": a)
    assert not server.resource_templates


# -- 2. decoded values that traverse ----------------------------------------------------------------

HOSTILE = ("..%2F..%2F..%2Fetc%2Fpasswd", "%2e%2e", "..", "a%5C..%5Cb", "name%00.txt", "%2Fetc%2Fpasswd")


@pytest.mark.parametrize("version", sorted(NOT_FOUND))
def test_a_decoded_value_cannot_traverse(version: str) -> None:
    server = mcplite.McpServer("docs")
    called: list[str] = []

    @server.resource("file:///docs/{name}")
    def doc(name: str) -> str:
        called.append(name)
        return name

    with Client(server, version) as client:
        for value in (*HOSTILE, "%ff%fe", "%2E"):
            uri = f"file:///docs/{value}"
            with pytest.raises(RequestError) as caught:
                client.read_resource(uri)
            assert (caught.value.code, caught.value.data) == (NOT_FOUND[version], {"uri": uri})
            assert "{name}" in caught.value.message
        assert client.read_resource("file:///docs/a..b%20c.txt")[0].text == "a..b c.txt"
    assert called == ["a..b c.txt"]


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.text(alphabet="a./\\\x00", min_size=1, max_size=8))
def test_what_the_sdk_refuses_is_refused(value: str) -> None:
    """The SDK's default policy (traversal, absolute paths, NUL) refuses nothing mcplite serves
    (mcplite refuses more: any '/' or '\\'; Windows drive forms such as 'C:x' it leaves alone)."""
    if DEFAULT_RESOURCE_SECURITY.validate({"name": value}) is not None:
        assert uri_templates.refusal(value) is not None


def test_allow_paths_lets_a_parameter_take_a_path_but_not_nul() -> None:
    server = mcplite.McpServer("docs")

    @server.resource("file:///docs/{path}", allow_paths={"path"})
    def doc(path: str) -> str:
        return path

    @server.resource("file:///names/{name}/{path}", allow_paths=["path"])
    def named(name: str, path: str) -> str:
        return f"{name}:{path}"

    with Client(server, "2025-11-25") as client:
        assert client.read_resource("file:///docs/a%2F..%2Fb%5Cc")[0].text == "a/../b\\c"
        assert client.read_resource("file:///names/x/..%2Fy")[0].text == "x:../y"
        for uri in ("file:///docs/a%00b", "file:///docs/%C0%AF", "file:///names/..%2Fx/y"):
            with pytest.raises(RequestError, match="Resource not found"):
                client.read_resource(uri)
    with pytest.raises(ValueError, match="'other' in paths is not one of its expressions"):
        server.resource("file:///other/{path}", allow_paths={"other"})(lambda path: path)
    with pytest.raises(TypeError, match="paths is a collection of names"):
        server.resource("file:///other/{path}", allow_paths="path")(lambda path: path)


def test_a_refused_value_does_not_fall_through_to_a_later_template() -> None:
    server = mcplite.McpServer("docs")
    server.resource("file:///docs/{name}")(lambda name: f"name {name}")
    server.resource("file:///docs/{path}", allow_paths={"path"})(lambda path: f"path {path}")
    with Client(server, "2025-11-25") as client:
        assert client.read_resource("file:///docs/a.txt")[0].text == "name a.txt"
        with pytest.raises(RequestError, match=r"file:///docs/\{name\} does not serve"):
            client.read_resource("file:///docs/..%2Fa.txt")


def test_subscriptions_and_tools_see_a_refused_value_as_not_found() -> None:
    server = mcplite.McpServer("docs")
    server.resource("file:///docs/{name}")(lambda name: name)

    @server.tool
    def peek(uri: str, ctx: mcplite.Context) -> str:
        """Read a resource."""
        return str(ctx.read_resource(uri)[0].text)

    with Client(server, "2025-11-25") as client:
        with pytest.raises(RequestError) as caught:
            client.subscribe_resource("file:///docs/..%2Fsecret")
        assert caught.value.code == NOT_FOUND["2025-11-25"]
        result = client.call_tool("peek", {"uri": "file:///docs/..%2Fsecret"})
        assert (
            result.is_error and "does not serve 'file:///docs/..%2Fsecret': {name} holds '/'" in result.text
        )
    registry = server.engine.offer.resources  # what subscriptions/listen agrees to
    assert registry.find("file:///docs/a") is not None and registry.find("file:///docs/..%2Fb") is None


@requires_r
def test_a_number_with_leading_zeros_is_read_as_r_reads_it() -> None:
    texts = ["05", "+5", "-007", "00", "05.50", "+1.5e1"]
    vector = f"x <- c({', '.join(repr(t) for t in texts)})"
    script = f"{vector}; cat(as.integer(x), sep='\\n'); cat(as.numeric(x), sep='\\n')"
    lines = subprocess.run(
        [str(RSCRIPT), "-e", script], capture_output=True, text=True, check=True, timeout=60
    )
    r_lines = lines.stdout.split()
    as_integer, as_numeric = r_lines[: len(texts)], [float(x) for x in r_lines[len(texts) :]]
    server = mcplite.McpServer("numbers")
    server.resource("data://int/{n}")(lambda n: repr((type(n).__name__, n)))

    @server.resource("data://real/{x}")
    def real(x: float) -> str:
        return repr(x)

    def whole(n: int) -> str:
        return repr(n)

    server.resource("data://whole/{n}")(whole)
    with Client(server, "2025-11-25") as client:
        for text, integer, number in zip(texts, as_integer, as_numeric, strict=True):
            assert float(client.read_resource(f"data://real/{text}")[0].text) == number
            if "." not in text and "e" not in text:
                assert client.read_resource(f"data://whole/{text}")[0].text == integer


# -- 3. exception messages do not leak --------------------------------------------------------------

SECRET = "password=hunter2 at /srv/secrets/db.conf"


def _leaky_server(**options: object) -> mcplite.McpServer:
    server = mcplite.McpServer("leaky", **options)  # type: ignore[arg-type]

    def complete(typed: str) -> list[str]:
        raise RuntimeError(SECRET)

    @server.resource("data://items/{key}", complete={"key": complete})
    def item(key: str) -> str:
        if key == "public":
            raise mcplite.PublicError("the store is closed on Sundays")
        if key == "missing":
            raise KeyError(SECRET)
        raise RuntimeError(SECRET)

    @server.prompt
    def brief(topic: str) -> str:
        """Brief on a topic."""
        if topic == "public":
            raise mcplite.PublicError("no briefing on Sundays")
        raise ConnectionError(SECRET)

    @server.completion
    def completion(ref: dict, argument: str, value: str) -> list[str]:
        if value == "public":
            raise mcplite.PublicError("nothing starts with 'public'")
        raise OSError(SECRET)

    @server.tool
    def lookup() -> str:
        """Raise a public error."""
        raise mcplite.PublicError("the lookup service is closed")

    return server


def test_resource_prompt_and_completion_errors_are_masked(caplog: pytest.LogCaptureFixture) -> None:
    server = _leaky_server()
    prompt_ref = {"type": "ref/prompt", "name": "brief"}
    template_ref = {"type": "ref/resource", "uri": "data://items/{key}"}
    with Client(server, "2025-11-25") as client:
        failing = [
            ("Resource data://items/boom", lambda: client.read_resource("data://items/boom")),
            ("Prompt brief", lambda: client.get_prompt("brief", {"topic": "x"})),
            ("The completion of 'key'", lambda: client.complete(template_ref, "key", "x")),
            ("The server's completion function", lambda: client.complete(prompt_ref, "topic", "x")),
        ]
        for owner, call in failing:
            with pytest.raises(RequestError) as caught:
                call()
            assert caught.value.code == -32603
            assert caught.value.message.startswith(f"{owner} failed with an unexpected error")
            assert "hunter2" not in str(caught.value.message) + str(caught.value.data)
        with pytest.raises(RequestError) as caught:
            client.read_resource("data://items/missing")
        assert caught.value.code == NOT_FOUND["2025-11-25"] and "hunter2" not in caught.value.message
    assert caplog.text.count("hunter2") >= 5  # each detail went to the server's log


def test_a_public_error_is_sent_as_it_is() -> None:
    server = _leaky_server()
    with Client(server, "2025-11-25") as client:
        with pytest.raises(RequestError, match="the store is closed on Sundays"):
            client.read_resource("data://items/public")
        with pytest.raises(RequestError, match="no briefing on Sundays"):
            client.get_prompt("brief", {"topic": "public"})
        with pytest.raises(RequestError, match="nothing starts with 'public'"):
            client.complete({"type": "ref/prompt", "name": "brief"}, "topic", "public")
        assert client.call_tool("lookup").text == "the lookup service is closed"
    assert issubclass(mcplite.ToolError, mcplite.PublicError)
    assert issubclass(mcplite.ResourceNotFound, mcplite.PublicError)


def test_unmasked_servers_send_the_details() -> None:
    server = _leaky_server(mask_error_details=False)
    with Client(server, "2025-11-25") as client:
        for call in (
            lambda: client.read_resource("data://items/boom"),
            lambda: client.get_prompt("brief", {"topic": "x"}),
            lambda: client.complete({"type": "ref/prompt", "name": "brief"}, "topic", "x"),
        ):
            with pytest.raises(RequestError, match="hunter2"):
                call()


def test_a_value_that_cannot_be_sent_is_named_not_masked() -> None:
    """What mcplite finds wrong with a returned value is its own message (as for tools), not the
    function's exception: it is sent."""
    server = mcplite.McpServer("values")

    @server.prompt
    def odd(kind: str) -> object:
        """Return what is not a message."""
        return 3

    @server.completion
    def completion(ref: dict, argument: str, value: str) -> list[object]:
        return ["a", 3]

    with Client(server, "2025-11-25") as client:
        with pytest.raises(
            RequestError, match="Prompt odd returned a value that cannot be sent: prompt 'odd'"
        ):
            client.get_prompt("odd", {"kind": "x"})
        with pytest.raises(RequestError, match=r"list of str; it returned int \(3\) among them"):
            client.complete({"type": "ref/prompt", "name": "odd"}, "kind", "x")


# -- 4. sync functions run off the event loop ------------------------------------------------------


def _blocking_server(release: threading.Event, waited: list[bool]) -> mcplite.McpServer:
    server = mcplite.McpServer("slow")

    def wait_for_release() -> None:
        waited.append(release.wait(2.0))  # False: nothing else was served meanwhile

    @server.completion
    def completion(ref: dict, argument: str, value: str) -> list[str]:
        wait_for_release()
        return ["done"]

    @server.resource("data://slow/{n}")
    def slow(n: int) -> str:
        wait_for_release()
        return "done"

    @server.prompt
    def brief(topic: str) -> str:
        """A slow prompt."""
        wait_for_release()
        return "done"

    @server.tool
    def ping() -> str:
        """Answer at once."""
        return "pong"

    return server


@pytest.mark.parametrize("kind", ["completion", "resource", "prompt"])
def test_a_sync_function_does_not_hold_up_other_requests(kind: str) -> None:
    release, waited = threading.Event(), []
    server = _blocking_server(release, waited)
    with Client(server, "2025-11-25", timeout=10) as client:
        slow_call = {
            "completion": lambda: client.complete({"type": "ref/prompt", "name": "brief"}, "topic", "x"),
            "resource": lambda: client.read_resource("data://slow/1"),
            "prompt": lambda: client.get_prompt("brief", {"topic": "x"}),
        }[kind]
        slow = threading.Thread(target=slow_call)
        slow.start()
        deadline = time.monotonic() + 2.0
        while not waited and time.monotonic() < deadline and slow.is_alive():
            assert client.call_tool("ping").text == "pong"  # served while the slow function runs
            release.set()
            time.sleep(0.01)
        slow.join(5.0)
    assert waited == [True]


def test_a_sync_completion_sees_the_request_context_and_never_starts_once_cancelled() -> None:
    server = mcplite.McpServer("pool", workers=1)
    started: list[str] = []
    busy, release = threading.Event(), threading.Event()

    @server.tool
    def hold() -> str:
        """Keep the only worker busy."""
        busy.set()
        release.wait(5.0)
        return "held"

    @server.completion
    def completion(ref: dict, argument: str, value: str) -> list[str]:
        started.append(value)
        return [str(mcplite.get_option("json_na"))]

    ref = {"type": "ref/resource", "uri": "data://x/{y}"}
    server.resource("data://x/{y}")(lambda y: y)
    with Client(server, "2025-11-25") as client:
        with mcplite.options(json_na="null"):
            assert client.complete(ref, "y", "first") == ["null"]  # the caller's context, in the worker
        holder = threading.Thread(target=lambda: client.call_tool("hold"))
        holder.start()
        assert busy.wait(5.0)
        client.timeout = 0.3  # gives up, and cancels the queued completion
        with pytest.raises(TimeoutError):
            client.complete(ref, "y", "cancelled")
        client.timeout = 10
        assert client.request("ping") == {}  # answered on the loop after the cancellation
        release.set()
        holder.join(5.0)
        assert client.complete(ref, "y", "after") == [str(mcplite.get_option("json_na"))] != ["null"]
    assert started == ["first", "after"]

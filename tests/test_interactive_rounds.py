"""2026-07-28 ``input_required`` rounds over HTTP, with two server apps on two ports sharing a
``state_key``: each retry goes to the other worker, as behind a load balancer.

Every result is read with the official SDK's types (``mcp_types.InputRequiredResult``,
``CallToolResult``): what the wire carries is what the SDK accepts. Answers are the client's
(``ElicitResult``, ``CreateMessageResult``, ``ListRootsResult`` as the SDK writes them).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from typing import Any

import httpx
import mcp_types as types
import pytest

from mcplite.engine.asking import STATE_TTL
from mcplite.protocol import request_state
from tests.servers import asking
from tests.serving import served

KEY = "shared-key-of-the-deployment-0123456789"
VERSION = "2026-07-28"
CAPABILITIES = {"elicitation": {}, "sampling": {}, "roots": {}}
ids = itertools.count(1)


@pytest.fixture(scope="module")
def workers() -> Iterator[tuple[str, str]]:
    """Two apps (two servers, one key) on two ports."""
    with (
        served(asking.make_server(state_key=KEY).asgi_app(), lifespan="on") as first,
        served(asking.make_server(state_key=KEY).asgi_app(), lifespan="on") as second,
    ):
        yield first + "/mcp", second + "/mcp"


def post(
    url: str,
    method: str,
    params: dict[str, Any],
    capabilities: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> httpx.Response:
    meta = {
        "io.modelcontextprotocol/protocolVersion": VERSION,
        "io.modelcontextprotocol/clientCapabilities": CAPABILITIES if capabilities is None else capabilities,
    }
    body = {"jsonrpc": "2.0", "id": next(ids), "method": method, "params": {**params, "_meta": meta}}
    fields = {
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": VERSION,
        "Mcp-Method": method,
        **(headers or {}),
    }
    if "name" in params or "uri" in params:
        fields["Mcp-Name"] = params.get("name", params.get("uri"))
    return httpx.post(url, json=body, headers=fields, timeout=10)


def call(url: str, tool: str, **extra: Any) -> dict[str, Any]:
    response = post(url, "tools/call", {"name": tool, "arguments": {}, **extra})
    assert response.status_code == 200, response.text
    return dict(response.json()["result"])


def accept(content: dict[str, Any]) -> dict[str, Any]:
    return types.ElicitResult(action="accept", content=content).model_dump(
        mode="json", by_alias=True, exclude_none=True
    )


def sampled(text: str) -> dict[str, Any]:
    result = types.CreateMessageResult(
        role="assistant", content=types.TextContent(type="text", text=text), model="m"
    )
    return result.model_dump(mode="json", by_alias=True, exclude_none=True)


def roots() -> dict[str, Any]:
    return types.ListRootsResult(roots=[types.Root(uri="file:///r")]).model_dump(
        mode="json", by_alias=True, exclude_none=True
    )


def answer_for(request: types.InputRequest, content: dict[str, Any]) -> dict[str, Any]:
    if request.method == "elicitation/create":
        return accept(content)
    if request.method == "sampling/createMessage":
        return sampled("Hi")
    return roots()


def test_rounds_continue_on_the_other_worker_and_each_round_reruns_the_tool(workers: tuple[str, str]) -> None:
    first, second = workers
    runs = asking.RUNS["two_rounds"]
    round1 = types.InputRequiredResult.model_validate(call(first, "two_rounds"))
    [(key1, ask1)] = round1.input_requests.items()
    assert ask1.method == "elicitation/create" and ask1.params.message == "Step 1: your name?"
    round2 = types.InputRequiredResult.model_validate(
        call(
            second,
            "two_rounds",
            inputResponses={key1: accept({"name": "Ann"})},
            requestState=round1.request_state,
        )
    )
    [(key2, ask2)] = round2.input_requests.items()
    assert key2 != key1 and ask2.params.message == "Step 2: your colour?"
    done = call(
        first,
        "two_rounds",
        inputResponses={key2: accept({"colour": "teal"})},
        requestState=round2.request_state,
    )
    result = types.CallToolResult.model_validate(done)
    assert done["resultType"] == "complete" and result.content[0].text == "Ann likes teal"
    assert asking.RUNS["two_rounds"] - runs == 3  # the handler re-ran in full, once per round


@pytest.mark.parametrize("tool", ["all_at_once", "all_at_once_sync"])
def test_several_asks_go_out_in_one_round(workers: tuple[str, str], tool: str) -> None:
    first, second = workers
    runs = asking.RUNS[tool]
    round1 = types.InputRequiredResult.model_validate(call(first, tool))
    methods = sorted(request.method for request in round1.input_requests.values())
    assert methods == ["elicitation/create", "roots/list", "sampling/createMessage"]
    responses = {key: answer_for(request, {"name": "Bo"}) for key, request in round1.input_requests.items()}
    done = call(second, tool, inputResponses=responses, requestState=round1.request_state)
    assert types.CallToolResult.model_validate(done).content[0].text == "Hi Bo (1 roots)"
    assert asking.RUNS[tool] - runs == 2


def test_a_sync_tool_and_a_tool_catching_exception_ask_in_rounds_too(workers: tuple[str, str]) -> None:
    first, second = workers
    for tool, expected in [("fit_sync", "fit body_mass_g rows=3"), ("swallowing", "got Cy")]:
        round1 = types.InputRequiredResult.model_validate(call(first, tool))
        [key] = round1.input_requests
        content = {"rows": 3} if tool == "fit_sync" else {"name": "Cy"}
        done = call(second, tool, inputResponses={key: accept(content)}, requestState=round1.request_state)
        assert types.CallToolResult.model_validate(done).content[0].text == expected


def test_prompts_and_resources_ask_in_rounds(workers: tuple[str, str]) -> None:
    first, second = workers
    for method, params, content in [
        ("prompts/get", {"name": "briefing"}, {"context": "bills"}),
        ("resources/read", {"uri": "asking://choice"}, {"pick": "a"}),
    ]:
        round1 = types.InputRequiredResult.model_validate(post(first, method, params).json()["result"])
        [key] = round1.input_requests
        retry = {**params, "inputResponses": {key: accept(content)}, "requestState": round1.request_state}
        done = post(second, method, retry).json()["result"]
        if method == "prompts/get":
            assert types.GetPromptResult.model_validate(done).messages[0].content.text == "Brief me on bills"
        else:
            assert types.ReadResourceResult.model_validate(done).contents[0].text == "picked a"


def refusal(response: httpx.Response) -> str:
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["code"] == -32602
    return str(error["message"])


def retry(url: str, tool: str, state: Any, responses: dict[str, Any]) -> httpx.Response:
    params = {"name": tool, "arguments": {}, "inputResponses": responses, "requestState": state}
    return post(url, "tools/call", params)


def test_a_tampered_foreign_misused_or_expired_state_is_refused(
    workers: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = workers
    round1 = types.InputRequiredResult.model_validate(call(first, "greet"))
    [key] = round1.input_requests
    state = round1.request_state
    assert state is not None
    answers = {key: accept({"name": "Di"})}
    body, _, mac = state.partition(".")
    flipped = body[:-2] + ("A" if body[-2] != "A" else "B") + body[-1]
    assert "does not verify" in refusal(retry(second, "greet", f"{flipped}.{mac}", answers))
    assert "does not verify" in refusal(retry(second, "greet", state + "-TAMPERED", answers))
    foreign = request_state.seal({"asked": [key]}, b"another deployment's key!", ttl=60)
    assert "does not verify" in refusal(retry(second, "greet", foreign, answers))
    assert "another call" in refusal(retry(second, "fit_sync", state, answers))
    later = time.time() + STATE_TTL + 1
    monkeypatch.setattr(request_state.time, "time", lambda: later)
    assert "expired" in refusal(retry(second, "greet", state, answers))
    monkeypatch.undo()
    done = retry(second, "greet", state, answers).json()["result"]
    assert types.CallToolResult.model_validate(done).content[0].text == "Hello, Di!"


def test_answers_for_keys_the_state_did_not_ask_are_ignored(workers: tuple[str, str]) -> None:
    first, second = workers
    round1 = types.InputRequiredResult.model_validate(call(first, "two_rounds"))
    [key1] = round1.input_requests
    answers = {key1: accept({"name": "Ed"})}
    learned = types.InputRequiredResult.model_validate(
        call(second, "two_rounds", inputResponses=answers, requestState=round1.request_state)
    )
    [key2] = learned.input_requests
    # round 1's state asked key1 only: an answer to step 2 sent with it is not taken, step 2 is asked
    early = {**answers, key2: accept({"colour": "red"})}
    again = types.InputRequiredResult.model_validate(
        call(second, "two_rounds", inputResponses=early, requestState=round1.request_state)
    )
    assert list(again.input_requests) == [key2]


def test_malformed_input_responses_and_missing_capabilities_are_protocol_errors(
    workers: tuple[str, str],
) -> None:
    first, _ = workers
    bad = post(first, "tools/call", {"name": "greet", "arguments": {}, "inputResponses": {"k": 12345}})
    assert "inputResponses" in refusal(bad)
    missing = post(first, "tools/call", {"name": "summarize", "arguments": {"topic": "x"}}, capabilities={})
    assert missing.status_code == 400
    error = missing.json()["error"]
    assert (error["code"], error["data"]) == (-32021, {"requiredCapabilities": {"sampling": {}}})


def test_a_state_is_bound_to_the_bearer_token_it_was_made_for() -> None:
    app = asking.make_server(state_key=KEY).asgi_app(authenticate=lambda token: token in ("alice", "bob"))
    with served(app, lifespan="on") as base:
        url = base + "/mcp"

        def greet(token: str, **extra: Any) -> httpx.Response:
            params = {"name": "greet", "arguments": {}, **extra}
            return post(url, "tools/call", params, headers={"Authorization": f"Bearer {token}"})

        round1 = types.InputRequiredResult.model_validate(greet("alice").json()["result"])
        [key] = round1.input_requests
        retry = {"inputResponses": {key: accept({"name": "Al"})}, "requestState": round1.request_state}
        assert "another call" in refusal(greet("bob", **retry))
        done = greet("alice", **retry).json()["result"]
        assert types.CallToolResult.model_validate(done).content[0].text == "Hello, Al!"

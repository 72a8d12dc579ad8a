"""The ``mcplite`` command: loading a user's server, errors, and the demo server spoken to over stdio."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mcplite import McpServer, cli

ROOT = Path(__file__).parent.parent
_serial = itertools.count()


@pytest.fixture(autouse=True)
def clean_imports(tmp_path: Path) -> Iterator[None]:
    """Each test imports its servers afresh and leaves sys.path as it was.

    Only the modules the test wrote are forgotten: forgetting a library imported on the way (httpcore,
    say) would leave two copies of its classes, and other tests' ``except`` clauses would miss them.
    """
    modules, path = set(sys.modules), list(sys.path)
    yield
    for name in set(sys.modules) - modules:
        origin = getattr(sys.modules[name], "__file__", None)
        if origin is not None and Path(origin).is_relative_to(tmp_path):
            del sys.modules[name]
    sys.path[:] = path


@pytest.fixture
def ran(monkeypatch: pytest.MonkeyPatch) -> list[McpServer]:
    """The servers whose ``run()`` was called (not actually served)."""
    servers: list[McpServer] = []
    monkeypatch.setattr(McpServer, "run", lambda self, *args, **kwargs: servers.append(self))
    return servers


def write_module(folder: Path, body: str, stem: str | None = None) -> Path:
    """A module file with a unique name holding ``body``."""
    path = folder / f"{stem or 'served'}_{next(_serial)}.py"
    path.write_text("from mcplite import McpServer\n" + textwrap.dedent(body), encoding="utf-8")
    return path


ONE = """
weather = McpServer("weather")

@weather.tool
def temperature(city: str) -> float:
    '''The temperature in a city.'''
    return 21.5
"""


# -- finding the server -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("app.py", ("app.py", None)),
        ("app.py:server", ("app.py", "server")),
        ("pkg.tools:factory.make", ("pkg.tools", "factory.make")),
        ("pkg.tools", ("pkg.tools", None)),
        ("C:\\work\\app.py", ("C:\\work\\app.py", None)),
        ("C:\\work\\app.py:mcp", ("C:\\work\\app.py", "mcp")),
    ],
)
def test_split_target(target: str, expected: tuple[str, str | None]) -> None:
    assert cli.split_target(target) == expected


def test_split_target_empty_attribute() -> None:
    with pytest.raises(cli.LoadError, match="nothing after ':'"):
        cli.split_target("app.py:")


def test_load_from_path_finds_the_one_instance(tmp_path: Path) -> None:
    path = write_module(tmp_path, ONE)
    server = cli.load_server(str(path))
    assert server.name == "weather" and list(server.tools) == ["temperature"]
    assert cli.load_server(f"{path}:weather") is not server  # a fresh import is another instance


def test_load_from_module_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_module(tmp_path, ONE)
    monkeypatch.chdir(tmp_path)  # modules are searched in the current directory first
    assert cli.load_server(path.stem).name == "weather"
    assert cli.load_server(f"{path.stem}:weather").name == "weather"


def test_load_a_package_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / f"pkg_{next(_serial)}"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "tools.py").write_text(
        "from mcplite import McpServer\nmcp = McpServer('pkg')\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert cli.load_server(f"{package.name}.tools").name == "pkg"


def test_sibling_imports_work_for_a_path(tmp_path: Path) -> None:
    helper = f"helper_{next(_serial)}"
    (tmp_path / f"{helper}.py").write_text("NAME = 'from a sibling'\n", encoding="utf-8")
    path = write_module(tmp_path, f"from {helper} import NAME\nserver = McpServer(NAME)\n")
    assert cli.load_server(str(path)).name == "from a sibling"


def test_attr_may_name_a_factory(tmp_path: Path) -> None:
    path = write_module(
        tmp_path,
        """
        def make_server(name: str = "made") -> McpServer:
            return McpServer(name)

        class Holder:
            server = McpServer("held")
        """,
    )
    assert cli.load_server(f"{path}:make_server").name == "made"
    assert cli.load_server(f"{path}:Holder.server").name == "held"


def test_fallback_names_choose_among_several(tmp_path: Path) -> None:
    path = write_module(tmp_path, "first = McpServer('first')\nmcp = McpServer('second')\nalias = mcp\n")
    assert cli.load_server(str(path)).name == "second"
    only_factory = write_module(tmp_path, "def app() -> McpServer:\n    return McpServer('factory')\n")
    assert cli.load_server(str(only_factory)).name == "factory"


def test_one_instance_under_two_names_is_one(tmp_path: Path) -> None:
    path = write_module(tmp_path, "one = McpServer('one')\nsame = one\n")
    assert cli.load_server(str(path)).name == "one"


def test_import_output_goes_to_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_module(tmp_path, "print('loading tools')\nserver = McpServer('noisy')\n")
    cli.load_server(str(path))
    out, err = capsys.readouterr()
    assert out == "" and "loading tools" in err


@pytest.mark.parametrize(
    ("body", "attr", "message"),
    [
        ("x = 1\n", None, "no McpServer found in {spec}: create one there"),
        ("a = McpServer('a')\nb = McpServer('b')\n", None, "{spec} holds 2 McpServer instances (a, b)"),
        (ONE, "missing", "{spec} has no attribute 'missing' (McpServer instances there: weather)"),
        (ONE, "McpServer", "{spec}:McpServer needs arguments (name)"),
        ("server = 'text'\n", None, "{spec}:server is of type str, not an McpServer"),
        ("def make(name): return McpServer(name)\n", "make", "{spec}:make needs arguments (name)"),
        ("def make(): return 42\n", "make", "{spec}:make() returned a value of type int, not an McpServer"),
        (
            "def make(): raise RuntimeError('no config')\n",
            "make",
            "calling {spec}:make() failed: RuntimeError",
        ),
        ("raise RuntimeError('broken tools')\n", None, "importing {path} failed: RuntimeError: broken tools"),
        ("def broken(:\n", None, "importing {path} failed: SyntaxError"),
    ],
)
def test_load_errors(tmp_path: Path, body: str, attr: str | None, message: str) -> None:
    path = write_module(tmp_path, body)
    target = str(path) if attr is None else f"{path}:{attr}"
    with pytest.raises(cli.LoadError) as caught:
        cli.load_server(target)
    assert message.format(spec=path, path=path.resolve()) in str(caught.value)


def test_bad_paths_and_modules(tmp_path: Path) -> None:
    cases = {
        str(tmp_path / "absent.py"): "no such file",
        str(tmp_path): "is not a Python file",
        "no_such_module_here_at_all": "no module named 'no_such_module_here_at_all'",
    }
    (tmp_path / "notes.txt").write_text("hello", encoding="utf-8")
    cases[str(tmp_path / "notes.txt")] = "is not a Python file"
    for target, message in cases.items():
        with pytest.raises(cli.LoadError, match=message):
            cli.load_server(target)


def test_a_missing_dependency_is_not_a_missing_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_module(tmp_path, "import no_such_dependency_anywhere\n")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(cli.LoadError, match=f"importing {path.stem} failed: ModuleNotFoundError"):
        cli.load_server(path.stem)


# -- main ------------------------------------------------------------------------------------------


def test_main_serves_the_target(
    tmp_path: Path, ran: list[McpServer], capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_module(tmp_path, ONE)
    assert cli.main(["serve", f"{path}:weather"]) == 0
    assert [server.name for server in ran] == ["weather"]
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("argv", [[], ["demo"]])
def test_main_serves_the_demo(argv: list[str], ran: list[McpServer]) -> None:
    assert cli.main(argv) == 0
    [server] = ran
    assert server.name == "penguins"
    assert list(server.tools) == [
        "describe_data",
        "filter_rows",
        "summarize_by_group",
        "plot_histogram",
        "column_stats",
        "fit_body_mass",
        "bootstrap_mean",
    ]


def test_main_reports_errors_on_stderr(
    tmp_path: Path, ran: list[McpServer], capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["serve", str(tmp_path / "absent.py")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("mcplite: error: no such file") and ran == []
    assert cli.main(["serve"]) == 2  # usage error, from argparse
    out, err = capsys.readouterr()
    assert out == "" and "usage: mcplite" in err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"mcplite {cli.package_version()}"


def test_docstring_examples() -> None:
    import doctest

    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    for test in doctest.DocTestFinder().find(cli, cli.__name__):
        runner.run(test)
    assert runner.failures == 0


# -- over stdio ------------------------------------------------------------------------------------


def strict_json(line: str) -> Any:
    def refuse(constant: str) -> Any:
        raise ValueError(f"not JSON: {constant}")

    return json.loads(line, parse_constant=refuse)


def converse(argv: list[str], messages: list[dict[str, Any]], cwd: Path = ROOT) -> list[dict[str, Any]]:
    """Send JSON lines to ``python -m mcplite ARGV``, close stdin, and return every stdout line parsed."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-m", "mcplite", *argv],
        input="".join(json.dumps(m) + "\n" for m in messages),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=cwd,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert all(line.strip() for line in lines) and done.stdout.endswith("\n"), done.stdout
    return [strict_json(line) for line in lines]  # stdout holds JSON lines and nothing else


def request(id: int, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": id,
        "method": method,
        **({"params": params} if params is not None else {}),
    }


HANDSHAKE = [
    request(
        0,
        "initialize",
        {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}},
    ),
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
]

CALLS: dict[str, dict[str, Any]] = {
    "describe_data": {},
    "filter_rows": {"column": "species", "op": "==", "value": "Gentoo", "limit": 2},
    "summarize_by_group": {"column": "body_mass_g", "by": "island", "stat": "median"},
    "plot_histogram": {"column": "bill_depth_mm", "bins": 5},
    "column_stats": {"column": "flipper_length_mm"},
    "fit_body_mass": {},
    "bootstrap_mean": {"column": "bill_depth_mm", "by": "sex", "resamples": 500},
}


def test_demo_over_stdio() -> None:
    calls = [
        request(
            10 + i, "tools/call", {"name": name, "arguments": arguments, "_meta": {"progressToken": name}}
        )
        for i, (name, arguments) in enumerate(CALLS.items())
    ]
    unknown = request(
        20, "tools/call", {"name": "filter_rows", "arguments": {"column": "wing", "op": "==", "value": 1}}
    )
    replies = converse([], [*HANDSHAKE, request(1, "tools/list"), *calls, unknown])
    by_id = {reply["id"]: reply for reply in replies if "id" in reply}
    progress = [reply["params"] for reply in replies if reply.get("method") == "notifications/progress"]

    assert by_id[0]["result"]["protocolVersion"] == "2025-06-18"
    assert by_id[0]["result"]["serverInfo"]["name"] == "penguins"
    tools = by_id[1]["result"]["tools"]
    assert [tool["name"] for tool in tools] == list(CALLS)
    assert all(tool["inputSchema"]["type"] == "object" for tool in tools)
    assert all(tool["annotations"]["readOnlyHint"] is True for tool in tools)
    assert "ctx" not in tools[2]["inputSchema"].get("properties", {})
    assert tools[4]["outputSchema"]["required"] == ["name", "n", "missing", "mean", "sd"]

    results = {name: by_id[10 + i]["result"] for i, name in enumerate(CALLS)}
    assert all(not result.get("isError") for result in results.values()), results
    described = strict_json(results["describe_data"]["content"][0]["text"])
    assert [row["column"] for row in described][:2] == ["species", "island"]
    rows = strict_json(results["filter_rows"]["content"][0]["text"])
    assert [row["species"] for row in rows] == ["Gentoo", "Gentoo"]
    groups = strict_json(results["summarize_by_group"]["content"][0]["text"])
    assert [group["group"] for group in groups] == ["Biscoe", "Dream", "Torgersen"]
    assert [p["progress"] for p in progress if p["progressToken"] == "summarize_by_group"] == [1, 2, 3]
    assert [block["type"] for block in results["plot_histogram"]["content"]] == ["image", "text"]
    stats = results["column_stats"]["structuredContent"]
    assert stats["name"] == "flipper_length_mm" and stats["n"] == 342 and stats["missing"] == 2
    assert strict_json(results["column_stats"]["content"][0]["text"]) == stats
    fitted = results["fit_body_mass"]["structuredContent"]  # the client declared no elicitation
    assert (fitted["fitted"], fitted["measurement"], fitted["n"]) == (True, "flipper_length_mm", 342)
    assert "the client cannot answer questions" in fitted["note"]
    intervals = strict_json(results["bootstrap_mean"]["content"][0]["text"])
    assert [(row["group"], row["n"]) for row in intervals] == [("female", 165), ("male", 168)]
    assert [p["progress"] for p in progress if p["progressToken"] == "bootstrap_mean"] == [1, 2]

    failed = by_id[20]["error"]  # the column is an enum: 2025-06-18 refuses the arguments
    assert failed["code"] == -32602 and "argument 'column': expected one of 'species'" in failed["message"]


def test_serve_a_path_over_stdio(tmp_path: Path) -> None:
    path = write_module(tmp_path, "print('hello from import')\n" + ONE)
    replies = converse(
        ["serve", str(path)],
        [*HANDSHAKE, request(1, "tools/call", {"name": "temperature", "arguments": {"city": "Oslo"}})],
    )
    assert [reply["id"] for reply in replies] == [0, 1]
    assert replies[1]["result"]["content"] == [{"type": "text", "text": "21.5"}]


def test_bad_target_over_the_command_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mcplite", "serve", str(tmp_path / "absent.py")],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("mcplite: error: no such file")


# -- over HTTP -------------------------------------------------------------------------------------


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[Any, ...], dict[str, Any]]]:
    """Each ``run()`` call as (server name, positional arguments, keyword arguments); nothing is served."""
    calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []
    monkeypatch.setattr(
        McpServer, "run", lambda self, *args, **kwargs: calls.append((self.name, args, kwargs))
    )
    return calls


@pytest.mark.parametrize(
    ("flags", "host", "port"),
    [
        (["--http"], "127.0.0.1", 8000),
        (["--http", "--port", "9123"], "127.0.0.1", 9123),
        (["--http", "--host", "0.0.0.0", "--port", "0"], "0.0.0.0", 0),
    ],
)
def test_http_flags_choose_the_transport(
    tmp_path: Path,
    runs: list[tuple[str, tuple[Any, ...], dict[str, Any]]],
    flags: list[str],
    host: str,
    port: int,
) -> None:
    path = write_module(tmp_path, ONE)
    assert cli.main(["serve", str(path), *flags]) == 0
    assert cli.main(["demo", *flags]) == 0
    assert runs == [(name, ("http",), {"host": host, "port": port}) for name in ("weather", "penguins")]


def test_http_flag_errors(
    tmp_path: Path,
    runs: list[tuple[str, tuple[Any, ...], dict[str, Any]]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = str(write_module(tmp_path, ONE))
    assert cli.main(["serve", path, "--port", "9000"]) == 2
    assert "--host and --port go with --http" in capsys.readouterr().err
    for bad in ("x", "70000", "-1"):
        assert cli.main(["serve", path, "--http", "--port", bad]) == 2
        assert "not a port number" in capsys.readouterr().err or bad == "-1"
    assert runs == []


def test_serve_over_http() -> None:
    """``mcplite serve ... --http`` answers both eras on /mcp, and stops cleanly on SIGINT."""
    httpx = pytest.importorskip("httpx")
    pytest.importorskip("uvicorn")
    import signal
    import socket
    import time

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    target = str(ROOT / "tests" / "servers" / "everything.py")
    process = subprocess.Popen(
        [sys.executable, "-m", "mcplite", "serve", target, "--http", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}/mcp"
    accept = {"accept": "application/json, text/event-stream"}
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, process.communicate()[1].decode()
            assert time.monotonic() < deadline, "the server did not start"
            try:
                if httpx.get(url, timeout=1).status_code in (400, 405):  # GET without a session
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        init = httpx.post(url, json=HANDSHAKE[0], headers=accept)
        assert init.status_code == 200 and init.json()["result"]["protocolVersion"] == "2025-06-18"
        assert init.headers["mcp-session-id"]
        meta = {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
        }
        headers = {
            **accept,
            "mcp-protocol-version": "2026-07-28",
            "mcp-method": "tools/call",
            "mcp-name": "add",
        }
        call = request(1, "tools/call", {"name": "add", "arguments": {"a": 5}, "_meta": meta})
        answer = httpx.post(url, json=call, headers=headers)
        assert answer.status_code == 200 and answer.json()["result"]["content"][0]["text"] == "7"
    finally:
        process.send_signal(signal.SIGINT)
        _out, err = process.communicate(timeout=30)
    assert process.returncode == 0, err.decode()
    assert b"Application startup complete" in err

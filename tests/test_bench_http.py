"""A smoke run of ``benchmarks/bench_http.py``: both servers under ``uvicorn --workers 2``, a few clients
and calls per tool and mode, every answer checked by the benchmark itself (it raises on a wrong one)."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("httpx2")
pytest.importorskip("mcp.server.mcpserver")
pytest.importorskip("mcplite.http", reason="mcplite's HTTP transport is missing")

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_http.py"


@pytest.fixture(scope="module")
def bench() -> Iterator[ModuleType]:
    """The benchmark as a module; afterwards sys.path and the benchmark's own modules are as they were."""
    path = list(sys.path)
    spec = importlib.util.spec_from_file_location("bench_http", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_http"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    yield module
    sys.path[:] = path
    for name, loaded in list(sys.modules.items()):
        if BENCH.parent in Path(getattr(loaded, "__file__", None) or "/").parents:
            del sys.modules[name]


@pytest.fixture(scope="module")
def measured(bench: ModuleType) -> tuple[Any, Any]:
    """(the plan, what it measured), once for the module: starting the servers is the slow part."""
    sizes = {"add": (4, 5), "small_frame": (4, 5)}  # frame() is small_frame() with 10,000 rows: too slow here
    # The SDK serves a 2026-07-28 request the same whether stateless_http is set or not (its session
    # manager routes by the MCP-Protocol-Version header first), so one SDK app serves both modes here.
    apps = {**bench.APPS, "sdk": {mode: "sdk_http_app:sessions" for mode in bench.MODES}}
    plan = bench.Plan(sizes, rounds=1, workers=2, apps=apps)
    return plan, asyncio.run(bench.measure(plan))


def test_every_call_is_answered_and_timed(bench: ModuleType, measured: tuple[Any, Any]) -> None:
    plan, out = measured
    assert list(out.phases) == list(bench.MODES)
    for tools in out.phases.values():
        assert list(tools) == list(plan.sizes)
        for tool, servers in tools.items():
            clients, calls = plan.sizes[tool]
            for phases in servers.values():
                (phase,) = phases
                assert phase.latencies.shape == (clients * calls,)
                assert (phase.latencies > 0).all() and phase.latencies.max() < phase.seconds + 1
                assert len(phase.server_cpu) == 2 and phase.rate > 0
    assert [phase.total for phase in out.floor] == [4 * 5]


def test_the_report_has_a_row_per_mode_and_tool(bench: ModuleType, measured: tuple[Any, Any]) -> None:
    plan, out = measured
    lines = bench.report(out, plan, 1.0)
    header = next(line for line in lines if line.startswith("| protocol |"))
    rows = [line for line in lines if line.startswith(("| 2026-07-28 |", "| session |"))]
    assert len(rows) == len(bench.MODES) * len(plan.sizes)
    assert all(row.count("|") == header.count("|") for row in rows)


def test_a_wrong_answer_is_caught(bench: ModuleType) -> None:
    body = b'{"jsonrpc":"2.0","id":"c1-2","result":{"content":[{"type":"text","text":"4"}]}}'
    reply = bench.Reply(200, {"content-type": "application/json"}, body)
    bench.check_add(reply, "c1-2", {"a": 1, "b": 3})
    with pytest.raises(bench.BadAnswer, match="answered '4'"):
        bench.check_add(reply, "c1-2", {"a": 2, "b": 3})
    with pytest.raises(bench.BadAnswer, match="c1-3"):
        bench.check_add(reply, "c1-3", {"a": 1, "b": 3})
    same = bench.same_as(bench.without_id(body, "c1-2"))
    same(bench.Reply(200, reply.headers, body.replace(b"c1-2", b"c9-9")), "c9-9", {})
    with pytest.raises(bench.BadAnswer, match="not the answer checked before"):
        same(bench.Reply(200, reply.headers, body.replace(b'"4"', b'"5"')), "c1-2", {})
    with pytest.raises(bench.BadAnswer, match="event-stream"):
        same(bench.Reply(200, {"content-type": "text/event-stream"}, body), "c1-2", {})

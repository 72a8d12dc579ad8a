"""The demo's long tool, ``bootstrap_mean``: its intervals against a straightforward numpy
computation of the same seeded resamples (one draw of all of them), its progress and cancellation,
a task over Streamable HTTP on loopback at 2026-07-28 whose inlined result is the ordinary call's
answer, and the ordinary call through the official SDK client over stdio.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import sys
import threading
import time
import typing
from collections.abc import AsyncIterator, Iterator
from importlib import resources
from typing import Any

import anyio
import httpx
import jsonschema
import numpy as np
import pandas as pd
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

import mcplite
import rvalues as rv
from mcplite.demo import bootstrap
from mcplite.demo import server as demo
from mcplite.tools.context import Context, ToolCancelled
from tests.serving import served

TIMEOUT = 30.0
VERSION = "2026-07-28"
TASKS = "io.modelcontextprotocol/tasks"
ids = itertools.count(1)


@pytest.fixture(scope="module")
def raw() -> pd.DataFrame:
    """The CSV as plain pandas reads it (its own NA handling, no dtypes given)."""
    with resources.files("mcplite").joinpath("data", "penguins.csv").open("rb") as file:
        return pd.read_csv(file)


def by_numpy(
    raw: pd.DataFrame, column: str, by: str | None, resamples: int, seed: int
) -> list[dict[str, Any]]:
    """The intervals straight from numpy: per group (sorted labels), all its resamples drawn at once."""
    rows = raw[[column] if by is None else [column, by]].dropna()
    groups = [("all", rows)] if by is None else [(str(k), part) for k, part in rows.groupby(by, sort=True)]
    rng = np.random.default_rng(seed)
    out = []
    for label, part in groups:
        x = part[column].to_numpy(float)
        means = x[rng.integers(0, len(x), size=(resamples, len(x)))].mean(axis=1)
        lower, upper = np.quantile(means, [0.025, 0.975])
        out.append({"group": label, "n": len(x), "mean": x.mean(), "lower": lower, "upper": upper})
    return out


def jsonlite_number(x: float) -> Any:
    """A double as jsonlite writes it (4 decimal digits), parsed back."""
    return json.loads(rv.to_json(rv.unbox(float(x))))


def as_written(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """numpy's rows with their doubles as jsonlite writes them."""
    return [{k: jsonlite_number(v) if isinstance(v, float) else v for k, v in row.items()} for row in rows]


def context(token: str | None = None, cancelled: threading.Event | None = None) -> tuple[Context, list[Any]]:
    sent: list[Any] = []
    ctx = Context(
        request_id=1,
        protocol_version="2025-06-18",
        notify=lambda method, params: sent.append(params),
        progress_token=token,
        cancelled=cancelled,
    )
    return ctx, sent


# -- the computation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("column", "by", "resamples", "seed"),
    [("body_mass_g", None, 25_001, 1), ("bill_length_mm", "species", 12_345, 7), ("year", "sex", 3, 2)],
)
def test_the_intervals_are_numpys_of_the_same_seeded_resamples(
    raw: pd.DataFrame, column: str, by: str | None, resamples: int, seed: int
) -> None:
    ctx, _ = context()
    got = demo.bootstrap_mean(column, ctx, by=by, resamples=resamples, seed=seed)  # type: ignore[arg-type]
    assert [str(c.r_class[0]) for c in got.columns.values()] == ["character", "integer", *["numeric"] * 3]
    columns = {name: list(values) for name, values in got.columns.items()}
    rows = [dict(zip(columns, row, strict=True)) for row in zip(*columns.values(), strict=True)]
    expected = by_numpy(raw, column, by, resamples, seed)
    assert [row["group"] for row in rows] == [row["group"] for row in expected]
    for row, want in zip(rows, expected, strict=True):
        assert row["n"] == want["n"]
        for field in ("mean", "lower", "upper"):  # the same draws; the means summed in another order
            assert row[field] == pytest.approx(want[field], rel=1e-13), (row["group"], field)
        assert row["lower"] <= row["upper"]
        if resamples > 1000:
            assert row["lower"] < row["mean"] < row["upper"]


def test_another_seed_gives_another_interval() -> None:
    values = demo.penguins_pandas()["body_mass_g"].dropna().to_numpy(float)
    one, again = (bootstrap.bootstrap_intervals(values, None, 2000, 1) for _ in range(2))
    other = bootstrap.bootstrap_intervals(values, None, 2000, 2)
    assert one == again and one.lower != other.lower and one.mean == other.mean


def test_progress_once_per_batch_and_cancellation_between_batches() -> None:
    ctx, sent = context(token="t")
    demo.bootstrap_mean("body_mass_g", ctx, by="island", resamples=2 * bootstrap.BATCH + 1)
    assert [(p["progress"], p["total"]) for p in sent] == [(i, 9) for i in range(1, 10)]
    assert sent[0]["message"] == "group Biscoe" and sent[-1]["message"] == "group Torgersen"
    stop = threading.Event()
    stop.set()
    ctx, sent = context(token="t", cancelled=stop)
    with pytest.raises(ToolCancelled):
        demo.bootstrap_mean("body_mass_g", ctx)
    assert sent == []


def test_resamples_out_of_range_are_a_tool_error() -> None:
    ctx, _ = context()
    for resamples in (0, bootstrap.MAX_RESAMPLES + 1):
        with pytest.raises(mcplite.ToolError, match=f"resamples must be between 1 and .*, not {resamples}"):
            demo.bootstrap_mean("body_mass_g", ctx, resamples=resamples)


# -- a task over HTTP -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with served(demo.build_server().asgi_app(), lifespan="on") as base:
        yield base + "/mcp"


def post(url: str, method: str, params: dict[str, Any], capabilities: dict[str, Any]) -> dict[str, Any]:
    meta = {
        "io.modelcontextprotocol/protocolVersion": VERSION,
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    }
    body = {"jsonrpc": "2.0", "id": next(ids), "method": method, "params": {**params, "_meta": meta}}
    headers = {
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": VERSION,
        "Mcp-Method": method,
        "Mcp-Name": str(params.get("name", params.get("taskId"))),
    }
    response = httpx.post(url, json=body, headers=headers, timeout=TIMEOUT)
    assert response.status_code == 200, response.text
    answer = response.json()
    assert "result" in answer, answer
    return dict(answer["result"])


def without_meta(found: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in found.items() if k != "_meta"}


def test_the_default_is_a_task_whose_result_is_the_ordinary_answer(url: str) -> None:
    tasks: dict[str, Any] = {"extensions": {TASKS: {}}}
    call = {"name": "bootstrap_mean", "arguments": {"column": "flipper_length_mm", "by": "species"}}
    started = time.monotonic()
    created = post(url, "tools/call", call, tasks)
    assert time.monotonic() - started < 0.5  # answered at once, not after the resamples
    assert created["resultType"] == "task" and created["status"] == "working"
    polls = []
    deadline = time.monotonic() + TIMEOUT
    while (task := post(url, "tasks/get", {"taskId": created["taskId"]}, tasks))["status"] == "working":
        polls.append(task)
        assert time.monotonic() < deadline, "the task did not finish"
        time.sleep(0.1)
    assert task["status"] == "completed" and polls, "a real task: still working when first polled"
    ordinary = post(url, "tools/call", call, {})  # no extension: the answer itself
    assert "taskId" not in ordinary
    assert without_meta(task["result"]) == without_meta(ordinary)
    assert [row["group"] for row in ordinary["structuredContent"]] == ["Adelie", "Chinstrap", "Gentoo"]


# -- the ordinary call through the SDK's client over stdio ----------------------------------------


@contextlib.asynccontextmanager
async def demo_client(mode: str, errlog: Any) -> AsyncIterator[Client]:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "mcplite", "demo"], env=dict(os.environ)
    )
    client = Client(stdio_client(params, errlog=errlog), mode=mode, read_timeout_seconds=TIMEOUT)  # type: ignore[arg-type]
    with anyio.fail_after(TIMEOUT):
        async with client:
            yield client


@pytest.mark.parametrize("mode", ["legacy", VERSION])
def test_an_sdk_client_gets_the_ordinary_answer(mode: str, raw: pd.DataFrame, tmp_path: Any) -> None:
    arguments = {"column": "bill_depth_mm", "by": "island", "resamples": 20_000, "seed": 3}

    async def main() -> Any:
        with (tmp_path / "stderr.log").open("w", encoding="utf-8") as errlog:
            async with demo_client(mode, errlog) as client:
                return await client.call_tool("bootstrap_mean", arguments)

    result = anyio.run(main)
    assert not result.is_error, result.content
    [block] = result.content
    assert json.loads(block.text) == as_written(by_numpy(raw, "bill_depth_mm", "island", 20_000, 3))
    if mode == VERSION:  # an array is structured content from 2026-07-28 on
        returns = typing.get_type_hints(demo.bootstrap_mean, include_extras=True)["return"]
        jsonschema.validate(result.structured_content, mcplite.output_schema(returns))
        assert result.structured_content == json.loads(block.text)

"""Issue 38's end-to-end check of tasks on Dask: two uvicorn processes (two HTTP workers of one
stateless 2026-07-28 deployment, on two loopback ports) serve tests/servers/dask_fits.py with
``mcplite.DaskTasks`` on a ``LocalCluster`` of two worker processes started here. A 20-second fit
started through one is polled through the other to its result (the ordinary call's answer); a fit
started through the second is cancelled through the first; a worker of the cluster killed
mid-task (``Client.run`` of ``os._exit`` there) fails its task with a clear message, never a hang.
Marked slow (about 30 s); skipped without dask.distributed or uvicorn."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.serving import free_port, loopback_cluster

distributed = pytest.importorskip("distributed")
dask = pytest.importorskip("dask")
pytest.importorskip("uvicorn")

ROOT = Path(__file__).resolve().parent.parent
TASKS: dict[str, Any] = {"extensions": {"io.modelcontextprotocol/tasks": {}}}
PREFIX = "mcplite-task-"  # the key DaskTasks gives a task's future on the cluster
FIT: dict[str, Any] = {"name": "fit", "arguments": {"batches": 20, "seconds_per_batch": 1.0}}  # 20 s


@contextlib.contextmanager
def uvicorn_serving(scheduler: str) -> Iterator[str]:
    """``uvicorn --factory tests.servers.dask_fits:app`` on a free loopback port: its MCP URL."""
    port = free_port()
    env = {
        **os.environ,
        "MCPLITE_TEST_SCHEDULER": scheduler,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    argv = ["--factory", "tests.servers.dask_fits:app", "--host", "127.0.0.1", "--port", str(port)]
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", *argv, "--log-level", "warning"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def up(url: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            post(url, "server/discover", {}, capabilities={})
            return
        except (httpx.TransportError, AssertionError):
            assert time.monotonic() < deadline, f"{url} did not start in {timeout} s"
            time.sleep(0.2)


def post(
    url: str, method: str, params: dict[str, Any], capabilities: dict[str, Any] = TASKS
) -> dict[str, Any]:
    """A 2026-07-28 request over Streamable HTTP (raw: the SDK client does not speak the extension)."""
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    }
    headers = {
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": method,
        "Mcp-Name": str(params.get("name", params.get("taskId", ""))),
    }
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": {**params, "_meta": meta}}
    answer = httpx.post(url, json=body, headers=headers, timeout=10).json()
    assert "result" in answer, answer
    return dict(answer["result"])


def running_on(client: Any, task_id: str, timeout: float = 10) -> str:
    """The address of the cluster's worker running task ``task_id``."""
    deadline = time.monotonic() + timeout
    while True:
        for worker, keys in client.processing().items():
            if PREFIX + task_id in keys:
                return str(worker)
        assert time.monotonic() < deadline, f"task {task_id} never ran on the cluster"
        time.sleep(0.05)


def settled(url: str, task_id: str, timeout: float) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while (state := post(url, "tasks/get", {"taskId": task_id}))["status"] == "working":
        assert time.monotonic() < deadline, f"task {task_id} still working after {timeout} s: {state}"
        time.sleep(0.25)
    return state


def test_fit_polled_through_the_other_worker_cancelled_and_a_killed_worker_fails_the_task() -> None:
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 0}),
        loopback_cluster(n_workers=2, threads_per_worker=1, processes=True) as cluster,
        distributed.Client(cluster, set_as_default=False) as dask_client,
        uvicorn_serving(cluster.scheduler_address) as one,
        uvicorn_serving(cluster.scheduler_address) as other,
    ):
        up(one)
        up(other)
        started = time.monotonic()
        fit = post(one, "tools/call", FIT)
        fit_worker = running_on(dask_client, fit["taskId"])
        doomed = post(other, "tools/call", FIT)  # the other worker of the cluster: it is idle
        doomed_worker = running_on(dask_client, doomed["taskId"])

        # both workers busy: this one waits on the scheduler, and cancelling it drops it there
        dropped = post(other, "tools/call", FIT)
        post(one, "tasks/cancel", {"taskId": dropped["taskId"]})
        cancelled = [post(url, "tasks/get", {"taskId": dropped["taskId"]}) for url in (one, other)]

        killed = time.monotonic()
        dask_client.run(os._exit, 1, workers=[doomed_worker], on_error="return")  # its answer: the lost comm
        failed = settled(one, doomed["taskId"], timeout=15)
        noticed = time.monotonic() - killed
        working = post(other, "tasks/get", {"taskId": fit["taskId"]})

        completed = settled(other, fit["taskId"], timeout=40)
        took = time.monotonic() - started
        ordinary = post(
            other, "tools/call", {**FIT, "arguments": {**FIT["arguments"], "seconds_per_batch": 0}}, {}
        )

    assert fit["resultType"] == "task" and fit["status"] == "working"
    assert fit_worker != doomed_worker
    assert [state["status"] for state in cancelled] == ["cancelled", "cancelled"]
    assert failed["status"] == "failed" and "result" not in failed
    assert failed["error"]["code"] == -32603
    assert "a worker of the Dask cluster died while running tool fit" in failed["error"]["message"]
    assert "died" in failed["statusMessage"] and noticed < 15
    assert working["status"] == "working"  # a worker lost is not the other task's loss
    assert completed["status"] == "completed" and took >= 20
    assert completed["result"]["content"] == ordinary["content"]
    assert json.loads(completed["result"]["content"][0]["text"])["batches"] == 20

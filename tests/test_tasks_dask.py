"""``mcplite.DaskTasks``: task tools run on a Dask ``LocalCluster`` on loopback (threads, one
worker), their state with its scheduler. Two servers connected to it (as two HTTP workers of one
deployment) see each other's tasks; a server made afresh (a restart) still finds a finished result;
a cancelled task stays cancelled; a tool's error is a completed isError result; the result is the
ordinary call's answer. Skipped where dask.distributed is absent."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

import mcplite
from mcplite.testing import Client
from tests.serving import loopback_cluster, served

distributed = pytest.importorskip("distributed")
dask = pytest.importorskip("dask")

TASKS: dict[str, Any] = {"extensions": {"io.modelcontextprotocol/tasks": {}}}


def fit(n: int, seconds: float) -> dict[str, Any]:
    """A fit that takes `seconds`."""
    time.sleep(seconds)
    return {"n": n, "slope": 1 / 3, "converged": True}


def broken() -> str:
    """Always raises."""
    raise mcplite.ToolError("no convergence")


def stepped(seconds: float, ctx: mcplite.Context) -> str:
    """Reports half of its work done, then works `seconds` more."""
    ctx.report_progress(1, 2, "first half fitted")
    time.sleep(seconds)
    return "fitted"


def crash() -> str:
    """Ends the worker process running it."""
    os._exit(1)


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    with loopback_cluster(n_workers=1, threads_per_worker=4, processes=False, protocol="tcp") as cluster:
        yield cluster.scheduler_address


OPENED: list[mcplite.DaskTasks] = []


@pytest.fixture(scope="module", autouse=True)
def close_clients() -> Iterator[None]:
    yield
    while OPENED:
        OPENED.pop().close()


def server_on(address: str) -> mcplite.McpServer:
    tasks = mcplite.DaskTasks(address, ttl_ms=60_000)
    OPENED.append(tasks)
    server = mcplite.McpServer("dask-tasks", tasks=tasks)
    for tool in (fit, broken, crash, stepped):
        server.tool(task="optional")(tool)
    return server


def settled(client: Client, task_id: str, timeout: float = 20) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while (state := client.request("tasks/get", {"taskId": task_id}))["status"] == "working":
        assert time.monotonic() < deadline, state
        time.sleep(0.05)
    return state


def test_a_task_made_by_one_server_is_answered_by_another_and_after_a_restart(address: str) -> None:
    first, second = server_on(address), server_on(address)
    call = {"name": "fit", "arguments": {"n": 3, "seconds": 1.0}}
    with Client(first, capabilities=TASKS) as one, Client(second, capabilities=TASKS) as other:
        task = one.request("tools/call", call)
        assert task["resultType"] == "task"
        assert other.request("tasks/get", {"taskId": task["taskId"]})["status"] == "working"
        state = settled(other, task["taskId"])
    with Client(server_on(address), capabilities=TASKS) as restarted:
        again = restarted.request("tasks/get", {"taskId": task["taskId"]})
    with Client(first) as plain:
        ordinary = plain.request("tools/call", call)
    assert state["status"] == again["status"] == "completed"
    assert state["result"]["content"] == again["result"]["content"] == ordinary["content"]


def test_cancel_and_a_tool_error(address: str) -> None:
    with Client(server_on(address), capabilities=TASKS) as client:
        long = client.request("tools/call", {"name": "fit", "arguments": {"n": 1, "seconds": 2}})
        ack = client.request("tasks/cancel", {"taskId": long["taskId"]})
        assert {k: v for k, v in ack.items() if k != "_meta"} == {"resultType": "complete"}
        assert client.request("tasks/get", {"taskId": long["taskId"]})["status"] == "cancelled"
        failing = client.request("tools/call", {"name": "broken", "arguments": {}})
        state = settled(client, failing["taskId"])
    assert state["status"] == "completed" and state["result"]["isError"] is True
    assert state["result"]["content"][0]["text"] == "no convergence"


def test_progress_on_a_worker_is_the_working_tasks_status_message(address: str) -> None:
    """Read through another server than the one that started the task: it is with the scheduler."""
    with (
        Client(server_on(address), capabilities=TASKS) as one,
        Client(server_on(address), capabilities=TASKS) as other,
    ):
        task = one.request("tools/call", {"name": "stepped", "arguments": {"seconds": 3}})
        deadline = time.monotonic() + 10
        while "statusMessage" not in (state := other.request("tasks/get", {"taskId": task["taskId"]})):
            assert time.monotonic() < deadline and state["status"] == "working", state
            time.sleep(0.05)
        done = settled(one, task["taskId"])
    assert state["status"] == "working" and state["statusMessage"] == "1/2: first half fitted"
    assert done["status"] == "completed" and done["result"]["content"][0]["text"] == "fitted"


def test_a_task_is_private_and_unknown_ids_are_not_found(address: str) -> None:
    with Client(server_on(address), capabilities=TASKS) as client:
        with pytest.raises(Exception, match="no task"):
            client.request("tasks/get", {"taskId": "not-a-task"})
    with Client(server_on(address)) as plain, pytest.raises(Exception, match="tasks"):
        plain.request("tasks/get", {"taskId": "not-a-task"})


def test_a_worker_killed_mid_task_fails_the_task_with_a_clear_message() -> None:
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 0}),
        loopback_cluster(n_workers=1, threads_per_worker=1, processes=True) as cluster,
        Client(server_on(cluster.scheduler_address), capabilities=TASKS) as client,
    ):
        task = client.request("tools/call", {"name": "crash", "arguments": {}})
        state = settled(client, task["taskId"], timeout=30)
    assert state["status"] == "failed" and "result" not in state
    assert state["error"]["code"] == -32603
    assert "a worker of the Dask cluster died while running tool crash" in state["error"]["message"]


def _post(url: str, method: str, params: dict[str, Any]) -> dict[str, Any]:
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": TASKS,
    }
    headers = {
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": method,
        "Mcp-Name": str(params.get("name", params.get("taskId"))),
    }
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": {**params, "_meta": meta}}
    answer = httpx.post(url, json=body, headers=headers, timeout=10).json()
    assert "result" in answer, answer
    return dict(answer["result"])


def test_two_http_workers_share_the_tasks(address: str) -> None:
    """A 1-second fit started through one HTTP server, polled through the other; another started
    through the second and cancelled through the first (two workers of one deployment)."""
    with (
        served(server_on(address).asgi_app(), lifespan="on") as first,
        served(server_on(address).asgi_app(), lifespan="on") as second,
    ):
        one, other = first + "/mcp", second + "/mcp"
        task = _post(one, "tools/call", {"name": "fit", "arguments": {"n": 5, "seconds": 1.0}})
        deadline = time.monotonic() + 20
        while (state := _post(other, "tasks/get", {"taskId": task["taskId"]}))["status"] == "working":
            assert time.monotonic() < deadline
            time.sleep(0.1)
        long = _post(other, "tools/call", {"name": "fit", "arguments": {"n": 5, "seconds": 2.0}})
        _post(one, "tasks/cancel", {"taskId": long["taskId"]})
        cancelled = _post(other, "tasks/get", {"taskId": long["taskId"]})
    with Client(server_on(address)) as plain:
        ordinary = plain.request("tools/call", {"name": "fit", "arguments": {"n": 5, "seconds": 0}})
    assert state["status"] == "completed" and state["result"]["content"] == ordinary["content"]
    assert cancelled["status"] == "cancelled"

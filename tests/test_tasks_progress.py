"""What a running task's progress and log messages become (the 2026-07-28 extension
``io.modelcontextprotocol/tasks`` supports neither notification on tasks; ``statusMessage`` is its
"progress description" of a ``working`` task): progress is the task's ``statusMessage`` as
``tasks/get`` answers it, logs go to the server's log ``mcplite.tasks``.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

import pytest

import mcplite
from mcplite import Context, McpServer
from mcplite.testing import Client

TASKS: dict[str, Any] = {"extensions": {"io.modelcontextprotocol/tasks": {}}}


def make_server(step: threading.Event, stepped: threading.Event) -> McpServer:
    server = McpServer("progress-test", tasks=mcplite.TaskStore(ttl_ms=10_000))

    @server.tool(task="optional")
    def fit(batches: int, ctx: Context) -> int:
        """Fits `batches` batches, one each time the test lets it (and once more to end), reporting each."""
        for batch in range(1, batches + 1):
            assert step.wait(5), "the test never let the fit go on"
            step.clear()
            ctx.report_progress(batch, batches, f"batch {batch} fitted")
            ctx.warning(f"batch {batch}: slow convergence")
            stepped.set()
        assert step.wait(5), "the test never let the fit finish"
        return batches

    return server


def wait_status(client: Client, task_id: str, wanted: str) -> dict[str, Any]:
    deadline = time.monotonic() + 5
    while (state := client.request("tasks/get", {"taskId": task_id}))["status"] != wanted:
        assert time.monotonic() < deadline, f"task {task_id} is {state['status']}, not {wanted}"
        time.sleep(0.01)
    return state


def test_progress_is_the_working_tasks_status_message_and_logs_go_to_the_server_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    step, stepped = threading.Event(), threading.Event()
    caplog.set_level(logging.WARNING, logger="mcplite.tasks")
    with Client(make_server(step, stepped), capabilities=TASKS) as client:
        task = client.request("tools/call", {"name": "fit", "arguments": {"batches": 2}})
        assert "statusMessage" not in wait_status(client, task["taskId"], "working")
        seen = []
        for _ in range(2):
            step.set()
            assert stepped.wait(5)
            stepped.clear()
            seen.append(client.request("tasks/get", {"taskId": task["taskId"]}))
        step.set()
        done = wait_status(client, task["taskId"], "completed")
    assert [state["status"] for state in seen] == ["working", "working"]
    assert [state["statusMessage"] for state in seen] == ["1/2: batch 1 fitted", "2/2: batch 2 fitted"]
    assert seen[0]["lastUpdatedAt"] <= seen[1]["lastUpdatedAt"]
    assert done["result"]["content"][0]["text"] == "2"
    logged = [r for r in caplog.records if r.name == "mcplite.tasks"]
    assert [r.levelno for r in logged] == [logging.WARNING, logging.WARNING]
    assert task["taskId"] in logged[0].getMessage()
    assert logged[1].getMessage().endswith("batch 2: slow convergence")

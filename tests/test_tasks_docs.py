"""docs/tasks.md's data-science server (the ``bootstrap_server.py`` fence) run as tasks in process:
a task's result is the ordinary call's answer, a large bootstrap is cancelled between batches, and
the asking tool goes on as a task after its round."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import mcplite
from mcplite.testing import Client

PAGE = Path(__file__).parent.parent / "docs" / "tasks.md"
TASKS: dict[str, Any] = {"extensions": {"io.modelcontextprotocol/tasks": {}}}


def page_server() -> mcplite.McpServer:
    [code] = re.findall(r'```python title="bootstrap_server.py"\n(.*?)```', PAGE.read_text("utf-8"), re.S)
    namespace: dict[str, Any] = {"__name__": "bootstrap_server"}
    exec(compile(code, "bootstrap_server.py", "exec"), namespace)
    server = namespace["server"]
    assert isinstance(server, mcplite.McpServer)
    return server


def settled(client: Client, task_id: str, timeout: float = 20) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while (state := client.request("tasks/get", {"taskId": task_id}))["status"] in (
        "working",
        "input_required",
    ):
        assert time.monotonic() < deadline, state
        time.sleep(0.05)
    return state


def test_the_bootstrap_as_a_task_answers_what_the_call_answers() -> None:
    server = page_server()
    call = {"name": "bootstrap_slope", "arguments": {"resamples": 600, "seed": 7}}
    with Client(server, capabilities=TASKS) as client:
        task = client.request("tools/call", call)
        state = settled(client, task["taskId"])
    with Client(server) as client:
        ordinary = client.request("tools/call", call)
    assert task["resultType"] == "task" and state["status"] == "completed"
    assert state["result"]["structuredContent"] == ordinary["structuredContent"]
    assert state["result"]["content"] == ordinary["content"]
    found = ordinary["structuredContent"]
    assert found["lower"] < found["slope"] < found["upper"] and found["resamples"] == 600


def test_a_large_bootstrap_is_cancelled_between_batches() -> None:
    with Client(page_server(), capabilities=TASKS) as client:
        task = client.request(
            "tools/call", {"name": "bootstrap_slope", "arguments": {"resamples": 10_000_000}}
        )
        started = time.monotonic()
        client.request("tasks/cancel", {"taskId": task["taskId"]})
        assert settled(client, task["taskId"])["status"] == "cancelled"
        assert time.monotonic() - started < 5


def test_the_asking_tool_goes_on_as_a_task() -> None:
    with Client(page_server(), capabilities={"elicitation": {}, **TASKS}) as client:
        first = client.request("tools/call", {"name": "bootstrap_slope_asking", "arguments": {}})
        answer = {"resamples": {"action": "accept", "content": {"resamples": 500}}}
        again = {"inputResponses": answer, "requestState": first["requestState"]}
        task = client.request("tools/call", {"name": "bootstrap_slope_asking", "arguments": {}, **again})
        state = settled(client, task["taskId"])
    assert (first["resultType"], task["resultType"], state["status"]) == (
        "input_required",
        "task",
        "completed",
    )
    assert state["result"]["structuredContent"]["resamples"] == 500

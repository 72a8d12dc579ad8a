"""Tasks (``io.modelcontextprotocol/tasks``, 2026-07-28) end to end over Streamable HTTP on loopback:
a call of a 1-second tool answers at once with a task, which is polled, answered, cancelled and
expires as the extension says. The official SDK client does not speak this extension (its task
types are 2025-11-25's), so requests are raw HTTP; results are read with the SDK's own
``CallToolResult``, and a task's result is held to the ordinary call's answer of the same tool.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import mcp_types as types
import pytest

import mcplite
from mcplite import Context, McpServer, ToolError
from tests.serving import served

VERSION = "2026-07-28"
TASKS = "io.modelcontextprotocol/tasks"
WITH_TASKS: dict[str, Any] = {"elicitation": {}, "extensions": {TASKS: {}}}
ids = itertools.count(1)
stopped = threading.Event()  # set by a fit that saw its task cancelled
go_on = threading.Event()  # lets `halves` report its progress


def make_server() -> McpServer:
    server = McpServer("tasks-test", tasks=mcplite.TaskStore(max_per_owner=8, ttl_ms=2_000))

    @server.tool(task="optional")
    def fit(n: int, seconds: float, ctx: Context) -> dict[str, Any]:
        """Fits for `seconds` seconds (stopping when cancelled), then reports the fit."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if ctx.cancelled:
                stopped.set()
                ctx.check_cancelled()
            time.sleep(0.02)
        return {"n": n, "slope": 1 / 3, "intercept": 2.5e-8, "converged": True}

    @server.tool(task="optional")
    async def wait(seconds: float) -> str:
        """Waits on the event loop."""
        await asyncio.sleep(seconds)
        return f"waited {seconds:g} s"

    @server.tool(task="optional")
    def confirm(filename: str, ctx: Context) -> str:
        """Asks before deleting (nothing)."""
        schema = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
        answer = ctx.elicit(f"Delete {filename}?", schema)
        return f"{filename}: ok={answer.content['ok']}"

    @server.tool(task="optional")
    def twice(ctx: Context) -> str:
        """Asks the same question (the same key) twice."""
        schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
        first = ctx.elicit("A number?", schema, key="number")
        second = ctx.elicit("Another number?", schema, key="number")
        return f"{first.content['n']},{second.content['n']}"

    @server.tool(task="optional")
    def halves(ctx: Context) -> str:
        """Reports half of its work done once the test lets it, then finishes."""
        assert go_on.wait(5), "the test never let it go on"
        ctx.report_progress(1, 2, "first half")
        time.sleep(0.3)
        return "both halves"

    @server.tool(task="required")
    def batch() -> str:
        """Only as a task."""
        raise ToolError("the batch failed")

    @server.tool(task="optional")
    async def needs_sampling_tools(ctx: Context) -> str:
        """Asks what the client did not declare."""
        tools = [{"name": "t", "inputSchema": {"type": "object"}}]
        return (await ctx.sample("pick", max_tokens=5, tools=tools)).text

    @server.tool
    async def stepwise(ctx: Context) -> Any:
        """Asks a name in a round, then goes on as a task."""
        name = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
        answer = await ctx.elicit("Name?", name, key="name")
        return mcplite.continue_as_task(lambda who: f"Hello, {who}!", answer.content["name"])

    return server


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    tokens = {"alice", "mallory", "busy", "other"}
    with served(make_server().asgi_app(authenticate=lambda token: token in tokens), lifespan="on") as base:
        yield base + "/mcp"


def post(
    url: str,
    method: str,
    params: dict[str, Any],
    capabilities: dict[str, Any] | None = None,
    token: str = "alice",
) -> dict[str, Any]:
    meta = {
        "io.modelcontextprotocol/protocolVersion": VERSION,
        "io.modelcontextprotocol/clientCapabilities": WITH_TASKS if capabilities is None else capabilities,
    }
    body = {"jsonrpc": "2.0", "id": next(ids), "method": method, "params": {**params, "_meta": meta}}
    headers = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": VERSION}
    headers["Mcp-Method"] = method
    name = params.get("name", params.get("taskId"))
    if name is not None:
        headers["Mcp-Name"] = name
    headers["Authorization"] = f"Bearer {token}"
    response = httpx.post(url, json=body, headers=headers, timeout=10)
    assert response.status_code in (200, 400), response.text
    return dict(response.json())


def result(url: str, method: str, params: dict[str, Any], **options: Any) -> dict[str, Any]:
    answer = post(url, method, params, **options)
    assert "result" in answer, answer
    return dict(answer["result"])


def get(url: str, task_id: str, **options: Any) -> dict[str, Any]:
    return result(url, "tasks/get", {"taskId": task_id}, **options)


def until(url: str, task_id: str, statuses: set[str], timeout: float = 5.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        task = get(url, task_id)
        if task["status"] in statuses or time.monotonic() > deadline:
            return task
        time.sleep(0.05)


def without_meta(found: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in found.items() if k != "_meta"}


def test_a_long_fit_is_a_task_whose_result_is_the_ordinary_answer(url: str) -> None:
    arguments = {"name": "fit", "arguments": {"n": 40, "seconds": 1.0}}
    started = time.monotonic()
    created = result(url, "tools/call", arguments)
    assert time.monotonic() - started < 0.5  # answered at once, not after the fit
    assert created["resultType"] == "task" and created["status"] == "working"
    assert isinstance(created["ttlMs"], int) and isinstance(created["pollIntervalMs"], int)
    assert get(url, created["taskId"])["status"] == "working"
    done = until(url, created["taskId"], {"completed", "failed", "cancelled"})
    assert done["status"] == "completed" and done["resultType"] == "complete"
    inline = types.CallToolResult.model_validate(done["result"])
    ordinary = result(url, "tools/call", arguments, capabilities={})  # no extension: the answer itself
    assert "taskId" not in ordinary
    assert without_meta(done["result"]) == without_meta(ordinary)
    assert inline.content[0].text == ordinary["content"][0]["text"]  # type: ignore[union-attr]  # jsonlite's text


def test_an_async_tool_runs_as_a_task_on_the_loop(url: str) -> None:
    created = result(url, "tools/call", {"name": "wait", "arguments": {"seconds": 0.3}})
    done = until(url, created["taskId"], {"completed"})
    assert types.CallToolResult.model_validate(done["result"]).content[0].text == "waited 0.3 s"  # type: ignore[union-attr]


def test_cancelling_stops_the_tool_and_the_task_stays_cancelled(url: str) -> None:
    stopped.clear()
    created = result(url, "tools/call", {"name": "fit", "arguments": {"n": 1, "seconds": 30}})
    time.sleep(0.1)
    ack = result(url, "tasks/cancel", {"taskId": created["taskId"]})
    assert without_meta(ack) == {"resultType": "complete"}
    assert stopped.wait(2), "the tool did not see its cancellation"
    time.sleep(0.1)
    task = get(url, created["taskId"])
    assert task["status"] == "cancelled" and "result" not in task
    assert without_meta(result(url, "tasks/cancel", {"taskId": created["taskId"]})) == {
        "resultType": "complete"
    }


def test_a_question_waits_in_input_required_until_tasks_update(url: str) -> None:
    created = result(url, "tools/call", {"name": "confirm", "arguments": {"filename": "a.csv"}})
    waiting = until(url, created["taskId"], {"input_required"})
    assert waiting["status"] == "input_required"
    [(key, asked)] = waiting["inputRequests"].items()
    assert asked["method"] == "elicitation/create"
    types.ElicitRequestFormParams.model_validate(asked["params"])
    answer = types.ElicitResult(action="accept", content={"ok": True})
    ack = result(
        url,
        "tasks/update",
        {"taskId": created["taskId"], "inputResponses": {key: answer.model_dump(mode="json", by_alias=True)}},
    )
    assert without_meta(ack) == {"resultType": "complete"}
    done = until(url, created["taskId"], {"completed"})
    assert done["result"]["content"][0]["text"] == "a.csv: ok=True"


def test_a_key_is_never_reused_within_a_task(url: str) -> None:
    created = result(url, "tools/call", {"name": "twice", "arguments": {}})
    keys = []
    for n in (1, 2):
        waiting = until(url, created["taskId"], {"input_required"})
        [key] = waiting["inputRequests"]
        while key in keys:  # the first answer may not have been taken up yet
            time.sleep(0.02)
            [key] = until(url, created["taskId"], {"input_required"})["inputRequests"]
        keys.append(key)
        answer = types.ElicitResult(action="accept", content={"n": n}).model_dump(mode="json", by_alias=True)
        result(url, "tasks/update", {"taskId": created["taskId"], "inputResponses": {key: answer}})
    assert keys[0] == "number" and keys[1] != "number"
    assert until(url, created["taskId"], {"completed"})["result"]["content"][0]["text"] == "1,2"


def test_a_task_is_private_to_its_token_and_to_clients_of_the_extension(url: str) -> None:
    created = result(url, "tools/call", {"name": "wait", "arguments": {"seconds": 0.1}}, token="alice")
    assert get(url, created["taskId"], token="alice")["taskId"] == created["taskId"]
    foreign = post(url, "tasks/get", {"taskId": created["taskId"]}, token="mallory")
    assert foreign["error"]["code"] == -32602
    plain = post(url, "tasks/get", {"taskId": created["taskId"]}, capabilities={}, token="alice")
    assert plain["error"]["code"] == -32021
    assert plain["error"]["data"] == {"requiredCapabilities": {"extensions": {TASKS: {}}}}


def test_a_required_task_tool_refuses_a_client_without_the_extension(url: str) -> None:
    refused = post(url, "tools/call", {"name": "batch", "arguments": {}}, capabilities={})
    assert refused["error"]["code"] == -32021
    assert refused["error"]["data"]["requiredCapabilities"]["extensions"] == {TASKS: {}}
    created = result(url, "tools/call", {"name": "batch", "arguments": {}})
    done = until(url, created["taskId"], {"completed", "failed"})
    assert done["status"] == "completed" and done["result"]["isError"] is True  # a tool error, not failed


def test_a_protocol_error_fails_the_task_with_the_error(url: str) -> None:
    created = result(url, "tools/call", {"name": "needs_sampling_tools", "arguments": {}})
    done = until(url, created["taskId"], {"completed", "failed"})
    assert done["status"] == "failed" and "result" not in done
    assert "Missing required client capability" in done["statusMessage"]
    assert done["error"]["code"] == -32021
    assert done["error"]["data"] == {"requiredCapabilities": {"sampling": {"tools": {}}}}


def test_a_tool_goes_on_as_a_task_after_its_input_required_round(url: str) -> None:
    first = result(url, "tools/call", {"name": "stepwise", "arguments": {}})
    assert first["resultType"] == "input_required" and "taskId" not in first
    answer = types.ElicitResult(action="accept", content={"name": "Ada"}).model_dump(
        mode="json", by_alias=True
    )
    again = {"name": "stepwise", "arguments": {}, "inputResponses": {"name": answer}}
    created = result(url, "tools/call", {**again, "requestState": first["requestState"]})
    assert created["resultType"] == "task" and "requestState" not in created
    done = until(url, created["taskId"], {"completed"})
    assert done["result"]["content"][0]["text"] == "Hello, Ada!"
    plain = result(
        url, "tools/call", {**again, "requestState": first["requestState"]}, capabilities={"elicitation": {}}
    )
    assert plain["content"][0]["text"] == "Hello, Ada!"  # no extension: the same answer at once


def test_limits_per_client_and_time_to_live(url: str) -> None:
    made = [
        result(url, "tools/call", {"name": "wait", "arguments": {"seconds": 0}}, token="busy")["taskId"]
        for _ in range(8)
    ]
    refused = post(url, "tools/call", {"name": "wait", "arguments": {"seconds": 0}}, token="busy")
    assert refused["error"]["code"] == -32600 and "8" in refused["error"]["message"]
    assert "result" in post(url, "tools/call", {"name": "wait", "arguments": {"seconds": 0}}, token="other")
    time.sleep(2.2)  # the store's ttl_ms: the finished tasks are gone, and room is made
    assert post(url, "tasks/get", {"taskId": made[0]}, token="busy")["error"]["code"] == -32602
    assert "result" in post(url, "tools/call", {"name": "wait", "arguments": {"seconds": 0}}, token="busy")


def test_a_legacy_session_gets_ordinary_answers_and_no_task_methods(url: str) -> None:
    headers = {
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
        "Authorization": "Bearer alice",
    }
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
    }
    with httpx.Client(timeout=10) as client:
        opened = client.post(url, json=init, headers=headers)
        session = {**headers, "MCP-Protocol-Version": "2025-11-25"}
        if "mcp-session-id" in opened.headers:
            session["Mcp-Session-Id"] = opened.headers["mcp-session-id"]
        client.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=session)
        call = {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "wait", "arguments": {"seconds": 0}},
        }
        answered = client.post(url, json=call, headers=session)
        assert _json(answered)["result"]["content"][0]["text"] == "waited 0 s"
        asked = {"jsonrpc": "2.0", "id": 3, "method": "tasks/get", "params": {"taskId": "x"}}
        assert _json(client.post(url, json=asked, headers=session))["error"]["code"] == -32601


def _json(response: httpx.Response) -> dict[str, Any]:
    """The one JSON-RPC message of a response, sent as JSON or as one SSE event."""
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        data = [line[5:].strip() for line in response.text.splitlines() if line.startswith("data:")]
        return dict(json.loads(data[-1]))
    return dict(response.json())


def listen_for(url: str, task_ids: list[str], heard: list[dict[str, Any]]) -> None:
    """``subscriptions/listen`` for ``task_ids`` over HTTP: every SSE message into ``heard`` until a
    task's terminal status arrives (then the client closes the stream, ending the listen)."""
    meta = {
        "io.modelcontextprotocol/protocolVersion": VERSION,
        "io.modelcontextprotocol/clientCapabilities": WITH_TASKS,
    }
    body = {
        "jsonrpc": "2.0",
        "id": "listen-1",
        "method": "subscriptions/listen",
        "params": {"notifications": {"taskIds": task_ids}, "_meta": meta},
    }
    headers = {
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": VERSION,
        "Mcp-Method": "subscriptions/listen",
        "Authorization": "Bearer alice",
    }
    with httpx.stream("POST", url, json=body, headers=headers, timeout=10) as response:
        for line in response.iter_lines():
            if line.startswith("data:"):
                heard.append(json.loads(line[5:]))
                if heard[-1].get("params", {}).get("status") in ("completed", "failed", "cancelled"):
                    return


def test_a_listen_hears_a_watched_tasks_status_changes(url: str) -> None:
    created = result(url, "tools/call", {"name": "confirm", "arguments": {"filename": "b.csv"}})
    heard: list[dict[str, Any]] = []
    listener = threading.Thread(target=listen_for, args=(url, [created["taskId"], "not-mine"], heard))
    listener.start()
    try:
        waiting = until(url, created["taskId"], {"input_required"})
        deadline = time.monotonic() + 5
        while not any(m.get("method") == "notifications/subscriptions/acknowledged" for m in heard):
            assert time.monotonic() < deadline, heard
            time.sleep(0.02)
        [key] = waiting["inputRequests"]
        answer = types.ElicitResult(action="accept", content={"ok": False}).model_dump(
            mode="json", by_alias=True
        )
        result(url, "tasks/update", {"taskId": created["taskId"], "inputResponses": {key: answer}})
        done = until(url, created["taskId"], {"completed"})
        while not any(m.get("params", {}).get("status") == "completed" for m in heard):
            assert time.monotonic() < deadline + 5, heard
            time.sleep(0.02)
    finally:
        listener.join(10)
    assert not listener.is_alive()
    acknowledged = next(m for m in heard if m.get("method") == "notifications/subscriptions/acknowledged")
    assert acknowledged["params"]["notifications"] == {"taskIds": [created["taskId"]]}  # not another's id
    told = [m["params"] for m in heard if m.get("method") == "notifications/tasks"]
    assert [t["status"] for t in told][-2:] == ["working", "completed"]
    assert without_meta(told[-1]["result"]) == without_meta(done["result"])
    assert {k: v for k, v in told[-1].items() if k not in ("result", "_meta")} == {
        k: v for k, v in done.items() if k not in ("result", "_meta", "resultType")
    }


def test_a_listen_hears_a_watched_tasks_progress_as_its_status_message(url: str) -> None:
    go_on.clear()
    created = result(url, "tools/call", {"name": "halves", "arguments": {}})
    heard: list[dict[str, Any]] = []
    listener = threading.Thread(target=listen_for, args=(url, [created["taskId"]], heard))
    listener.start()
    try:
        deadline = time.monotonic() + 5
        while not any(m.get("method") == "notifications/subscriptions/acknowledged" for m in heard):
            assert time.monotonic() < deadline, heard
            time.sleep(0.02)
        go_on.set()
        done = until(url, created["taskId"], {"completed"})
    finally:
        listener.join(10)
    assert not listener.is_alive()
    told = [m["params"] for m in heard if m.get("method") == "notifications/tasks"]
    assert [(t["status"], t.get("statusMessage")) for t in told] == [
        ("working", "1/2: first half"),
        ("completed", None),
    ]
    assert not [m for m in heard if m.get("method") in ("notifications/progress", "notifications/message")]
    assert done["result"]["content"][0]["text"] == "both halves"


def test_a_listen_for_tasks_needs_the_extension(url: str) -> None:
    refused = post(url, "subscriptions/listen", {"notifications": {"taskIds": ["x"]}}, capabilities={})
    assert refused["error"]["code"] == -32021

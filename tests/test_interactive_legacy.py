"""Legacy sessions: what ends a tool's wait for the client (its answer, an error answer, the
server's ``ask_timeout``, ``notifications/cancelled``), driven through one engine connection as
stdio drives it (messages in, lines out).
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import mcplite
from mcplite.engine.connection import Connection

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {"elicitation": {}},
        "clientInfo": {"name": "test", "version": "1"},
    },
}
SCHEMA = {"type": "object", "properties": {"ok": {"type": "boolean"}}}


def make_server(ended: list[BaseException], done: threading.Event) -> mcplite.McpServer:
    server = mcplite.McpServer("legacy-asks", ask_timeout=0.5)

    @server.tool
    def confirm(ctx: mcplite.Context) -> str:
        """A sync tool waiting for the user in its worker thread."""
        try:
            return f"ok={ctx.elicit('Go?', SCHEMA).content['ok']}"
        except mcplite.AskError as err:
            ended.append(err)
            raise
        finally:
            done.set()

    @server.tool
    async def confirm_async(ctx: mcplite.Context) -> str:
        answer = await ctx.elicit("Go?", SCHEMA)
        return f"ok={answer.content['ok']}"

    return server


class Session:
    """One connection and the lines it wrote, decoded."""

    def __init__(self, server: mcplite.McpServer) -> None:
        self.lines: list[dict[str, Any]] = []
        self.connection = Connection(server.engine, lambda line: self.lines.append(json.loads(line)))

    def send(self, message: dict[str, Any]) -> None:
        self.connection.receive(json.dumps(message).encode())

    async def next(self, where: Any, timeout: float = 5.0) -> dict[str, Any]:
        async with asyncio.timeout(timeout):
            while True:
                for line in self.lines:
                    if where(line):
                        self.lines.remove(line)
                        return line
                await asyncio.sleep(0.01)

    async def asked(self) -> dict[str, Any]:
        return await self.next(lambda line: line.get("method") == "elicitation/create")

    async def cancelled(self) -> Any:
        """The request id of the next ``notifications/cancelled`` the server sent."""
        line = await self.next(lambda line: line.get("method") == "notifications/cancelled")
        return line["params"]["requestId"]

    async def answer(self, request_id: int) -> dict[str, Any]:
        return await self.next(lambda line: line.get("id") == request_id and "method" not in line)


def call(request_id: int, tool: str) -> dict[str, Any]:
    params = {"name": tool, "arguments": {}}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


def result_text(line: dict[str, Any]) -> tuple[bool, str]:
    result = line["result"]
    return bool(result.get("isError")), str(result["content"][0]["text"])


def test_the_answer_error_and_timeout_each_end_the_wait() -> None:
    ended: list[BaseException] = []

    async def main() -> None:
        session = Session(make_server(ended, threading.Event()))
        session.send(INITIALIZE)
        await session.answer(1)
        for number, tool in enumerate(["confirm", "confirm_async"], start=2):
            session.send(call(number, tool))
            ask = await session.asked()
            session.send(
                {"jsonrpc": "2.0", "id": ask["id"], "result": {"action": "accept", "content": {"ok": True}}}
            )
            assert result_text(await session.answer(number)) == (False, "ok=True")
        session.send(call(10, "confirm_async"))
        ask = await session.asked()
        refusal = {"code": -32601, "message": "no elicitation here"}
        session.send({"jsonrpc": "2.0", "id": ask["id"], "error": refusal})
        failed, text = result_text(await session.answer(10))
        assert failed and "answered with error -32601: no elicitation here" in text
        session.send(call(11, "confirm"))
        ask = await session.asked()  # and never answered
        failed, text = result_text(await session.answer(11))
        assert failed and "did not answer elicitation/create within 0.5 s (the server's ask_timeout)" in text
        # the client is told it may stop working on the ask
        assert await session.cancelled() == ask["id"]
        # a late or unknown response is ignored
        session.send({"jsonrpc": "2.0", "id": 999, "result": {}})
        await asyncio.sleep(0.05)
        assert session.lines == []

    asyncio.run(main())


def test_cancelling_the_call_ends_a_sync_tools_wait_and_sends_nothing() -> None:
    ended: list[BaseException] = []
    done = threading.Event()

    async def main() -> None:
        session = Session(make_server(ended, done))
        session.send(INITIALIZE)
        await session.answer(1)
        session.send(call(2, "confirm"))
        ask = await session.asked()
        cancel = {"requestId": 2, "reason": "user stopped it"}
        session.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": cancel})
        assert await asyncio.to_thread(done.wait, 2.0)  # well before the 0.5 s timeout's message
        assert "cancelled" in str(ended[0])
        assert await session.cancelled() == ask["id"]  # the server's own request is cancelled too
        # the ask is forgotten: a response now resolves nothing, and the call is never answered
        session.send({"jsonrpc": "2.0", "id": ask["id"], "result": {"action": "accept", "content": {}}})
        await asyncio.sleep(0.7)
        assert session.lines == []

    asyncio.run(main())

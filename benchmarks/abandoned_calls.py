"""Abandoned calls and blocking calls over stateless HTTP (issue 25), on loopback.

1. ``N`` clients of a 0.2 s sync tool hang up after 50 ms; then one more call is timed.
2. 60 concurrent calls to a 0.5 s blocking sync tool, timed as a whole.

Run: ``python benchmarks/abandoned_calls.py [N]`` (default 300).
"""

from __future__ import annotations

import asyncio
import json
import socket
import sys
import threading
import time

import httpx
import uvicorn

import mcplite

META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}
HEADERS = {
    "accept": "application/json, text/event-stream",
    "content-type": "application/json",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
}


def call(request_id: int, name: str) -> dict[str, object]:
    params = {"name": name, "arguments": {}, "_meta": META}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


server = mcplite.McpServer("bench")


@server.tool
def slow() -> str:
    """Sleep 0.2 s."""
    time.sleep(0.2)
    return "ok"


@server.tool
def block() -> str:
    """Sleep 0.5 s."""
    time.sleep(0.5)
    return "ok"


async def hang_up(port: int, body: bytes) -> None:
    _reader, writer = await asyncio.open_connection("127.0.0.1", port)
    fields = "".join(f"{k}: {v}\r\n" for k, v in {**HEADERS, "mcp-name": "slow"}.items())
    writer.write(
        f"POST /mcp HTTP/1.1\r\nhost: x\r\ncontent-length: {len(body)}\r\n{fields}\r\n".encode() + body
    )
    await writer.drain()
    await asyncio.sleep(0.05)
    writer.close()


async def blocking(url: str) -> float:
    async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=100)) as http:
        began = time.monotonic()
        answers = await asyncio.gather(
            *(
                http.post(url, json=call(i, "block"), headers={**HEADERS, "mcp-name": "block"})
                for i in range(60)
            )
        )
        assert all(a.status_code == 200 for a in answers)
        return time.monotonic() - began


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    runner = uvicorn.Server(uvicorn.Config(server.asgi_app(), port=port, log_level="error", lifespan="off"))
    threading.Thread(target=runner.run, daemon=True).start()
    while not runner.started:
        time.sleep(0.01)
    url = f"http://127.0.0.1:{port}/mcp"

    async def abandon() -> None:
        await asyncio.gather(*(hang_up(port, json.dumps(call(i, "slow")).encode()) for i in range(count)))

    asyncio.run(abandon())
    began = time.monotonic()
    httpx.post(url, json=call(0, "slow"), headers={**HEADERS, "mcp-name": "slow"}, timeout=120)
    print(f"next call after {count} abandoned: {time.monotonic() - began:.2f} s")
    time.sleep(1)
    print(f"60 blocking 0.5 s calls: {asyncio.run(blocking(url)):.2f} s (workers: {server.workers._size})")
    runner.should_exit = True


if __name__ == "__main__":
    main()

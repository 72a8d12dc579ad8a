"""The ASGI types the HTTP transport speaks, and the one way it waits for a client to go away.

>>> import asyncio
>>> async def main() -> bool:
...     messages = iter([{"type": "http.request"}, {"type": "http.disconnect"}])
...     async def receive() -> Message:
...         return next(messages)
...     gone = asyncio.Event()
...     await wait_for_disconnect(receive, gone)
...     return gone.is_set()
>>> asyncio.run(main())
True
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


async def wait_for_disconnect(receive: Receive, gone: asyncio.Event) -> None:
    """Set ``gone`` once the client goes away (once the request body has been read, what else
    arrives only says that)."""
    with contextlib.suppress(Exception):  # some servers raise once the connection is gone
        while (await receive())["type"] != "http.disconnect":
            pass
    gone.set()

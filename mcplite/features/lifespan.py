"""A server's lifespan: an async context manager entered once when a transport starts serving and
left when it stops; what it yields is ``ctx.lifespan_state`` in every tool, resource and prompt.

Transports in one process share one entry: the context manager is entered by the first to
start and left by the last to stop.

>>> import asyncio, contextlib
>>> @contextlib.asynccontextmanager
... async def load(server):
...     yield {"rows": 3}
>>> lifespan = Lifespan(load)
>>> async def serve():
...     await lifespan.start()
...     state = lifespan.state
...     await lifespan.stop()
...     return state, lifespan.state
>>> asyncio.run(serve())
({'rows': 3}, None)
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from mcplite.protocol.checks import shown

LifespanFactory = Callable[[Any], contextlib.AbstractAsyncContextManager[Any]]
"""``lifespan(server)``: an async context manager (``@contextlib.asynccontextmanager``)."""


class Lifespan:
    """The lifespan of one server: ``factory(target)`` entered by :meth:`start`, left by :meth:`stop`."""

    def __init__(self, factory: LifespanFactory | None = None, target: Any = None) -> None:
        if factory is not None and not callable(factory):
            raise TypeError(
                "McpServer: lifespan must be a function returning an async context manager, "
                f"not {shown(factory)}"
            )
        self.factory = factory
        self.target = target
        self.state: Any = None
        self._entered: contextlib.AbstractAsyncContextManager[Any] | None = None
        self._users = 0

    @property
    def running(self) -> bool:
        return self._entered is not None

    async def start(self) -> None:
        """Enter the lifespan (the first transport to start does; the others share it)."""
        if self.factory is None:
            return
        self._users += 1
        if self._users > 1:
            return
        manager = self.factory(self.target)
        if not hasattr(manager, "__aenter__"):
            self._users -= 1
            raise TypeError(f"lifespan: {shown(manager)} is not an async context manager")
        try:
            self.state = await manager.__aenter__()
        except BaseException:
            self._users -= 1
            raise
        self._entered = manager

    async def stop(self) -> None:
        """Leave the lifespan once the last transport that started it stops."""
        if self.factory is None:
            return
        self._users = max(0, self._users - 1)
        if self._users or self._entered is None:
            return
        manager, self._entered = self._entered, None
        try:
            await manager.__aexit__(None, None, None)
        finally:
            self.state = None

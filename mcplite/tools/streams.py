"""How a running call reaches the stream its answer goes out on: the transport sets
:data:`STREAM_CLOSER` for the task that serves a request whose stream can be closed and resumed
(Streamable HTTP at 2025-11-25, SEP-1699); :meth:`mcplite.Context.close_sse_stream` calls it.

>>> STREAM_CLOSER.get() is None
True
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable

STREAM_CLOSER: contextvars.ContextVar[Callable[[], None] | None] = contextvars.ContextVar(
    "mcplite_stream_closer", default=None
)
"""Ends the current request's SSE response early (thread-safe); None where the stream cannot resume."""

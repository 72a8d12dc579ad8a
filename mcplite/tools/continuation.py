""":func:`continue_as_task`: what a tool returns to go on as a task (2026-07-28, the tasks
extension) once it has what it needed from the client, typically after its ``ctx.elicit`` rounds.

A client that declared ``io.modelcontextprotocol/tasks`` gets a task for the rest of the work (a
``CreateTaskResult``, then ``tasks/get``); any other client gets its result in the same answer, as
if the tool had returned ``function(*args, **kwargs)`` itself.

>>> later = continue_as_task(sum, [1, 2, 3])
>>> later.function(*later.args, **later.kwargs)
6
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import attrs


@attrs.frozen
class Continuation:
    """The rest of a tool's work: ``function(*args, **kwargs)`` (sync, run in the server's workers,
    or async, run on its event loop); its value is sent as the tool's own would be."""

    function: Callable[..., Any]
    args: tuple[Any, ...]
    kwargs: dict[str, Any]

    @property
    def is_async(self) -> bool:
        return inspect.iscoroutinefunction(self.function)


def continue_as_task(function: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Continuation:
    """Return this from a tool to run ``function(*args, **kwargs)`` as a task when the client
    speaks tasks (and at once otherwise)."""
    if not callable(function):
        raise TypeError(
            f"continue_as_task: the rest of the work is a function, not {type(function).__name__}"
        )
    return Continuation(function, args, kwargs)

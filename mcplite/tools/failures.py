"""What a client is told when something fails. :class:`PublicError`: how a tool, resource, prompt or
completion sends the client a message meant for it (:class:`ToolError` is the tools' own).

Any other exception they raise is unexpected: the client gets a generic message naming the tool,
resource, prompt or completion (unless the server was made with ``mask_error_details=False``), and
the detail goes to the server's log, since exception messages can hold what a client must not see
(paths, hosts, passwords).

>>> import mcplite
>>> server = mcplite.McpServer("weather")
>>> @server.tool
... def forecast(station: str) -> str:
...     '''The forecast at a station.'''
...     raise mcplite.ToolError(f"no station called {station!r}; try 'KSFO'")
>>> @server.prompt
... def brief(station: str) -> str:
...     '''Brief the pilot.'''
...     raise mcplite.PublicError(f"no briefing for {station!r} today")

What a call's arguments got wrong is an :class:`ArgumentError` for the caller, an :class:`Invalid`
on the way up.

A structure hook raises :class:`Invalid` where a value does not fit; each level above adds its
step to the path, and the binder turns it into one :class:`ArgumentError` naming the argument:

>>> Invalid("expected an integer, got 'x' (str)").under(2).under("rows").error("table").path
'table.rows[2]'
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from mcplite.protocol.checks import cut, quoted
from rvalues.model.elements import INT_MAX

log = logging.getLogger("mcplite.server")


def error_text(error: BaseException) -> str:
    """An exception's message and then its notes (``add_note``: which column, what to do), one a line.

    >>> err = ValueError("cannot write it")
    >>> err.add_note("while writing column 'gap'")
    >>> print(error_text(err))
    cannot write it
    while writing column 'gap'
    """
    notes = [note for note in getattr(error, "__notes__", ()) if isinstance(note, str)]
    return "\n".join([str(error), *notes])


class PublicError(Exception):
    """An error whose message is sent to the client as it is, from a tool, a resource, a prompt or
    a completion (any other exception's message is masked)."""


class ToolError(PublicError):
    """An error whose message is sent to the client as it is (a tool execution error, ``isError``)."""


def failure_message(owner: str, error: BaseException, mask: bool) -> str:
    """What the client is told of an exception that ``owner`` (``"Prompt explore"``) raised: a
    :class:`PublicError`'s message as it is; for any other exception a generic message naming
    ``owner`` when ``mask`` (the detail goes to the log).

    >>> failure_message("Prompt explore", RuntimeError("password=hunter2"), mask=True)
    "Prompt explore failed with an unexpected error (RuntimeError); the server's log has the details"
    >>> failure_message("Prompt explore", PublicError("no column 'x'"), mask=True)
    "no column 'x'"
    """
    message = error_text(error)
    detail = type(error).__name__ + (f": {message[:500]}" if message else "")
    if isinstance(error, PublicError):
        log.warning("%s failed: %s", owner, detail)
        log.debug("traceback of %s's error", owner, exc_info=error)
        return message or type(error).__name__
    log.error("%s raised %s", owner, detail, exc_info=error)
    if not mask:
        return message or type(error).__name__
    kind = type(error).__name__
    return f"{owner} failed with an unexpected error ({kind}); the server's log has the details"


Hook = Callable[[Any, Any], Any]
Step = str | int


class ArgumentError(ValueError):
    """Arguments that do not fit the tool's parameters.

    ``parameter`` is the argument at fault (None when the arguments are not an object at all) and
    ``path`` the place inside it, as in ``rows[2].id``.

    >>> error = ArgumentError("argument 'rows[2].id': expected an integer, got None", parameter="rows",
    ...                       path="rows[2].id")
    >>> error.parameter, error.path
    ('rows', 'rows[2].id')
    """

    def __init__(self, message: str, *, parameter: str | None = None, path: str | None = None) -> None:
        super().__init__(message)
        self.parameter = parameter
        self.path = parameter if path is None else path


# -- failures ---------------------------------------------------------------------------------------


class Invalid(Exception):
    """A value that does not fit, at ``path`` below the argument (filled in on the way up).

    ``kind`` is "value" (``problem`` says what is wrong), "missing" (a required key) or "unexpected"
    (an unknown key; ``problem`` lists the known ones).
    """

    def __init__(self, problem: str, kind: str = "value", path: list[Step] | None = None) -> None:
        super().__init__(problem)
        self.problem = problem
        self.kind = kind
        self.path: list[Step] = path or []

    def under(self, step: Step) -> Invalid:
        self.path.insert(0, step)
        return self

    def error(self, parameter: str) -> ArgumentError:
        where = path_text([parameter, *self.path])
        if self.kind == "missing":
            message = f"missing required argument '{where}'"
        elif self.kind == "unexpected":
            message = (
                f"unexpected argument '{where}'; the keys of '{path_text([parameter, *self.path[:-1]])}'"
            )
            message += f" are {self.problem}" if self.problem else " are none"
        else:
            message = f"argument '{where}': {self.problem}"
        return ArgumentError(message, parameter=parameter, path=where)


def path_text(steps: list[Step]) -> str:
    text = str(steps[0])
    for step in steps[1:]:
        if isinstance(step, int):
            text += f"[{step}]"
        elif step.isidentifier() and len(step) <= 80:
            text += f".{step}"
        else:
            text += f"[{json.dumps(cut(step))}]"
    return text


def plural(noun: str, names: list[Any]) -> str:
    """The names (at most 10 of them, each cut short) after their noun."""
    listed = ", ".join(quoted(name) for name in names[:10])
    more = f" and {len(names) - 10} more" if len(names) > 10 else ""
    return f"{noun}{'s' if len(names) > 1 else ''} {listed}{more}"


def given(value: Any, with_type: bool = True) -> str:
    if value is None or not with_type:
        return f"{value!r:.80}"
    return f"{value!r:.80} ({type(value).__name__})"


def mismatch(expected: str, value: Any, with_type: bool = True) -> Invalid:
    return Invalid(f"expected {expected}, got {given(value, with_type)}")


def beyond_r_integer(value: float) -> Invalid:
    """An integer an R integer column cannot hold: its range, and what to send instead.

    >>> for part in beyond_r_integer(2**31).problem.split("; "):
    ...     print(part)
    expected an integer from -2147483647 to 2147483647 (R's integer range), got 2147483648
    send one within it, or null for NA
    """
    return Invalid(
        f"expected an integer from -{INT_MAX} to {INT_MAX} (R's integer range), got "
        f"{given(value, with_type=False)}; send one within it, or null for NA"
    )


def not_a_level(levels: list[str], value: Any) -> Invalid:
    """A factor cell that is none of its levels: the levels, and what to send instead.

    >>> print(not_a_level(["low", "high"], "mid").problem)
    expected one of the levels 'low', 'high', got 'mid' (str); send one of them, or null for NA
    """
    listed = ", ".join(quoted(level) for level in levels[:20])
    more = f" and {len(levels) - 20} more" if len(levels) > 20 else ""
    return Invalid(
        f"expected one of the levels {listed}{more}, got {given(value)}; send one of them, or null for NA"
    )

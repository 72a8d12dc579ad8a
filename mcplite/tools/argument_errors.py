"""What a tool's arguments got wrong: :class:`ArgumentError` for the caller, :class:`Invalid` on the way up.

A structure hook raises :class:`Invalid` where a value does not fit; each level above adds its
step to the path, and the binder turns it into one :class:`ArgumentError` naming the argument:

>>> Invalid("expected an integer, got 'x' (str)").under(2).under("rows").error("table").path
'table.rows[2]'
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from mcplite.protocol.checks import cut, quoted

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

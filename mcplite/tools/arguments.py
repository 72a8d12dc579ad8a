"""Tool arguments checked against the parameters' annotations and structured with cattrs.

The rules are JSON Schema's: a call's arguments are accepted exactly when they validate against
the tool's :func:`~mcplite.tools.schema.input_schema`, and anything else is one :class:`ArgumentError`
that names the argument, what was expected and what was given:

>>> def top(column: str, n: int = 5) -> None: ...
>>> binder = ArgumentBinder(top)
>>> binder.bind({"column": "city", "n": 3.0})
{'column': 'city', 'n': 3}
>>> binder.bind({"column": "city", "n": "five"})
Traceback (most recent call last):
...
mcplite.tools.argument_errors.ArgumentError: argument 'n': expected an integer, got 'five' (str)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

from mcplite.tools.annotations import type_hints
from mcplite.tools.argument_errors import ArgumentError, Hook, Invalid, given, plural
from mcplite.tools.failures import error_text
from mcplite.tools.schema import input_schema
from mcplite.tools.structuring import CONVERTER

__all__ = ["ArgumentBinder", "ArgumentError"]


class ArgumentBinder:
    """A tool's input schema, and the keyword arguments for a call from the JSON arguments it got.

    >>> def scale(x: float, label: str = "") -> None: ...
    >>> binder = ArgumentBinder(scale)
    >>> binder.schema["required"], binder.bind({"x": 2})
    (['x'], {'x': 2.0})
    """

    def __init__(self, func: Callable[..., Any], *, skip: Collection[str] = ()) -> None:
        self.schema: dict[str, Any] = input_schema(func, skip=skip)
        hints = type_hints(func)
        self._hooks: dict[str, tuple[Hook, Any]] = {}
        for name in self.schema.get("properties", {}):
            annotation = hints.get(name, Any)
            self._hooks[name] = (CONVERTER.get_structure_hook(annotation), annotation)
        self._required: list[str] = self.schema.get("required", [])

    def bind(self, arguments: Mapping[str, Any] | None) -> dict[str, Any]:
        """Keyword arguments for the call (parameters left out take their defaults), or ArgumentError."""
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, Mapping):
            raise ArgumentError(f"the arguments must be an object, got {given(arguments)}")
        unexpected = [key for key in arguments if key not in self._hooks]
        if unexpected:
            known = f"the arguments are {', '.join(self._hooks)}" if self._hooks else "the tool takes none"
            raise ArgumentError(
                f"unexpected {plural('argument', unexpected)}; {known}", parameter=str(unexpected[0])
            )
        missing = [name for name in self._required if name not in arguments]
        if missing:
            raise ArgumentError(f"missing required {plural('argument', missing)}", parameter=missing[0])
        bound: dict[str, Any] = {}
        for name, (hook, annotation) in self._hooks.items():
            if name not in arguments:
                continue
            try:
                bound[name] = hook(arguments[name], annotation)
            except Invalid as exc:
                raise exc.error(name) from None
            except Exception as exc:  # hooks raise Invalid; this keeps the promise for anything else
                raise ArgumentError(f"argument {name!r}: {error_text(exc)}", parameter=name) from exc
        return bound

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
mcplite.tools.failures.ArgumentError: argument 'n': expected an integer, got 'five' (str)
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Collection, Mapping
from typing import Any

from mcplite.protocol.checks import cut
from mcplite.tools.annotations import holds_frame, tool_name, type_hints
from mcplite.tools.failures import ArgumentError, Hook, Invalid, error_text, given, path_text, plural
from mcplite.tools.schema import input_schema
from mcplite.tools.structuring import CONVERTER

__all__ = ["ArgumentBinder", "ArgumentError", "SchemaBinder"]


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
        for name, schema in self.schema.get("properties", {}).items():
            annotation = hints.get(name, Any)
            self._hooks[name] = (CONVERTER.get_structure_hook(annotation), annotation)
            for example in schema.get("examples", ()):
                self._check_example(func, name, example)
        self._required: list[str] = self.schema.get("required", [])
        self.reads_frames = any(holds_frame(annotation) for _, annotation in self._hooks.values())
        """Whether a call's arguments may hold a data frame (then they are read off the event loop)."""

    def _check_example(self, func: Callable[..., Any], name: str, example: Any) -> None:
        """Refuse an ``Examples(...)`` value the parameter does not accept (a TypeError at registration)."""
        hook, annotation = self._hooks[name]
        try:
            hook(example, annotation)
        except Invalid as exc:
            raise TypeError(
                f"tool {tool_name(func)!r}: a listed example does not fit: {exc.error(name)}"
            ) from None

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


def _jsonschema(owner: str) -> Any:
    """jsonschema, imported when the first tool with a hand-written input schema is registered."""
    try:
        return importlib.import_module("jsonschema")
    except ImportError:
        raise RuntimeError(f"{owner}: input_schema= needs jsonschema (pip install jsonschema)") from None


class SchemaBinder:
    """A hand-written input schema (``@server.tool(input_schema={...})``), listed as written, and the
    keyword arguments of a call checked against it by jsonschema (Draft 2020-12: ``$defs``, ``$ref``,
    ``allOf``, ``if``/``then``/``else`` ...). The arguments reach the function as the JSON values
    they are; keys the schema allows but the function has no parameter for are left out.

    >>> schema = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}},
    ...           "required": ["n"], "additionalProperties": False}
    >>> def head(n: int) -> None: ...
    >>> SchemaBinder(head, schema).bind({"n": 3})
    {'n': 3}
    >>> SchemaBinder(head, schema).bind({"n": 0})
    Traceback (most recent call last):
    ...
    mcplite.tools.failures.ArgumentError: argument 'n': expected minimum 1, got 0 (int)
    """

    def __init__(
        self, func: Callable[..., Any], schema: dict[str, Any], *, skip: Collection[str] = ()
    ) -> None:
        owner = f"tool {tool_name(func)!r}"
        if schema.get("type") != "object":
            raise TypeError(f'{owner}: input_schema must have "type": "object", not {schema.get("type")!r}')
        jsonschema = _jsonschema(owner)
        try:
            jsonschema.Draft202012Validator.check_schema(schema)
        except jsonschema.exceptions.SchemaError as err:
            raise TypeError(
                f"{owner}: input_schema is not a valid JSON Schema (2020-12): {cut(err.message)}"
            ) from None
        self.schema = schema
        self.reads_frames = False  # the arguments reach the function as the JSON values they are
        self._validator = jsonschema.Draft202012Validator(schema)
        self._best_match = jsonschema.exceptions.best_match
        parameters = [p for p in inspect.signature(func).parameters.values() if p.name not in skip]
        self._takes_any = any(p.kind is p.VAR_KEYWORD for p in parameters)
        self._names = frozenset(
            p.name for p in parameters if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
        )
        properties = schema.get("properties", {})
        required = schema.get("required", [])
        for parameter in parameters:
            if parameter.kind is parameter.VAR_KEYWORD:
                continue
            if parameter.kind in (parameter.POSITIONAL_ONLY, parameter.VAR_POSITIONAL):
                raise TypeError(f"{owner}: parameter {parameter.name!r} cannot be passed by name")
            if parameter.default is parameter.empty and parameter.name not in required:
                raise TypeError(
                    f"{owner}: parameter {parameter.name!r} has no default, so input_schema must list it "
                    'in "required" (or give the parameter a default)'
                )
        if not self._takes_any:
            strangers = [name for name in properties if name not in self._names]
            if strangers:
                raise TypeError(
                    f"{owner}: input_schema has {plural('property', strangers)} the function has no "
                    "parameter for (add the parameter, or **kwargs)"
                )

    def bind(self, arguments: Mapping[str, Any] | None) -> dict[str, Any]:
        """Keyword arguments for the call, or the ArgumentError naming where the schema refuses them."""
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, Mapping):
            raise ArgumentError(f"the arguments must be an object, got {given(arguments)}")
        error = self._best_match(self._validator.iter_errors(arguments))
        if error is not None:
            steps = list(error.absolute_path)
            if error.validator in ("type", "enum", "const", "pattern", "minimum", "maximum", "format"):
                expected = cut(repr(error.validator_value))
                problem = f"expected {error.validator} {expected}, got {given(error.instance)}"
            else:
                problem = f"not as the input schema's {error.validator!r} asks: {cut(error.message, 200)}"
            if not steps:
                raise ArgumentError(f"the arguments are {problem}")
            raise ArgumentError(
                f"argument '{path_text(steps)}': {problem}", parameter=str(steps[0]), path=path_text(steps)
            )
        if self._takes_any:
            return dict(arguments)
        return {name: value for name, value in arguments.items() if name in self._names}

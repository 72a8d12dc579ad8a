"""The tools a server holds: each function with its listing, its argument binder and its context
parameters, registered under a unique name and listed in pages.

>>> registry = ToolRegistry(page_size=1)
>>> def add(a: int, b: int = 2) -> int:
...     "Add two integers."
...     return a + b
>>> registry.add_tool(add).tool.input_schema["required"]
['a']
>>> registry.page(None, 0, JsonOptions()).to_wire("2025-06-18")["tools"][0]["name"]
'add'
"""

from __future__ import annotations

import inspect
import re
import sys
import warnings
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any, Literal, TypedDict, Unpack

import attrs

from mcplite.payload.budget import SERVER_BUDGET, Inherit
from mcplite.payload.content import as_icons
from mcplite.payload.results import built_result, served_result
from mcplite.payload.rjson import encode_json, encoded_json, options_in_force
from mcplite.protocol.checks import check_plain_json, shown
from mcplite.protocol.jsonrpc import INVALID_PARAMS, RpcError
from mcplite.protocol.messages import ListToolsResult
from mcplite.protocol.types import CallToolResult, EncodedJson, TextContent, Tool, ToolAnnotations
from mcplite.tools.annotations import Shape, read, type_hints, type_name, unhinted_parameters
from mcplite.tools.arguments import ArgumentBinder, SchemaBinder
from mcplite.tools.context import Context, context_parameters
from mcplite.tools.frames import Misfit
from mcplite.tools.json_arguments import applied, checked_json_arguments
from mcplite.tools.output_schema import OBJECT_KINDS, NoOutputSchema, schema_of, wrapped_schema, wrapped_text
from mcplite.tools.schema import HeaderParam, header_params
from mcplite.tools.schema import description as doc_description
from mcplite.tools.typed_values import can_validate, misfit_message, output_misfit, typed_value
from rvalues.json import JsonOptions

_TOOL_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,128}$")


class ToolOptions(TypedDict, total=False):
    """The keyword arguments of ``@server.tool(...)``, ``server.add_tool(function, ...)`` and
    :meth:`ToolRegistry.add_tool`, written once.

    ``wrap_rows=None`` follows the server's; ``task="optional"`` or ``"required"``: a client that
    declared the tasks extension gets a task for a call (docs/tasks.md); ``to_json``: the tool's
    own ``rv.to_json`` arguments on top of the payload options (docs/typed-tools.md). Left out,
    ``result_budget`` is the server's.

    >>> sorted(ToolOptions.__annotations__)[:3]
    ['annotations', 'description', 'icons']
    """

    name: str | None
    title: str | None
    description: str | None
    annotations: ToolAnnotations | Mapping[str, Any] | None
    output_schema: dict[str, Any] | None
    icons: Iterable[Any] | None
    meta: dict[str, Any] | None
    structured: bool | None
    input_schema: dict[str, Any] | None
    result_budget: int | Inherit | None
    wrap_rows: bool | None
    task: Literal["optional", "required"] | None
    to_json: Mapping[str, Any] | None


def _outside_mcplite() -> int:
    """The ``stacklevel`` of the first caller outside mcplite (where the tool was registered)."""
    frame = sys._getframe(2)
    level = 2
    while frame.f_back is not None and frame.f_globals.get("__name__", "").startswith("mcplite."):
        frame = frame.f_back
        level += 1
    return level


def _tool_annotations(value: Any, owner: str) -> ToolAnnotations | None:
    if value is None or isinstance(value, ToolAnnotations):
        return value
    if not isinstance(value, Mapping):
        raise TypeError(f"{owner}: annotations must be a ToolAnnotations or a dict, not {shown(value)}")
    camel = {"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}
    fields = {
        (re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), key) if key in camel else key): item
        for key, item in value.items()
    }
    try:
        return ToolAnnotations(**fields)
    except TypeError:
        known = "title, read_only_hint, destructive_hint, idempotent_hint, open_world_hint"
        raise TypeError(
            f"{owner}: unknown tool annotation in {sorted(value)}; the fields are {known}"
        ) from None


def is_typed(shape: Shape) -> bool:
    """Whether a return annotation makes a typed tool: a record (attrs class, dataclass, TypedDict),
    a frame with declared rows, or a list or ``dict[str, ...]`` of those.

    >>> is_typed(read(list[dict[str, int]])), is_typed(read(int))
    (False, False)
    """
    if shape.kind in ("record", "typeddict", "frame"):
        return True
    if shape.kind in ("array", "mapping") and shape.args:
        return is_typed(read(shape.args[-1]))
    return False


def typed_return(
    function: Callable[..., Any], structured: bool | None, owner: str, options: JsonOptions
) -> Shape | None:
    """The shape of a typed tool's return annotation; None for an untyped tool (one whose return type
    has no output schema under ``options``, unless ``structured=True``) or ``structured=False``."""
    if structured is False:
        return None
    try:
        annotation = type_hints(function).get("return")
    except TypeError:
        annotation = None
    shape = None if annotation is None else read(annotation)
    if shape is None or not is_typed(shape):
        if structured:
            raise TypeError(
                f"{owner}: structured=True needs a return annotation that is a record, a frame with "
                f"declared rows (Annotated[pd.DataFrame, mcplite.Rows(Row)]) or a list of them, "
                f"or output_schema=..."
            )
        return None
    try:
        schema_of(shape, options)
    except NoOutputSchema as err:
        if structured is None:  # a return type without an output schema: an untyped tool
            return None
        raise TypeError(
            f"{owner}: its return type {type_name(shape.annotation)} has no output schema: {err} "
            f"(pass structured=False to send it as text)"
        ) from None
    return shape


def checked_budget(value: Any, owner: str, *, allow_server: bool = False) -> Any:
    """A ``result_budget``: a positive number of bytes, None (no budget), or the server's.

    >>> checked_budget(0, "tool 'x'")
    Traceback (most recent call last):
    ...
    ValueError: tool 'x': result_budget must be a positive integer (bytes) or None, not 0
    """
    if value is None or (allow_server and value is SERVER_BUDGET):
        return value
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{owner}: result_budget must be a positive integer (bytes) or None, not {value!r}")
    return value


def _error(text: str) -> CallToolResult:
    return CallToolResult([TextContent(text)], is_error=True)


TASK_SUPPORT = (None, "optional", "required")
"""What ``task=`` takes: how a tool runs as a task (:mod:`mcplite.engine.tasks`)."""


class RegisteredTool:
    """A tool as the server holds it: the function, its listing, and how its arguments are bound.

    ``returns`` is the declared return shape of a typed tool (its output schema derived from it
    under each request's payload options); ``validate`` checks a hand-written output schema on
    every call. ``input_schema``, when given, replaces the schema derived from the parameters' type
    hints: it is listed as written and checks every call's arguments; ``header_params`` are its
    parameters that 2026-07-28 clients mirror into ``Mcp-Param-*`` headers.
    """

    def __init__(
        self,
        function: Callable[..., Any],
        tool: Tool,
        *,
        structured: bool,
        returns: Shape | None = None,
        validate: bool = False,
        input_schema: dict[str, Any] | None = None,
        wrap_rows: bool = False,
    ) -> None:
        self.function = function
        self.tool = tool
        self.context_parameters = context_parameters(function)
        self.binder: ArgumentBinder | SchemaBinder = (
            ArgumentBinder(function, skip=self.context_parameters)
            if input_schema is None
            else SchemaBinder(function, input_schema, skip=self.context_parameters)
        )
        self.header_params: tuple[HeaderParam, ...] = (
            () if input_schema is None else header_params(input_schema, f"tool {tool.name!r}")
        )
        self.is_async = inspect.iscoroutinefunction(function)
        self.structured = structured
        self.returns = returns
        self.validate = validate
        self.wrap_rows = wrap_rows and returns is not None and returns.kind not in OBJECT_KINDS
        """Whether a typed tool's value that is not an object (rows, a list) is sent as
        ``{"result": value}`` structured content under the matching schema (its text block is
        jsonlite's text of the value)."""
        self.result_budget: int | Inherit | None = SERVER_BUDGET
        """Bytes of this tool's response line before its result is cut (None: never cut; by
        default the server's ``result_budget``)."""
        self.task: str | None = None
        """Whether a client that declared the tasks extension gets a task for a call ("optional":
        it may, "required": it must; None: never)."""
        self.json_arguments: dict[str, Any] = {}
        """The tool's own ``to_json`` arguments, on top of each request's payload options."""
        self._listed: dict[JsonOptions, Tool] = {}

    def listed(self, options: JsonOptions) -> Tool:
        """The tool as listed under the payload options ``options`` (its derived output schema)."""
        if self.returns is None:
            return self.tool
        options = applied(options, self.json_arguments)
        found = self._listed.get(options)
        if found is None:
            schema = schema_of(self.returns, options)
            schema = wrapped_schema(schema) if self.wrap_rows else schema
            found = self._listed[options] = attrs.evolve(self.tool, output_schema=schema)
        return found

    @property
    def name(self) -> str:
        return self.tool.name

    def bind(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Keyword arguments for the call, checked and structured (raises ``ArgumentError``)."""
        return self.binder.bind(arguments)

    def _with_context(self, kwargs: dict[str, Any], context: Context) -> dict[str, Any]:
        return (
            {**kwargs, **dict.fromkeys(self.context_parameters, context)}
            if self.context_parameters
            else kwargs
        )

    def call_sync(self, kwargs: dict[str, Any], context: Context) -> Any:
        return self.function(**self._with_context(kwargs, context))

    async def call_async(self, kwargs: dict[str, Any], context: Context) -> Any:
        return await self.function(**self._with_context(kwargs, context))

    def to_result(self, value: Any, options: JsonOptions) -> CallToolResult:
        """The tool's return value as a result, under the payload options the request read once
        (``options``); with an output schema, the value is the
        structured content. A typed tool's value is written as its declared type says, and a value
        that does not fit is an error result naming where and what was expected. The tool's
        ``to_json`` arguments apply on top of ``options``."""
        options = applied(options, self.json_arguments)
        if self.returns is not None and not isinstance(value, CallToolResult):
            try:
                x = typed_value(self.returns, value)
            except Misfit as misfit:
                return _error(misfit_message(self.name, self.returns, misfit))  # logged there
            text = encode_json(x, "structured_content", options=options)
            if self.wrap_rows:
                return CallToolResult(
                    [TextContent(text)], structured_content=encoded_json(wrapped_text(text))
                )
            return CallToolResult([TextContent(text)], structured_content=encoded_json(text))
        if self.structured and not isinstance(value, CallToolResult):
            result = built_result(None, value, False, None, options)
        else:
            result = served_result(value, options)
        return self._checked(result) if self.validate else result

    def _checked(self, result: CallToolResult) -> CallToolResult:
        """The result, or an error result when its structured content does not fit the hand-written schema."""
        schema = self.tool.output_schema
        if schema is None or result.is_error:
            return result
        structured = result.structured
        if not isinstance(structured, EncodedJson):
            return _error(f"Tool {self.name} has an output schema but returned no structured content")
        misfit = output_misfit(schema, structured.value)
        if misfit is None:
            return result
        return _error(
            f"Tool {self.name} returned structured content that does not fit its output schema: {misfit}"
        )


class ToolRegistry:
    """Tools by name, in registration order; ``page_size`` of them go in one ``tools/list`` page."""

    def __init__(self, page_size: int = 100) -> None:
        self.page_size = page_size
        self._tools: dict[str, RegisteredTool] = {}

    @property
    def tools(self) -> Mapping[str, RegisteredTool]:
        """The registered tools by name, in registration order (read-only)."""
        return MappingProxyType(self._tools)

    def get(self, name: str) -> RegisteredTool | None:
        return self._tools.get(name)

    def add_tool(
        self, function: Callable[..., Any], *, validate_output: bool = False, **options: Unpack[ToolOptions]
    ) -> RegisteredTool:
        """Register ``function`` as a tool and return how the registry holds it.

        A typed tool (see :func:`is_typed`) answers with structured content under an output schema
        derived from its return annotation, unless ``structured=False``; ``output_schema`` overrides
        it, and ``validate_output`` checks a hand-written schema on every call. ``input_schema``
        (a JSON Schema 2020-12 object schema; needs jsonschema) replaces the schema derived from the
        parameters: listed as written, and every call's arguments are checked against it.
        ``to_json`` holds the tool's own ``rv.to_json`` arguments (:mod:`mcplite.tools.json_arguments`).
        """
        if not callable(function):
            raise TypeError(f"McpServer.tool: a tool is a function, not {shown(function)}")
        name, description = options.get("name"), options.get("description")
        output_schema, input_schema = options.get("output_schema"), options.get("input_schema")
        structured, wrap_rows = options.get("structured"), bool(options.get("wrap_rows"))
        tool_name = name if name is not None else getattr(function, "__name__", None)
        owner = f"tool {tool_name!r}"
        if not isinstance(tool_name, str) or not _TOOL_NAME.match(tool_name):
            raise ValueError(
                f"{owner}: a tool name is 1 to 128 letters, digits, '_', '-' or '.' (pass name=...)"
            )
        if tool_name in self._tools:
            raise ValueError(f"{owner} is registered already; tool names are unique within a server")
        if output_schema is not None:
            if not isinstance(output_schema, dict):
                raise TypeError(
                    f"{owner}: output_schema must be a JSON Schema dict, not {shown(output_schema)}"
                )
            check_plain_json(output_schema, f"{owner}: output_schema")
        if input_schema is not None:
            if not isinstance(input_schema, dict):
                raise TypeError(
                    f"{owner}: input_schema must be a JSON Schema dict, not {shown(input_schema)}"
                )
            check_plain_json(input_schema, f"{owner}: input_schema")
        if description is None:
            description = doc_description(function)
            if not description:
                warnings.warn(
                    f"{owner} has no description: the model sees only its name and parameters; "
                    "give the function a docstring, or pass description=...",
                    UserWarning,
                    stacklevel=_outside_mcplite(),
                )
        unhinted = unhinted_parameters(function) if input_schema is None else []
        if unhinted:
            warnings.warn(
                f"{owner} has no type hints for {', '.join(unhinted)}: the model is told they take any "
                "JSON value and nothing checks what arrives; annotate them (x: int, rows: list[str], ...)",
                UserWarning,
                stacklevel=_outside_mcplite(),
            )
        if validate_output and not can_validate():
            raise RuntimeError(f"{owner}: validate_output=True needs jsonschema (pip install jsonschema)")
        in_force = options_in_force()  # the listing's schema until a request reads its own
        returns = typed_return(function, structured, owner, in_force) if output_schema is None else None
        json_arguments = checked_json_arguments(options.get("to_json"), owner, typed=returns is not None)
        in_force = applied(in_force, json_arguments)
        if returns is not None:
            output_schema = schema_of(returns, in_force)
            output_schema = wrapped_schema(output_schema) if wrap_rows else output_schema  # an object's as is
        registered = RegisteredTool(
            function,
            Tool(
                tool_name,
                {"type": "object"},  # replaced below, once the binder has built the schema
                description=description,
                title=options.get("title"),
                output_schema=output_schema,
                annotations=_tool_annotations(options.get("annotations"), owner),
                icons=as_icons(options.get("icons"), owner),
                meta=options.get("meta"),
            ),
            structured=output_schema is not None and structured is not False,
            returns=returns,
            validate=validate_output and returns is None,
            input_schema=input_schema,
            wrap_rows=wrap_rows,
        )
        registered.tool = attrs.evolve(registered.tool, input_schema=registered.binder.schema)
        budget = options.get("result_budget", SERVER_BUDGET)
        registered.result_budget = checked_budget(budget, owner, allow_server=True)
        task = options.get("task")
        if task not in TASK_SUPPORT:
            raise ValueError(f"{owner}: task must be 'optional', 'required' or None, not {task!r}")
        registered.task = task
        registered.json_arguments = json_arguments
        self._tools[tool_name] = registered
        return registered

    def page(self, cursor: Any, ttl_ms: int, options: JsonOptions) -> ListToolsResult:
        """One page of the tool listing; ``cursor`` is the ``nextCursor`` of the page before; typed
        tools' output schemas follow the payload options ``options``."""
        offset = 0
        if cursor is not None:
            if (
                not isinstance(cursor, str)
                or not (cursor.isascii() and cursor.isdigit() and len(cursor) <= 18)
                or int(cursor) > len(self._tools)
            ):
                raise RpcError(INVALID_PARAMS, f"Invalid params: unknown cursor {cursor!r:.80}")
            offset = int(cursor)
        tools = [registered.listed(options) for registered in self._tools.values()]
        end = offset + self.page_size
        next_cursor = str(end) if end < len(tools) else None
        return ListToolsResult(tools[offset:end], next_cursor=next_cursor, ttl_ms=ttl_ms)

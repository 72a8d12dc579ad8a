"""mcplite results from tools served by the official MCP SDK's ``MCPServer`` or by FastMCP.

``to_sdk_result()`` turns any tool return value (or an mcplite result) into the SDK's
``CallToolResult``, projected for one protocol version; ``@mcplite_tool`` makes a tool function
registered on ``MCPServer`` or FastMCP answer exactly what mcplite's own server would send.
Needs the SDK: ``pip install 'rvalues-mcplite[sdk]'``.

>>> from rvalues import r_list, NA_real_
>>> result = to_sdk_result(r_list(n=1, x=NA_real_), "2025-06-18")
>>> type(result).__name__, result.content[0].text
('CallToolResult', '{"n":1,"x":"NA"}')
"""

from __future__ import annotations

import functools
import inspect
import logging
import operator
import types
import typing
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import Any, overload

from mcplite.engine.calls import error_result
from mcplite.payload.options import options
from mcplite.payload.results import as_tool_result
from mcplite.payload.returned import encode_value_json
from mcplite.payload.rjson import options_in_force
from mcplite.protocol.checks import shown
from mcplite.protocol.versions import known_version
from mcplite.tools.failures import error_text

try:
    import anyio.to_thread
    from mcp.server.mcpserver import Context as SdkContext
    from mcp.types import CallToolResult as SdkCallToolResult
except ImportError as err:  # pragma: no cover - the SDK is an optional dependency
    raise ImportError(
        "mcplite.sdk needs the official MCP SDK (mcp 2.3 or later): pip install 'rvalues-mcplite[sdk]'"
    ) from err

# FastMCP is optional: without it, tools serve on the SDK's MCPServer only.
FastMCPContext: type | None
RawStructuredToolResult: type | None
try:
    from fastmcp import Context as FastMCPContext
    from fastmcp.tools.base import RawStructuredToolResult
except ImportError:  # pragma: no cover - depends on what is installed
    FastMCPContext = RawStructuredToolResult = None

__all__ = ["CONTEXT_PARAMETER", "mcplite_resource", "mcplite_tool", "to_sdk_result"]

CONTEXT_PARAMETER = "mcplite_context"
"""The keyword-only parameter ``@mcplite_tool`` adds (when the function has no context parameter of
its own) so that the server hands it the request context, and with it the protocol version."""

_CONTEXT_TYPES: tuple[type, ...] = (SdkContext,) if FastMCPContext is None else (SdkContext, FastMCPContext)

log = logging.getLogger(__name__)


def to_sdk_result(value: Any, protocol_version: str) -> SdkCallToolResult:
    """``value`` as mcplite sends it to a client of ``protocol_version``, as the SDK's ``CallToolResult``.

    A value that is not an mcplite result goes through :func:`mcplite.as_tool_result` under the
    payload options in force. The result is projected for the version first (see
    :mod:`mcplite.protocol.projection`), so the SDK passes on exactly what mcplite's own server would.

    >>> import mcplite
    >>> from rvalues import c
    >>> to_sdk_result(mcplite.tool_result(structured_content=c("a", "b")), "2026-07-28").structured_content
    ['a', 'b']
    >>> to_sdk_result(mcplite.tool_result(structured_content=c("a", "b")), "2025-06-18").structured_content
    """
    return SdkCallToolResult.model_validate(as_tool_result(value).to_wire(protocol_version))


def _known_version(requested: Any) -> str:
    """The version to project for: the request's, else the newest mcplite knows that is not newer.

    Outside a request (a direct call, ``MCPServer.call_tool`` without a client) there is no
    version: the newest is used.
    """
    return known_version(requested)


def _request_version(context: Any) -> str | None:
    """The protocol version of the request an SDK or FastMCP context belongs to (None outside one)."""
    if isinstance(context, SdkContext):
        return context.protocol_version
    if FastMCPContext is not None and isinstance(context, FastMCPContext):
        request = typing.cast(Any, context).request_context
        return None if request is None else request.protocol_version
    return None


def _is_context(annotation: Any) -> bool:
    """Whether a parameter annotation asks for the SDK's or FastMCP's context (also in a union)."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        return any(_is_context(arg) for arg in typing.get_args(annotation))
    if origin is typing.Annotated:
        return _is_context(typing.get_args(annotation)[0])
    return inspect.isclass(annotation) and issubclass(annotation, _CONTEXT_TYPES)


def _context_annotation() -> Any:
    """``SdkContext | FastMCPContext | None``: both servers inject a context into such a parameter."""
    return functools.reduce(operator.or_, (*_CONTEXT_TYPES, None))


class _Adapter:
    """What a decorated tool does with its function's return value."""

    def __init__(self, name: str, option_values: dict[str, Any]) -> None:
        self.name = name
        self.option_values = option_values

    def scope(self) -> AbstractContextManager[Any]:
        return options(**self.option_values) if self.option_values else nullcontext()

    def convert(self, value: Any, context: Any) -> Any:
        """The SDK result for ``value`` (FastMCP's own result type where the SDK type cannot carry it)."""
        if isinstance(value, SdkCallToolResult):
            return value
        try:
            result = as_tool_result(value)
        except Exception as err:
            # as mcplite's own server answers
            text = error_text(err)
            log.warning("tool %s returned a value that cannot be sent: %s", self.name, text)
            result = error_result(f"Tool {self.name} returned a value that cannot be sent: {text}")
        sdk = to_sdk_result(result, _known_version(_request_version(context)))
        structured = sdk.structured_content
        if (
            RawStructuredToolResult is not None
            and FastMCPContext is not None
            and isinstance(context, FastMCPContext)
            and structured is not None
            and not isinstance(structured, dict)
        ):
            # FastMCP refuses a CallToolResult whose structured content is not an object (2026-07-28)
            return RawStructuredToolResult(
                content=sdk.content, structured_content=structured, meta=sdk.meta, is_error=sdk.is_error
            )
        return sdk


def _is_async(function: Callable[..., Any]) -> bool:
    """Whether calling ``function`` gives a coroutine (``async def``, or an async ``__call__``)."""
    call = function if inspect.isroutine(function) else type(function).__call__
    return inspect.iscoroutinefunction(function) or inspect.iscoroutinefunction(call)


def _signature(function: Callable[..., Any], name: str) -> inspect.Signature:
    try:
        return inspect.signature(function, eval_str=True)
    except (NameError, SyntaxError) as err:
        raise TypeError(f"mcplite_tool: cannot resolve the type annotations of {name}: {err}") from err


def _with_context_parameter(signature: inspect.Signature, name: str) -> inspect.Signature:
    """The signature with :data:`CONTEXT_PARAMETER` added (keyword-only, before any ``**kwargs``)."""
    parameters = list(signature.parameters.values())
    if CONTEXT_PARAMETER in signature.parameters:
        raise ValueError(
            f"mcplite_tool: {name} has a parameter named {CONTEXT_PARAMETER!r}, the name mcplite_tool "
            "adds for the request context; rename it, or annotate it with the SDK's or FastMCP's Context"
        )
    added = inspect.Parameter(
        CONTEXT_PARAMETER, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=_context_annotation()
    )
    at = len(parameters)
    if parameters and parameters[-1].kind is inspect.Parameter.VAR_KEYWORD:
        at -= 1
    return signature.replace(parameters=[*parameters[:at], added, *parameters[at:]])


def _wrap(function: Callable[..., Any], option_values: dict[str, Any]) -> Callable[..., Any]:
    if not callable(function):
        raise TypeError(f"mcplite_tool: a tool is a function, not {shown(function)}")
    name = getattr(function, "__name__", type(function).__name__)
    signature = _signature(function, name)
    own = [p.name for p in signature.parameters.values() if _is_context(p.annotation)]
    context_name = own[0] if own else CONTEXT_PARAMETER
    if not own:
        signature = _with_context_parameter(signature, name)
    adapter = _Adapter(name, option_values)

    def context_of(kwargs: dict[str, Any]) -> Any:
        return kwargs.get(context_name) if own else kwargs.pop(CONTEXT_PARAMETER, None)

    wrapper: Any
    if _is_async(function):

        async def call_async(*args: Any, **kwargs: Any) -> Any:
            context = context_of(kwargs)
            with adapter.scope():
                value = await function(*args, **kwargs)
                # encoding a large payload would hold up the event loop (the thread sees the options)
                return await anyio.to_thread.run_sync(adapter.convert, value, context)

        wrapper = call_async
    else:

        def call(*args: Any, **kwargs: Any) -> Any:
            context = context_of(kwargs)
            with adapter.scope():
                return adapter.convert(function(*args, **kwargs), context)

        wrapper = call
    functools.update_wrapper(wrapper, function)
    # Both servers read the schema from the signature: a CallToolResult return means no output schema.
    wrapper.__signature__ = signature.replace(return_annotation=SdkCallToolResult)
    wrapper.__annotations__ = {
        **{p.name: p.annotation for p in signature.parameters.values() if p.annotation is not p.empty},
        "return": SdkCallToolResult,
    }
    return wrapper


@overload
def mcplite_tool(function: Callable[..., Any], /) -> Callable[..., Any]: ...


@overload
def mcplite_tool(
    *, json_null: str | None = ..., json_na: str | None = ..., json_auto_unbox: bool | None = ...
) -> Callable[[Callable[..., Any]], Callable[..., Any]]: ...


def mcplite_tool(function: Any = None, /, **option_values: Any) -> Any:
    """Make a tool function for the SDK's ``MCPServer`` or FastMCP answer as mcplite's server would.

    Put it under the server's decorator (``@server.tool()`` then ``@mcplite_tool``). The return
    value goes through :func:`mcplite.as_tool_result` (an mcplite result as it is; an SDK
    ``CallToolResult`` passes through untouched) and is projected for the protocol version of
    the request, read from the request context: the function gets a keyword-only
    ``mcplite_context`` parameter that both servers fill, unless it takes their ``Context``
    itself. The input schema is the function's own; no output schema is inferred from its
    return annotation. Payload options given here (``@mcplite_tool(json_na="null")``) apply to
    this tool; otherwise the options in force do. Exceptions the function raises are left to
    the server.

    >>> import asyncio
    >>> from mcp.server.mcpserver import MCPServer
    >>> from rvalues import NA_real_, data_frame
    >>> server = MCPServer("frames")
    >>> @server.tool()
    ... @mcplite_tool
    ... def rows(scale: float = 1.0) -> dict:
    ...     return data_frame(x=[1.5 * scale, NA_real_])
    >>> [tool] = asyncio.run(server.list_tools())
    >>> list(tool.input_schema["properties"]), tool.output_schema
    (['scale'], None)
    >>> asyncio.run(server.call_tool("rows", {})).content[0].text
    '[{"x":1.5},{}]'
    """
    if function is not None:
        if option_values:
            raise TypeError("mcplite_tool: give payload options as @mcplite_tool(json_na=...)")
        return _wrap(function, {})
    if option_values:
        with options(**option_values):  # check them now rather than at the first call
            pass

    def decorate(function: Callable[..., Any]) -> Callable[..., Any]:
        return _wrap(function, dict(option_values))

    return decorate


def mcplite_resource(function: Callable[..., Any]) -> Callable[..., Any]:
    """Make a resource function for the SDK's ``MCPServer`` or FastMCP return what mcplite's own
    server would send as its contents: a ``str`` or ``bytes`` as it is, anything else (a frame, an R
    value) its jsonlite JSON under the payload options in force, as text.

    Put it under the server's decorator (``@server.resource(uri, mime_type="application/json")``
    then ``@mcplite_resource``); the signature is the function's own, so URI templates bind as
    before. Sync and async functions alike.

    >>> import asyncio
    >>> from mcp.server.mcpserver import MCPServer
    >>> from rvalues import NA_real_, data_frame
    >>> server = MCPServer("frames")
    >>> @server.resource("frames://rows", mime_type="application/json")
    ... @mcplite_resource
    ... def rows() -> str:
    ...     return data_frame(x=[1.5, NA_real_])
    >>> [contents] = asyncio.run(server.read_resource("frames://rows"))
    >>> contents.content
    '[{"x":1.5},{}]'
    """

    def text(value: Any) -> Any:
        if isinstance(value, (str, bytes)):
            return value
        return encode_value_json(value, f"resource {function.__name__}", options=options_in_force())

    if _is_async(function):

        @functools.wraps(function)
        async def read_async(*args: Any, **kwargs: Any) -> Any:
            return text(await function(*args, **kwargs))

        return read_async

    @functools.wraps(function)
    def read(*args: Any, **kwargs: Any) -> Any:
        return text(function(*args, **kwargs))

    return read

"""The resource methods: ``resources/list``, ``resources/templates/list``, ``resources/read`` and
(legacy era) ``resources/subscribe`` and ``resources/unsubscribe``.

A read runs the resource's function like a tool (sync functions in the server's workers) and
writes the response line there too, so a large frame never encodes on the event loop; an R value
the resource returned before is sent from the bytes written then (:mod:`mcplite.features.written`).
A URI no
resource serves (or whose decoded values a template refuses, see
:meth:`~mcplite.features.resources.ResourceRegistry.resolve`) is ``-32002`` before 2026-07-28 and
``-32602`` from it. A function that raises a ``LookupError`` says its URI names nothing, and the
client gets resource-not-found too (with the message of a ``mcplite.ResourceNotFound``); any other
exception is an internal error naming the resource, its message masked unless it is a
``mcplite.PublicError`` (see :mod:`mcplite.tools.failures`).

>>> [method.name for method in resource_methods()][:2]
['resources/list', 'resources/templates/list']
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
from collections.abc import Awaitable
from typing import Any

from mcplite.engine.handlers import Era, Method, Request, Written
from mcplite.engine.lines import result_line
from mcplite.engine.result_pages import is_stored_result, read_stored_page
from mcplite.features.contents import Contents
from mcplite.features.listing import listing
from mcplite.features.resources import RegisteredResource, ResourceNotFound
from mcplite.protocol.checks import cut
from mcplite.protocol.jsonrpc import INTERNAL_ERROR, INVALID_PARAMS, RpcError, is_request_id
from mcplite.protocol.versions import LOG_LEVEL_KEY, LOG_LEVELS, since
from mcplite.tools.arguments import ArgumentError
from mcplite.tools.context import Context
from mcplite.tools.failures import error_text, failure_message

log = logging.getLogger("mcplite.server")

RESOURCE_NOT_FOUND = -32002
"""The error of an unknown resource URI before 2026-07-28 (from it: ``-32602``, invalid params)."""


def request_context(request: Request) -> Context:
    """The context a resource or prompt function (or a tool) receives for ``request``."""
    meta = request.meta
    token = meta.get("progressToken")
    level = meta.get(LOG_LEVEL_KEY) if request.era == "modern" else request.session.log_level or LOG_LEVELS[0]
    return Context(
        request_id=request.id,
        protocol_version=request.version,
        notify=request.notify,
        progress_token=token if is_request_id(token) else None,
        log_level=level,
        cancelled=request.cancelled,
        lifespan_state=request.engine.offer.lifespan.state,
        read_resource=lambda uri: read_contents(request, uri),
        asker=request.asker,
        client_capabilities=request.client_capabilities,
    )


def _uri(request: Request) -> str:
    uri = request.params.get("uri")
    if not isinstance(uri, str):
        raise RpcError(INVALID_PARAMS, f"Invalid params: {request.method} needs uri (a string)")
    return uri


def not_found(uri: str, version: str, why: str = "") -> RpcError:
    """The error for a URI no resource serves, as ``version`` numbers it."""
    return _not_found_error(uri, version, f"Resource not found: {cut(uri, 200)}{why}")


def unserved(uri: str, version: str, error: ResourceNotFound) -> RpcError:
    """The error for a URI :meth:`~mcplite.features.resources.ResourceRegistry.resolve` refused."""
    return _not_found_error(uri, version, f"Resource not found: {error}")


def _not_found_error(uri: str, version: str, message: str) -> RpcError:
    code = INVALID_PARAMS if since(version, "2026-07-28") else RESOURCE_NOT_FOUND
    return RpcError(code, message, {"uri": uri})


def _found(request: Request, uri: str) -> tuple[RegisteredResource, dict[str, Any]]:
    try:
        found = request.engine.offer.resources.resolve(uri)
    except ResourceNotFound as err:
        raise unserved(uri, request.version, err) from None
    if found is None:
        raise not_found(uri, request.version)
    entry, values = found
    try:
        return entry, entry.bind(values, request_context(request))
    except ArgumentError as err:
        raise RpcError(
            INVALID_PARAMS, f"Invalid params: resource {cut(uri, 200)}: {err}", {"uri": uri}
        ) from None


def list_resources(request: Request) -> dict[str, Any]:
    """One page of the static resources."""
    engine = request.engine
    registry = engine.offer.resources
    if request.era == "legacy":
        engine.offer.subscriptions.listen(request.session, request.announce or request.notify)
    items = list(registry.resources.values())
    return listing(
        "resources", items, registry.resources_wire, request.params, request.version,
        page_size=registry.page_size, ttl_ms=engine.cache_ttl_ms,
    )  # fmt: skip


def list_templates(request: Request) -> dict[str, Any]:
    """One page of the resource templates."""
    registry = request.engine.offer.resources
    items = list(registry.templates.values())
    return listing(
        "resourceTemplates", items, registry.templates_wire, request.params, request.version,
        page_size=registry.page_size, ttl_ms=request.engine.cache_ttl_ms,
    )  # fmt: skip


def read_resource(request: Request) -> Awaitable[bytes]:
    """The handler of ``resources/read``: find the resource at once, then read it as a task."""
    uri = _uri(request)
    if is_stored_result(uri):  # the rest of a tool's result that was cut (mcplite.engine.result_pages)
        return request.engine.workers.run(read_stored_page, request, uri)
    entry, kwargs = _found(request, uri)
    return _read(request, entry, uri, kwargs)


async def _read(request: Request, entry: RegisteredResource, uri: str, kwargs: dict[str, Any]) -> bytes:
    workers = request.engine.workers
    if entry.is_async:
        try:
            value = await entry.function(**kwargs)
        except asyncio.CancelledError:
            raise
        except Exception as err:
            raise _failure(request, uri, err) from None
        return await workers.run(_line, request, entry, uri, value)
    return await workers.run(_run_sync, request, entry, uri, kwargs)


def _failure(request: Request, uri: str, error: Exception) -> RpcError:
    mask = request.engine.mask_error_details
    if isinstance(error, LookupError):  # the function says its URI names nothing
        message = error.args[0] if isinstance(error, KeyError) and len(error.args) == 1 else error
        log.info("resource %s names nothing: %s: %s", cut(uri, 200), type(error).__name__, message)
        shown = str(message) if isinstance(error, ResourceNotFound) or not mask else ""
        return not_found(uri, request.version, f" ({shown})" if shown else "")
    message = failure_message(f"Resource {cut(uri, 200)}", error, mask)
    return RpcError(INTERNAL_ERROR, message, {"uri": uri})


def _run_sync(request: Request, entry: RegisteredResource, uri: str, kwargs: dict[str, Any]) -> bytes:
    if request.cancelled.is_set():  # cancelled while it waited for a worker: its answer is never sent
        return b""
    try:
        value = entry.function(**kwargs)
    except Exception as err:
        raise _failure(request, uri, err) from None
    return _line(request, entry, uri, value)


def _line(request: Request, entry: RegisteredResource, uri: str, value: Any) -> bytes:
    """The response line of a read (in a worker thread: encoding stays off the loop)."""
    try:
        contents = entry.contents_json(uri, value, request.options, request.version)
    except Exception as err:
        text = error_text(err)
        log.warning("resource %s returned a value that cannot be sent: %s", cut(uri, 200), text)
        raise RpcError(
            INTERNAL_ERROR,
            f"Resource {cut(uri, 200)} returned a value that cannot be sent: {text}",
            {"uri": uri},
        ) from None
    head: dict[str, Any] = {}
    if request.era == "modern":
        head.update(ttlMs=request.engine.cache_ttl_ms, cacheScope="public")
    return result_line(request, Written(head, {"contents": contents}))


def read_contents(request: Request, uri: str) -> list[Contents]:
    """A resource's contents read from inside a tool (``ctx.read_resource``), in the tool's thread.

    An async resource function runs on an event loop of its own: in this thread from a sync tool
    (a worker thread), in a thread of its own from an async tool (whose loop is running here).
    A URI no resource serves raises ``mcplite.ResourceNotFound``; what the function raises
    (a ``LookupError`` for a value that names nothing) goes to the tool as it is.
    """
    try:
        found = request.engine.offer.resources.resolve(uri)
    except ResourceNotFound as err:
        raise ResourceNotFound(f"read_resource: {err}") from None
    if found is None:
        raise ResourceNotFound(f"read_resource: no resource or template serves {cut(uri, 200)!r}")
    entry, values = found
    value = entry.function(**entry.bind(values, request_context(request)))
    if entry.is_async:
        value = _run_coroutine(value)
    return entry.contents(uri, value, request.options)


def _run_coroutine(coroutine: Any) -> Any:
    try:
        asyncio.get_running_loop()
    except RuntimeError:  # no loop in this thread
        return asyncio.run(coroutine)
    with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="mcplite-read") as pool:
        return pool.submit(asyncio.run, coroutine).result()


def subscribe(request: Request) -> dict[str, Any]:
    """``resources/subscribe``: send this connection ``notifications/resources/updated`` for the URI."""
    uri = _uri(request)
    try:
        found = request.engine.offer.resources.resolve(uri)
    except ResourceNotFound as err:
        raise unserved(uri, request.version, err) from None
    if found is None:
        raise not_found(uri, request.version)
    request.engine.offer.subscriptions.subscribe(request.session, request.announce or request.notify, uri)
    return {}


def unsubscribe(request: Request) -> dict[str, Any]:
    """``resources/unsubscribe``: no more updates of the URI for this connection."""
    request.engine.offer.subscriptions.unsubscribe(request.session, _uri(request))
    return {}


def resource_methods() -> list[Method]:
    """The resource methods, registered once a server has a resource or a template."""
    legacy: frozenset[Era] = frozenset({"legacy"})
    changes = ("resources", {"subscribe": True, "listChanged": True})
    return [
        Method("resources/list", list_resources, capability=("resources", {})),
        Method("resources/templates/list", list_templates),
        Method("resources/read", read_resource, name_param="uri"),
        Method("resources/subscribe", subscribe, legacy, capability=changes),
        Method("resources/unsubscribe", unsubscribe, legacy),
    ]

"""``subscriptions/listen`` (2026-07-28): a long-lived request that carries the change
notifications its filter asks for, in place of ``resources/subscribe`` and the HTTP GET stream.

The filter is checked at once (``-32602`` naming the member that is wrong). The request then runs
as a task: it sends ``notifications/subscriptions/acknowledged`` with what the server agreed to
(the lists it has, the URIs one of its resources or templates serves), joins the hub
(:mod:`mcplite.features.subscriptions`), and waits. ``notifications/cancelled`` (stdio) or the
client closing the response stream (HTTP) ends it with no answer; the server stopping gracefully
answers it with ``{"resultType": "complete", "_meta": {subscriptionId: <id>}}``. The hub's
:class:`~mcplite.features.subscriptions.SubscriptionLimits` bound the URIs one listen names
(-32602) and the listens open (-32603, before any acknowledgement); over HTTP, the transport ends
a listen whose client stopped reading (:func:`backlog_overflow`).

>>> read_filter({"toolsListChanged": True, "resourceSubscriptions": ["data://x"]})
({'tools'}, ['data://x'])
>>> refine({"tools": {"listChanged": False}, "resources": {}})
{'tools': {'listChanged': True}, 'resources': {'listChanged': True, 'subscribe': True}}
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from collections.abc import Awaitable
from contextvars import ContextVar
from typing import Any

from mcplite.engine.handlers import Engine, Method, Request
from mcplite.engine.lines import encode, error_line
from mcplite.engine.tasks import watched_tasks
from mcplite.features.subscriptions import LIST_KINDS, SUBSCRIPTION_ID_KEY, Stream
from mcplite.features.task_store import TaskRecord
from mcplite.protocol.checks import check_utf8
from mcplite.protocol.jsonrpc import INTERNAL_ERROR, INVALID_PARAMS, RpcError, is_request_id
from mcplite.protocol.versions import MODERN_VERSIONS, SERVER_INFO_KEY

LISTEN = "subscriptions/listen"
ACKNOWLEDGED = "notifications/subscriptions/acknowledged"
TASK_STATUS = "notifications/tasks"
"""A watched task's new status (``notifications.taskIds``, the tasks extension)."""

BEARER_TOKEN: ContextVar[str | None] = ContextVar("mcplite_bearer_token", default=None)
"""The bearer token of the HTTP request being served (None: none, or not HTTP): its listens count
against ``max_listens_per_token``. The HTTP transport sets it for each request."""


def _invalid(why: str) -> RpcError:
    return RpcError(INVALID_PARAMS, f"Invalid params: {LISTEN} needs {why}")


def read_filter(notifications: Any, max_uris: int | None = None) -> tuple[set[str], list[str]]:
    """The lists and the resource URIs a ``SubscriptionFilter`` asks for (``-32602`` naming the
    member that is not what the schema says, or the limit when it names more than ``max_uris``)."""
    if not isinstance(notifications, dict):
        raise _invalid("notifications (a SubscriptionFilter object)")
    kinds = set()
    for kind in LIST_KINDS:
        flag = notifications.get(f"{kind}ListChanged", False)
        if not isinstance(flag, bool):
            raise _invalid(f"notifications.{kind}ListChanged to be a boolean")
        if flag:
            kinds.add(kind)
    uris = notifications.get("resourceSubscriptions", [])
    if isinstance(uris, list) and max_uris is not None and len(uris) > max_uris:
        raise _invalid(
            f"at most {max_uris} URIs in notifications.resourceSubscriptions, the server's limit "
            f"(max_uris_per_listen), not {len(uris)}; listen more than once for more"
        )
    if not isinstance(uris, list) or not all(isinstance(uri, str) for uri in uris):
        raise _invalid("notifications.resourceSubscriptions to be a list of URI strings")
    for i, uri in enumerate(uris):  # each is echoed in the acknowledgement: it must be sendable
        try:
            check_utf8(uri, f"notifications.resourceSubscriptions[{i}]")
        except ValueError as err:
            raise RpcError(INVALID_PARAMS, f"Invalid params: {err}") from None
    return kinds, list(dict.fromkeys(uris))


def refine(capabilities: dict[str, Any]) -> dict[str, Any]:
    """The 2026-07-28 capabilities: every list the server has can change, and its resources can be
    subscribed to, through ``subscriptions/listen``."""
    found = dict(capabilities)
    for kind in LIST_KINDS:
        if kind in found:
            found[kind] = {**found[kind], "listChanged": True}
    if "resources" in found:
        found["resources"] = {**found["resources"], "subscribe": True, "listChanged": True}
    return found


def listen(request: Request) -> Awaitable[dict[str, Any]]:
    """The handler of ``subscriptions/listen``: check the filter at once, then listen as a task."""
    engine = request.engine
    limit = engine.offer.subscriptions.limits.max_uris_per_listen
    kinds, uris = read_filter(request.params.get("notifications"), limit)
    offered = engine.capabilities("modern")
    kinds &= {kind for kind in LIST_KINDS if kind in offered}
    resources = engine.offer.resources
    if "resources" in offered:
        uris = [uri for uri in uris if resources.find(uri) is not None]
    else:
        uris = []
    tasks = watched_tasks(request, limit)
    return _listen(request, frozenset(kinds), uris, tasks)


async def _listen(
    request: Request, kinds: frozenset[str], uris: list[str], tasks: list[TaskRecord]
) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    ended = asyncio.Event()

    def end() -> None:
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits any more
            loop.call_soon_threadsafe(ended.set)

    token = BEARER_TOKEN.get()
    client = None if token is None else hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()
    stream = Stream(request.id, request.notify, kinds, frozenset(uris), request.session, end, client)
    hub = request.engine.offer.subscriptions
    hub.admit(client)  # no await from here to open: nothing else opens a listen in between
    honoured: dict[str, Any] = {f"{kind}ListChanged": True for kind in LIST_KINDS if kind in kinds}
    if uris:
        honoured["resourceSubscriptions"] = uris
    if tasks:
        honoured["taskIds"] = [task.id for task in tasks]
    request.notify(ACKNOWLEDGED, {"notifications": honoured, "_meta": stream.tag})
    hub.open(stream)

    def tell(task: dict[str, Any]) -> None:
        request.notify(TASK_STATUS, {**task, "_meta": stream.tag})

    for task in tasks:
        task.watchers.append(tell)
    try:
        await ended.wait()
    finally:
        for task in tasks:
            with contextlib.suppress(ValueError):
                task.watchers.remove(tell)
        hub.close(stream)
    return {"_meta": stream.tag}


def closing_line(engine: Engine, message: Any, version: Any) -> bytes | None:
    """The answer that ends a ``subscriptions/listen`` request ``message`` served at ``version``
    when the server stops, where the transport cannot reach the request's task first (an HTTP
    server that cancels what outlives its shutdown grace); None for any other message."""
    if not isinstance(message, dict) or message.get("method") != LISTEN or version not in MODERN_VERSIONS:
        return None
    request_id = message.get("id")
    if not is_request_id(request_id):
        return None
    meta = {SUBSCRIPTION_ID_KEY: request_id, SERVER_INFO_KEY: engine.server_info_wire(version)}
    return encode({"jsonrpc": "2.0", "id": request_id, "result": {"resultType": "complete", "_meta": meta}})


def backlog_overflow(engine: Engine, message: Any) -> bytes | None:
    """The error that ends the stream of the ``subscriptions/listen`` request ``message`` when
    ``max_listen_backlog`` notifications wait to be sent on it (its client stopped reading); None
    for any other message. The spec lets a listen end with an error; the client listens again.
    """
    if not isinstance(message, dict) or message.get("method") != LISTEN:
        return None
    request_id = message.get("id")
    if not is_request_id(request_id):
        return None
    limit = engine.offer.subscriptions.limits.max_listen_backlog
    error = RpcError(
        INTERNAL_ERROR,
        f"{LISTEN}: {limit} notifications waited to be sent on this stream, the server's limit "
        "(max_listen_backlog): the client read too slowly, and the listen is over; listen again",
    )
    return error_line(request_id, error)


def listen_methods() -> list[Method]:
    """``subscriptions/listen``, served from 2026-07-28 on."""
    return [Method(LISTEN, listen, frozenset({"modern"}), refines=refine)]

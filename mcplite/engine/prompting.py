"""The prompt methods (``prompts/list``, ``prompts/get``) and ``completion/complete``.

A prompt or a completion function runs like a tool: a sync one in the server's workers (in a copy
of the request's context, never started once the request is cancelled), so the event loop keeps
serving. An unknown prompt or arguments that do not fit are invalid params; a prompt or completion
that raises is an internal error naming it, the exception's message masked unless it is a
``mcplite.PublicError`` (see :mod:`mcplite.tools.failures`); a prompt's value that cannot be sent
is one too, saying what is wrong with it.

>>> [method.name for method in prompt_methods()]
['prompts/list', 'prompts/get']
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from mcplite.engine.handlers import Method, Request
from mcplite.engine.reads import request_context
from mcplite.features.completions import as_values, completion_wire
from mcplite.features.listing import listing
from mcplite.features.prompts import RegisteredPrompt
from mcplite.protocol.jsonrpc import INTERNAL_ERROR, INVALID_PARAMS, RpcError
from mcplite.tools.arguments import ArgumentError
from mcplite.tools.failures import error_text, failure_message

log = logging.getLogger("mcplite.server")


def list_prompts(request: Request) -> dict[str, Any]:
    """One page of the prompts."""
    registry = request.engine.offer.prompts
    items = list(registry.prompts.values())
    return listing(
        "prompts", items, registry.prompt_wire, request.params, request.version,
        page_size=registry.page_size, ttl_ms=request.engine.cache_ttl_ms,
    )  # fmt: skip


def get_prompt(request: Request) -> Awaitable[dict[str, Any]]:
    """The handler of ``prompts/get``: bind the arguments at once, then run the prompt as a task."""
    params = request.params
    name = params.get("name")
    if not isinstance(name, str):
        raise RpcError(INVALID_PARAMS, "Invalid params: prompts/get needs name (the prompt's name, a string)")
    prompt = request.engine.offer.prompts.get(name)
    if prompt is None:
        raise RpcError(INVALID_PARAMS, f"Unknown prompt: {name}")
    arguments = params.get("arguments") or {}
    if not isinstance(arguments, dict):
        raise RpcError(INVALID_PARAMS, f"Invalid params: the arguments of prompt {name} must be an object")
    try:
        kwargs = prompt.bind(arguments, request_context(request))
    except ArgumentError as err:
        raise RpcError(INVALID_PARAMS, f"Invalid arguments for prompt {name}: {err}") from None
    return _get(request, prompt, kwargs)


async def _get(request: Request, prompt: RegisteredPrompt, kwargs: dict[str, Any]) -> dict[str, Any]:
    try:
        if prompt.is_async:
            value = await prompt.function(**kwargs)
        else:
            value = await request.engine.workers.run(functools.partial(prompt.function, **kwargs))
    except asyncio.CancelledError:
        raise
    except Exception as err:
        message = failure_message(f"Prompt {prompt.name}", err, request.engine.mask_error_details)
        raise RpcError(INTERNAL_ERROR, message) from None
    try:
        messages = prompt.messages(value)
    except Exception as err:  # what mcplite found wrong with the value: sent, as a tool's is
        text = error_text(err)
        log.warning("prompt %s returned a value that cannot be sent: %s", prompt.name, text)
        raise RpcError(
            INTERNAL_ERROR, f"Prompt {prompt.name} returned a value that cannot be sent: {text}"
        ) from None
    wire: dict[str, Any] = {"messages": [message.to_wire(request.version) for message in messages]}
    if prompt.described.description is not None:
        wire = {"description": prompt.described.description, **wire}
    return wire


def complete(request: Request) -> Awaitable[dict[str, Any]]:
    """``completion/complete``: the values completing a prompt argument or a template parameter."""
    params = request.params
    ref, argument = params.get("ref"), params.get("argument")
    if not isinstance(ref, dict) or not isinstance(argument, dict):
        raise RpcError(INVALID_PARAMS, "Invalid params: completion/complete needs ref and argument (objects)")
    name, value = argument.get("name"), argument.get("value")
    if not isinstance(name, str) or not isinstance(value, str):
        raise RpcError(INVALID_PARAMS, "Invalid params: argument needs name and value (strings)")
    offer = request.engine.offer
    kind = ref.get("type")
    if kind == "ref/prompt":
        prompt = offer.prompts.get(str(ref.get("name")))
        if prompt is None:
            raise RpcError(INVALID_PARAMS, f"Unknown prompt: {ref.get('name')}")
        own = prompt.complete.get(name)
    elif kind == "ref/resource":
        uri = ref.get("uri")
        template = offer.resources.templates.get(uri) if isinstance(uri, str) else None
        if template is None:
            raise RpcError(INVALID_PARAMS, f"Unknown resource template: {uri}")
        own = template.complete.get(name)
    else:
        raise RpcError(
            INVALID_PARAMS, f"Invalid params: ref.type must be ref/prompt or ref/resource, not {kind!r}"
        )
    if own is not None:
        return _complete(request, f"The completion of {name!r}", own, value)
    if offer.completion is not None:
        return _complete(request, "The server's completion function", offer.completion, ref, name, value)
    return _complete(request, "", lambda: [])


async def _complete(request: Request, owner: str, function: Callable[..., Any], *args: Any) -> dict[str, Any]:
    try:
        if inspect.iscoroutinefunction(function):
            found = _listed(await function(*args))
        else:
            found = await request.engine.workers.run(_call_sync, request, function, args)
            if inspect.isawaitable(found):
                found = _listed(await found)
    except asyncio.CancelledError:
        raise
    except Exception as err:
        message = failure_message(owner, err, request.engine.mask_error_details)
        raise RpcError(INTERNAL_ERROR, message) from None
    try:
        values = as_values(found, owner)
    except TypeError as err:  # what mcplite found wrong with the values: sent, as a tool's is
        log.warning("%s", err)
        raise RpcError(INTERNAL_ERROR, str(err)) from None
    return {"completion": completion_wire(values)}


def _call_sync(request: Request, function: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    """A sync completion's values, listed in the worker (an awaitable it returns goes back to the loop)."""
    if request.cancelled.is_set():  # cancelled while it waited for a worker
        return []
    found = function(*args)
    return found if inspect.isawaitable(found) else _listed(found)


def _listed(found: Any) -> Any:
    """An iterable of values as a list (a generator's code runs here), anything else as it is."""
    return list(found) if isinstance(found, Iterable) and not isinstance(found, str) else found


def prompt_methods() -> list[Method]:
    """The prompt methods, registered once a server has a prompt."""
    return [
        Method("prompts/list", list_prompts, capability=("prompts", {})),
        Method("prompts/get", get_prompt, name_param="name"),
    ]


def completion_methods() -> list[Method]:
    """``completion/complete``, registered once a server has something to complete."""
    return [Method("completion/complete", complete, capability=("completions", {}))]

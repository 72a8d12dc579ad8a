"""A tool's result sized for the client: within its budget as it is; past it, the exact head that
fits, a note of the rows shown, and a ``resource_link`` to the rest; never past the hard cap.

The head is the tool's own result for the first n rows (what ``as_tool_result`` of those rows is,
or the typed tool's structured content of them), n the most that fits the budget. n is found from
a sample of rows and then by writing heads only: a value whose estimated size is well past the
budget is never written whole.

>>> largest_fit(lambda n: b"x" * (10 + 3 * n), 1000, 100)[0]
30
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import weakref
from collections.abc import Callable
from typing import Any

from mcplite.engine.handlers import Request, Session, Written
from mcplite.engine.lines import result_line
from mcplite.engine.listening import BEARER_TOKEN
from mcplite.features.result_store import RESULT_URI_PREFIX, TRUNCATED_KEY, StoredResult
from mcplite.payload.budget import SERVER_BUDGET, row_total, rows_between, storable
from mcplite.protocol.projection import result_parts
from mcplite.protocol.types import CallToolResult, ResourceLink, TextContent
from mcplite.tools.registry import RegisteredTool
from mcplite.tools.typed_values import misfits_unlogged

log = logging.getLogger("mcplite.server")

SAMPLE_ROWS = 32
"""Rows in each of the three samples (first, middle, last) that estimate a whole value's size."""

WRITE_WHOLE_BELOW = 4
"""A value estimated under this many budgets is written whole and measured; past it, it is cut
without being written whole."""

WRITE_WHOLE_ROWS = 3 * SAMPLE_ROWS
"""A value of at most this many rows is written whole at once: its samples would cost as much."""

_session_keys: weakref.WeakKeyDictionary[Session, str] = weakref.WeakKeyDictionary()


def owner_of(request: Request) -> str | None:
    """Who may read what ``request`` stores: its bearer token (hashed), else its legacy session;
    None for a stateless request without a token (the link's random key is then the only guard)."""
    token = BEARER_TOKEN.get()
    if token is not None:
        return "token:" + hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
    if request.era == "legacy":
        key = _session_keys.get(request.session)
        if key is None:  # random: a later session at the same address never reads an earlier one's
            key = _session_keys.setdefault(request.session, "session:" + secrets.token_hex(16))
        return key
    return None


def _written(result: CallToolResult, version: str) -> Written:
    wire, encoded = result_parts(result, version)
    return Written(wire, {} if encoded is None else {"structuredContent": encoded.text.encode("utf-8")})


def line_of(request: Request, result: CallToolResult) -> bytes:
    """The response line of ``result`` (as ``calls.written`` makes it)."""
    return result_line(request, _written(result, request.version))


def budget_of(request: Request, tool: RegisteredTool) -> int | None:
    """The budget of ``tool``'s results: its own, else the server's (None: no budget)."""
    own = getattr(tool, "result_budget", SERVER_BUDGET)
    return request.engine.results.budget if own is SERVER_BUDGET else own


def largest_fit(line_for: Callable[[int], bytes], count: int, budget: int) -> tuple[int, bytes]:
    """The most rows n (0..count) whose ``line_for(n)`` fits ``budget`` bytes, and that line (the
    line of 0 rows when none fits). Each probe is guessed from the bytes per row of the last line
    written, never more than a few times the rows known to fit, so only heads near the budget are
    written; bisection settles what the guesses do not."""
    empty = line_for(0)
    lo, lo_line = 0, empty
    if len(empty) > budget or count == 0:
        return 0, empty
    hi = count + 1  # never written: count rows are known not to fit, or are all there is
    probe = min(count, SAMPLE_ROWS)
    for _ in range(64):
        line = line_for(probe)
        if len(line) <= budget:
            lo, lo_line = probe, line
        else:
            hi = probe
        if hi - lo <= 1:
            break
        per_row = max(1.0, (len(line) - len(empty)) / probe)
        guess = int((budget - len(empty)) / per_row)
        if guess <= lo:
            guess = lo + max(1, lo // 50)  # just past what fits: find the first that does not
        elif guess >= hi:
            guess = (lo + hi) // 2
        guess = min(guess, 4 * lo + 2 * SAMPLE_ROWS, hi - 1)
        probe = guess if guess != probe and lo < guess < hi else (lo + hi) // 2
    return lo, lo_line


def estimated_size(request: Request, tool: RegisteredTool, value: Any, total: int) -> int:
    """The bytes of the whole value's line, from three samples of rows (first, middle, last)."""
    options = request.options
    k = min(SAMPLE_ROWS, total)
    with misfits_unlogged():  # samples: the value's own result logs a misfit once
        empty = len(line_of(request, tool.to_result(rows_between(value, 0, 0), options)))
        starts = sorted({0, max(0, total // 2 - k // 2), total - k})
        sampled = sum(
            len(line_of(request, tool.to_result(rows_between(value, s, s + k), options))) - empty
            for s in starts
        )
    return int(empty + sampled / (k * len(starts)) * total) if k else empty


def too_big(request: Request, tool: RegisteredTool, size: int, cap: int) -> bytes:
    """The error line of a result of ``size`` bytes past the cap ``cap`` (logged with the tool)."""
    log.warning(
        "tool %s: a result of %d bytes is past max_result_bytes (%d): sent as an error", tool.name, size, cap
    )
    text = (
        f"Tool {tool.name} returned a result of {size:,} bytes, past the server's max_result_bytes "
        f"of {cap:,}, and it cannot be cut to rows; ask for less (filter, select fewer columns)"
    )
    return line_of(request, CallToolResult([TextContent(text)], is_error=True))


def budgeted_line(request: Request, tool: RegisteredTool, value: Any) -> tuple[bytes, bool]:
    """The response line of ``tool``'s return ``value`` (within budget as it is, else cut), and
    whether it was cut (its rest stored)."""
    policy = request.engine.results
    budget = budget_of(request, tool)
    if budget is not None:
        value = storable(value)  # a DuckDB relation runs once, into the Arrow table cut below
    total = None if budget is None or isinstance(value, CallToolResult) else row_total(value)
    if budget is None or total is None or total < 2:
        whole = line_of(request, tool.to_result(value, request.options))
        return _capped(request, tool, whole, policy.max_bytes), False
    size = 0 if total <= WRITE_WHOLE_ROWS else estimated_size(request, tool, value, total)
    if size < WRITE_WHOLE_BELOW * budget:
        whole = line_of(request, tool.to_result(value, request.options))
        if len(whole) <= budget:
            return _capped(request, tool, whole, policy.max_bytes), False
        size = len(whole)
    return _capped(request, tool, cut_line(request, tool, value, total, size, budget), policy.max_bytes), True


def _capped(request: Request, tool: RegisteredTool, line: bytes, cap: int) -> bytes:
    return line if len(line) <= cap else too_big(request, tool, len(line), cap)


def cut_line(request: Request, tool: RegisteredTool, value: Any, total: int, size: int, budget: int) -> bytes:
    """The line of the head of ``value`` that fits ``budget``, with its note and link to the rest."""
    store = request.engine.results.store
    key = store.put(StoredResult(value, owner_of(request), tool.name, total, size))

    errors: dict[int, str] = {}  # heads that are error results (a misfit), logged once below

    def line_for(n: int) -> bytes:
        head = tool.to_result(rows_between(value, 0, n), request.options)
        if head.is_error:
            errors[n] = "\n".join(getattr(block, "text", "") for block in head.content)
            return line_of(request, head)
        return line_of(request, with_rest(head, key, n, total, size, tool.name))

    with misfits_unlogged():
        n, line = largest_fit(line_for, total - 1, budget)
    if n in errors:
        log.warning("%s", errors[n])
    log.info(
        "tool %s: result of %d rows (about %d bytes) cut to %d rows for a budget of %d",
        tool.name,
        total,
        size,
        n,
        budget,
    )
    return line


def with_rest(head: CallToolResult, key: str, shown: int, total: int, size: int, tool: str) -> CallToolResult:
    """``head`` with a note of the rows it shows and a ``resource_link`` to the rest."""
    uri = f"{RESULT_URI_PREFIX}{key}?offset={shown}"
    note = TextContent(
        f"Showing rows 1..{shown} of {total} (the result is about {size:,} bytes, past this tool's "
        f"result budget). Read the rest page by page with resources/read: {uri} (JSON rows; "
        "add &format=csv for CSV, &limit=N for N rows)."
    )
    link = ResourceLink(
        uri,
        f"{tool} result, rows {shown + 1}..{total}",
        description=f"Rows {shown + 1} to {total} of {total} of the result of {tool}, page by page",
        mime_type="application/json",
        size=size,
    )
    meta = {
        **(head.meta or {}),
        TRUNCATED_KEY: {"shown": shown, "total": total, "from": 1, "to": shown, "next": uri, "bytes": size},
    }
    return CallToolResult([*head.content, note, link], structured_content=head.structured, meta=meta)

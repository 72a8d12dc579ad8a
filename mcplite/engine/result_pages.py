"""``resources/read`` of a stored result (``mcplite://results/<key>?offset=<row>``): one page of its
rows, as JSON the tool would have written for them (or CSV with ``&format=csv``), as many as fit
the tool's result budget (or ``&limit=<rows>``), with the next page's URI in ``_meta``.

>>> page_query("mcplite://results/ab.12?offset=5&limit=2&format=csv")
('ab.12', 5, 2, 'csv')
"""

from __future__ import annotations

import urllib.parse
from typing import Any

import rvalues as rv
from mcplite.engine.handlers import Request
from mcplite.engine.lines import result_line
from mcplite.engine.sizing import budget_of, largest_fit, owner_of
from mcplite.features.result_store import RESULT_URI_PREFIX, TRUNCATED_KEY, ResultExpired, ResultNotFound
from mcplite.payload.budget import rows_between
from mcplite.payload.results import served_result
from mcplite.payload.returned import to_r
from mcplite.protocol.jsonrpc import INVALID_PARAMS, RpcError
from mcplite.protocol.types import EncodedJson, TextContent
from mcplite.protocol.versions import since

RESOURCE_NOT_FOUND = -32002


def is_stored_result(uri: str) -> bool:
    """Whether ``uri`` names a stored result (rather than a resource of the server's)."""
    return uri.startswith(RESULT_URI_PREFIX)


def _invalid(uri: str, why: str) -> RpcError:
    return RpcError(INVALID_PARAMS, f"Invalid params: {uri[:200]}: {why}", {"uri": uri})


def page_query(uri: str) -> tuple[str, int, int | None, str]:
    """The key, first row (0-based), row limit (None: what fits) and format a result URI names."""
    rest = uri[len(RESULT_URI_PREFIX) :]
    key, _, query = rest.partition("?")
    try:
        fields = urllib.parse.parse_qs(
            query, keep_blank_values=True, strict_parsing=bool(query), max_num_fields=8
        )
    except ValueError:
        raise _invalid(uri, "its query is not offset=<row>&limit=<rows>&format=json|csv") from None
    unknown = set(fields) - {"offset", "limit", "format"}
    if unknown:
        raise _invalid(
            uri, f"unknown parameter {sorted(unknown)[0]!r}; the parameters are offset, limit, format"
        )

    def number(name: str, low: int) -> int | None:
        values = fields.get(name)
        if values is None:
            return None
        if len(values) != 1 or not values[0].isdigit() or len(values[0]) > 12 or int(values[0]) < low:
            raise _invalid(uri, f"{name} must be one whole number of at least {low}, not {values!r}")
        return int(values[0])

    format_ = fields.get("format", ["json"])
    if format_ not in (["json"], ["csv"]):
        raise _invalid(uri, f"format must be json or csv, not {format_!r}")
    return key, number("offset", 0) or 0, number("limit", 1), format_[0]


def _not_found(request: Request, uri: str, error: Exception) -> RpcError:
    code = INVALID_PARAMS if since(request.version, "2026-07-28") else RESOURCE_NOT_FOUND
    return RpcError(code, f"Resource not found: {error}", {"uri": uri})


def page_uri(key: str, offset: int, limit: int | None, format_: str) -> str:
    """The URI of the page of ``key`` from row ``offset``."""
    query = f"offset={offset}" + (f"&limit={limit}" if limit is not None else "")
    return f"{RESULT_URI_PREFIX}{key}?{query}" + ("&format=csv" if format_ == "csv" else "")


def csv_text(rows: Any) -> str:
    """Rows of a data frame or a vector as CSV (a header, then one line a row; a vector is one
    column ``x``); a ``TypeError`` for a list, whose rows are no table.

    >>> csv_text(rv.Double([1.5, 2.0]))
    'x\\n1.5\\n2.0\\n'
    """
    table = rows
    if type(rows).__module__.partition(".")[0] != "pandas":
        x = to_r(rows, "stored result")
        if not (rv.r_class(x)[-1:] == ("data.frame",) or isinstance(x, rv.Vector)):
            raise TypeError("its rows are not a data frame or a vector")
        table = rv.to_pandas(x)
    if getattr(table, "ndim", 2) == 1:
        table = table.to_frame("x")
    return str(table.to_csv(index=False, lineterminator="\n"))


def read_stored_page(request: Request, uri: str) -> bytes:
    """The response line of a ``resources/read`` of a stored result's page (in a worker thread)."""
    key, offset, limit, format_ = page_query(uri)
    try:
        stored = request.engine.results.store.get(key, owner_of(request))
    except (ResultNotFound, ResultExpired) as err:
        raise _not_found(request, uri, err) from None
    if offset >= stored.total:
        raise _invalid(uri, f"offset {offset} is past the result's {stored.total} rows")
    tool = request.engine.tools.get(stored.tool)
    left = stored.total - offset

    def text_of(n: int) -> str:
        rows = rows_between(stored.value, offset, offset + n)
        if format_ == "csv":
            try:
                return csv_text(rows)
            except Exception as err:  # a list of records, nested lists: JSON only
                raise _invalid(
                    uri, f"this result cannot be written as CSV ({err}); read it as JSON"
                ) from None
        result = (
            served_result(rows, request.options) if tool is None else tool.to_result(rows, request.options)
        )
        structured = result.structured
        if isinstance(structured, EncodedJson):
            return structured.text
        block = result.content[0]
        return block.text if isinstance(block, TextContent) else ""

    def line_for(n: int) -> bytes:
        return result_line(
            request, _page(request, uri, key, offset, n, stored.total, limit, format_, text_of(n))
        )

    budget = None if tool is None else budget_of(request, tool)
    if limit is not None or budget is None:
        return line_for(min(left, limit or left))
    n, line = largest_fit(line_for, left, budget)
    return line if n > 0 else line_for(1)


def _page(
    request: Request,
    uri: str,
    key: str,
    offset: int,
    n: int,
    total: int,
    limit: int | None,
    format_: str,
    text: str,
) -> dict[str, Any]:
    more = offset + n < total
    meta = {
        TRUNCATED_KEY: {
            "from": offset + 1,
            "to": offset + n,
            "total": total,
            "next": page_uri(key, offset + n, limit, format_) if more else None,
        }
    }
    mime = "text/csv" if format_ == "csv" else "application/json"
    result: dict[str, Any] = {"contents": [{"uri": uri, "mimeType": mime, "text": text}], "_meta": meta}
    if request.era == "modern":
        result.update(ttlMs=0, cacheScope="private")
    return result

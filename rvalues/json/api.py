"""``to_json`` and ``to_data`` (jsonlite's ``toJSON``), and cattrs hooks that apply them."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rvalues.convert import as_r
from rvalues.json.dispatch import encode, top
from rvalues.json.frames import encode_frame
from rvalues.json.methods import builtin_method
from rvalues.json.options import JsonliteError, JsonOptions, Signif
from rvalues.json.prettify import beautify
from rvalues.model.base import RValue
from rvalues.model.classes import r_class


def _as_value(x: Any) -> RValue:
    return x if isinstance(x, RValue) else as_r(x)


def encode_with(x: Any, options: JsonOptions) -> str:
    """The JSON text of x under ``options`` (an already validated JsonOptions)."""
    value = _as_value(x)
    out = encode(value, top(options))
    if not isinstance(out, str):
        # toJSON of an uncollapsed result (unbox()ed values): R returns the token vector
        tokens = ["NA" if t is None else t for t in out.tolist()]
        if len(tokens) != 1:
            raise JsonliteError(
                f"toJSON gave {len(tokens)} JSON texts for one value (jsonlite would return a "
                "character vector); unbox() only length-1 values"
            )
        out = tokens[0]
    pretty = options.pretty
    if not isinstance(pretty, bool):
        out = beautify(out, pretty)
    return out


def encode_escaped_with(x: Any, options: JsonOptions) -> bytes:
    """The JSON text of x under ``options``, as the UTF-8 bytes of the inside of a JSON string
    holding it: ``json.dumps(text, ensure_ascii=False)[1:-1].encode()``, for splicing the text into
    a JSON document. The compiled writer writes a data frame's rows escaped in the one pass; other
    values are escaped after (the pure path, and the oracle).

    >>> print(encode_escaped_with({"a": 'say "hi"'}, JsonOptions(auto_unbox=True)).decode())
    {\\"a\\":\\"say \\\\\\"hi\\\\\\"\\"}
    """
    value = _as_value(x)
    if (
        isinstance(options.pretty, bool)
        and value.r_type == "list"
        and r_class(value)[:1] == ("data.frame",)
        and builtin_method("data.frame")
    ):
        out = encode_frame(value, top(options), escaped=True)
        if isinstance(out, bytes):
            return out
        if isinstance(out, str):
            return json.dumps(out, ensure_ascii=False)[1:-1].encode("utf-8")
    return json.dumps(encode_with(value, options), ensure_ascii=False)[1:-1].encode("utf-8")


def to_json(
    x: Any,
    *,
    dataframe: str = "rows",
    matrix: str = "rowmajor",
    date: str = "ISO8601",
    posixt: str = "string",
    factor: str = "string",
    complex: str = "string",
    raw: str = "base64",
    null: str = "list",
    na: str | None = None,
    auto_unbox: bool = False,
    digits: int | float | Signif | None = 4,
    pretty: bool | int | float = False,
    force: bool = False,
    keep_vec_names: bool = False,
    always_decimal: bool = False,
    rownames: bool | None = None,
    utc: bool = False,
    time_format: str | None = None,
    json_verbatim: bool = False,
    no_dots: bool = False,
    digits_secs: int | None = None,
) -> str:
    """jsonlite 1.8.4's ``toJSON(x, ...)``, byte for byte; the options are :class:`JsonOptions`'.

    >>> from rvalues import c, NA_real_
    >>> to_json(c(1.5, NA_real_, 3))
    '[1.5,"NA",3]'
    >>> to_json(c(1.5, NA_real_, 3), na="null", auto_unbox=True)
    '[1.5,null,3]'
    """
    # the keywords are JsonOptions' fields, one for one (tests/test_json_options_declared_once.py)
    options = dict(locals())
    del options["x"]
    return encode_with(x, JsonOptions(**options))


_scan_value: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]
"""json's own C scanner: what ``json.loads`` runs, without its Python layers (a third of its time
for a small payload)."""


def read_json(text: str) -> Any:
    """The Python objects of one JSON text, as ``json.loads`` reads them (and its error if the text
    is not one JSON value); a text with nothing around its value skips ``loads``' Python layers.

    >>> read_json('{"a":[1,null]}')
    {'a': [1, None]}
    """
    try:
        data, end = _scan_value(text, 0)
    except (StopIteration, json.JSONDecodeError):
        end = -1
    if end != len(text):  # whitespace around the value (pretty), or not JSON: json.loads decides
        return json.loads(text)
    return data


def data_with(x: Any, options: JsonOptions) -> Any:
    """JSON-ready Python objects for x under ``options``."""
    text = encode_with(x, options)
    try:
        return read_json(text)
    except json.JSONDecodeError:
        raise JsonliteError(
            f"the JSON text for this value is not JSON (raw='js' gives JavaScript): {text[:80]!r}"
        ) from None


def to_data(x: Any, **options: Any) -> Any:
    """What ``to_json(x, **options)`` writes, as dict/list/str/int/float/bool/None.

    >>> from rvalues import data_frame
    >>> to_data(data_frame(x=[1, 2], y=["a", None]))
    [{'x': 1, 'y': 'a'}, {'x': 2}]
    """
    return data_with(x, JsonOptions(**options))


def register_hooks(converter: Any, options: JsonOptions | dict[str, Any] | None = None) -> Any:
    """Make ``converter.unstructure`` turn any rvalues object into ``to_data`` output.

    >>> import cattrs
    >>> from rvalues import c
    >>> conv = cattrs.Converter()
    >>> _ = register_hooks(conv, {"auto_unbox": True})
    >>> conv.unstructure({"n": c(1, 2), "s": c("a")})
    {'n': [1, 2], 's': 'a'}
    """
    if options is None:
        opts = JsonOptions()
    elif isinstance(options, JsonOptions):
        opts = options
    else:
        opts = JsonOptions(**options)
    converter.register_unstructure_hook_func(
        lambda cls: isinstance(cls, type) and issubclass(cls, RValue), lambda value: data_with(value, opts)
    )
    return converter

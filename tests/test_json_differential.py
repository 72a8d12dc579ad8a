"""Differential test: random R values under random options, serialized by rvalues and by R's
jsonlite (one Rscript process for the whole batch), compared byte for byte.

Values are generated as rdesc descriptions, so both sides build exactly the same value
(``rvalues.from_description`` here, ``from_rdesc`` in R).
"""

from __future__ import annotations

import datetime as dt
import json
import math
import os
import shutil
import subprocess
import warnings
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rvalues
from rvalues.json import JsonOptions
from rvalues.json.api import encode_with

DATA = Path(__file__).parent / "data" / "conformance"
N_EXAMPLES = 1500

pytestmark = [
    pytest.mark.r,
    pytest.mark.skipif(shutil.which("Rscript") is None, reason="needs Rscript with jsonlite"),
]

R_SCRIPT = r"""
args <- commandArgs(trailingOnly = TRUE)
source(args[[1]])
cases <- fromJSON(args[[2]], simplifyVector = FALSE)
opt_value <- function(v) {
  if (is.null(v)) return(NA)
  if (is.list(v) && identical(names(v), "I")) return(I(if (is.null(v$I)) NA else v$I))
  v
}
answer <- function(case) {
  tryCatch({
    x <- from_rdesc(case$value)
    opts <- lapply(case$options, opt_value)
    out <- withCallingHandlers(
      do.call(toJSON, c(list(x), opts)),
      warning = function(w) invokeRestart("muffleWarning"),
      message = function(m) invokeRestart("muffleMessage"))
    list(json = paste(as.character(out), collapse = "\n"))
  }, error = function(e) list(error = conditionMessage(e)))
}
out <- lapply(cases, answer)
writeLines(as.character(toJSON(out, auto_unbox = TRUE)), args[[3]], useBytes = TRUE)
"""

# -- values, as rdesc descriptions --------------------------------------------------------------

TEXT = st.text(
    # R strings cannot hold NUL; lone surrogates are not text (tests/test_json_strings.py)
    st.characters(codec="utf-8", exclude_categories=("Cs",), exclude_characters="\x00")
    | st.sampled_from(list('"\\/<\n\t\x01\x7fé😀 ')),
    max_size=6,
)
FINITE = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False, width=64),
    st.floats(-1e6, 1e6).map(lambda v: round(v, 3)),
    st.integers(-(10**6), 10**6).map(float),
    st.sampled_from([0.5, 1.5, 2.5, 0.00015, 1e-5, 1e15, 2147483647.0, -0.0, 0.1, 1 / 3, 99999.99999]),
)


def _double_text(v: float) -> str:
    if v == 0 and str(v).startswith("-"):
        return "-0"
    return "%.17g" % v


DOUBLE = st.one_of(FINITE.map(_double_text), st.sampled_from(["NA", "NaN", "Inf", "-Inf"]))
INTEGER = st.one_of(st.integers(-(2**31) + 1, 2**31 - 1), st.integers(-100, 100), st.none())


def _chr(values: list[Any]) -> dict[str, Any]:
    return {"type": "character", "values": values}


def _int(values: list[int]) -> dict[str, Any]:
    return {"type": "integer", "values": values}


@st.composite
def names_for(draw: Any, n: int) -> list[Any]:
    return draw(
        st.lists(
            st.one_of(st.sampled_from(["a", "b", "", "a.1", "x y"]), TEXT, st.none()), min_size=n, max_size=n
        )
    )


@st.composite
def atomic(draw: Any, n: int | None = None, named: bool = True) -> dict[str, Any]:
    size = draw(st.integers(0, 4)) if n is None else n
    kind = draw(
        st.sampled_from(
            [
                "logical",
                "integer",
                "double",
                "double",
                "character",
                "complex",
                "raw",
                "factor",
                "Date",
                "POSIXct",
            ]
        )
    )
    if kind == "logical":
        d = {
            "type": "logical",
            "values": draw(st.lists(st.one_of(st.booleans(), st.none()), min_size=size, max_size=size)),
        }
    elif kind == "integer":
        d = _int(draw(st.lists(INTEGER, min_size=size, max_size=size)))
    elif kind == "double":
        d = {"type": "double", "values": draw(st.lists(DOUBLE, min_size=size, max_size=size))}
    elif kind == "character":
        d = _chr(draw(st.lists(st.one_of(TEXT, st.none(), st.just("NA")), min_size=size, max_size=size)))
    elif kind == "complex":
        part = st.one_of(FINITE.filter(lambda v: abs(v) < 1e12).map(_double_text), st.just("Inf"))
        d = {
            "type": "complex",
            "values": draw(
                st.lists(st.one_of(st.tuples(part, part).map(list), st.none()), min_size=size, max_size=size)
            ),
        }
    elif kind == "raw":
        d = {"type": "raw", "values": draw(st.lists(st.integers(0, 255), min_size=size, max_size=size))}
    elif kind == "factor":
        # a level may itself be NA (factor(x, exclude = NULL))
        levels = draw(
            st.lists(
                st.sampled_from(["lo", "hi", "mid", "é", "<//>", None]), min_size=1, max_size=4, unique=True
            )
        )
        codes = draw(
            st.lists(st.one_of(st.integers(1, len(levels)), st.none()), min_size=size, max_size=size)
        )
        cls = draw(st.sampled_from([["factor"], ["ordered", "factor"]]))
        d = {"type": "integer", "values": codes, "attributes": {"levels": _chr(levels), "class": _chr(cls)}}
    elif kind == "Date":
        days = st.one_of(
            st.integers(-800000, 3000000).map(float),
            st.floats(-1e5, 1e5),
            st.just(float("nan")),
            st.sampled_from([1e10, 3e9, -784352321506.0, 784352270736.0, 1e300, 2147483648.0]),
        )
        vals = [
            ("NA" if v != v else _double_text(v)) for v in draw(st.lists(days, min_size=size, max_size=size))
        ]
        d = {"type": "double", "values": vals, "attributes": {"class": _chr(["Date"])}}
    else:
        tz = draw(st.sampled_from([None, "UTC", "America/New_York", "Asia/Tokyo", ""]))
        far = [3e11, -1e12, 1e300]
        if tz in (None, "UTC", ""):
            # far-future daylight saving: R's localtime and zoneinfo differ past year ~10^7
            far += [1e15, 6.8e16]
        secs = st.one_of(
            st.integers(-2 * 10**9, 4 * 10**9).map(float),
            st.floats(-1e9, 2e9),
            st.sampled_from([0.0, 86400.0, 1577836800.0, 1577836800.5, *far]),
        )
        vals = [_double_text(v) for v in draw(st.lists(secs, min_size=size, max_size=size))]
        if size and draw(st.booleans()):
            vals[0] = "NA"
        attrs: dict[str, Any] = {"class": _chr(["POSIXct", "POSIXt"])}
        if tz is not None:
            attrs["tzone"] = _chr([tz])
        d = {"type": "double", "values": vals, "attributes": attrs}
    if named and size and draw(st.integers(0, 4)) == 0:
        d.setdefault("attributes", {})
        d["attributes"] = {"names": _chr(draw(names_for(size))), **d["attributes"]}
    return d


LT_FIELDS = ("sec", "min", "hour", "mday", "mon", "year", "wday", "yday", "isdst", "zone", "gmtoff")


def posixlt_desc(seconds: list[float | None], tz: str, full: bool = True) -> dict[str, Any]:
    """The rdesc of ``as.POSIXlt(<seconds>, tz)``, broken down by zoneinfo; ``full`` adds the
    ``zone`` and ``gmtoff`` fields (without them R works the offset out itself)."""
    zone = ZoneInfo(tz or "UTC")
    cols: dict[str, list[Any]] = {k: [] for k in LT_FIELDS}
    for s in seconds:
        if s is None:
            for k in LT_FIELDS:
                cols[k].append({"isdst": -1, "zone": ""}.get(k))
            continue
        whole = math.floor(s)
        t = dt.datetime.fromtimestamp(whole, zone)
        offset = t.utcoffset()
        parts = {
            "sec": t.second + (s - whole),
            "min": t.minute,
            "hour": t.hour,
            "mday": t.day,
            "mon": t.month - 1,
            "year": t.year - 1900,
            "wday": (t.weekday() + 1) % 7,
            "yday": t.timetuple().tm_yday - 1,
            "isdst": 1 if t.dst() else 0,
            "zone": t.tzname(),
            "gmtoff": None if offset is None else int(offset.total_seconds()),
        }
        for k in LT_FIELDS:
            cols[k].append(parts[k])
    kept = LT_FIELDS if full else LT_FIELDS[:9]
    values = [{"type": "double", "values": ["NA" if v is None else _double_text(v) for v in cols["sec"]]}]
    values += [_chr(cols[k]) if k == "zone" else _int(cols[k]) for k in kept[1:]]
    return {
        "type": "list",
        "values": values,
        "attributes": {
            "names": _chr(list(kept)),
            "class": _chr(["POSIXlt", "POSIXt"]),
            "tzone": _chr([tz] if tz in ("", "UTC") else [tz, "STD", "DST"]),
        },
    }


@st.composite
def posixlt(draw: Any, n: int | None = None) -> dict[str, Any]:
    """A POSIXlt date-time, fractional seconds and zones included."""
    size = draw(st.integers(0, 3)) if n is None else n
    tz = draw(st.sampled_from(["UTC", "America/New_York", "Asia/Tokyo", "Europe/London"]))
    secs = st.one_of(
        st.none(),
        st.integers(-2 * 10**9, 2 * 10**9).map(float),
        st.tuples(
            st.sampled_from([0, 2**30, -(2**30), 2**31 - 10**5, 1577836800]),
            st.integers(-50000, 50000),
            st.sampled_from([0.0, 0.001, 0.5, 0.123, 0.999]),
        ).map(lambda t: float(t[0] + t[1]) + t[2]),
    )
    return posixlt_desc(draw(st.lists(secs, min_size=size, max_size=size)), tz, draw(st.booleans()))


def _wrap_class(draw: Any, d: dict[str, Any]) -> dict[str, Any]:
    """Sometimes wrap in I() or unbox() (scalar) as R would."""
    choice = draw(st.integers(0, 9))
    classes = (d.get("attributes") or {}).get("class", {}).get("values")
    implicit = {
        "logical": "logical",
        "integer": "integer",
        "double": "numeric",
        "character": "character",
        "complex": "complex",
        "raw": "raw",
        "list": "list",
    }[d["type"]]
    if choice == 0:
        new = ["AsIs", *(classes or [])]
    elif (
        choice == 1
        and d["type"] != "list"
        and len(d["values"]) == 1
        and "dim" not in (d.get("attributes") or {})
    ):
        new = ["scalar", *(classes or [implicit])]
    elif choice == 2:
        new = ["myclass", *(classes or [])]
    else:
        return d
    attrs = dict(d.get("attributes") or {})
    attrs["class"] = _chr(new)
    return {**d, "attributes": attrs}


@st.composite
def matrix(draw: Any) -> dict[str, Any]:
    dims = draw(st.lists(st.integers(0, 3), min_size=1, max_size=3))
    n = 1
    for k in dims:
        n *= k
    base = draw(atomic(n=n, named=False).filter(lambda d: "class" not in (d.get("attributes") or {})))
    attrs = {"dim": _int(dims)}
    if len(dims) == 2 and draw(st.booleans()):
        attrs["dimnames"] = {
            "type": "list",
            "values": [_chr([f"r{i}" for i in range(dims[0])]), {"type": "NULL"}],
        }
    return {**base, "attributes": attrs}


@st.composite
def data_frame(draw: Any, depth: int) -> dict[str, Any]:
    nrow = draw(st.integers(0, 3))
    ncol = draw(st.integers(0, 3))
    cols = []
    for _ in range(ncol):
        kind = draw(st.integers(0, 9))
        if kind == 8 and depth > 0:
            cols.append({"type": "list", "values": [draw(value(depth - 1)) for _ in range(nrow)]})
        elif kind == 7 and nrow:
            inner = draw(
                atomic(n=2 * nrow, named=False).filter(lambda d: "class" not in (d.get("attributes") or {}))
            )
            cols.append({**inner, "attributes": {"dim": _int([nrow, 2])}})
        elif kind == 6 and draw(st.booleans()):
            cols.append(draw(posixlt(nrow)))
        elif kind == 9 and depth > 0:
            inner = draw(data_frame(0).filter(lambda d: True))
            inner_rows = inner["attributes"]["row.names"]
            if _rows(inner_rows) == nrow:
                cols.append(inner)
            else:
                cols.append(draw(atomic(n=nrow, named=False)))
        else:
            col = draw(atomic(n=nrow, named=False))
            cols.append(_wrap_class(draw, col) if draw(st.integers(0, 5)) == 0 and nrow != 1 else col)
    names = draw(st.lists(st.sampled_from(["a", "b", "a", "", "_row", "x.y"]), min_size=ncol, max_size=ncol))
    rn_kind = draw(st.integers(0, 3))
    if rn_kind == 1 and nrow:
        row_names: dict[str, Any] = _chr(
            draw(
                st.lists(
                    st.sampled_from(["r1", "r2", "10", "x", "3", "-1"]),
                    min_size=nrow,
                    max_size=nrow,
                    unique=True,
                )
            )
        )
    elif rn_kind == 2 and nrow:
        row_names = _int(draw(st.lists(st.integers(1, 50), min_size=nrow, max_size=nrow, unique=True)))
    else:
        row_names = _int([None, -nrow]) if nrow else _int([])
    return {
        "type": "list",
        "values": cols,
        "attributes": {"names": _chr(names), "class": _chr(["data.frame"]), "row.names": row_names},
    }


def _rows(row_names: dict[str, Any]) -> int:
    v = row_names["values"]
    if row_names["type"] == "integer" and len(v) == 2 and v[0] is None:
        return abs(v[1])
    return len(v)


def value(depth: int = 2) -> st.SearchStrategy[dict[str, Any]]:
    leaves = st.one_of(atomic(), atomic(), matrix(), posixlt(), st.just({"type": "NULL"}))
    if depth <= 0:
        return leaves
    lists = st.lists(st.deferred(lambda: value(depth - 1)), max_size=3).flatmap(
        lambda items: st.one_of(
            st.just({"type": "list", "values": items}),
            names_for(len(items)).map(
                lambda nm: {"type": "list", "values": items, "attributes": {"names": _chr(nm)}}
            ),
        )
    )
    return st.one_of(leaves, lists, data_frame(depth - 1))


@st.composite
def wrapped_value(draw: Any) -> dict[str, Any]:
    d = draw(value())
    return d if d["type"] == "NULL" else _wrap_class(draw, d)


OPTION_CHOICES: dict[str, list[Any]] = {
    "dataframe": ["rows", "columns", "values"],
    "matrix": ["rowmajor", "columnmajor"],
    "Date": ["ISO8601", "epoch"],
    "POSIXt": ["string", "ISO8601", "epoch", "mongo"],
    "factor": ["string", "integer"],
    "complex": ["string", "list"],
    "raw": ["base64", "hex", "mongo", "int", "js"],
    "null": ["list", "null"],
    "na": ["null", "string"],
    "auto_unbox": [True, False],
    "digits": [0, 1, 2, 4, 7, 9, 10, 15, -1, None, {"I": 3}, {"I": 1}, {"I": 15}],
    "pretty": [True, False, 2, 0],
    "force": [True, False],
    "keep_vec_names": [True, False],
    "always_decimal": [True, False],
    "rownames": [True, False],
}


@st.composite
def option_set(draw: Any) -> dict[str, Any]:
    chosen = draw(st.lists(st.sampled_from(sorted(OPTION_CHOICES)), max_size=5, unique=True))
    return {name: draw(st.sampled_from(OPTION_CHOICES[name])) for name in chosen}


# cases random exploration found (each once differed from jsonlite), always compared
REGRESSIONS: list[dict[str, Any]] = [
    {
        "value": {
            "type": "list",
            "values": [
                {
                    "type": "double",
                    "values": ["NA", "1577836800"],
                    "attributes": {
                        "class": {"type": "character", "values": ["POSIXct", "POSIXt"]},
                        "tzone": {"type": "character", "values": ["Asia/Tokyo"]},
                    },
                }
            ],
            "attributes": {
                "names": {"type": "character", "values": ["a"]},
                "class": {"type": "character", "values": ["AsIs", "data.frame"]},
                "row.names": {"type": "integer", "values": [30, 18]},
            },
        },
        "options": {
            "POSIXt": "mongo",
            "digits": {"I": 3},
            "dataframe": "columns",
            "Date": "epoch",
            "matrix": "columnmajor",
        },
    },
    {
        "value": {
            "type": "list",
            "values": [
                {"type": "raw", "values": [204, 111, 81]},
                {"type": "double", "values": ["NaN", "1179", "1000000000000000"]},
                {
                    "type": "integer",
                    "values": [1, 1, 1],
                    "attributes": {
                        "levels": {"type": "character", "values": ["lo", "\u00e9"]},
                        "class": {"type": "character", "values": ["factor"]},
                    },
                },
            ],
            "attributes": {
                "names": {"type": "character", "values": ["x.y", "a", "a"]},
                "class": {"type": "character", "values": ["data.frame"]},
                "row.names": {"type": "character", "values": ["-1", "3", "r2"]},
            },
        },
        "options": {"digits": 9},
    },
    {
        "value": {
            "type": "list",
            "values": [
                {
                    "type": "list",
                    "values": [
                        {
                            "type": "double",
                            "values": ["NA", "-344", "52"],
                            "attributes": {
                                "names": {"type": "character", "values": [None, "\u007f|/", "\u00e9\u0014"]},
                                "class": {"type": "character", "values": ["POSIXct", "POSIXt"]},
                                "tzone": {"type": "character", "values": [""]},
                            },
                        }
                    ],
                    "attributes": {"names": {"type": "character", "values": ["x y"]}},
                }
            ],
        },
        "options": {
            "auto_unbox": True,
            "keep_vec_names": False,
            "na": "None",
            "rownames": False,
            "POSIXt": "mongo",
        },
    },
    {
        "value": {
            "type": "list",
            "values": [
                {
                    "type": "list",
                    "values": [
                        {
                            "type": "double",
                            "values": ["NA", "-344", "-344"],
                            "attributes": {
                                "names": {"type": "character", "values": [None, "x y", "\u0014\u0014"]},
                                "class": {"type": "character", "values": ["POSIXct", "POSIXt"]},
                                "tzone": {"type": "character", "values": [""]},
                            },
                        }
                    ],
                    "attributes": {"names": {"type": "character", "values": [None]}},
                }
            ],
        },
        "options": {
            "auto_unbox": True,
            "keep_vec_names": False,
            "na": "None",
            "rownames": False,
            "POSIXt": "mongo",
        },
    },
    {
        "value": {
            "type": "list",
            "values": [
                {
                    "type": "double",
                    "values": ["NA", "1422", "1.0000000000000001e+300"],
                    "attributes": {"class": {"type": "character", "values": ["Date"]}},
                },
                {"type": "complex", "values": [None, None, ["1.5", "2.5904975400310347e-127"]]},
            ],
            "attributes": {
                "names": {"type": "character", "values": ["x.y", "x.y"]},
                "class": {"type": "character", "values": ["AsIs", "data.frame"]},
                "row.names": {"type": "integer", "values": [None, -3]},
            },
        },
        "options": {"Date": "epoch", "digits": 7, "na": "string", "matrix": "rowmajor", "auto_unbox": False},
    },
    {
        "value": {
            "type": "list",
            "values": [
                {
                    "type": "double",
                    "values": ["NA", "1422", "1.0000000000000001e+300"],
                    "attributes": {"class": {"type": "character", "values": ["Date"]}},
                },
                {"type": "double", "values": ["1", "-0", "2.5"]},
            ],
            "attributes": {
                "names": {"type": "character", "values": ["x.y", "x.y"]},
                "class": {"type": "character", "values": ["data.frame"]},
                "row.names": {"type": "integer", "values": [None, -3]},
            },
        },
        "options": {"Date": "epoch", "digits": 7, "na": "string"},
    },
    {
        "value": {
            "type": "list",
            "values": [
                {"type": "double", "values": ["-0", "0.5", "NaN"]},
                {"type": "logical", "values": [True, None, False]},
            ],
            "attributes": {
                "names": {"type": "character", "values": ["a%d", "b"]},
                "class": {"type": "character", "values": ["data.frame"]},
                "row.names": {"type": "integer", "values": [None, -3]},
            },
        },
        "options": {"digits": 0, "always_decimal": True, "na": "None"},
    },
]


def _frame(columns: list[dict[str, Any]], names: list[str], nrow: int) -> dict[str, Any]:
    return {
        "type": "list",
        "values": columns,
        "attributes": {
            "names": _chr(names),
            "class": _chr(["data.frame"]),
            "row.names": _int([None, -nrow]),
        },
    }


_NA_LEVEL = {
    "type": "integer",
    "values": [1, 2, None],
    "attributes": {"levels": _chr(["a", None]), "class": _chr(["factor"])},
}
_NAMED_TIMES = {
    "type": "double",
    "values": ["1000000000.5", "1000000001"],
    "attributes": {"names": _chr(["", ""]), "class": _chr(["POSIXct", "POSIXt"])},
}
# found by this fuzz: an NA level in rows; all-empty names under mongo; POSIXlt fractions near 2^30 in a zone
REGRESSIONS += [
    {"value": _frame([_NA_LEVEL, _int([1, 2, 3])], ["f", "x"], 3), "options": {}},
    {"value": _frame([_NA_LEVEL], ["f"], 3), "options": {"na": "string"}},
    {"value": _NAMED_TIMES, "options": {"POSIXt": "mongo"}},
    {
        "value": {
            **_NAMED_TIMES,
            "values": ["1"],
            "attributes": {**_NAMED_TIMES["attributes"], "names": _chr([""])},
        },
        "options": {"POSIXt": "mongo"},
    },
    {
        "value": posixlt_desc([-1073741496.001, 1073709758.001], "America/New_York"),
        "options": {"POSIXt": "epoch"},
    },
    {"value": posixlt_desc([1073722288.001, None], "Asia/Tokyo", False), "options": {"POSIXt": "mongo"}},
    {"value": _frame([posixlt_desc([1e9 + 0.5, None], "Europe/London")], ["t"], 2), "options": {}},
]


def long_cases() -> list[dict[str, Any]]:
    """Long vectors and a large data frame (the vectorized paths) under every digits setting."""
    import numpy as np

    rng = np.random.default_rng(1954)
    n = 5000  # above the 4096 from which repetitive strings are escaped once per distinct value
    pool = np.concatenate(
        [
            rng.normal(0, 1, n),
            rng.normal(100, 50, n).round(3),
            rng.uniform(-1e-4, 1e-4, n),
            10.0 ** rng.uniform(-8, 18, n) * rng.choice([-1, 1], n),
            rng.integers(-(10**6), 10**6, n) / 8,
        ]
    )
    vals = [_double_text(v) for v in rng.choice(pool, n).tolist()]
    for i in rng.choice(n, 60, replace=False).tolist():
        vals[i] = ["NA", "NaN", "Inf", "-Inf", "-0", "0.5", "2.5", "0.00015"][i % 8]
    ints = [
        None if i % 17 == 0 else int(v) for i, v in enumerate(rng.integers(-(2**31) + 1, 2**31, n).tolist())
    ]
    days = [
        ("NA" if i % 13 == 0 else _double_text(float(v)))
        for i, v in enumerate(rng.integers(-(10**5), 10**5, n))
    ]
    lgl = [None if i % 7 == 0 else bool(v) for i, v in enumerate(rng.integers(0, 2, n).tolist())]
    text = [None if i % 11 == 0 else f's{v}</é"' for i, v in enumerate(rng.integers(0, 50, n).tolist())]
    codes = [None if i % 5 == 0 else int(v) for i, v in enumerate(rng.integers(1, 4, n).tolist())]
    vector = {"type": "double", "values": vals}
    # few distinct whole parts and integers (formatted as tables), with signs, ties and NA
    small = [_double_text(v) for v in (rng.integers(-3000, 3000, n) / 16 + rng.choice([0, 5e-5], n)).tolist()]
    for i in rng.choice(n, 40, replace=False).tolist():
        small[i] = ["NA", "-0", "-0.00002", "0.99995", "-0.5"][i % 5]
    counts = [None if i % 19 == 0 else int(v) for i, v in enumerate(rng.integers(-1000, 1000, n).tolist())]
    # date-times over a DST change, with fractions (-1e-16 shows second 60) and NA
    stamps = [_double_text(v) for v in (1_710_000_000 + rng.integers(0, 10**7, n) + rng.choice([0, 0.25], n))]
    for i in rng.choice(n, 30, replace=False).tolist():
        stamps[i] = ["NA", "Inf", _double_text(-1e-16), "NaN", "-Inf"][i % 5]
    midnights = [
        ("NA" if i % 23 == 0 else _double_text(float(v) * 86400))
        for i, v in enumerate(rng.integers(0, 900, n))
    ]
    posixct = {"class": _chr(["POSIXct", "POSIXt"]), "tzone": _chr(["America/New_York"])}
    times = {
        "type": "list",
        "values": [
            {"type": "double", "values": stamps, "attributes": posixct},
            {"type": "double", "values": midnights, "attributes": {**posixct, "tzone": _chr(["UTC"])}},
            {"type": "double", "values": small},
            _int(counts),
        ],
        "attributes": {
            "names": _chr(["when", "day", "small", "count"]),
            "class": _chr(["data.frame"]),
            "row.names": _int([None, -n]),
        },
    }
    frame = {
        "type": "list",
        "values": [
            vector,
            _int(ints),
            {"type": "logical", "values": lgl},
            _chr(text),
            {
                "type": "integer",
                "values": codes,
                "attributes": {"levels": _chr(["a", "b", "c"]), "class": _chr(["factor"])},
            },
            {"type": "double", "values": days, "attributes": {"class": _chr(["Date"])}},
        ],
        "attributes": {
            "names": _chr(["d", "i", "l", "s", "f", "t"]),
            "class": _chr(["data.frame"]),
            "row.names": _int([None, -n]),
        },
    }
    out = []
    for digits in [0, 1, 2, 4, 5, 7, 9, 10, 15, -1, None, {"I": 3}, {"I": 15}]:
        for extra in ({}, {"always_decimal": True}, {"na": "null"}):
            out.append({"value": vector, "options": {"digits": digits, **extra}})
    for options in (
        {},
        {"na": "null"},
        {"na": "string", "digits": 7},
        {"pretty": True},
        {"dataframe": "values"},
        {"always_decimal": True, "factor": "integer", "Date": "epoch"},
    ):
        out.append({"value": frame, "options": options})
    for options in ({}, {"na": "null"}, {"POSIXt": "ISO8601", "digits": 2}, {"pretty": True, "digits": 0}):
        out.append({"value": times, "options": options})
    for column in times["values"]:
        out.append({"value": column, "options": {"digits": 5}})
    return out


def collect(n: int) -> list[dict[str, Any]]:
    """n (value, options) examples, the same on every run."""
    cases: list[dict[str, Any]] = []

    @settings(
        max_examples=n,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(wrapped_value(), option_set())
    def draw(desc: dict[str, Any], options: dict[str, Any]) -> None:
        try:
            rvalues.from_description(desc)
        except rvalues.RValueError:
            return
        cases.append({"value": desc, "options": options})

    draw()
    return cases


def ours(case: dict[str, Any]) -> dict[str, str]:
    try:
        value_ = rvalues.from_description(case["value"])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return {"json": encode_with(value_, JsonOptions.from_jsonlite(case["options"]))}
    except rvalues.RValueError as err:
        return {"error": str(err)}


def test_differential(tmp_path: Path, utc: None) -> None:
    cases = collect(N_EXAMPLES) + REGRESSIONS + long_cases()
    (tmp_path / "cases.json").write_text(json.dumps(cases, ensure_ascii=False), encoding="utf-8")
    (tmp_path / "run.R").write_text(R_SCRIPT)
    env = {**os.environ, "TZ": "UTC"}
    subprocess.run(
        [
            "Rscript",
            str(tmp_path / "run.R"),
            str(DATA / "rdesc.R"),
            str(tmp_path / "cases.json"),
            str(tmp_path / "out.json"),
        ],
        check=True,
        env=env,
        capture_output=True,
    )
    expected = json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))
    mismatches = []
    for case, want in zip(cases, expected):
        got = ours(case)
        if got != want:
            mismatches.append((case, want, got))
    errors = sum("error" in w for w in expected)
    print(
        f"differential: {len(cases)} cases compared with jsonlite ({errors} of them R errors), "
        f"{len(mismatches)} mismatches"
    )
    for case, want, got in mismatches[:5]:
        print(json.dumps(case, ensure_ascii=False), "\n  R:  ", want, "\n  py: ", got)
    assert not mismatches, f"{len(mismatches)} of {len(cases)} cases differ from jsonlite"

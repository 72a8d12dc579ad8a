"""Python spellings of R expressions in the conformance corpus, built with rvalues' constructors.

Each key is an expression exactly as ``tests/data/conformance/cases.R`` writes it; the value builds
the same R value in Python. ``tests/test_model_corpus.py`` compares the two descriptions.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

import rvalues as rv
from rvalues import (
    NA,
    NULL,
    Character,
    Complex,
    Double,
    I,
    Integer,
    Logical,
    NA_character_,
    NA_integer_,
    NA_real_,
    Raw,
    as_date,
    as_posixct,
    c,
    data_frame,
    factor,
    matrix,
    r_list,
    unbox,
)

INT_MAX = 2**31 - 1

PYTHON_CASES: dict[str, Callable[[], Any]] = {
    "TRUE": lambda: rv.TRUE,
    "FALSE": lambda: c(False),
    "NA": lambda: NA,
    "c(TRUE, NA, FALSE)": lambda: c(True, None, False),
    "logical(0)": lambda: Logical([]),
    "c(a = TRUE, b = NA)": lambda: c(a=True, b=NA),
    "1L": lambda: c(1),
    "c(1L, NA, -3L)": lambda: c(1, NA, -3),
    "integer(0)": lambda: Integer([]),
    ".Machine$integer.max": lambda: c(INT_MAX),
    "-.Machine$integer.max": lambda: c(-INT_MAX),
    "NA_integer_": lambda: NA_integer_,
    "c(x = 1L, y = 2L)": lambda: c(x=1, y=2),
    "1:10": lambda: Integer(range(1, 11)),
    "1": lambda: c(1.0),
    "0": lambda: c(0.0),
    "-0": lambda: c(-0.0),
    "1.5": lambda: c(1.5),
    "pi": lambda: c(math.pi),
    "-pi": lambda: c(-math.pi),
    "1/3": lambda: c(1 / 3),
    "2/3": lambda: c(2 / 3),
    "100": lambda: c(100.0),
    "1e5": lambda: c(1e5),
    "1e15": lambda: c(1e15),
    "1e-5": lambda: c(1e-5),
    "0.1 + 0.2": lambda: c(0.1 + 0.2),
    "2^31": lambda: c(2.0**31),
    "2^53 + 2": lambda: c(2.0**53 + 2),
    "-2^31": lambda: c(-(2.0**31)),
    ".Machine$double.xmax": lambda: c(np.finfo(np.float64).max),
    ".Machine$double.eps": lambda: c(np.finfo(np.float64).eps),
    "c(0.5, 1.5, 2.5, 3.5)": lambda: c(0.5, 1.5, 2.5, 3.5),
    "c(1.5, NA, NaN, Inf, -Inf)": lambda: c(1.5, NA, math.nan, math.inf, -math.inf),
    "NA_real_": lambda: NA_real_,
    "NaN": lambda: c(math.nan),
    "Inf": lambda: c(math.inf),
    "-Inf": lambda: c(-math.inf),
    "double(0)": lambda: Double([]),
    "c(a = 1.5, b = 2)": lambda: c(a=1.5, b=2.0),
    "'a'": lambda: c("a"),
    "c('a', NA, 'b')": lambda: c("a", NA, "b"),
    "character(0)": lambda: Character([]),
    "NA_character_": lambda: NA_character_,
    "''": lambda: c(""),
    "'with \"quotes\"'": lambda: c('with "quotes"'),
    "'back\\\\slash'": lambda: c("back\\slash"),
    "'tab\\there'": lambda: c("tab\there"),
    "'new\\nline'": lambda: c("new\nline"),
    "'\\r\\f\\b'": lambda: c("\r\f\b"),
    "'\\001\\002\\037'": lambda: c("\x01\x02\x1f"),
    "'caf\\u00e9'": lambda: c("caf\u00e9"),
    "'\\u4e2d\\u6587'": lambda: c("\u4e2d\u6587"),
    "'\\U0001F600'": lambda: c("\U0001f600"),
    "'\\u2028\\u2029'": lambda: c("\u2028\u2029"),
    "c(first = 'x', second = 'y')": lambda: c(first="x", second="y"),
    "'NA'": lambda: c("NA"),
    "1+2i": lambda: c(1 + 2j),
    "c(1+2i, NA, -1.5-0.5i)": lambda: c(1 + 2j, NA, -1.5 - 0.5j),
    "complex(real = Inf, imaginary = NaN)": lambda: Complex([complex(math.inf, math.nan)]),
    "complex(0)": lambda: Complex([]),
    "0i": lambda: c(0j),
    "as.raw(c(0, 1, 255))": lambda: Raw([0, 1, 255]),
    "charToRaw('hello')": lambda: Raw(b"hello"),
    "raw(0)": lambda: Raw([]),
    "factor(c('a', 'b', NA, 'a'))": lambda: factor(["a", "b", NA, "a"]),
    "factor(character(0))": lambda: factor(Character([])),
    "factor('x')": lambda: factor("x"),
    "factor(c('lo', 'hi'), levels = c('lo', 'hi', 'mid'))": lambda: factor(
        ["lo", "hi"], levels=["lo", "hi", "mid"]
    ),
    "ordered(c('s', 'm', 'l'), levels = c('s', 'm', 'l'))": lambda: factor(
        ["s", "m", "l"], levels=["s", "m", "l"], ordered=True
    ),
    "factor(c(x = 'a', y = 'b'))": lambda: factor(c(x="a", y="b")),
    "as.Date('2020-01-02')": lambda: as_date("2020-01-02"),
    "as.Date(c('2020-01-02', NA, '1969-12-31'))": lambda: as_date(["2020-01-02", None, "1969-12-31"]),
    "as.Date(character(0))": lambda: as_date(Character([])),
    "as.POSIXct('2020-01-02 03:04:05', tz = 'UTC')": lambda: as_posixct("2020-01-02 03:04:05", tz="UTC"),
    "as.POSIXct(c('2020-01-02 03:04:05', NA), tz = 'UTC')": lambda: as_posixct(
        ["2020-01-02 03:04:05", None], tz="UTC"
    ),
    "as.POSIXct('2020-06-01 12:00:00', tz = 'America/New_York')": lambda: as_posixct(
        "2020-06-01 12:00:00", tz="America/New_York"
    ),
    "as.POSIXct('2020-01-02 03:04:05.678', tz = 'UTC')": lambda: as_posixct(
        "2020-01-02 03:04:05.678", tz="UTC"
    ),
    "as.POSIXct(1577934245, origin = '1970-01-01')": lambda: as_posixct(1577934245.0, origin="1970-01-01"),
    "as.POSIXct('1960-01-01 00:00:00', tz = 'UTC')": lambda: as_posixct("1960-01-01 00:00:00", tz="UTC"),
    "NULL": lambda: NULL,
    "list()": lambda: r_list(),
    "structure(list(), names = character())": lambda: r_list().with_attributes(names=Character([])),
    "list(NULL)": lambda: r_list(None),
    "list(a = NULL)": lambda: r_list(a=None),
    "list(a = NULL, b = 1)": lambda: r_list(a=None, b=1.0),
    "list(1, 'a', TRUE)": lambda: r_list(1.0, "a", True),
    "list(a = 1, b = 'x', c = NA)": lambda: r_list(a=1.0, b="x", c=NA),
    "list(a = 1, a = 2)": lambda: rv.List.from_pairs([("a", 1.0), ("a", 2.0)]),
    "list(list())": lambda: r_list(r_list()),
    "list(a = list())": lambda: r_list(a=[]),
    "list(a = list(b = list(c = 1:3)))": lambda: r_list(a={"b": {"c": Integer([1, 2, 3])}}),
    "list(list(1, 2), list(3))": lambda: r_list([1.0, 2.0], [3.0]),
    "list(c(1, 2), 'x')": lambda: r_list(c(1.0, 2.0), "x"),
    "list(a = character(0), b = integer(0))": lambda: r_list(a=Character([]), b=Integer([])),
    "list(x = NA_character_, y = NA_real_, z = NA_integer_)": lambda: r_list(
        x=NA_character_, y=NA_real_, z=NA_integer_
    ),
    "setNames(list(1, 2), c('', ''))": lambda: rv.List.from_pairs([("", 1.0), ("", 2.0)]),
    "list(a = I(1), b = 1)": lambda: r_list(a=I(1.0), b=1.0),
    "list(a = unbox(1), b = 1:2)": lambda: r_list(a=unbox(1.0), b=Integer([1, 2])),
    "list(df = data.frame(x = 1:2))": lambda: r_list(df=data_frame(x=Integer([1, 2]))),
    "list(NA)": lambda: r_list(NA),
    "list(NaN, Inf)": lambda: r_list(math.nan, math.inf),
    "list(1L, NULL, 'a')": lambda: r_list(1, None, "a"),
    "I(1)": lambda: I(1.0),
    "I('a')": lambda: I("a"),
    "I(TRUE)": lambda: I(True),
    "I(NA)": lambda: I(NA),
    "I(list())": lambda: I([]),
    "I(c(1, 2))": lambda: I(c(1.0, 2.0)),
    "I(list(a = 1))": lambda: I({"a": 1.0}),
    "unbox(1)": lambda: unbox(1.0),
    "unbox('a')": lambda: unbox("a"),
    "unbox(NA)": lambda: unbox(NA),
    "unbox(NA_character_)": lambda: unbox(NA_character_),
    "unbox(factor('a'))": lambda: unbox(factor("a")),
    "unbox(as.Date('2020-01-02'))": lambda: unbox(as_date("2020-01-02")),
    "unbox(data.frame(x = 1, y = 'a'))": lambda: unbox(data_frame(x=1.0, y="a")),
    "I(factor('a'))": lambda: I(factor("a")),
    "I(as.Date('2020-01-02'))": lambda: I(as_date("2020-01-02")),
    "data.frame(id = 1L, missing = NA_real_)": lambda: data_frame(id=1, missing=NA_real_),
    "data.frame(x = 1:3, y = c('a', NA, 'c'))": lambda: data_frame(x=Integer([1, 2, 3]), y=["a", NA, "c"]),
    "data.frame()": lambda: data_frame(),
    "data.frame(x = integer(0))": lambda: data_frame(x=Integer([])),
    "data.frame(x = c(1.5, NA, NaN, Inf), y = c(TRUE, NA, FALSE, TRUE))": lambda: data_frame(
        x=[1.5, NA, math.nan, math.inf], y=[True, NA, False, True]
    ),
    "data.frame(x = 1:2, row.names = c('r1', 'r2'))": lambda: data_frame(
        x=Integer([1, 2]), row_names=["r1", "r2"]
    ),
    "data.frame(f = factor(c('a', NA)), d = as.Date(c('2020-01-01', NA)))": lambda: data_frame(
        f=factor(["a", NA]), d=as_date(["2020-01-01", None])
    ),
    "data.frame(t = as.POSIXct(c('2020-01-01 10:00:00', NA), tz = 'UTC'))": lambda: data_frame(
        t=as_posixct(["2020-01-01 10:00:00", None], tz="UTC")
    ),
    "data.frame(z = c(1+1i, NA))": lambda: data_frame(z=[1 + 1j, NA]),
    "data.frame(x = 1:2, y = I(list(1:2, 'a')))": lambda: data_frame(
        x=Integer([1, 2]), y=I(r_list(Integer([1, 2]), "a"))
    ),
    "data.frame(a = NA, b = NA_character_, c = NA_integer_)": lambda: data_frame(
        a=NA, b=NA_character_, c=NA_integer_
    ),
    "data.frame(x = 1, y = 'one')": lambda: data_frame(x=1.0, y="one"),
    "data.frame(`a b` = 1, check.names = FALSE)": lambda: data_frame(**{"a b": 1.0}, check_names=False),
    "data.frame(x = c(0.123456, 123456.7))": lambda: data_frame(x=[0.123456, 123456.7]),
    "data.frame(s = c('a', 'b'), stringsAsFactors = TRUE)": lambda: data_frame(s=factor(["a", "b"])),
    "data.frame(x = 1:2, row.names = c(10L, 20L))": lambda: data_frame(x=Integer([1, 2]), row_names=[10, 20]),
    "matrix(1:6, nrow = 2)": lambda: matrix(Integer(range(1, 7)), nrow=2),
    "matrix(c(1.5, NA, 3, 4), 2)": lambda: matrix([1.5, NA, 3.0, 4.0], 2),
    "matrix(c('a', 'b', NA, 'd'), 2)": lambda: matrix(["a", "b", NA, "d"], 2),
    "matrix(c(TRUE, FALSE, NA, TRUE), 2)": lambda: matrix([True, False, NA, True], 2),
    "matrix(1:6, 2, dimnames = list(c('a', 'b'), c('x', 'y', 'z')))": lambda: matrix(
        Integer(range(1, 7)), 2, dimnames=[["a", "b"], ["x", "y", "z"]]
    ),
    "matrix(integer(0), 0, 3)": lambda: matrix(Integer([]), 0, 3),
    "matrix(1:3, 1)": lambda: matrix(Integer([1, 2, 3]), 1),
    "matrix(1:3, 3)": lambda: matrix(Integer([1, 2, 3]), 3),
    "array(1:24, dim = c(2, 3, 4))": lambda: rv.array(Integer(range(1, 25)), dim=(2, 3, 4)),
    "array(1:4, dim = 4)": lambda: rv.array(Integer(range(1, 5)), dim=4),
    "matrix(list(1, 'a', TRUE, NULL), 2)": lambda: matrix(r_list(1.0, "a", True, None), 2),
    "I(matrix(1:4, 2))": lambda: I(matrix(Integer(range(1, 5)), 2)),
    "matrix(c(1+1i, 2-2i), 1)": lambda: matrix([1 + 1j, 2 - 2j], 1),
    "diag(2)": lambda: matrix([1.0, 0.0, 0.0, 1.0], 2),
    "structure('{\"a\":1}', class = 'json')": lambda: c('{"a":1}').with_attributes({"class": "json"}),
    "structure(1:3, class = 'myclass')": lambda: Integer([1, 2, 3]).with_attributes({"class": "myclass"}),
    "structure(list(a = 1), class = 'myclass')": lambda: r_list(a=1.0).with_attributes({"class": "myclass"}),
    "structure(1:3, myattr = 'hello')": lambda: Integer([1, 2, 3]).with_attributes({"myattr": "hello"}),
    "structure(c(1.5, 2), names = c('a', NA))": lambda: c(1.5, 2.0).with_attributes({"names": ["a", NA]}),
}

CONSTRUCT_ERRORS: dict[str, Callable[[], Any]] = {
    "as.Date(18262.5)": lambda: as_date(18262.5),
    "unbox(1:2)": lambda: unbox(Integer([1, 2])),
    "unbox(character(0))": lambda: unbox(Character([])),
    "unbox(data.frame(x = 1:2))": lambda: unbox(data_frame(x=Integer([1, 2]))),
    "unbox(list(1))": lambda: unbox(r_list(1.0)),
}

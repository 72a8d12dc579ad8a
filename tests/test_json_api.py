"""The public surface of rvalues.json: options and their errors (checked against R), to_data,
the cattrs hooks, and the keep_vec_names message."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import attrs
import cattrs
import numpy as np
import pytest

import rvalues
from rvalues.json import (
    JsonliteError,
    JsonOptions,
    KeepVecNamesWarning,
    register_hooks,
    signif,
    to_data,
    to_json,
)

DATA = Path(__file__).parent / "data" / "conformance"

# jsonlite arguments (R names) and what to_json receives
BAD_OPTIONS = [
    ({"dataframe": "foo"}, {"dataframe": "foo"}),
    ({"matrix": "x"}, {"matrix": "x"}),
    ({"Date": "x"}, {"date": "x"}),
    ({"POSIXt": "e"}, {"posixt": "e"}),
    ({"factor": ""}, {"factor": ""}),
    ({"na": "NA"}, {"na": "NA"}),
    ({"null": "x"}, {"null": "x"}),
    ({"raw": "x"}, {"raw": "x"}),
    ({"digits": "3"}, {"digits": "3"}),
    ({"pretty": -1}, {"pretty": -1}),
]
GOOD_OPTIONS = [
    ({"dataframe": "c"}, {"dataframe": "c"}),
    ({"na": "n"}, {"na": "n"}),
    ({"POSIXt": "I"}, {"posixt": "I"}),
    ({"raw": "h"}, {"raw": "h"}),
    ({"digits": 2.9}, {"digits": 2.9}),
]

R_SCRIPT = r"""
suppressMessages(library(jsonlite))
args <- commandArgs(trailingOnly = TRUE)
cases <- fromJSON(args[[1]], simplifyVector = FALSE)
x <- data.frame(a = c(1.2345, NA), d = as.Date(c("2020-01-01", NA)),
                t = as.POSIXct(c(0, 1), origin = "1970-01-01", tz = "UTC"))
out <- lapply(cases, function(o) tryCatch(list(json = as.character(do.call(toJSON, c(list(x), o)))),
                                          error = function(e) list(error = conditionMessage(e))))
writeLines(as.character(toJSON(out, auto_unbox = TRUE)), args[[2]], useBytes = TRUE)
"""


@pytest.fixture(scope="module")
def r_answers(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, str]]:
    if shutil.which("Rscript") is None:
        pytest.skip("needs Rscript with jsonlite")
    tmp = tmp_path_factory.mktemp("api")
    (tmp / "cases.json").write_text(json.dumps([r for r, _ in BAD_OPTIONS + GOOD_OPTIONS]))
    (tmp / "run.R").write_text(R_SCRIPT)
    subprocess.run(
        ["Rscript", str(tmp / "run.R"), str(tmp / "cases.json"), str(tmp / "out.json")],
        check=True,
        capture_output=True,
        env={**os.environ, "TZ": "UTC"},
    )
    return json.loads((tmp / "out.json").read_text())  # type: ignore[no-any-return]


def _frame() -> rvalues.DataFrame:
    return rvalues.data_frame(
        a=rvalues.c(1.2345, rvalues.NA_real_),
        d=rvalues.as_date(["2020-01-01", None]),
        t=rvalues.as_posixct(["1970-01-01 00:00:00", "1970-01-01 00:00:01"], tz="UTC"),
    )


@pytest.mark.r
@pytest.mark.parametrize("index", range(len(BAD_OPTIONS) + len(GOOD_OPTIONS)))
def test_options_against_r(index: int, r_answers: list[dict[str, str]], utc: None) -> None:
    _, ours = (BAD_OPTIONS + GOOD_OPTIONS)[index]
    want = r_answers[index]
    if "error" in want:
        with pytest.raises(rvalues.RValueError) as err:
            to_json(_frame(), **ours)
        assert str(err.value) == want["error"]
    else:
        assert to_json(_frame(), **ours) == want["json"]


def test_errors_are_jsonlite_errors() -> None:
    with pytest.raises(JsonliteError):
        JsonOptions(dataframe="nope")
    assert issubclass(JsonliteError, ValueError)
    with pytest.raises(JsonliteError, match="No method asJSON S3 class: myclass"):
        to_json(rvalues.Integer([1, 2]).with_attributes({"class": "myclass"}))


def test_signif_is_digits_asis() -> None:
    assert JsonOptions(digits=signif(3)).use_signif
    assert JsonOptions(digits=signif(3)).precision == 3
    assert JsonOptions(digits=None).precision is None


def test_to_data_is_the_parsed_json() -> None:
    values = [
        _frame(),
        rvalues.r_list(a=1, b="x", c=rvalues.NULL, d=rvalues.r_list()),
        rvalues.matrix([1, 2, 3, 4], nrow=2),
        rvalues.c(1.5, rvalues.NA_real_, float("nan")),
        rvalues.factor(["a", None, "b"]),
    ]
    for value in values:
        for options in ({}, {"auto_unbox": True, "null": "null"}, {"dataframe": "columns", "na": "null"}):
            assert to_data(value, **options) == json.loads(to_json(value, **options))


def test_to_data_refuses_javascript() -> None:
    with pytest.raises(rvalues.RValueError, match="not JSON"):
        to_data(rvalues.Raw(b"ab"), raw="js")


def test_python_values_are_converted() -> None:
    assert to_json({"a": [1, 2]}, auto_unbox=True) == to_json(rvalues.as_r({"a": [1, 2]}), auto_unbox=True)


@attrs.define
class Payload:
    name: str
    values: rvalues.RValue
    table: rvalues.RValue
    nested: dict


def test_register_hooks_unstructures_nested_values() -> None:
    conv = register_hooks(cattrs.Converter(), JsonOptions(auto_unbox=True, null="null"))
    frame = _frame()
    obj = Payload("p", rvalues.c(1, 2), frame, {"inner": rvalues.c("x"), "none": rvalues.NULL})
    out = conv.unstructure(obj)
    options = {"auto_unbox": True, "null": "null"}
    assert out == {
        "name": "p",
        "values": to_data(rvalues.c(1, 2), **options),
        "table": to_data(frame, **options),
        "nested": {"inner": "x", "none": None},
    }


def test_register_hooks_accepts_a_dict() -> None:
    conv = register_hooks(cattrs.Converter(), {"dataframe": "columns"})
    assert conv.unstructure(_frame()) == to_data(_frame(), dataframe="columns")


def test_keep_vec_names_warns_with_jsonlite_message() -> None:
    with pytest.warns(KeepVecNamesWarning, match=r"keep_vec_names=TRUE\) is a named vector"):
        to_json(rvalues.c(1.0, 2.0).with_names(["a", "b"]), keep_vec_names=True)


def test_warning_can_be_silenced(recwarn: pytest.WarningsRecorder) -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", KeepVecNamesWarning)
        to_json(rvalues.c(1.0).with_names(["a"]), keep_vec_names=True)
    assert not recwarn.list


def test_large_frame_is_vectorized() -> None:
    n = 50_000
    frame = rvalues.data_frame(
        x=rvalues.Double(np.arange(n) / 7), y=rvalues.Integer(np.arange(n, dtype=np.int32))
    )
    text = to_json(frame)
    assert text.count("{") == n

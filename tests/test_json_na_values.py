"""to_json on values with NA: jsonlite's bytes, and no numpy warning on the way."""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

import rvalues as rv

# jsonlite 1.8.4 under R 4.2.2, for x <- as.POSIXct(c("2020-01-02 03:04:05", NA), tz = "UTC"):
# toJSON(x, POSIXt = "epoch"), toJSON(x, POSIXt = "mongo"), toJSON(data.frame(t = x), POSIXt = "epoch")
EPOCH_NA = [
    ("vector", "epoch", '[1577934245000,"NA"]'),
    ("vector", "mongo", '[{"$date":1577934245000},null]'),
    ("frame", "epoch", '[{"t":1577934245000},{}]'),
]


@pytest.mark.parametrize(("shape", "posixt", "expected"), EPOCH_NA)
def test_epoch_times_with_na_write_jsonlite_bytes_quietly(shape: str, posixt: str, expected: str) -> None:
    x = rv.as_posixct(["2020-01-02 03:04:05", None], tz="UTC")
    value = x if shape == "vector" else rv.data_frame(t=x)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert rv.to_json(value, posixt=posixt) == expected


@pytest.mark.parametrize("rows", [1, 40])
@pytest.mark.parametrize("dataframe", ["rows", "columns", "values"])
def test_a_column_jsonlite_refuses_is_named_in_a_note(rows: int, dataframe: str) -> None:
    frame = rv.as_r(pd.DataFrame({"a": range(rows), "d": pd.to_timedelta(range(rows), unit="s")}))
    with pytest.raises(rv.RValueError) as info:
        rv.to_json(frame, dataframe=dataframe)
    assert str(info.value) == "No method asJSON S3 class: difftime"  # jsonlite's words, unchanged
    column = "column 2" if dataframe == "values" else 'column "d" (column 2)'
    assert f"while writing data frame {column}" in info.value.__notes__

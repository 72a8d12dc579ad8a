"""A JSON text written already escaped as a JSON string's inside (``encode_escaped_with``), for
splicing into a JSON-RPC line: byte for byte ``json.dumps(text, ensure_ascii=False)[1:-1]`` of the
text ``to_json`` writes, whichever writer runs (the compiled one escapes a frame's rows in the pass
that writes them; the pure one escapes after, and is the oracle).
"""

from __future__ import annotations

import json
import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_json_corpus import LOSSY, OPTION_SETS, PAIRS
from test_writers import CORE, digits, frames, writer

import rvalues
from rvalues.convert import from_pandas
from rvalues.json import JsonOptions, frame_text
from rvalues.json import frames as frame_encoder
from rvalues.json.api import encode_escaped_with, encode_with


def escaped(text: str) -> bytes:
    """The oracle: the inside of ``json.dumps(text)`` (ensure_ascii off), as UTF-8."""
    return json.dumps(text, ensure_ascii=False)[1:-1].encode("utf-8")


def both_writers() -> list[Any]:
    return [None] if CORE is None else [None, CORE]


@pytest.mark.usefixtures("utc")
@pytest.mark.parametrize(("case", "expected"), [p for p in PAIRS if "json" in p.values[1]])
def test_corpus_escaped(case: dict, expected: dict) -> None:
    build = LOSSY.get(case["id"])
    value = build() if build else rvalues.from_description(case["value"])
    options = JsonOptions.from_jsonlite(OPTION_SETS[expected["options"]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert encode_escaped_with(value, options) == escaped(expected["json"])


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(
    frames(),
    st.sampled_from(["rows", "columns", "values"]),
    digits,
    st.booleans(),
    st.sampled_from([None, "null", "string"]),
)
def test_frames_escaped_in_one_pass(
    df: pd.DataFrame, layout: str, d: Any, pretty: bool, na: str | None
) -> None:
    x = from_pandas(df)
    options = JsonOptions(dataframe=layout, digits=d, pretty=pretty, na=na)
    for core in both_writers():
        with writer(core):
            try:
                text = encode_with(x, options)
            except rvalues.RValueError as err:
                with pytest.raises(type(err)):
                    encode_escaped_with(x, options)
                continue
            assert encode_escaped_with(x, options) == escaped(text)


def test_escaped_rows_in_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(frame_encoder, "CHUNK_ROWS", 7)
    monkeypatch.setattr(frame_text, "CHUNK_ROWS", 7)
    n = 50
    df = pd.DataFrame(
        {
            "a": np.arange(n) / 3,
            "b": ([None, 'x</y "q" \\ \n\t\x01', "é😀\u2028"] * 17)[:n],
            "t": pd.Series(pd.to_datetime(np.arange(n) * 7777, unit="s")).where(np.arange(n) % 5 > 0),
        }
    )
    x = from_pandas(df)
    for pretty in (False, True):
        options = JsonOptions(pretty=pretty)
        for core in both_writers():
            with writer(core):
                assert encode_escaped_with(x, options) == escaped(encode_with(x, options))


def test_the_compiled_writer_escapes_a_frame_in_its_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    if CORE is None:
        pytest.skip("the compiled writer is not built (or RVALUES_PURE is set)")
    df = pd.DataFrame({"s": ['say "hi"'] * 40, "n": np.arange(40)})
    calls = []

    def no_second_pass(text: str, **kwargs: Any) -> str:
        calls.append(text)
        return json.dumps(text, **kwargs)

    monkeypatch.setattr("rvalues.json.api.json.dumps", no_second_pass)
    with writer(CORE):
        out = encode_escaped_with(from_pandas(df), JsonOptions())
    assert calls == []
    assert out.startswith(b'[{\\"s\\":\\"say \\\\\\"hi\\\\\\"\\",\\"n\\":0},')

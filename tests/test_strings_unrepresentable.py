"""One check for strings R cannot hold (NUL) or UTF-8 cannot encode (lone surrogates), on every path."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest

import rvalues as rv
from rvalues.model.strings import check_text

BAD = ["a\x00b", "\x00", "x\ud800", "\udfff", "ok\udc80ok"]

PATHS: dict[str, Callable[[str], Any]] = {
    "Character": lambda s: rv.Character([s]),
    "as_r(str)": lambda s: rv.as_r(s),
    "as_r(list)": lambda s: rv.as_r(["fine", s]),
    "c": lambda s: rv.c("fine", s),
    "c(name=)": lambda s: rv.c(**{s: 1}),
    "dict key": lambda s: rv.as_r({s: 1}),
    "r_list name": lambda s: rv.r_list(**{s: 1}),
    "with_names": lambda s: rv.c(1, 2).with_names(["a", s]),
    "List.from_pairs": lambda s: rv.List.from_pairs([(s, 1)]),
    "attribute name": lambda s: rv.c(1).with_attributes({s: "x"}),
    "attribute value": lambda s: rv.c(1).with_attributes({"comment": s}),
    "factor level": lambda s: rv.factor(["a"], levels=["a", s]),
    "factor value": lambda s: rv.factor([s]),
    "data_frame column name": lambda s: rv.data_frame_from_pairs([(s, [1])], check_names=False),
    "data_frame row names": lambda s: rv.data_frame(x=[1], row_names=[s]),
    "numpy U": lambda s: rv.as_r(np.array([s + "."])),  # numpy drops trailing NULs
    "numpy object": lambda s: rv.as_r(np.array([s, None], dtype=object)),
    "numpy structured field": lambda s: (
        rv.as_r(np.zeros(1, dtype=[(s, "i4")])) if "\x00" not in s else rv.Character([s])
    ),
    # object dtype throughout: pandas 3 would infer arrow-backed strings, which refuse surrogates itself
    "pandas object column": lambda s: rv.from_pandas(pd.DataFrame({"x": pd.Series([s], dtype=object)})),
    "pandas column name": lambda s: rv.from_pandas(pd.DataFrame([[1]], columns=pd.Index([s], dtype=object))),
    "pandas index": lambda s: rv.from_pandas(pd.Series([1], index=pd.Index([s], dtype=object))),
    "pandas string[python]": lambda s: rv.from_pandas(pd.Series([s], dtype="string[python]")),
    "pandas category": lambda s: rv.from_pandas(pd.Series(pd.Categorical(pd.Index([s], dtype=object)))),
}


@pytest.mark.parametrize("text", BAD, ids=repr)
@pytest.mark.parametrize("path", sorted(PATHS))
def test_every_path_refuses_bad_strings(path: str, text: str) -> None:
    with pytest.raises(rv.RValueError, match=r"embedded nul|lone surrogate"):
        PATHS[path](text)


def test_arrow_strings_with_nul_are_refused() -> None:
    pytest.importorskip("pyarrow")
    with pytest.raises(rv.RValueError, match="embedded nul"):
        rv.from_pandas(pd.Series(["a\x00b"], dtype="string[pyarrow]"))
    with pytest.raises(rv.RValueError, match=r"column 'x'.*embedded nul"):
        rv.from_pandas(pd.DataFrame({"x": pd.array(["ok", "a\x00"], dtype="string[pyarrow]")}))


def test_the_error_names_the_element_and_stays_short() -> None:
    with pytest.raises(rv.RValueError, match="element 2") as info:
        rv.Character(["a", "b", "c\x00" + "x" * 1_000_000])
    assert len(str(info.value)) < 300


def test_good_strings_pass_untouched() -> None:
    texts = ["", "é", "日本", "\U0001f600", "tab\tnew\nline", "NA", None]
    assert rv.Character(texts).tolist() == texts
    assert rv.as_r(np.array(texts[:-1])).tolist() == texts[:-1]


def test_check_text_is_the_hook_for_other_text() -> None:
    assert check_text("plain", "a tool's text") == "plain"
    with pytest.raises(rv.RValueError, match=r"a tool's text .* lone surrogate"):
        check_text("bad\ud800", "a tool's text")

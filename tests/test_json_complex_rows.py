"""jsonlite's complex = "list" for a named complex column of a data frame: names become "_row".

The R side is ``tests/r/complex_rows.R`` (vendored output: ``tests/data/complex-rows.json``); each
case here builds the same data frame (``list2DF``: the column keeps its names) under the same options.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import rvalues as rv

HERE = Path(__file__).parent
VENDORED = HERE / "data" / "complex-rows.json"
SCRIPT = HERE / "r" / "complex_rows.R"
R_CASES: dict[str, dict[str, str]] = json.loads(VENDORED.read_text(encoding="utf-8"))


def _frame(names: list[str | None], values: list[complex | None] | None = None, **more: Any) -> Any:
    column = rv.Complex(values or [1 + 3j, 2 + 4j][: len(names)]).with_names(names)
    columns = {"z": column, **more}
    return rv.List(list(columns.values())).with_attributes(
        {"names": list(columns), "class": "data.frame", "row.names": rv.Integer([None, -len(names)])}
    )


CASES: dict[str, tuple[Any, dict[str, Any]]] = {
    "named": (_frame(["a", "b"]), {}),
    "named_columns": (_frame(["a", "b"]), {"dataframe": "columns"}),
    "named_values": (_frame(["a", "b"]), {"dataframe": "values"}),
    "named_pretty": (_frame(["a", "b"]), {"pretty": True}),
    "named_no_rownames": (_frame(["a", "b"]), {"rownames": False}),
    "named_with_int": (_frame(["a", "b"], k=rv.Integer([1, 2])), {}),
    "na_value": (_frame(["a", "b"], [1 + 3j, None]), {}),
    "na_value_string": (_frame(["a", "b"], [1 + 3j, None]), {"na": "string"}),
    "na_name": (_frame(["a", None]), {}),
    "na_names_duplicated": (_frame([None, None]), {}),
    "duplicated": (_frame(["a", "a"]), {}),
    "one_empty": (_frame(["", "b"]), {}),
    "all_empty": (_frame(["", ""]), {}),
    "digits_only": (_frame(["1", "2"]), {}),
    "many_rows": (_frame(list("abcdefghijklmnopqrst"), [complex(i, 21 - i) for i in range(1, 21)]), {}),
}


def test_every_r_case_has_its_twin() -> None:
    assert sorted(CASES) == sorted(R_CASES)


@pytest.mark.parametrize("case", sorted(CASES))
def test_complex_list_columns_match_jsonlite(case: str) -> None:
    value, options = CASES[case]
    expected = R_CASES[case]
    if "error" in expected:
        with pytest.raises(rv.RValueError) as info:
            rv.to_json(value, complex="list", **options)
        assert str(info.value) == expected["error"]
    else:
        assert rv.to_json(value, complex="list", **options) == expected["json"]


@pytest.mark.r
@pytest.mark.skipif(shutil.which("Rscript") is None, reason="Rscript is not installed")
def test_vendored_r_output_is_current(tmp_path: Path) -> None:
    out = tmp_path / "complex-rows.json"
    subprocess.run(["Rscript", str(SCRIPT), str(out)], check=True, timeout=120)
    assert json.loads(out.read_text(encoding="utf-8")) == R_CASES

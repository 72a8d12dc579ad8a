"""A resource returning a frame with NA and NaN reads back as the bytes jsonlite writes for the same
R data frame, under each payload option (R asked at test time)."""

from __future__ import annotations

from typing import Any

import pytest

import mcplite
import rvalues as rv
from mcplite.testing import Client
from tests.conftest import RSCRIPT, r_json_output, requires_r

R_FRAME = (
    'data.frame(x = c(1.5, NA, NaN, -Inf), s = c("a", NA, "c", "d"), '
    'f = factor(c("u", NA, "v", "u")), i = c(1L, NA, 3L, 4L), b = c(TRUE, NA, FALSE, TRUE))'
)
OPTIONS: list[dict[str, Any]] = [{}, {"json_na": "null"}, {"json_na": "string"}, {"json_auto_unbox": False}]


def python_frame() -> rv.DataFrame:
    return rv.DataFrame(
        x=rv.Double([1.5, rv.NA, float("nan"), float("-inf")]),
        s=rv.Character(["a", rv.NA, "c", "d"]),
        f=rv.factor(["u", rv.NA, "v", "u"]),
        i=rv.Integer([1, rv.NA, 3, 4]),
        b=rv.Logical([True, rv.NA, False, True]),
    )


def r_json(options: list[dict[str, Any]]) -> list[str]:
    """What jsonlite writes for the frame under each payload option set (one R process)."""
    assert RSCRIPT is not None
    calls = []
    for option in options:
        args = [f"auto_unbox = {'TRUE' if option.get('json_auto_unbox', True) else 'FALSE'}"]
        if "json_na" in option:
            args.append(f'na = "{option["json_na"]}"')
        calls.append(f"as.character(jsonlite::toJSON(df, {', '.join(args)}))")
    script = f"df <- {R_FRAME}\ncat(jsonlite::toJSON(list({', '.join(calls)}), auto_unbox = TRUE))\n"
    answers: list[str] = r_json_output(script)
    return answers


@requires_r
@pytest.mark.parametrize("version", ["2024-11-05", "2026-07-28"])
def test_a_frame_resource_reads_back_as_jsonlite_writes_it(version: str) -> None:
    server = mcplite.McpServer("frames")

    @server.resource("frames://na", mime_type="application/json")
    def frame() -> rv.DataFrame:
        return python_frame()

    expected = r_json(OPTIONS)
    assert len(set(expected)) > 1  # the options change the bytes: the comparison can tell them apart
    with Client(server, version) as client:
        for option, want in zip(OPTIONS, expected, strict=True):
            with mcplite.options(**option):
                (contents,) = client.read_resource("frames://na")
            assert isinstance(contents, mcplite.TextResourceContents)
            assert (contents.text, contents.mime_type) == (want, "application/json"), option

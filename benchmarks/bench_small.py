"""Benchmark: per-call time of ``to_json`` and ``mcplite.tool_result`` on small payloads, the size
most tool results have, against ``jsonlite::toJSON`` on the same values built in R.

Each payload is written once in Python and once in R; the JSON must be byte-identical. Times are
the best of 5 loops of ``--calls`` calls, per call, in microseconds; R's loop runs inside R.

Run: ``python benchmarks/bench_small.py [--calls N] [--markdown results/small.md]``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import timeit
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rvalues as rv
from mcplite import tool_result

# name -> (Python value, the same value in R)
PAYLOADS: dict[str, tuple[Any, str]] = {
    "small list (NA, NaN, Inf and a 1-row frame)": (
        rv.r_list(
            count=rv.Integer([1]),
            values=rv.c(rv.NA_real_, float("nan"), float("inf"), float("-inf")),
            rows=rv.data_frame(id=rv.Integer([1]), missing=rv.NA_real_),
        ),
        "list(count = 1L, values = c(NA_real_, NaN, Inf, -Inf),"
        " rows = data.frame(id = 1L, missing = NA_real_))",
    ),
    "named list: integer, doubles, a date-time": (
        rv.r_list(
            a=rv.Integer([1]),
            b=rv.c(1.5, 2.5),
            when=rv.as_posixct("2020-01-01 12:00:00", tz="UTC"),
        ),
        'list(a = 1L, b = c(1.5, 2.5), when = as.POSIXct("2020-01-01 12:00:00", tz = "UTC"))',
    ),
    "3-row frame: integer, double, character, date-time, factor, with NA": (
        rv.data_frame(
            id=rv.Integer([1, 2, 3]),
            x=[1.5, None, 2.25],
            s=["a", None, "c"],
            t=rv.as_posixct(["2020-01-01 10:00:00", None, "2021-06-01 00:00:00"], tz="UTC"),
            f=rv.factor(["u", "v", "u"]),
        ),
        "data.frame(id = 1:3, x = c(1.5, NA, 2.25), s = c('a', NA, 'c'),"
        " t = as.POSIXct(c('2020-01-01 10:00:00', NA, '2021-06-01 00:00:00'), tz = 'UTC'),"
        " f = factor(c('u', 'v', 'u')))",
    ),
    "100-row frame: integer, double, character, Date": (
        rv.data_frame(
            n=rv.Integer(list(range(1, 101))),
            sq=[i**0.5 for i in range(1, 101)],
            who=[f"id{i % 7}" for i in range(1, 101)],
            day=rv.as_date([f"2024-01-{1 + i % 28:02d}" for i in range(1, 101)]),
        ),
        "data.frame(n = 1:100, sq = sqrt(1:100), who = paste0('id', 1:100 %% 7),"
        " day = as.Date(sprintf('2024-01-%02d', 1 + 1:100 %% 28)))",
    ),
}

R_SCRIPT = r"""
suppressMessages(library(jsonlite))
args <- commandArgs(TRUE); calls <- as.integer(args[[1]])
exprs <- jsonlite::fromJSON(file("stdin"))
out <- lapply(exprs, function(code) {
  x <- eval(parse(text = code))
  per <- min(sapply(1:5, function(k) system.time(for (i in seq_len(calls)) toJSON(x))[["elapsed"]]))
  list(us = per / calls * 1e6, json = as.character(toJSON(x)))
})
cat(toJSON(out, auto_unbox = TRUE, digits = NA))
"""


def per_call_us(fn: Any, calls: int) -> float:
    return min(timeit.repeat(fn, number=calls, repeat=5)) / calls * 1e6


def run_r(calls: int) -> list[dict[str, Any]] | None:
    if shutil.which("Rscript") is None:
        return None
    res = subprocess.run(
        ["Rscript", "-e", R_SCRIPT, str(calls)],
        input=json.dumps([code for _, code in PAYLOADS.values()]),
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "TZ": "UTC"},
    )
    return json.loads(res.stdout)  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--markdown", help="write the results table here")
    args = parser.parse_args()
    r = run_r(args.calls)
    lines = [
        "# Small payloads (`benchmarks/bench_small.py`)",
        "",
        f"Per call, in microseconds: the best of 5 loops of {args.calls:,} calls (R's loop runs "
        f"inside R). Python {platform.python_version()}, {platform.machine()}.",
        "",
        "| payload | rvalues to_json | jsonlite toJSON | vs jsonlite | mcplite tool_result | "
        "vs jsonlite | identical to jsonlite |",
        "|---|---:|---:|---|---:|---|---|",
    ]
    for k, (name, (value, _)) in enumerate(PAYLOADS.items()):
        ours = per_call_us(lambda v=value: rv.to_json(v), args.calls)
        result = per_call_us(lambda v=value: tool_result(structured_content=v), args.calls)
        if r is None:
            lines.append(f"| {name} | {ours:.0f} | n/a | n/a | {result:.0f} | n/a | n/a (no Rscript) |")
            continue
        theirs, text = r[k]["us"], r[k]["json"]
        same = "yes" if rv.to_json(value) == text else "NO"
        lines.append(
            f"| {name} | {ours:.0f} | {theirs:.0f} | {theirs / ours:.1f}x faster | {result:.0f} | "
            f"{theirs / result:.1f}x faster | {same} |"
        )
        print(lines[-1], flush=True)
    lines += [
        "",
        "`tool_result` encodes the payload under mcplite's options (auto_unbox on), reads it back as "
        "the structured content and builds the result with its text fallback: more work than one "
        "`toJSON`, which is the anchor for both columns.",
    ]
    if args.markdown:
        Path(args.markdown).write_text("\n".join(lines) + "\n")
    else:
        print("\n".join(lines))


if __name__ == "__main__":
    main()

"""Benchmark: where MCP tools live. Small frames and a small list per call, the wire form of a
large result, plain Python rows and lists, and date objects, each beside its anchor measured in
the same run: jsonlite's ``toJSON`` timed inside one R process, ``json.dumps``, ``df.to_numpy()``.
Every JSON output is compared byte for byte with jsonlite's.

Run: ``python benchmarks/bench_payloads.py [--markdown results/payloads.md]`` (about a minute).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import mcplite
import rvalues as rv
from mcplite.payload.returned import encode_value_json, to_r
from mcplite.payload.rjson import encode_json, options_in_force

R_SCRIPT = r"""
suppressMessages(library(jsonlite))
args <- commandArgs(TRUE)
cases <- fromJSON(args[[1]], simplifyVector = FALSE)
per_call <- function(x, calls, repeats) {
  min(sapply(seq_len(repeats), function(k) system.time(for (i in seq_len(calls)) toJSON(x, auto_unbox = TRUE,
    null = "null"))[["elapsed"]])) / calls
}
out <- lapply(cases, function(case) {
  x <- if (!is.null(case$code)) eval(parse(text = case$code)) else
    fromJSON(readLines(case$file, encoding = "UTF-8", warn = FALSE), simplifyVector = FALSE)
  json <- as.character(toJSON(x, auto_unbox = TRUE, null = "null"))
  list(seconds = per_call(x, case$calls, case$repeats), json = json)
})
writeLines(toJSON(out, auto_unbox = TRUE, digits = NA), args[[2]], useBytes = TRUE)
"""


R_ROWS = 10_000
R_SCALARS = 100_000


def small_frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "id": np.array([1, 2, 3], dtype=np.int32),
            "x": [1.5, None, 2.25],
            "s": ["a", None, "c"],
            "t": pd.to_datetime(["2020-01-01 10:00:00", None, "2021-06-01 00:00:00"]).tz_localize("UTC"),
            "f": pd.Categorical(["u", "v", "u"]),
        }
    )


SMALL_FRAME_R = (
    "data.frame(id = 1:3, x = c(1.5, NA, 2.25), s = c('a', NA, 'c'),"
    " t = as.POSIXct(c('2020-01-01 10:00:00', NA, '2021-06-01 00:00:00'), tz = 'UTC'),"
    " f = factor(c('u', 'v', 'u')))"
)


def issue_frame() -> pd.DataFrame:
    """Issue 27's eight columns, 3 rows, the middle one missing wherever a column can miss."""
    when = pd.to_datetime(["2020-01-01 10:00:00", None, "2021-06-01 00:00:30"])
    return pd.DataFrame(
        {
            "id": np.array([1, 2, 3], dtype=np.int64),
            "count": pd.array([10, None, -3], dtype="Int32"),
            "value": [0.5, np.nan, 2.25],
            "flag": pd.array([True, None, False], dtype="boolean"),
            "label": ["alpha1", None, 'q"t\u00e9'],
            "group": pd.Categorical(["alpha", None, "beta"], categories=["alpha", "beta", "gamma"]),
            "day": pd.Series([dt.date(2020, 1, 1), None, dt.date(2021, 6, 1)], dtype=object),
            "when": pd.Series(when).astype("datetime64[s]"),
        }
    )


ISSUE_FRAME_R = (
    "data.frame(id = 1:3, count = c(10L, NA, -3L), value = c(0.5, NaN, 2.25), flag = c(TRUE, NA, FALSE),"
    " label = c('alpha1', NA, 'q\"t\\u00e9'), group = factor(c('alpha', NA, 'beta'), levels = c('alpha',"
    " 'beta', 'gamma')), day = as.Date(c('2020-01-01', NA, '2021-06-01')), when = as.POSIXct(c("
    "'2020-01-01 10:00:00', NA, '2021-06-01 00:00:30'), tz = 'UTC'), stringsAsFactors = FALSE)"
)
SEED = rv.r_list(
    count=rv.Integer([1]),
    values=rv.c(rv.NA_real_, float("nan"), float("inf"), float("-inf")),
    rows=rv.data_frame(id=rv.Integer([1]), missing=rv.NA_real_),
)
SEED_R = (
    "list(count = 1L, values = c(NA_real_, NaN, Inf, -Inf), rows = data.frame(id = 1L, missing = NA_real_))"
)


def records(n: int) -> list[dict[str, Any]]:
    words = ["alpha", "beta", "gamma", "delta", "é", 'q"t']
    return [
        {"id": i, "name": f"{words[i % 6]}{i % 97}", "score": round(i * 0.37 % 101, 2), "ok": i % 3 == 0}
        for i in range(n)
    ]


def per_call(fn: Callable[[], Any], calls: int) -> float:
    return min(timeit.repeat(fn, number=calls, repeat=5)) / calls


def best(fn: Callable[[], Any], repeat: int = 3) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return min(times), out


def run_r(cases: list[dict[str, Any]], tmp: Path) -> list[dict[str, Any]] | None:
    if shutil.which("Rscript") is None:
        return None
    (tmp / "cases.json").write_text(json.dumps(cases), encoding="utf-8")
    subprocess.run(
        ["Rscript", "-e", R_SCRIPT, str(tmp / "cases.json"), str(tmp / "out.json")],
        check=True,
        capture_output=True,
        env={**os.environ, "TZ": "UTC", "LANG": "C.UTF-8"},
    )
    return json.loads((tmp / "out.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--scalars", type=int, default=1_000_000)
    parser.add_argument("--markdown", help="write the results table here")
    args = parser.parse_args()

    frame3 = small_frame()
    rows = records(args.records)
    scalars = list(range(args.scalars))
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        # jsonlite takes ~0.1 ms per list element: it sees a prefix of the rows and of the list, once
        (tmp / "records.json").write_text(json.dumps(rows[:R_ROWS], ensure_ascii=False), encoding="utf-8")
        (tmp / "scalars.json").write_text(json.dumps(scalars[:R_SCALARS]), encoding="utf-8")
        r = run_r(
            [
                {"code": SMALL_FRAME_R, "calls": args.calls, "repeats": 5},
                {"code": SEED_R, "calls": args.calls, "repeats": 5},
                {"file": str(tmp / "records.json"), "calls": 1, "repeats": 1},
                {"file": str(tmp / "scalars.json"), "calls": 1, "repeats": 1},
                {"code": ISSUE_FRAME_R, "calls": args.calls, "repeats": 5},
            ],
            tmp,
        )

    table: list[tuple[str, str, str, str, str]] = []

    def same(ours: str, k: int) -> str:
        if r is None:
            return "n/a (no Rscript)"
        return "yes" if ours == r[k]["json"] else "NO"

    def against_r(k: int, ours: float, scale: float = 1.0) -> str:
        if r is None:
            return "n/a"
        theirs = r[k]["seconds"] * scale
        if theirs >= ours:
            return f"{fmt(theirs)}: **{theirs / ours:.1f}x faster**"
        return f"{fmt(theirs)}: **{ours / theirs:.1f}x slower**"

    # small payloads, per call
    small = per_call(lambda: mcplite.tool_result(structured_content=frame3), args.calls)
    convert = per_call(lambda: rv.as_r(frame3), args.calls)
    text = mcplite.tool_result(structured_content=frame3).content[0].text
    table.append(
        (
            "`tool_result` of a 3-row pandas frame (int, double, str, date-time, category; NA), per call",
            f"{fmt(small)} (of which `as_r` {fmt(convert)})",
            "jsonlite `toJSON` of the same frame",
            against_r(0, small),
            same(text, 0),
        )
    )
    frame8 = issue_frame()
    small8 = per_call(lambda: mcplite.tool_result(structured_content=frame8), args.calls)
    convert8 = per_call(lambda: rv.as_r(frame8), args.calls)
    text = mcplite.tool_result(structured_content=frame8).content[0].text
    table.append(
        (
            "`tool_result` of a 3-row pandas frame, issue 27's 8 columns (int64, Int32, double, boolean,"
            " str, category, date objects, datetime64; NA), per call",
            f"{fmt(small8)} (of which `as_r` {fmt(convert8)})",
            "jsonlite `toJSON` of the same frame",
            against_r(4, small8),
            same(text, 4),
        )
    )
    seed = per_call(lambda: mcplite.tool_result(structured_content=SEED), args.calls)
    text = mcplite.tool_result(structured_content=SEED).content[0].text
    table.append(
        (
            "`tool_result` of a small list (NA, NaN, Inf and a 1-row frame), per call",
            fmt(seed),
            "jsonlite",
            against_r(1, seed),
            same(text, 1),
        )
    )

    # the wire form of a large result
    n = 10_000
    big = pd.DataFrame({"id": np.arange(n), "x": np.linspace(0, 1, n), "s": [f"r{i % 13}" for i in range(n)]})
    build, result = best(lambda: mcplite.tool_result(structured_content=big))
    wire = per_call(lambda: result.to_wire("2026-07-28"), 200)
    table.append(
        (
            '`to_wire("2026-07-28")` of a 10,000-row frame\'s result',
            fmt(wire),
            f"building the result: {fmt(build)}",
            f"**{wire / build:.4f}x** the build time",
            "shares the payload",
        )
    )

    # plain Python payloads
    dumps_rows, _ = best(lambda: json.dumps(rows))
    ours_rows, _ = best(lambda: mcplite.as_tool_result(rows))
    table.append(
        (
            f"`as_tool_result` of {args.records:,} dict rows (int, str, double, bool)",
            fmt(ours_rows),
            f"`json.dumps` {fmt(dumps_rows)}",
            f"**{ours_rows / dumps_rows:.1f}x** `json.dumps`; jsonlite (scaled from {R_ROWS:,} rows): "
            + against_r(2, ours_rows, args.records / R_ROWS),
            same(encode_value_json(rows[:R_ROWS], options=options_in_force()), 2)
            + f" (first {R_ROWS:,} rows)",
        )
    )
    dumps_list, _ = best(lambda: json.dumps(scalars))
    ours_list, _ = best(lambda: mcplite.as_tool_result(scalars))
    table.append(
        (
            f"`as_tool_result` of `list(range({args.scalars:,}))`",
            fmt(ours_list),
            f"`json.dumps` {fmt(dumps_list)}",
            f"**{ours_list / dumps_list:.1f}x** `json.dumps`; jsonlite (scaled from {R_SCALARS:,}): "
            + against_r(3, ours_list, args.scalars / R_SCALARS),
            same(encode_value_json(scalars[:R_SCALARS], options=options_in_force()), 3)
            + f" (first {R_SCALARS:,})",
        )
    )
    general_n = 2_000
    general, _ = best(lambda: encode_json(to_r(rows[:general_n]), options=options_in_force()), repeat=1)
    fast, _ = best(lambda: encode_value_json(rows[:general_n], options=options_in_force()))
    table.append(
        (
            f"the same rows, first {general_n:,}: vectorized path",
            fmt(fast),
            f"an R value per element (the general path) {fmt(general)}",
            f"**{general / fast:.0f}x faster**",
            "yes"
            if encode_value_json(rows[:general_n], options=options_in_force())
            == encode_json(to_r(rows[:general_n]), options=options_in_force())
            else "NO",
        )
    )

    # object columns of dates (conversion; rvalues.convert's work)
    n_dates = 1_000_000
    rng = np.random.default_rng(3)
    day0 = dt.date(2000, 1, 1)
    dates = [day0 + dt.timedelta(days=int(k)) for k in rng.integers(0, 9000, n_dates)]
    mixed = pd.DataFrame(
        {
            "d": dates,
            "i": rng.integers(0, 1000, n_dates),
            "x": rng.random(n_dates),
            "s": pd.Categorical(rng.choice(["a", "b", "c"], n_dates)),
        }
    )
    to_numpy, _ = best(lambda: mixed.to_numpy(), repeat=1)
    as_r_dates, _ = best(lambda: rv.as_r(mixed[["d"]]), repeat=1)
    as_r_rest, _ = best(lambda: rv.as_r(mixed[["i", "x", "s"]]), repeat=1)
    table.append(
        (
            f"`as_r` of a {n_dates:,}-row object column of `datetime.date` (the frame's other 3 columns)",
            f"{fmt(as_r_dates)} ({fmt(as_r_rest)})",
            f"`df.to_numpy()` of the 4-column frame {fmt(to_numpy)}",
            f"**{as_r_dates / to_numpy:.2f}x** `to_numpy()`",
            "",
        )
    )

    lines = [
        "# Where MCP tools live (`benchmarks/bench_payloads.py`)",
        "",
        f"Measured side by side in one run. Python {platform.python_version()}, {platform.machine()}; "
        f"per-call figures are the best of 5 loops of {args.calls:,} calls (R's loop runs inside R, "
        '`toJSON(x, auto_unbox = TRUE, null = "null")`: the payload options); single runs are the best '
        "of 3. jsonlite reads the rows and the list with `fromJSON(simplifyVector = FALSE)` (R lists, "
        "as mcplite reads them) and its output is compared byte for byte.",
        "",
        "| path | rvalues / mcplite | anchor | ratio | identical to jsonlite |",
        "|---|---:|---|---|---|",
        *[f"| {a} | {b} | {c} | {d} | {e} |" for a, b, c, d, e in table],
    ]
    text_out = "\n".join(lines) + "\n"
    if args.markdown:
        Path(args.markdown).write_text(text_out)
    print(text_out)


if __name__ == "__main__":
    main()

"""Benchmark: ``rvalues.json.to_json`` on a 200,000-row data frame against R's jsonlite,
``pandas.DataFrame.to_json(orient="records")`` and ``orjson``; checks byte identity with jsonlite.

Run: ``python benchmarks/bench_json.py [--rows N]``; writes ``benchmarks/results/json.md``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np
import orjson
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rvalues
from rvalues.json import to_json
from rvalues.model.elements import read_only
from rvalues.na import NA_INTEGER, NA_REAL

HERE = Path(__file__).resolve().parent
LEVELS = ["alpha", "beta", "gamma", "delta", "epsilon"]


def make_columns(n: int, seed: int = 42) -> dict[str, np.ndarray]:
    """The raw columns (R's encodings): int32, float64 with NA_real_, logical int32, str/None, codes, days."""
    rng = np.random.default_rng(seed)
    ints = rng.integers(-100000, 100000, n).astype(np.int32)
    dbl = np.round(rng.normal(100, 50, n), 3) * rng.choice([1, 0.001, 1000], n)
    dbl[rng.random(n) < 0.1] = NA_REAL
    lgl = rng.integers(0, 2, n).astype(np.int32)
    lgl[rng.random(n) < 0.05] = NA_INTEGER
    words = np.array(
        ["apple", "banana", "cherry", "date", "elder berry", 'quote"d', "café", "x/y"], dtype=object
    )
    chars = words[rng.integers(0, len(words), n)] + np.char.mod("%d", rng.integers(0, 1000, n)).astype(object)
    chars[rng.random(n) < 0.05] = None
    codes = rng.integers(1, len(LEVELS) + 1, n).astype(np.int32)
    codes[rng.random(n) < 0.05] = NA_INTEGER
    days = rng.integers(0, 20000, n).astype(np.float64)
    days[rng.random(n) < 0.05] = NA_REAL
    return {"i": ints, "d": dbl, "l": lgl, "s": chars, "f": codes, "t": days}


def make_frame(cols: dict[str, np.ndarray]) -> rvalues.DataFrame:
    """The rvalues data frame over those columns (no copies)."""
    ch = rvalues.Character
    columns = (
        rvalues.Integer._wrap(read_only(cols["i"])),
        rvalues.Double._wrap(read_only(cols["d"])),
        rvalues.Logical._wrap(read_only(cols["l"])),
        ch._wrap(read_only(cols["s"])),
        rvalues.Integer._wrap(read_only(cols["f"])).with_attributes(
            {"levels": ch(LEVELS), "class": ch(["factor"])}
        ),
        rvalues.Double._wrap(read_only(cols["t"])).with_attributes({"class": ch(["Date"])}),
    )
    n = len(cols["i"])
    return rvalues.DataFrame._wrap(
        columns,
        {
            "names": ch(list(cols)),
            "class": ch(["data.frame"]),
            "row.names": rvalues.Integer._wrap(read_only(np.array([NA_INTEGER, -n], dtype=np.int32))),
        },
    )


def pandas_frame(cols: dict[str, np.ndarray]) -> pd.DataFrame:
    """The same data as pandas holds it (NA as NaN/None, factor as category, dates as ISO text)."""
    dbl = cols["d"].copy()
    lgl = pd.array(np.where(cols["l"] == NA_INTEGER, None, cols["l"] == 1), dtype="boolean")
    codes = cols["f"]
    cat = pd.Categorical.from_codes(np.where(codes == NA_INTEGER, -1, codes - 1), categories=LEVELS)
    days = cols["t"]
    dates = pd.Series(pd.to_datetime(np.where(np.isnan(days), np.nan, days), unit="D")).dt.strftime(
        "%Y-%m-%d"
    )
    return pd.DataFrame({"i": cols["i"], "d": dbl, "l": lgl, "s": cols["s"], "f": cat, "t": dates})


def best(fn, repeat: int = 3) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return min(times), out


R_SCRIPT = r"""
suppressMessages(library(jsonlite))
args <- commandArgs(TRUE); dir <- args[[1]]; n <- as.integer(args[[2]])
rd <- function(f, what) {
  con <- file(file.path(dir, f), "rb"); on.exit(close(con))
  readBin(con, what, n, size = if (what == "integer") 4 else 8)
}
s <- readLines(file.path(dir, "s.txt"), encoding = "UTF-8")
s[readBin(file.path(dir, "s_na.bin"), "logical", n, size = 4)] <- NA
f <- rd("f.bin", "integer"); attr(f, "levels") <- c("alpha", "beta", "gamma", "delta", "epsilon")
class(f) <- "factor"
t <- rd("t.bin", "double"); class(t) <- "Date"
l <- rd("l.bin", "integer"); l <- as.logical(l)
df <- data.frame(i = rd("i.bin", "integer"), d = rd("d.bin", "double"), l = l, s = s, f = f, t = t,
                 stringsAsFactors = FALSE)
for (mode in c("rows", "columns")) {
  times <- sapply(1:3, function(k) system.time(out <<- toJSON(df, dataframe = mode))[["elapsed"]])
  writeLines(out, file.path(dir, paste0("r_", mode, ".json")), useBytes = TRUE)
  cat(mode, min(times), "\n")
}
"""


def run_r(cols: dict[str, np.ndarray], tmp: Path) -> dict[str, tuple[float, str]] | None:
    if shutil.which("Rscript") is None:
        return None
    n = len(cols["i"])
    for name in ("i", "l", "f"):
        cols[name].astype("<i4").tofile(tmp / f"{name}.bin")
    for name in ("d", "t"):
        cols[name].astype("<f8").tofile(tmp / f"{name}.bin")
    missing = np.equal(cols["s"], None)
    (tmp / "s.txt").write_text(
        "\n".join("" if m else s for s, m in zip(cols["s"].tolist(), missing)) + "\n", encoding="utf-8"
    )
    missing.astype("<i4").tofile(tmp / "s_na.bin")
    (tmp / "bench.R").write_text(R_SCRIPT)
    res = subprocess.run(
        ["Rscript", str(tmp / "bench.R"), str(tmp), str(n)],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "TZ": "UTC"},
    )
    if res.returncode:
        raise RuntimeError(f"Rscript failed: {res.stderr}")
    out = {}
    for line in res.stdout.splitlines():
        mode, secs = line.split()
        out[mode] = (float(secs), (tmp / f"r_{mode}.json").read_text(encoding="utf-8").rstrip("\n"))
    return out


def peak_memory(fn) -> float:
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=200_000)
    args = parser.parse_args()
    os.environ["TZ"] = "UTC"
    time.tzset()
    cols = make_columns(args.rows)
    frame = make_frame(cols)
    pdf = pandas_frame(cols)
    records = pdf.astype(object).where(pdf.notna(), None).to_dict(orient="records")

    ours = {mode: best(lambda m=mode: to_json(frame, dataframe=m)) for mode in ("rows", "columns")}
    pandas_t, _ = best(lambda: pdf.to_json(orient="records"))
    orjson_t, _ = best(lambda: orjson.dumps(records))
    mem = {mode: peak_memory(lambda m=mode: to_json(frame, dataframe=m)) for mode in ("rows", "columns")}
    with tempfile.TemporaryDirectory() as tmp:
        r = run_r(cols, Path(tmp))

    lines = [
        f"# JSON benchmark: {args.rows:,}-row data frame",
        "",
        "Columns: integer, double (10% NA), logical (5% NA), character (5% NA), factor (5% NA), "
        "Date (5% NA).",
        "Times are the best of 3 runs, in seconds; R's time is `system.time(toJSON(df))` inside R.",
        "",
        "| mode | rvalues | jsonlite | vs jsonlite | pandas.to_json | vs pandas | orjson | vs orjson "
        "| identical to jsonlite | peak MiB (tracemalloc) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for mode in ("rows", "columns"):
        t, text = ours[mode]
        if r is not None:
            rt, rtext = r[mode]
            vs_r = f"{rt / t:.1f}x faster"
            same = "yes" if text == rtext else "NO"
            rcol = f"{rt:.3f}"
        else:
            vs_r, same, rcol = "n/a", "n/a (no Rscript)", "n/a"
        lines.append(
            f"| {mode} | {t:.3f} | {rcol} | {vs_r} | {pandas_t:.3f} | {t / pandas_t:.2f}x its time | "
            f"{orjson_t:.3f} | {t / orjson_t:.1f}x its time | {same} | {mem[mode]:.0f} |"
        )
    lines += [
        "",
        "pandas and orjson serialize the same data as records (the rows layout); they are anchors,",
        "not equivalents (pandas writes NaN as null and keeps NA fields, orjson gets ready-made dicts).",
    ]
    report = "\n".join(lines) + "\n"
    (HERE / "results").mkdir(exist_ok=True)
    (HERE / "results" / "json.md").write_text(report)
    print(report)


if __name__ == "__main__":
    main()

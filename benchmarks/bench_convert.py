"""Benchmark: converting a 1,000,000-row, 8-column pandas frame to rvalues (and to JSON).

Measures wall time (best of ``--repeat``) and peak traced memory (``tracemalloc``, which sees numpy's
and pandas' buffers) of:

- ``from_pandas(df)`` against the baselines ``df.to_dict("list")`` and ``df.to_numpy()``;
- ``from_pandas(df)`` + ``rvalues.to_json`` against ``df.to_json(orient="records")``.

Run: ``python benchmarks/bench_convert.py [--rows N] [--repeat R] [--markdown results/convert.md]``.
"""

from __future__ import annotations

import argparse
import gc
import platform
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rvalues
from rvalues.convert import from_pandas


def make_frame(n: int, seed: int = 1, distinct: bool = False) -> pd.DataFrame:
    """8 columns of mixed dtypes, every one with missing values where its dtype has them.

    ``distinct``: the label, value, count and date-time columns hold (nearly) all-different
    values instead of repeating ones, so nothing is formatted once and reused.
    """
    rng = np.random.default_rng(seed)
    missing = rng.random(n) < 0.05
    f64 = rng.normal(size=n)
    f64[missing] = np.nan
    n32 = pd.array(rng.integers(-1000, 1000, size=n), dtype="Int32")
    n32[missing] = pd.NA
    flags = pd.array(rng.random(n) < 0.5, dtype="boolean")
    flags[rng.random(n) < 0.05] = pd.NA
    words = np.array(["alpha", "beta", "gamma", "delta", "epsilon"], dtype=object)[rng.integers(0, 5, size=n)]
    text = pd.Series(words, dtype="str" if pd.__version__ >= "3" else "string")
    text[rng.random(n) < 0.05] = None
    category = pd.Categorical(words, categories=["alpha", "beta", "gamma", "delta", "epsilon"])
    category[rng.random(n) < 0.05] = np.nan
    stamps = pd.Series(pd.to_datetime(1_600_000_000 + rng.integers(0, 10**8, size=n), unit="s")).astype(
        "datetime64[us]"
    )
    stamps[rng.random(n) < 0.05] = pd.NaT
    if distinct:
        f64 = rng.normal(0, 1e6, size=n)
        f64[missing] = np.nan
        n32 = pd.array(rng.integers(-(2**31) + 1, 2**31 - 1, size=n), dtype="Int32")
        n32[missing] = pd.NA
        text = pd.Series([f"user-{i:x}" for i in rng.permutation(n)], dtype=text.dtype)
        text[rng.random(n) < 0.05] = None
        seconds = pd.to_datetime(rng.integers(0, 2 * 10**9, size=n), unit="s")
        stamps = pd.Series(seconds).astype("datetime64[us]")
        stamps[rng.random(n) < 0.05] = pd.NaT
    return pd.DataFrame(
        {
            "id": np.arange(n, dtype=np.int64),
            "value": f64,
            "count": n32,
            "flag": flags,
            "label": text,
            "group": category,
            "when": stamps,
            "ratio": rng.random(n).astype(np.float32),
        }
    )


def measure(fn: Callable[[], Any], repeat: int) -> tuple[float, float]:
    """(best wall time in seconds, peak traced memory in MiB) of ``fn()``."""
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
        del result
    gc.collect()
    tracemalloc.start()
    result = fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del result
    return best, peak / 2**20


PANDAS_JSON = 'pandas df.to_json(orient="records", date_format="iso")'
OURS = "rvalues to_json(from_pandas(df))"
CONVERT = "rvalues from_pandas(df)"


def bench_frame(variant: str, df: pd.DataFrame, repeat: int) -> list[tuple[str, float, float]]:
    """(operation, best seconds, peak MiB) for one frame."""
    rows: list[tuple[str, float, float]] = []

    def run(name: str, fn: Callable[[], Any], times: int = repeat) -> None:
        seconds, mib = measure(fn, times)
        rows.append((name, seconds, mib))
        print(f"{variant:<10} {name:<55} {seconds * 1000:10.1f} ms {mib:10.1f} MiB", flush=True)

    run(CONVERT, lambda: from_pandas(df))
    if variant == "repeating":
        run('baseline df.to_dict("list")', lambda: df.to_dict("list"), times=1)
        run("baseline df.to_numpy()", lambda: df.to_numpy(), times=1)
    run(PANDAS_JSON, lambda: df.to_json(orient="records", date_format="iso"))
    run(OURS, lambda: rvalues.to_json(from_pandas(df)))
    assert rvalues.to_json(from_pandas(df)).startswith("[{")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--markdown", help="write the results table here")
    args = parser.parse_args()
    frames = {"repeating": make_frame(args.rows), "distinct": make_frame(args.rows, distinct=True)}
    results = {variant: bench_frame(variant, df, args.repeat) for variant, df in frames.items()}
    if args.markdown:
        write_markdown(args.markdown, frames["repeating"], results, args)


def write_markdown(
    path: str, df: pd.DataFrame, results: dict[str, list[tuple[str, float, float]]], args: Any
) -> None:
    lines = [
        "# Conversion benchmark (`benchmarks/bench_convert.py`)",
        "",
        f"{len(df):,} rows x {df.shape[1]} columns: "
        + ", ".join(f"`{c}` {t}" for c, t in df.dtypes.astype(str).items())
        + "; about 5% missing in "
        + ", ".join(f"`{c}`" for c in df.columns if df[c].isna().any())
        + ".",
        "",
        "Two frames of that shape: *repeating* (five words, counts in -1000..999, doubles around 0, "
        "date-times within three years) and *distinct* (every label different, counts over all of "
        "int32, doubles of magnitude 1e6, date-times over 63 years), where those four columns cannot "
        "be formatted once per distinct value and reused (the factor and logical columns still are).",
        "",
        f"Python {platform.python_version()}, numpy {np.__version__}, pandas {pd.__version__}, "
        f"{platform.machine()}; best of {args.repeat} runs (the `to_dict`/`to_numpy` baselines: one run); "
        "peak memory from `tracemalloc` (numpy and pandas buffers included).",
        "",
        "| frame | operation | time (ms) | peak memory (MiB) |",
        "|---|---|---:|---:|",
    ]
    for variant, rows in results.items():
        lines += [f"| {variant} | {name} | {seconds * 1000:.1f} | {mib:.1f} |" for name, seconds, mib in rows]
    lines.append("")
    for variant, rows in results.items():
        by_name = {name: seconds for name, seconds, _ in rows}
        pandas_json, ours, convert = by_name[PANDAS_JSON], by_name[OURS], by_name[CONVERT]
        lines.append(
            f"- {variant}: conversion alone / pandas to_json = **{convert / pandas_json:.2f}x**; "
            f"conversion + to_json / pandas to_json = **{ours / pandas_json:.2f}x** (target < 2x); "
            f"the conversion is {convert / ours:.0%} of it."
        )
    Path(path).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

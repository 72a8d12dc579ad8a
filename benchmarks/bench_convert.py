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


def make_frame(n: int, seed: int = 1) -> pd.DataFrame:
    """8 columns of mixed dtypes, every one with missing values where its dtype has them."""
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
    stamps = pd.Series(
        pd.to_datetime(1_600_000_000 + rng.integers(0, 10**8, size=n), unit="s")
    ).astype("datetime64[us]")
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--markdown", help="write the results table here")
    args = parser.parse_args()
    df = make_frame(args.rows)
    rows: list[tuple[str, float, float]] = []

    def run(name: str, fn: Callable[[], Any], repeat: int = args.repeat) -> None:
        seconds, mib = measure(fn, repeat)
        rows.append((name, seconds, mib))
        print(f"{name:<45} {seconds * 1000:10.1f} ms {mib:10.1f} MiB", flush=True)

    run("rvalues from_pandas(df)", lambda: from_pandas(df))
    run('baseline df.to_dict("list")', lambda: df.to_dict("list"), repeat=1)
    run("baseline df.to_numpy()", lambda: df.to_numpy(), repeat=1)
    run(
        'pandas df.to_json(orient="records", date_format="iso")',
        lambda: df.to_json(orient="records", date_format="iso"),
        repeat=1,
    )
    run("rvalues to_json(from_pandas(df))", lambda: rvalues.to_json(from_pandas(df)), repeat=1)
    assert rvalues.to_json(from_pandas(df)).startswith("[{")
    if args.markdown:
        write_markdown(args.markdown, df, rows, args)


def write_markdown(path: str, df: pd.DataFrame, rows: list[tuple[str, float, float]], args: Any) -> None:
    by_name = {name: seconds for name, seconds, _ in rows}
    lines = [
        "# Conversion benchmark (`benchmarks/bench_convert.py`)",
        "",
        f"{len(df):,} rows x {df.shape[1]} columns: "
        + ", ".join(f"`{c}` {t}" for c, t in df.dtypes.astype(str).items())
        + "; about 5% missing in "
        + ", ".join(f"`{c}`" for c in df.columns if df[c].isna().any())
        + ".",
        "",
        f"Python {platform.python_version()}, numpy {np.__version__}, pandas {pd.__version__}, "
        f"{platform.machine()}; best of {args.repeat} for rvalues' conversion, one run for the rest; "
        "peak memory from `tracemalloc` (numpy and pandas buffers included).",
        "",
        "| operation | time (ms) | peak memory (MiB) |",
        "|---|---:|---:|",
    ]
    lines += [f"| {name} | {seconds * 1000:.1f} | {mib:.1f} |" for name, seconds, mib in rows]
    pandas_json = by_name.get('pandas df.to_json(orient="records", date_format="iso")')
    ours = by_name.get("rvalues to_json(from_pandas(df))")
    convert = by_name.get("rvalues from_pandas(df)")
    if pandas_json and convert:
        lines += ["", f"conversion alone / pandas to_json = **{convert / pandas_json:.2f}x**."]
    if pandas_json and ours:
        lines += [
            f"conversion + to_json / pandas to_json = **{ours / pandas_json:.2f}x** (target < 2x); "
            f"the conversion is {convert / ours:.0%} of it." if convert else "",
        ]
    elif pandas_json:
        lines += ["rvalues.to_json was not available: conversion alone was measured."]
    Path(path).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

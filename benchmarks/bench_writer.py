"""Benchmark: issue 27's targets for the JSON writer, as ratios against anchors timed in the same run.

The 8-column mixed frame of the issue (int64, Int32, float64 with NaN, nullable boolean, strings
with NA, categorical, ``datetime.date`` objects, datetime64[s] with NaT):

- rows layout, 1M rows, from a prebuilt R value: against orjson on prebuilt records (the floor) and
  polars' ``write_json`` on a prebuilt polars frame; from pandas (``as_r`` + ``to_json``) against
  pandas' ``to_json(orient="records", date_format="iso")``;
- 10k rows from pandas against polars' ``write_json``;
- columns layout, 1M rows, against orjson on prebuilt column lists;
- each under the compiled writer and the pure one (``RVALUES_PURE=1`` in a child process).

Run: ``python benchmarks/bench_writer.py [--rows N] [--markdown results/writer.md]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import orjson
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from timing import best

import rvalues as rv
from rvalues.json import backend, to_json

WORDS = np.array(["alpha", "beta", "gamma", "delta", "epsilon"], dtype=object)


def make_frame(n: int, seed: int = 7) -> pd.DataFrame:
    """The issue's 8 columns, about 5% missing in each column that can miss."""
    rng = np.random.default_rng(seed)

    def holes() -> np.ndarray:
        return rng.random(n) < 0.05

    value = rng.normal(size=n)
    value[holes()] = np.nan
    count = pd.array(rng.integers(-1000, 1000, size=n), dtype="Int32")
    count[holes()] = pd.NA
    flag = pd.array(rng.random(n) < 0.5, dtype="boolean")
    flag[holes()] = pd.NA
    label = pd.Series(
        WORDS[rng.integers(0, 5, size=n)] + rng.integers(0, 100, size=n).astype(str).astype(object)
    )
    label[holes()] = None
    group = pd.Categorical(WORDS[rng.integers(0, 5, size=n)], categories=list(WORDS))
    group[holes()] = np.nan
    day0 = dt.date(2000, 1, 1)
    days = [day0 + dt.timedelta(days=int(k)) for k in rng.integers(0, 9000, size=n)]
    stamps = pd.Series(pd.to_datetime(1_600_000_000 + rng.integers(0, 10**8, size=n), unit="s")).astype(
        "datetime64[s]"
    )
    stamps[holes()] = pd.NaT
    return pd.DataFrame(
        {
            "id": np.arange(n, dtype=np.int64),
            "count": count,
            "value": value,
            "flag": flag,
            "label": label,
            "group": group,
            "day": pd.Series(days, dtype=object),
            "when": stamps,
        }
    )


def records(df: pd.DataFrame) -> list[dict[str, Any]]:
    """The frame as Python records (None for missing; date and datetime objects): orjson's input."""
    cols = columns(df)
    names = list(cols)
    return [dict(zip(names, row)) for row in zip(*cols.values())]


def columns(df: pd.DataFrame) -> dict[str, list[Any]]:
    """The frame as column lists of Python values (None for missing)."""
    out: dict[str, list[Any]] = {}
    for name in df.columns:
        col = df[name]
        values = col.astype(object).where(col.notna(), None).tolist()
        if name == "when":
            values = [None if v is None else v.to_pydatetime() for v in values]
        out[name] = values
    return out


def measure(rows: int, repeat: int) -> dict[str, float]:
    """Every timing of one run (this process's writer; the anchors are timed here too)."""
    import polars as pl

    out: dict[str, float] = {}
    big, small = make_frame(rows), make_frame(10_000)
    x_big = rv.as_r(big)
    out["rows_prebuilt"] = best(lambda: to_json(x_big), repeat)
    out["rows_from_pandas"] = best(lambda: to_json(rv.as_r(big)), repeat)
    out["columns_prebuilt"] = best(lambda: to_json(x_big, dataframe="columns"), repeat)
    out["small_from_pandas"] = best(lambda: to_json(rv.as_r(small)), repeat * 5)
    out["as_r"] = best(lambda: rv.as_r(big), repeat)
    recs = records(big)
    cols = columns(big)
    out["orjson_records"] = best(lambda: orjson.dumps(recs), repeat)
    out["orjson_columns"] = best(lambda: orjson.dumps(cols), repeat)
    out["pandas_records"] = best(lambda: big.to_json(orient="records", date_format="iso"), repeat)
    pl_big, pl_small = pl.from_pandas(big), pl.from_pandas(small)
    out["polars_rows"] = best(lambda: pl_big.write_json(), repeat)
    out["polars_small"] = best(lambda: pl_small.write_json(), repeat * 5)
    out["to_numpy"] = best(lambda: big.to_numpy(), 1)
    return out


def ratio(a: float, b: float) -> str:
    return f"**{a / b:.2f}x**"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--markdown", help="write the results table here")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps({"backend": backend(), **measure(args.rows, args.repeat)}))
        return
    runs = {}
    for name, env in (("c", {}), ("python", {"RVALUES_PURE": "1"})):
        done = subprocess.run(
            [sys.executable, __file__, "--child", "--rows", str(args.rows), "--repeat", str(args.repeat)],
            env={**os.environ, **env},
            check=True,
            capture_output=True,
            text=True,
        )
        runs[name] = json.loads(done.stdout.splitlines()[-1])
        print(name, runs[name], flush=True)
    lines = [
        "# The JSON writer against its peers (`benchmarks/bench_writer.py`)",
        "",
        f"Issue 27's 8-column frame, {args.rows:,} rows (and 10,000): int64, Int32, float64 with NaN, "
        "nullable boolean, strings with NA, categorical, `datetime.date` objects, datetime64[s] with NaT "
        f"(about 5% missing). Best of {args.repeat} (10k rows: of {args.repeat * 5}); each writer in its own "
        "process, the anchors timed in that same process. "
        f"Python {platform.python_version()}, {platform.machine()}.",
        "",
        "| case | target | compiled writer | ratio | pure writer | ratio |",
        "|---|---|---:|---:|---:|---:|",
    ]
    c, p = runs["c"], runs["python"]

    def row(case: str, target: str, key: str, anchor: str) -> None:
        lines.append(
            f"| {case} | {target} | {c[key]:.3f} s | {ratio(c[key], c[anchor])} | "
            f"{p[key]:.3f} s | {ratio(p[key], p[anchor])} |"
        )

    n = f"{args.rows:,}"
    row(f"rows, {n}, prebuilt value / orjson on prebuilt records", "<= 2x", "rows_prebuilt", "orjson_records")
    row(f"rows, {n}, prebuilt value / polars `write_json`", "< 1x", "rows_prebuilt", "polars_rows")
    row(
        f"rows, {n}, from pandas (`as_r` + `to_json`) / pandas `to_json(records, iso)`",
        "<= 0.5x",
        "rows_from_pandas",
        "pandas_records",
    )
    row("rows, 10,000, from pandas / polars `write_json`", "< 1x", "small_from_pandas", "polars_small")
    row(
        f"columns, {n}, prebuilt value / orjson on prebuilt column lists",
        "<= 2x",
        "columns_prebuilt",
        "orjson_columns",
    )
    row(f"`as_r` of the {n}-row frame / `df.to_numpy()`", "", "as_r", "to_numpy")
    lines += [
        "",
        f"Anchors in the compiled writer's run: orjson records {c['orjson_records']:.3f} s, "
        f"orjson columns {c['orjson_columns']:.3f} s, polars {c['polars_rows']:.3f} s "
        f"(10k: {c['polars_small'] * 1e3:.1f} ms), "
        f"pandas {c['pandas_records']:.3f} s, `to_numpy` {c['to_numpy']:.3f} s.",
    ]
    text = "\n".join(lines) + "\n"
    if args.markdown:
        Path(args.markdown).write_text(text)
    print(text)


if __name__ == "__main__":
    main()

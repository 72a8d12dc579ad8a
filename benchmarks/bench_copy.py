"""Benchmark: what owning the memory costs (values copy writable input once instead of sharing it).

Times, in one run, best of ``--repeat``:

- ``as_r(a)`` for a 10,000,000-element float64 and int32 array, and ``from_pandas(df)`` for the
  1,000,000-row, 8-column frame of ``bench_convert.py``, each with the copy (as shipped) and without
  it (the copy replaced by a lock over the caller's memory, which is what sharing cost before);
- the anchor: ``np.array(a, copy=True)`` of the same arrays, the least any copy can cost.

Run: ``python benchmarks/bench_copy.py [--repeat R] [--markdown results/copy.md]``.
"""

from __future__ import annotations

import argparse
import platform
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_convert import make_frame
from timing import best

import rvalues
import rvalues.convert.numpy as convert_numpy
import rvalues.convert.pandas as convert_pandas
from rvalues.model.storage import _Lock, is_locked


def paired(fn: Callable[[], Any], repeat: int) -> tuple[float, float]:
    """Best times with and without the copy, alternating run by run so load drifts hit both alike."""
    copied, shared = [], []
    for _ in range(repeat):
        copied.append(best(fn, 1))
        with without_copy():
            shared.append(best(fn, 1))
    return min(copied), min(shared)


def _shared(array: np.ndarray, *, checked: bool = False) -> np.ndarray:
    """The copy left out: a read-only view over the caller's memory (what sharing did)."""
    return array if is_locked(array) else np.asarray(_Lock(array))


@contextmanager
def without_copy() -> Iterator[None]:
    saved = convert_numpy.owned, convert_pandas.owned
    convert_numpy.owned = convert_pandas.owned = _shared  # type: ignore[assignment]
    try:
        yield
    finally:
        convert_numpy.owned, convert_pandas.owned = saved


def run(repeat: int) -> list[tuple[str, float, float, float]]:
    """(workload, with copy, without copy, np.array(copy=True) anchor) in seconds."""
    rows = []
    rng = np.random.default_rng(1)
    doubles = rng.normal(size=10_000_000)
    ints = rng.integers(-1000, 1000, size=10_000_000).astype(np.int32)
    frame = make_frame(1_000_000)
    numeric = [np.asarray(frame[c]) for c in ("id", "value")]  # the columns the copy applies to
    for label, array in (("as_r, 10M float64", doubles), ("as_r, 10M int32", ints)):
        copied, shared = paired(lambda a=array: rvalues.as_r(a), repeat)  # type: ignore[misc]
        anchor = best(lambda a=array: np.array(a, copy=True), repeat)  # type: ignore[misc]
        rows.append((label, copied, shared, anchor))
    copied, shared = paired(lambda: rvalues.from_pandas(frame), repeat)
    anchor = best(lambda: [np.array(a, copy=True) for a in numeric], repeat)
    rows.append(("from_pandas, 1M x 8 mixed frame", copied, shared, anchor))
    return rows


def markdown(rows: list[tuple[str, float, float, float]], repeat: int) -> str:
    lines = [
        "# Copy benchmark (`benchmarks/bench_copy.py`)",
        "",
        "Values own read-only memory: writable input is copied once. *with copy* is rvalues as shipped; "
        "*without* replaces the copy with a read-only view of the caller's memory (the old sharing); the "
        "anchor is `np.array(a, copy=True)` of the same data (for the frame: its int64 and float64 columns, "
        "the ones that were shared before; the others were always converted into new memory).",
        "",
        f"Python {platform.python_version()}, numpy {np.__version__}, pandas {pd.__version__}, "
        f"{platform.machine()}; best of {repeat} runs, one process, with and without alternating run by run; "
        "a 2-core machine shared with other jobs, so differences of a few ms are noise.",
        "",
        "| workload | with copy (ms) | without (ms) | copy's cost (ms) | anchor np.array(copy=True) (ms) |",
        "|---|---:|---:|---:|---:|",
    ]
    for label, copied, shared, anchor in rows:
        lines.append(
            f"| {label} | {copied * 1e3:.1f} | {shared * 1e3:.1f} | {(copied - shared) * 1e3:.1f} | "
            f"{anchor * 1e3:.1f} |"
        )
    lines.append("")
    for label, copied, shared, anchor in rows:
        cost = (
            f"the copy costs {(copied - shared) / anchor:.2f}x a plain `np.array(copy=True)`"
            if copied - shared > anchor / 2
            else f"the copy ({anchor * 1e3:.1f} ms by the anchor) is lost in the run-to-run noise"
        )
        lines.append(f"- {label}: with / without = **{copied / shared:.2f}x**; {cost}.")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--markdown", type=Path)
    args = parser.parse_args()
    text = markdown(run(args.repeat), args.repeat)
    print(text)
    if args.markdown:
        args.markdown.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()

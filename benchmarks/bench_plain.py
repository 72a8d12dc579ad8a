"""Benchmark: plain Python tool returns (records, a long list of ints, a nested report) through
``mcplite.as_tool_result``, against ``json.dumps`` and ``orjson.dumps`` of the same values, in one run.

``as_tool_result`` writes jsonlite's JSON (auto_unbox, digits = 4, NA and None rules), with the
compiled writer and with the pure path (``_speedups.core`` set to None, as ``RVALUES_PURE=1``); the
two texts must be identical. Times are the best of ``--repeat`` calls, in milliseconds.

Run: ``python benchmarks/bench_plain.py [--repeat N] [--markdown results/plain.md]``.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import orjson

from benchmarks.timing import best
from mcplite import as_tool_result
from rvalues import _speedups


def payloads() -> dict[str, Any]:
    """The three payloads of issue 37, built from a fixed seed."""
    rng = random.Random(37)
    records = [
        {
            "id": i,
            "name": f"user {i}",
            "score": rng.random() * 100,
            "ok": i % 3 == 0,
            "tag": rng.choice(["alpha", "beta", "gamma", "é"]),
        }
        for i in range(100_000)
    ]
    report = {
        "title": "weekly report",
        "counts": {f"c{i}": rng.randrange(1000) for i in range(100)},
        "groups": [[rng.gauss(0, 1) for _ in range(20)] for _ in range(1_000)],
    }
    return {
        "100,000 records {id, name, score, ok, tag}": records,
        "list(range(1_000_000))": list(range(1_000_000)),
        "a nested report (100 counts, 1,000 groups of 20 floats)": report,
    }


def text_of(value: Any) -> str:
    return as_tool_result(value).content[0].text  # type: ignore[no-any-return]


def ms(fn: Callable[[], Any], repeat: int) -> float:
    return best(fn, repeat) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--markdown", help="write the results table here")
    args = parser.parse_args()
    lines = [
        "# Plain Python returns (`benchmarks/bench_plain.py`)",
        "",
        f"Best of {args.repeat} calls, in milliseconds; ratios are to orjson's time in the same run. "
        f"Python {platform.python_version()}, {platform.machine()}, rvalues writer: "
        f"{_speedups.backend()}.",
        "",
        "| payload | as_tool_result | ratio | pure path | ratio | json.dumps | ratio | orjson | "
        "same text as pure |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for name, value in payloads().items():
        compiled = ms(lambda v=value: text_of(v), args.repeat)
        with _speedups.pure_writer():
            pure = ms(lambda v=value: text_of(v), max(2, args.repeat // 3))
            expected = text_of(value)
        dumps = ms(lambda v=value: json.dumps(v, separators=(",", ":")), args.repeat)
        fastest = ms(lambda v=value: orjson.dumps(v), args.repeat)
        same = "yes" if text_of(value) == expected else "NO"
        lines.append(
            f"| {name} | {compiled:.1f} | {compiled / fastest:.1f}x | {pure:.1f} | {pure / fastest:.1f}x | "
            f"{dumps:.1f} | {dumps / fastest:.1f}x | {fastest:.1f} | {same} |"
        )
        print(lines[-1], flush=True)
    lines += [
        "",
        "as_tool_result writes jsonlite's text (numbers to 4 significant decimals, as jsonlite's "
        "digits = 4), which is not the text json.dumps and orjson write; the ratio says what that "
        "text costs next to the fastest JSON writer at hand.",
    ]
    if args.markdown:
        Path(args.markdown).write_text("\n".join(lines) + "\n")
    else:
        print("\n".join(lines))


if __name__ == "__main__":
    main()

"""Benchmark: peak memory of rows-layout JSON for a large data frame, against pandas' ``to_json``.

Each case runs in a fresh subprocess: it builds the columns (bench_json's mixed frame), resets
the kernel's peak-RSS mark (``/proc/self/clear_refs``), writes the JSON and reports the peak
resident memory above what the process held before (the data included there). The chunked
writer's output is compared byte for byte with the one-piece writer's.

Run: ``python benchmarks/bench_memory.py [--rows N] [--markdown results/memory.md]`` (Linux only).
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

CASES = {
    "rvalues to_json (chunked rows)": "rvalues",
    "rvalues to_json (one piece)": "rvalues-one-piece",
    "rvalues to_json(as_r(pandas frame)), conversion included": "rvalues-from-pandas",
    "pandas to_json(orient='records')": "pandas",
}


def _status(field: str) -> int:
    """A VmXXX line of /proc/self/status, in bytes."""
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise RuntimeError(f"no {field} in /proc/self/status")


def child(case: str, rows: int) -> dict[str, Any]:
    """Build the frame, then measure one JSON write (run in its own process)."""
    from bench_json import make_columns, make_frame, pandas_frame

    from rvalues import as_r
    from rvalues.json import frame_text, frames, to_json

    cols = make_columns(rows)
    if case == "pandas":
        frame: Any = pandas_frame(cols)

        def run() -> str:
            return frame.to_json(orient="records")  # type: ignore[no-any-return]

    elif case == "rvalues-from-pandas":
        frame = pandas_frame(cols)

        def run() -> str:
            return to_json(as_r(frame))

    else:
        frame = make_frame(cols)
        if case == "rvalues-one-piece":
            frames.CHUNK_ROWS = frame_text.CHUNK_ROWS = rows + 1

        def run() -> str:
            return to_json(frame)

    del cols
    gc.collect()
    with open("/proc/self/clear_refs", "w") as handle:
        handle.write("5")
    before = _status("VmRSS")
    start = time.perf_counter()
    text = run()
    seconds = time.perf_counter() - start
    peak = _status("VmHWM")
    return {
        "peak_mib": (peak - before) / 2**20,
        "text_mib": len(text.encode("utf-8")) / 2**20,
        "seconds": seconds,
        "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--markdown", help="write the results table here")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.rows)))
        return
    results = {}
    for name, case in CASES.items():
        out = subprocess.run(
            [sys.executable, __file__, "--child", case, "--rows", str(args.rows)],
            check=True,
            capture_output=True,
            text=True,
        )
        results[name] = json.loads(out.stdout)
        print(name, results[name], flush=True)
    anchor = results["pandas to_json(orient='records')"]["peak_mib"]
    chunked, whole = results["rvalues to_json (chunked rows)"], results["rvalues to_json (one piece)"]
    lines = [
        "# Peak memory of rows-layout JSON (`benchmarks/bench_memory.py`)",
        "",
        f"A {args.rows:,}-row frame (integer, double with 10% NA, logical, character, factor, Date; "
        "bench_json's data), one fresh process per case: the peak resident memory (VmHWM) while "
        "writing the JSON, above the process's resident memory just before (data already built). "
        f"Python {platform.python_version()}, {platform.machine()}.",
        "",
        "| writer | peak MiB above the data | vs pandas | JSON MiB | seconds |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, res in results.items():
        lines.append(
            f"| {name} | {res['peak_mib']:.0f} | {res['peak_mib'] / anchor:.2f}x | "
            f"{res['text_mib']:.0f} | {res['seconds']:.2f} |"
        )
    same = "yes" if chunked["sha256"] == whole["sha256"] else "NO"
    lines += [
        "",
        f"Chunked and one-piece rvalues output byte-identical: {same}. (pandas writes different JSON: "
        "NA as null fields, dates as given, its own number formatting; its peak is the anchor only.)",
    ]
    text = "\n".join(lines) + "\n"
    if args.markdown:
        Path(args.markdown).write_text(text)
    print(text)


if __name__ == "__main__":
    main()

"""Grade runs of the official MCP conformance suite against tests/conformance/expected-failures.txt.

Each run is the console output of ``conformance server ...`` saved to ``RUN.txt`` in one directory
(``.ci/conformance`` writes ``0.1.16.txt``, ``2026-07-28.txt`` and ``pending.txt``). A scenario is
known as ``RUN/SCENARIO``; the summary lines the suite prints (``✗ ping: 0 passed, 1 failed``) say
whether it passed. The scenarios a ``--requirements`` run lists as "not scored" (pending ones,
graded in the pending run, and extensions) are left out of that run, but for the tasks extension's
(``tasks-*``): mcplite serves it, so they are graded like any other.

The grade fails on a scenario that fails and is not listed, on a listed one that now passes (so the
list only shrinks: delete its line), on a listed one no run reports, and on a run with no summary.

>>> parse_summary("=== SUMMARY ===\\n✓ ping: 1 passed, 0 failed\\n✗ caching: 3 passed, 1 failed\\n"
...               "✗ json-schema-2020-12: 3 passed, 5 failed\\n\\nNot scored for 2026-07-28: 1 run\\n"
...               "  ✗ json-schema-2020-12 (pending)\\n")
{'ping': True, 'caching': False}
>>> parse_expected("# why\\n0.1.16/ping: not yet (issue 1)\\n")
{'0.1.16/ping': 'not yet (issue 1)'}

``python tests/conformance/grade.py OUTDIR EXPECTED RUN...``: prints every scenario and the verdict.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

SUMMARY_LINE = re.compile(r"^([✓✗]) (\S+): (\d+) passed, (\d+) failed$", re.MULTILINE)
NOT_SCORED_LINE = re.compile(r"^\s+[✓✗] (\S+) \([\w-]+\)$", re.MULTILINE)
GRADED_EXTENSION = "tasks-"
"""The scenarios of the one extension mcplite serves (``io.modelcontextprotocol/tasks``)."""


def parse_summary(text: str) -> dict[str, bool]:
    """Each scored scenario of a run's summary, and whether it passed (in the order printed)."""
    start = text.rfind("=== SUMMARY ===")
    if start < 0:
        raise ValueError("the run printed no summary (it crashed or timed out): see its output")
    not_scored = text.find("Not scored for", start)
    if not_scored < 0:
        not_scored = len(text)
    left_out = {m.group(1) for m in NOT_SCORED_LINE.finditer(text, not_scored)}
    return {
        m.group(2): m.group(1) == "✓" and m.group(4) == "0"
        for m in SUMMARY_LINE.finditer(text, start, not_scored)
        if m.group(2) not in left_out or m.group(2).startswith(GRADED_EXTENSION)
    }


def parse_expected(text: str) -> dict[str, str]:
    """The expected failures: ``RUN/SCENARIO: reason`` lines (``#`` starts a comment)."""
    expected: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        key, colon, reason = line.partition(":")
        if not colon or "/" not in key or not reason.strip():
            raise ValueError(f"expected failures, line {number}: write 'RUN/SCENARIO: reason', not {line!r}")
        expected[key.strip()] = reason.strip()
    return expected


def grade(runs: dict[str, dict[str, bool]], expected: dict[str, str]) -> tuple[list[str], list[str]]:
    """The report lines and the problems (empty: the grade passes)."""
    report: list[str] = []
    problems: list[str] = []
    for run, scenarios in runs.items():
        for scenario, passed in scenarios.items():
            key = f"{run}/{scenario}"
            listed = key in expected
            verdict = "pass" if passed else "FAIL (expected)" if listed else "FAIL"
            report.append(f"  {verdict:<15} {key}")
            if not passed and not listed:
                problems.append(f"{key} fails and is not in the expected failures")
            if passed and listed:
                problems.append(f"{key} passes now: delete its line from the expected failures")
    seen = {f"{run}/{scenario}" for run, scenarios in runs.items() for scenario in scenarios}
    problems += [f"{key} is listed but no run reports it" for key in expected if key not in seen]
    return report, problems


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    out, expected_path, names = Path(argv[0]), Path(argv[1]), argv[2:]
    expected = parse_expected(expected_path.read_text(encoding="utf-8"))
    runs: dict[str, dict[str, bool]] = {}
    problems: list[str] = []
    for name in names:
        try:
            runs[name] = parse_summary((out / f"{name}.txt").read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            problems.append(f"run {name}: {err}")
    report, found = grade(runs, expected)
    problems += found
    print("\n".join(report))
    passed = sum(line.strip().startswith("pass") for line in report)
    print(f"\n{passed}/{len(report)} graded scenarios pass; {len(expected)} expected failures listed")
    for problem in problems:
        print(f"PROBLEM: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

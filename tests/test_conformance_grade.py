"""The grader of .ci/conformance (tests/conformance/grade.py), on the summaries the official suite
printed for mcplite's everything server (tests/conformance/runs/, saved from real runs: 0.1.16's
active suite, 0.2.0-alpha.12 ``--requirements 2026-07-28`` and ``--suite pending``, before mcplite
served tasks: its tasks-* scenarios fail there)."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

from tests.conformance import grade

RUNS = Path(__file__).parent / "conformance" / "runs"
NAMES = ("0.1.16", "2026-07-28", "pending")


def runs() -> dict[str, dict[str, bool]]:
    return {name: grade.parse_summary((RUNS / f"{name}.txt").read_text(encoding="utf-8")) for name in NAMES}


def failing(graded: dict[str, dict[str, bool]]) -> dict[str, str]:
    return {
        f"{run}/{scenario}": "fails in the saved run"
        for run, scenarios in graded.items()
        for scenario, passed in scenarios.items()
        if not passed
    }


def test_the_docstring_examples() -> None:
    assert doctest.testmod(grade).failed == 0


def test_the_requirements_run_leaves_out_what_it_does_not_score() -> None:
    modern = runs()["2026-07-28"]
    assert "server-stateless" in modern and "tools-list" in modern
    assert "json-schema-2020-12" not in modern  # pending: graded in the pending run
    assert "json-schema-2020-12" in runs()["pending"]
    assert "tasks-lifecycle" in modern  # the tasks extension: not scored by the suite, graded here


def test_the_saved_runs_grade_clean_against_their_own_failures() -> None:
    graded = runs()
    report, problems = grade.grade(graded, failing(graded))
    assert problems == []
    assert "  FAIL (expected) 2026-07-28/tasks-lifecycle" in report


def test_a_failing_tasks_scenario_is_graded_like_any_other() -> None:
    graded = runs()
    expected = failing(graded)
    del expected["2026-07-28/tasks-mrtr-composition"]
    _, problems = grade.grade(graded, expected)
    assert problems == ["2026-07-28/tasks-mrtr-composition fails and is not in the expected failures"]


def test_an_unlisted_failure_and_a_listed_pass_both_fail_the_grade() -> None:
    graded = runs()
    expected = failing(graded)
    dropped = next(iter(expected))
    del expected[dropped]
    passing = next(f"0.1.16/{name}" for name, passed in graded["0.1.16"].items() if passed)
    expected[passing] = "listed although it passes"
    expected["0.1.16/no-such-scenario"] = "listed but never run"
    _, problems = grade.grade(graded, expected)
    assert sorted(problems) == sorted(
        [
            f"{dropped} fails and is not in the expected failures",
            f"{passing} passes now: delete its line from the expected failures",
            "0.1.16/no-such-scenario is listed but no run reports it",
        ]
    )


def test_a_run_without_a_summary_is_an_error() -> None:
    with pytest.raises(ValueError, match="no summary"):
        grade.parse_summary("Running scenario ping\nError: connect ECONNREFUSED\n")


def test_the_expected_failures_file_parses_and_names_known_runs() -> None:
    expected = grade.parse_expected((RUNS.parent / "expected-failures.txt").read_text(encoding="utf-8"))
    assert {key.split("/", 1)[0] for key in expected} <= set(NAMES)  # empty once all pass

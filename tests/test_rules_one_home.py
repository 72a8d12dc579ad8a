"""Each R rule has one home in the model, and every path that uses it agrees with R.

The time-zone rule: R keeps a zone's name as it is given (``as.POSIXct(x, tz = "Etc/GMT")`` has
tzone "Etc/GMT") and prints the zone database's abbreviation. A date-time in such a zone must get
the same tzone, instant, printout and JSON through ``as_r``, ``from_numpy`` and ``from_pandas``,
as R 4.2.2 gives. The source tests then check that the package spells each rule once.
"""

from __future__ import annotations

import ast
import datetime as dt
import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import numpy as np
import pandas as pd
import pytest
from dateutil import tz as dateutil_tz  # type: ignore[import-untyped]

import rvalues
from rvalues.format.timezones import tzone_name, tzone_of, utc_abbreviation, zone
from tests.conftest import RSCRIPT, requires_r

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted([*(ROOT / "rvalues").rglob("*.py"), *(ROOT / "mcplite").rglob("*.py")])

UTC_NAMES = ["UTC", "Etc/UTC", "UCT", "Etc/UCT", "Universal", "Etc/Universal", "Zulu", "Etc/Zulu"]
GMT_NAMES = ["GMT", "Etc/GMT", "GMT0", "Etc/GMT0", "GMT+0", "Etc/GMT+0", "GMT-0", "Etc/GMT-0"]
GMT_NAMES += ["Greenwich", "Etc/Greenwich"]
OTHER_NAMES = ["Europe/London", "America/New_York", "Etc/GMT+5", "Asia/Kolkata"]
ZONES = UTC_NAMES + GMT_NAMES + OTHER_NAMES
WALL = dt.datetime(2020, 6, 1, 12, 0, 0)

R_SCRIPT = r"""
args <- commandArgs(trailingOnly = TRUE)
zones <- jsonlite::fromJSON(args[1])
out <- lapply(zones, function(z) {
  x <- as.POSIXct("2020-06-01 12:00:00", tz = z)
  list(tzone = attr(x, "tzone"), seconds = as.numeric(x),
       print = paste(capture.output(print(x)), collapse = "\n"),
       json = as.character(jsonlite::toJSON(x)))
})
names(out) <- zones
writeLines(jsonlite::toJSON(out, auto_unbox = TRUE, digits = NA), args[2])
"""


@pytest.fixture(scope="module")
def r_zones(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """What R says of 2020-06-01 12:00:00 in each zone (one Rscript run for the module)."""
    assert RSCRIPT is not None
    tmp = tmp_path_factory.mktemp("zones")
    (tmp / "zones.json").write_text(json.dumps(ZONES))
    (tmp / "run.R").write_text(R_SCRIPT)
    subprocess.run(
        [RSCRIPT, "--vanilla", str(tmp / "run.R"), str(tmp / "zones.json"), str(tmp / "out.json")],
        check=True,
        env={"TZ": "UTC", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        timeout=120,
    )
    return json.loads((tmp / "out.json").read_text())  # type: ignore[no-any-return]


def _paths(name: str) -> dict[str, Callable[[], Any]]:
    """Every way a date-time in zone ``name`` reaches rvalues."""
    aware = WALL.replace(tzinfo=ZoneInfo(name))
    return {
        "as_r(datetime)": lambda: rvalues.as_r(aware),
        "as_r(dateutil datetime)": lambda: rvalues.as_r(WALL.replace(tzinfo=dateutil_tz.gettz(name))),
        "from_numpy(object array)": lambda: rvalues.from_numpy(np.array([aware], dtype=object)),
        "from_pandas(aware column)": lambda: rvalues.from_pandas(pd.Series([aware])),
        "from_pandas(dateutil column)": lambda: rvalues.from_pandas(
            # tz_convert, not tz_localize: pandas 2.2's localizer fails on python-dateutil 4's zones
            pd.Series(pd.DatetimeIndex([aware.astimezone(dt.UTC)]).tz_convert(f"dateutil/{name}"))
        ),
        "from_pandas(object column)": lambda: rvalues.from_pandas(pd.Series([aware], dtype=object)),
    }


@requires_r
@pytest.mark.r
@pytest.mark.parametrize("name", ZONES)
def test_every_path_gives_the_zone_r_gives(name: str, r_zones: dict[str, dict[str, Any]], utc: None) -> None:
    want = r_zones[name]
    for path, convert in _paths(name).items():
        value = convert()
        assert tzone_of(value.attributes) == want["tzone"], path
        assert value.data[0] == want["seconds"], path
        assert repr(value) == want["print"], path
        assert rvalues.to_json(value) == want["json"], path


@requires_r
@pytest.mark.r
@pytest.mark.parametrize("name", UTC_NAMES + GMT_NAMES)
def test_the_utc_names_print_as_r_prints_them(name: str, r_zones: dict[str, dict[str, Any]]) -> None:
    assert r_zones[name]["print"].endswith(f' {utc_abbreviation(name)}"')
    assert zone(name).key == "UTC"


def test_fixed_offsets_and_naive_values_are_utc() -> None:
    assert tzone_name(None) == "UTC"
    assert tzone_name(dt.UTC) == "UTC"
    assert tzone_name(dt.timezone(dt.timedelta(hours=-3), "BRT")) == "UTC"
    moment = dt.datetime(2020, 6, 1, 12, tzinfo=dt.timezone(dt.timedelta(hours=2)))
    for value in (rvalues.as_r(moment), rvalues.from_pandas(pd.Series([moment]))):
        assert tzone_of(value.attributes) == "UTC"
        assert value.data[0] == moment.timestamp()


def test_a_zone_r_does_not_know_is_refused() -> None:
    class Nowhere(dt.tzinfo):
        key = "Mars/Olympus_Mons"

        def utcoffset(self, _: dt.datetime | None) -> dt.timedelta:
            return dt.timedelta(0)

        def dst(self, _: dt.datetime | None) -> dt.timedelta:
            return dt.timedelta(0)

        def tzname(self, _: dt.datetime | None) -> str:
            return "MOT"

    with pytest.raises(rvalues.RValueError, match="as_r: time zone 'Mars/Olympus_Mons' is not an IANA zone"):
        rvalues.as_r(dt.datetime(2020, 1, 1, tzinfo=Nowhere()))


# -- one home per rule --------------------------------------------------------------------------


def _trees() -> dict[str, ast.Module]:
    return {str(p.relative_to(ROOT)): ast.parse(p.read_text(encoding="utf-8")) for p in SOURCES}


TREES = _trees()


def _constant_value(node: ast.expr) -> Any:
    """The value of an expression made only of number literals and arithmetic, else None."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _constant_value(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.BinOp):
        left, right = _constant_value(node.left), _constant_value(node.right)
        if left is None or right is None:
            return None
        ops: dict[type, Callable[[int, int], int]] = {
            ast.Pow: pow,
            ast.Sub: int.__sub__,
            ast.Add: int.__add__,
        }
        op = ops.get(type(node.op))
        return None if op is None else op(left, right)
    return None


def _modules_where(found: Callable[[ast.AST], bool]) -> set[str]:
    return {path for path, tree in TREES.items() if any(found(node) for node in ast.walk(tree))}


def _reads_attribute(name: str) -> Callable[[ast.AST], bool]:
    """``<x>.get(name)`` or ``<x>[name]`` read: a module reading that attribute by hand."""

    def found(node: ast.AST) -> bool:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
            first = node.args[0] if node.args else None
            return isinstance(first, ast.Constant) and first.value == name
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
            return isinstance(node.slice, ast.Constant) and node.slice.value == name
        return False

    return found


def test_int_max_is_spelled_once() -> None:
    def found(node: ast.AST) -> bool:
        return isinstance(node, ast.expr) and _constant_value(node) in (2**31 - 1, -(2**31) + 1)

    assert _modules_where(found) == {"rvalues/na.py"}


def test_the_names_of_utc_are_listed_once() -> None:
    aliases = set(UTC_NAMES + GMT_NAMES) - {"UTC"}

    def found(node: ast.AST) -> bool:
        return isinstance(node, ast.Constant) and node.value in aliases

    def listed(node: ast.AST) -> bool:  # the home spells them as one string per family
        return isinstance(node, ast.Constant) and isinstance(node.value, str) and "Etc/Zulu" in node.value

    assert _modules_where(found) == {"rvalues/format/timezones.py"}  # its abbreviation "GMT"
    assert _modules_where(listed) == {"rvalues/format/timezones.py"}


def test_tzone_is_read_in_one_place() -> None:
    # construct/ copies or compares the attribute whole (c(), as.POSIXct)
    whole = {"rvalues/construct/datetimes.py", "rvalues/construct/dispatch.py"}
    assert _modules_where(_reads_attribute("tzone")) == {"rvalues/format/timezones.py"} | whole


def test_old_class_is_read_in_one_place() -> None:
    assert _modules_where(_reads_attribute("class")) == {"rvalues/model/classes.py"}


def test_the_suite_switches_the_time_zone_in_one_fixture() -> None:
    def switches(node: ast.AST) -> bool:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr == "tzset":
                return True
            first = node.args[0] if node.args else None
            return node.func.attr == "setenv" and isinstance(first, ast.Constant) and first.value == "TZ"
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store):
            return isinstance(node.slice, ast.Constant) and node.slice.value == "TZ"
        return False

    tests = Path(__file__).parent
    trees = {p.name: ast.parse(p.read_text(encoding="utf-8")) for p in sorted(tests.glob("*.py"))}
    assert {name for name, tree in trees.items() if any(map(switches, ast.walk(tree)))} == {"conftest.py"}

"""A seeded differential fuzz of typed tools: random row types, values and payload options, called
by the official SDK client at each protocol version, against R's jsonlite.

Each case is a tool whose return type is drawn at random: a frame with declared rows (bool, int,
float, str, date, date-time in a zone, ``Literal`` columns, optional ones, names that are no R
names), alone or inside a record with a scalar field and a vector field, holding NA, NaN, the
infinities, extreme doubles, and dates from before year 1 to after 9999. The same draw gives a
plain description that R builds the value from on its own (tests/r/typed_cases.R, one Rscript run
for all cases) and writes with jsonlite under the case's options: those bytes are the text the tool
must answer with. The official SDK client, over Streamable HTTP on loopback, checks each structured
result against the schema the server listed (it raises when one does not fit). A value jsonlite
writes beyond a double's range (its text reads back as infinity) must be an error result saying
what to do instead.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import keyword
import math
import random
from collections.abc import Callable, Iterator
from typing import Annotated, Any, Literal, TypedDict

import numpy as np
import pandas as pd
import pytest

import mcplite
import rvalues as rv
from tests.conftest import requires_r
from tests.serving import served
from tests.typed_oracle import MODERN, double_text, r_options, r_writes, sdk_client

pytestmark = [
    pytest.mark.anyio,
    requires_r,
]

SEED = 20261205
CASES = 60
VERSIONS = ("2025-06-18", "2025-11-25", MODERN)
OPTION_SETS: list[dict[str, Any]] = [
    {"json_na": None, "json_null": "null", "json_auto_unbox": True},
    {"json_na": "null", "json_null": "null", "json_auto_unbox": True},
    {"json_na": "string", "json_null": "null", "json_auto_unbox": True},
    {"json_na": None, "json_null": "list", "json_auto_unbox": False},
    {"json_na": "null", "json_null": "list", "json_auto_unbox": False},
    {"json_na": "string", "json_null": "list", "json_auto_unbox": True},
]
NAMES = ["_a", "a b", "1x", "if", "x.y", "größe", "mean", "n", "TRUE", "NA", "a-b", "value"]
ZONES = ["UTC", "America/New_York", "Asia/Tokyo", "Etc/GMT+12", "Australia/Lord_Howe", "Europe/London"]
LEVELS = ["x", "y z", "NA", "ä", "1"]
STRINGS = ["a", "b c", "", "NA", "naïve", 'say "hi"', "back\\slash", "tab\t", "😀", "line\nbreak", "\u2028"]
INTS = [0, 1, -1, 42, 2147483647, -2147483647, 1000000]
DOUBLES = [0.0, -0.0, 1.5, 1 / 3, 1e-300, 5e-324, 1e308, -1e308, 123456.789, 1e15, 2.5e-7]
NOT_FINITE = [math.nan, math.inf, -math.inf]
EDGE = [1.79769313486231e308, -1.7976931348623157e308]  # the largest jsonlite writes, one beyond
EPOCH = datetime.date(1970, 1, 1).toordinal()
FAR_DAYS = [-719893.0, -719528.0, -719162.0, -354.0 - 360000, 2932897.0, 1e8]  # years -1 .. 275760
FAR_SECONDS = [-62198755200.0, -62135596800.0 + 18000, -31535000000.0, 253402300800.0, 1e13]


@dataclasses.dataclass
class Drawn:
    """One column, scalar or vector: its annotation, its Python value, R's description of it, and
    whether only an R data frame can hold it (dates pandas cannot)."""

    annotation: Any
    python: Any
    r: dict[str, Any]
    r_only: bool = False


# -- one column of n values, of each kind ----------------------------------------------------------


def _with_na(rng: random.Random, values: list[Any], share: float = 0.3) -> list[Any]:
    return [None if rng.random() < share else value for value in values]


def _bools(rng: random.Random, n: int) -> Drawn:
    values = _with_na(rng, [rng.random() < 0.5 for _ in range(n)])
    python: Any = pd.array(values, dtype="boolean")
    if None not in values and rng.random() < 0.5:
        python = np.array(values, dtype=bool)
    return Drawn(bool, python, {"type": "logical", "values": values})


def _ints(rng: random.Random, n: int) -> Drawn:
    values = _with_na(rng, [rng.choice(INTS) for _ in range(n)])
    python: Any = pd.array(values, dtype="Int64")
    if None not in values and rng.random() < 0.5:
        python = np.array(values, dtype=np.int64)
    elif rng.random() < 0.3:  # whole doubles (NA is pandas' NA: a NaN is no integer, a misfit)
        python = pd.array([None if v is None else float(v) for v in values], dtype="Float64")
    return Drawn(int, python, {"type": "integer", "values": values})


def _doubles(rng: random.Random, n: int) -> Drawn:
    pool = DOUBLES * 3 + NOT_FINITE + EDGE * 3
    values = _with_na(rng, [rng.choice(pool) for _ in range(n)], 0.2)
    has_nan = any(v is not None and math.isnan(v) for v in values)
    if None in values and has_nan:  # NA and NaN apart: an R vector
        python: Any = rv.Double(values)
    elif None in values:
        python = pd.array(values, dtype="Float64")
    else:
        python = np.array(values, dtype=float)
    return Drawn(float, python, {"type": "double", "values": [double_text(v) for v in values]})


def _strings(rng: random.Random, n: int) -> Drawn:
    values = _with_na(rng, [rng.choice(STRINGS) for _ in range(n)])
    style = rng.random()
    if style < 0.2:  # all missing, a categorical with no categories
        values = [None] * n
        python: Any = pd.Categorical(values)
    elif style < 0.4:
        python = pd.Categorical(values)
    elif style < 0.6:
        python = pd.array(values, dtype="string")
    else:
        python = pd.Series(values, dtype=object)
    return Drawn(str, python, {"type": "character", "values": values})


def _literals(rng: random.Random, n: int) -> Drawn:
    levels = rng.sample(LEVELS, rng.randint(1, len(LEVELS)))
    annotation = Literal[tuple(levels)]  # type: ignore[valid-type]
    values = _with_na(rng, [rng.choice(levels) for _ in range(n)])
    style = rng.random()
    if style < 0.2:
        values = [None] * n
        python: Any = pd.Categorical(values)
    elif style < 0.6:
        python = pd.Categorical(values, categories=rng.sample(levels, len(levels)))
    else:
        python = pd.Series(values, dtype=object)
    return Drawn(annotation, python, {"type": "factor", "values": values, "levels": levels})


def _dates(rng: random.Random, n: int) -> Drawn:
    if rng.random() < 0.3:
        days = _with_na(rng, [rng.choice(FAR_DAYS) for _ in range(n)])
        python: Any = rv.as_date(rv.Double(days), origin="1970-01-01")
        return Drawn(datetime.date, python, {"type": "Date", "values": [double_text(d) for d in days]}, True)
    dates = _with_na(rng, [datetime.date.fromordinal(rng.randint(1, 3652059)) for _ in range(n)])
    days = [None if d is None else float(d.toordinal() - EPOCH) for d in dates]
    python = pd.Series(dates, dtype=object)
    return Drawn(datetime.date, python, {"type": "Date", "values": [double_text(d) for d in days]})


def _times(rng: random.Random, n: int) -> Drawn:
    zone = rng.choice(ZONES)
    if rng.random() < 0.3:
        seconds = _with_na(rng, [rng.choice(FAR_SECONDS) for _ in range(n)])
        python: Any = rv.as_posixct(rv.Double(seconds), tz=zone, origin="1970-01-01")
        r_only = True
    else:
        midnight = rng.random() < 0.2  # every value at midnight UTC: written without a time in UTC
        seconds = [
            86400.0 * rng.randint(-40000, 40000)
            if midnight
            else rng.randint(-5 * 10**9, 5 * 10**9) + 0.5 * rng.randint(0, 1)
            for _ in range(n)
        ]
        seconds = _with_na(rng, seconds)
        # whole and half seconds, in exact integer nanoseconds (s * 10**9 as a float is not exact)
        nanos = pd.array([None if s is None else int(s * 2) * 500_000_000 for s in seconds], dtype="Int64")
        python = pd.Series(pd.to_datetime(nanos, unit="ns", utc=True)).dt.tz_convert(zone)
        r_only = False
    values = [double_text(s) for s in seconds]
    return Drawn(datetime.datetime, python, {"type": "POSIXct", "values": values, "tz": zone}, r_only)


COLUMNS: list[Callable[[random.Random, int], Drawn]] = [
    _bools,
    _ints,
    _doubles,
    _strings,
    _literals,
    _dates,
    _times,
]


def _as_r_column(drawn: Drawn) -> rv.RValue:
    """A column for an R data frame (frames holding dates pandas cannot)."""
    if isinstance(drawn.python, rv.RValue):
        return drawn.python
    return (
        rv.as_r(pd.Series(drawn.python)) if not isinstance(drawn.python, pd.Series) else rv.as_r(drawn.python)
    )


# -- scalar and vector fields --------------------------------------------------------------------------


def _scalar(rng: random.Random) -> Drawn:
    kind = rng.choice(["bool", "int", "float", "str", "date", "datetime", "literal"])
    if kind == "bool":
        value: Any = rng.random() < 0.5
        return Drawn(bool, value, {"type": "logical", "values": [value]})
    if kind == "int":
        value = rng.choice(INTS)
        return Drawn(int, value, {"type": "integer", "values": [value]})
    if kind == "float":
        value = rng.choice(DOUBLES + NOT_FINITE + EDGE * 2)
        return Drawn(float, value, {"type": "double", "values": [double_text(value)]})
    if kind == "str":
        value = rng.choice(STRINGS)
        return Drawn(str, value, {"type": "character", "values": [value]})
    if kind == "date":
        value = datetime.date.fromordinal(rng.randint(1, 3652059))
        days = double_text(float(value.toordinal() - EPOCH))
        return Drawn(datetime.date, value, {"type": "Date", "values": [days]})
    if kind == "datetime":
        zone = rng.choice(ZONES)
        whole = rng.randint(-5 * 10**9, 5 * 10**9)
        seconds = float(whole)
        value = pd.Timestamp(whole * 10**9, unit="ns", tz="UTC").tz_convert(zone)
        return Drawn(
            datetime.datetime, value, {"type": "POSIXct", "values": [double_text(seconds)], "tz": zone}
        )
    levels = rng.sample(LEVELS, rng.randint(1, 3))
    value = rng.choice(levels)
    return Drawn(Literal[tuple(levels)], value, {"type": "character", "values": [value]})  # type: ignore[valid-type]


def _vector(rng: random.Random) -> Drawn:
    n = rng.randint(0, 3)
    kind = rng.choice(["logical", "integer", "double", "character", "Date", "POSIXct"])
    if kind in ("logical", "integer", "character"):
        pools: dict[str, list[Any]] = {"logical": [True, False], "integer": INTS, "character": STRINGS}
        pool = pools[kind]
        values = _with_na(rng, [rng.choice(pool) for _ in range(n)])
        cls = {"logical": rv.Logical, "integer": rv.Integer, "character": rv.Character}[kind]
        return Drawn(cls, cls(values), {"type": kind, "values": values})
    if kind == "double":
        doubles = _with_na(rng, [rng.choice(DOUBLES + NOT_FINITE) for _ in range(n)])
        return Drawn(
            rv.Double, rv.Double(doubles), {"type": "double", "values": [double_text(v) for v in doubles]}
        )
    if kind == "Date":
        days = _with_na(rng, [rng.choice([*FAR_DAYS, 0.0, 19000.0]) for _ in range(n)])
        python = rv.as_date(rv.Double(days), origin="1970-01-01")
        return Drawn(rv.Date, python, {"type": "Date", "values": [double_text(d) for d in days]})
    zone = rng.choice(ZONES)
    seconds = _with_na(rng, [rng.choice([*FAR_SECONDS, 0.0, 1.7e9]) for _ in range(n)])
    python = rv.as_posixct(rv.Double(seconds), tz=zone, origin="1970-01-01")
    return Drawn(
        rv.POSIXct, python, {"type": "POSIXct", "values": [double_text(s) for s in seconds], "tz": zone}
    )


# -- a case: a tool, its value, R's description of it -------------------------------------------------


@dataclasses.dataclass
class Case:
    name: str
    function: Callable[[], Any]
    wrapped: bool  # a record around the frame (structured content at every version from 2025-06-18)
    options: dict[str, Any]
    version: str
    r_value: dict[str, Any]


def _row_type(rng: random.Random, index: int, names: list[str], annotations: list[Any]) -> Any:
    fields = dict(zip(names, annotations, strict=True))
    if rng.random() < 0.3 and all(n.isidentifier() and not keyword.iskeyword(n) for n in names):
        return dataclasses.make_dataclass(f"Row{index}", list(fields.items()))
    return TypedDict(f"Row{index}", fields)  # type: ignore[operator]


def draw_case(rng: random.Random, index: int) -> Case:
    n = rng.choice([0, 1, 1, 2, 3, 4])
    names = rng.sample(NAMES, rng.randint(1, 4))
    columns = [rng.choice(COLUMNS)(rng, n) for _ in names]
    annotations = [
        (c.annotation | None) if rng.random() < 0.3 else c.annotation
        for c in columns  # NA either way
    ]
    row = _row_type(rng, index, names, annotations)
    if any(c.r_only for c in columns) or rng.random() < 0.15:
        frame: Any = rv.data_frame_from_pairs(
            [(name, _as_r_column(c)) for name, c in zip(names, columns, strict=True)], check_names=False
        )
    else:
        frame = pd.DataFrame({name: c.python for name, c in zip(names, columns, strict=True)})
        frame.index = pd.RangeIndex(len(frame))
    frame_r = {"frame": [{"name": name, **c.r} for name, c in zip(names, columns, strict=True)]}
    rows_type = Annotated[pd.DataFrame | rv.DataFrame, mcplite.Rows(row)]
    wrapped = rng.random() < 0.7
    if not wrapped:
        value, annotation, r_value = frame, rows_type, frame_r  # type: Any, Any, dict[str, Any]
    else:
        label, vector = _scalar(rng), _vector(rng)
        missing = rng.random() < 0.25
        label_type = label.annotation | None if missing or rng.random() < 0.2 else label.annotation
        record = dataclasses.make_dataclass(
            f"Wrapped{index}", [("rows", rows_type), ("label", label_type), ("values", vector.annotation)]
        )
        value = record(frame, None if missing else label.python, vector.python)
        annotation = record
        label_r = {"null": True} if missing else {"unbox": label.r}
        r_value = {
            "record": [
                {"name": "rows", "node": frame_r},
                {"name": "label", "node": label_r},
                {"name": "values", "node": {"I": vector.r}},
            ]
        }

    def tool() -> Any:
        return value

    tool.__annotations__ = {"return": annotation}
    tool.__doc__ = f"Fuzz case {index}."
    options = OPTION_SETS[index % len(OPTION_SETS)]
    version = VERSIONS[(index // len(OPTION_SETS)) % len(VERSIONS)]
    return Case(f"case_{index}", tool, wrapped, options, version, r_value)


def draw_cases() -> list[Case]:
    rng = random.Random(SEED)
    return [draw_case(rng, index) for index in range(CASES)]


# -- running them ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    return draw_cases()


@pytest.fixture(scope="module")
def url(cases: list[Case]) -> Iterator[str]:
    server = mcplite.McpServer("typed-fuzz", version="1.0.0")
    for case in cases:
        server.add_tool(case.function, name=case.name)
    with served(server.asgi_app()) as base:
        yield base + "/mcp"


def _has_infinity(data: Any) -> bool:
    if isinstance(data, float):
        return math.isinf(data)
    if isinstance(data, dict):
        return any(_has_infinity(item) for item in data.values())
    if isinstance(data, list):
        return any(_has_infinity(item) for item in data)
    return False


def _carries(case: Case, version: str) -> bool:
    """Whether ``version`` carries the structured content: object schemas from 2025-06-18, any from
    2026-07-28 (a frame alone is an array)."""
    return version == MODERN or case.wrapped


def test_the_draw_covers_every_version_option_set_and_column_kind(cases: list[Case]) -> None:
    assert {(json.dumps(c.options), c.version) for c in cases} == {
        (json.dumps(o), v) for o in OPTION_SETS for v in VERSIONS
    }
    described = json.dumps([case.r_value for case in cases])
    for kind in ("logical", "integer", "double", "character", "factor", "Date", "POSIXct", '"null"'):
        assert kind in described, kind
    for name in ("_a", "a b", "1x", "if"):
        assert f'"name": "{name}"' in described, name


async def test_every_typed_result_is_jsonlites_and_fits_the_listed_schema(
    cases: list[Case], url: str
) -> None:
    answers = r_writes([{"value": c.r_value, "options": r_options(c.options)} for c in cases])
    failures: list[str] = []
    errors = 0
    sessions = {(json.dumps(c.options), c.version): c for c in cases}
    for key in sessions:
        group = [
            c for c, answer in zip(cases, answers, strict=True) if (json.dumps(c.options), c.version) == key
        ]
        options, version = group[0].options, group[0].version
        async with sdk_client(url, version, options) as client:
            listed = {tool.name: tool.output_schema for tool in (await client.list_tools()).tools}
            for case in group:
                expected = answers[cases.index(case)]
                assert "json" in expected, f"R could not write {case.name}: {expected}"
                try:
                    result = await client.call_tool(case.name, {})  # raises when it does not fit
                except Exception as err:  # every refusal is reported with its case
                    failures.append(f"{case.name} ({version}, {options}): {type(err).__name__}: {err}")
                    continue
                text = "".join(getattr(block, "text", "") for block in result.content)
                if _has_infinity(json.loads(expected["json"])):
                    errors += 1
                    if not (result.is_error and "1.79769313486232e+308" in text and "typed-tools.md" in text):
                        failures.append(f"{case.name}: beyond a double's range, answered {text[:300]}")
                    continue
                if result.is_error or text != expected["json"]:
                    failures.append(
                        f"{case.name} ({version}, {options}):\n  R:    {expected['json']}\n  text: {text}"
                    )
                    continue
                if _carries(case, version):
                    assert listed[case.name] is not None, f"{case.name} is listed without a schema"
                    if result.structured_content != json.loads(text):
                        failures.append(f"{case.name}: structured content {result.structured_content}")
                elif result.structured_content is not None:
                    failures.append(f"{case.name}: structured content at {version}, where none is listed")
    assert not failures, f"{len(failures)} of {len(cases)} cases:\n" + "\n".join(failures)
    assert 1 <= errors < len(cases) // 4, errors  # the edge is drawn, but rarely

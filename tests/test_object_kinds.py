"""Object columns' kinds are small integer codes: the compiled ``object_kinds`` fills the same codes
as the pure path (``_kind_of_type`` per element), on arrays, slices and lists; ``_missing`` gives
the same missing elements and kinds both ways; and long object columns convert to the same bits."""

from __future__ import annotations

import datetime as dt
import enum
from decimal import Decimal
from typing import Any

import numpy as np
import pandas as pd
import pytest

import rvalues as rv
from rvalues import _speedups
from rvalues.convert import objects
from tests.conftest import pure_writer

core: Any = _speedups.load()
compiled_only = pytest.mark.skipif(
    core is None, reason="the compiled writer is not built (or RVALUES_PURE is set)"
)


class Colour(str, enum.Enum):
    RED = "red"


class Sub(dt.date):
    pass


POOL: list[Any] = [
    None,
    pd.NA,
    pd.NaT,
    np.nan,
    float("nan"),
    np.float32("nan"),
    Decimal("NaN"),
    Decimal("sNaN"),
    Decimal("2.5"),
    np.datetime64("NaT", "s"),
    np.datetime64("2020-01-01T10:00:00"),
    np.timedelta64(3, "s"),
    1.5,
    np.float32(2.5),
    3,
    np.int16(-4),
    np.uint64(2**64 - 1),
    2**70,
    True,
    np.bool_(False),
    "a",
    Colour.RED,
    1j,
    np.complex64(2j),
    dt.date(2020, 1, 1),
    Sub(2021, 2, 3),
    dt.datetime(2021, 6, 1, 0, 0, 30),
    dt.datetime(2021, 6, 1, tzinfo=dt.UTC),
    dt.timedelta(days=1, seconds=1),
    [1, 2],
    object(),
]

EXPECTED = {
    type(None): "missing",
    type(pd.NA): "missing",
    type(pd.NaT): "missing",
    bool: "bool",
    np.bool_: "bool",
    str: "str",
    Colour: "str",
    np.datetime64: "numpy-time",
    np.timedelta64: "numpy-time",
    int: "int",
    np.int16: "int",
    np.uint64: "int",
    float: "float",
    np.float32: "float",
    Decimal: "float",
    complex: "complex",
    np.complex64: "complex",
    dt.datetime: "datetime",
    dt.date: "date",
    Sub: "date",
    dt.timedelta: "timedelta",
    list: "other",
    object: "other",
}


def test_each_type_keeps_its_kind() -> None:
    for t, name in EXPECTED.items():
        assert objects.KIND_NAMES[objects._kind_of_type(t)] == name, t


def random_objects(rng: np.random.Generator, n: int, pool: list[Any]) -> np.ndarray:
    """``n`` elements from ``pool``, in runs (as real columns have them) or scattered."""
    picks = rng.integers(0, len(pool), n)
    if rng.random() < 0.5:
        picks = np.repeat(picks, rng.integers(1, 9, n))[:n]
    flat = np.empty(n, dtype=object)
    flat[:] = [pool[k] for k in picks]
    return flat


def views(flat: np.ndarray) -> list[np.ndarray]:
    """The array, an offset slice, a strided one and a reversed one."""
    return [flat, flat[3:], flat[1::3], flat[::-1]]


def pure_codes(flat: np.ndarray) -> list[int]:
    return [objects._kind_of_type(type(v)) for v in flat.tolist()]


@compiled_only
@pytest.mark.parametrize("seed", range(4))
def test_compiled_codes_are_the_pure_codes(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(25):
        flat = random_objects(rng, int(rng.integers(0, 200)), POOL)
        for view in views(flat):
            expected = pure_codes(view)
            for cache in ({}, objects._KIND_CACHE):  # an empty cache: every type classified anew
                out = np.empty(len(view), dtype=np.uint8)
                core.object_kinds(
                    view, out, cache, lambda t, c=cache: c.setdefault(t, objects._kind_of_type(t))
                )
                assert out.tolist() == expected
                assert core.object_kinds(view.tolist(), out, cache, objects._kind_of_type) is None
                assert out.tolist() == expected
            assert objects._kinds(view).dtype == np.uint8
            assert objects._kinds(view).tolist() == expected
            with pure_writer():
                assert objects._kinds(view).tolist() == expected


def test_missing_is_the_same_both_ways_and_element_by_element() -> None:
    """Missing markers, NaNs of every kind, masks: the same missing elements and kinds compiled,
    pure, and one by one (``_few_missing``)."""
    rng = np.random.default_rng(5)
    for _ in range(60):
        flat = random_objects(rng, int(rng.integers(objects._FEW + 1, 120)), POOL)
        mask = rng.random(len(flat)) < 0.2 if rng.random() < 0.5 else None
        for view, part in zip(views(flat), views(mask) if mask is not None else [None] * 4, strict=True):
            hard, kinds = objects._missing(view, part)
            with pure_writer():
                pure_hard, pure_kinds = objects._missing(view, part)
            few_hard, few_kinds = objects._few_missing(view, part)
            assert hard.dtype == bool and hard.tolist() == pure_hard.tolist() == few_hard.tolist()
            assert kinds == pure_kinds == few_kinds


def bits(value: Any) -> Any:
    if value.r_type == "list":
        return ("list", [bits(e) for e in value.data])
    data = value.data.tolist() if value.r_type == "character" else value.data.tobytes()
    return (value.r_type, data, sorted((k, bits(v)) for k, v in value.attributes.items()))


UNIFORM: dict[str, list[Any]] = {
    "date": [dt.date(2000, 1, 1) + dt.timedelta(days=k) for k in range(0, 9000, 97)],
    "str": ["a", "b\u00e9", Colour.RED],
    "int": [1, -2, np.int16(7)],
    "float": [1.5, 2, Decimal("0.25")],
    "bool": [True, np.bool_(False)],
    "datetime": [dt.datetime(2021, 6, 1, 0, 0, 30), dt.datetime(1999, 12, 31, 23, 59, 59)],
    "timedelta": [dt.timedelta(days=1), dt.timedelta(seconds=-5)],
    "complex": [1j, 2.5, 3],
}
MISSING = [None, pd.NA, pd.NaT, np.nan, float("nan")]


@pytest.mark.parametrize("kind", list(UNIFORM))
def test_long_columns_of_one_kind_with_missing_values_convert_the_same_both_ways(kind: str) -> None:
    rng = np.random.default_rng(11)
    flat = random_objects(rng, 500, UNIFORM[kind] + MISSING)
    for view in views(flat):
        series = pd.Series(view, dtype=object)
        got = bits(rv.as_r(series))
        with pure_writer():
            assert bits(rv.as_r(series)) == got
    assert rv.as_r(pd.Series(flat, dtype=object)).r_type != "list"

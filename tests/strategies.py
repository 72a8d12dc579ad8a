"""Hypothesis strategies for R values, drawn as rdesc descriptions (so R can build them too)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

_DOUBLES = st.one_of(
    st.sampled_from(["NA", "NaN", "Inf", "-Inf", "0", "-0", "1", "0.5", "1e+05", "123456", "1e-20", "100"]),
    st.floats(allow_nan=False, allow_infinity=False, width=64).map(lambda v: "%.17g" % v),
    st.integers(-(10**6), 10**6).map(lambda v: "%.17g" % (v / 8)),
)
_STRINGS = st.one_of(
    st.none(), st.text(alphabet='abcAB_-. 1é\n"', max_size=4), st.sampled_from(["NA", "", "a", "TRUE"])
)
_NAMES = st.one_of(st.none(), st.sampled_from(["", "a", "b", "a.1", "x1"]), st.text("abxy", max_size=2))


def _elements(r_type: str) -> st.SearchStrategy[Any]:
    return {
        "logical": st.one_of(st.none(), st.booleans()),
        "integer": st.one_of(st.none(), st.integers(-(2**31) + 1, 2**31 - 1), st.integers(-3, 3)),
        "double": _DOUBLES,
        "complex": st.one_of(st.none(), st.tuples(_DOUBLES, _DOUBLES).map(list)),
        "character": _STRINGS,
        "raw": st.integers(0, 255),
    }[r_type]


@st.composite
def atomic(
    draw: st.DrawFn,
    types: tuple[str, ...] = ("logical", "integer", "double", "complex", "character", "raw"),
    max_size: int = 4,
) -> dict[str, Any]:
    """An atomic vector's rdesc, sometimes with names."""
    r_type = draw(st.sampled_from(types))
    values = draw(st.lists(_elements(r_type), max_size=max_size))
    if r_type == "complex":
        values = [None if v is None or "NA" in v or "NaN" in v else v for v in values]
    desc: dict[str, Any] = {"type": r_type, "values": values}
    if values and draw(st.booleans()):
        desc["attributes"] = {
            "names": {
                "type": "character",
                "values": draw(st.lists(_NAMES, min_size=len(values), max_size=len(values))),
            }
        }
    return desc


@st.composite
def factors(draw: st.DrawFn) -> dict[str, Any]:
    """A factor's rdesc (codes into a small set of levels, NA allowed)."""
    levels = draw(st.lists(st.sampled_from(["a", "b", "c", "z"]), min_size=1, max_size=3, unique=True))
    codes = draw(st.lists(st.one_of(st.none(), st.integers(1, len(levels))), max_size=3))
    classes = ["ordered", "factor"] if draw(st.booleans()) else ["factor"]
    return {
        "type": "integer",
        "values": codes,
        "attributes": {
            "levels": {"type": "character", "values": levels},
            "class": {"type": "character", "values": classes},
        },
    }


def lists(children: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    """A list's rdesc whose elements are drawn from ``children``, sometimes named."""

    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        values = draw(st.lists(children, max_size=3))
        desc: dict[str, Any] = {"type": "list", "values": values}
        if values and draw(st.booleans()):
            names = draw(st.lists(_NAMES, min_size=len(values), max_size=len(values)))
            desc["attributes"] = {"names": {"type": "character", "values": names}}
        return desc

    return build()


def values() -> st.SearchStrategy[dict[str, Any]]:
    """Any value c() takes: atomic vectors, factors, NULL and (nested) lists of them."""
    leaves = st.one_of(atomic(), factors(), st.just({"type": "NULL"}))
    return st.recursive(leaves, lists, max_leaves=4)

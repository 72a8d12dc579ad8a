"""jsonlite's options are declared once, in ``JsonOptions``: ``to_json``'s keywords and ``Ctx``'s
fields follow it, and the row-key prefix is one mechanism (``rvalues.json.context``).

These tests compare our own paths with each other (the byte-for-byte checks against R live in the
differential and corpus tests): they fail when a declaration drifts from ``JsonOptions``.
"""

from __future__ import annotations

import inspect
import typing
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rvalues as rv
from rvalues.json import JsonliteError, JsonOptions, collapse, prettify, signif, to_json
from rvalues.json.api import encode_with
from rvalues.json.context import PREFIX_AWARE, SHARED, Ctx, Prefixed
from rvalues.json.dispatch import BUILTIN_METHODS, encode, top
from rvalues.json.options import CHOICES
from rvalues.json.registry import options_in
from rvalues.model.classes import r_class

FIELDS = attrs.fields(JsonOptions)

# an option value other than the default, for each option
OTHER: dict[str, Any] = {
    "dataframe": "columns",
    "matrix": "columnmajor",
    "date": "epoch",
    "posixt": "epoch",
    "factor": "integer",
    "complex": "list",
    "raw": "hex",
    "null": "null",
    "na": "string",
    "auto_unbox": True,
    "digits": signif(2),
    "pretty": 3,
    "force": True,
    "keep_vec_names": True,
    "always_decimal": True,
    "rownames": True,
    "utc": True,
    "time_format": "%H:%M",
    "json_verbatim": True,
    "no_dots": True,
    "digits_secs": 3,
}


def test_to_json_keywords_are_the_fields_of_json_options() -> None:
    params = list(inspect.signature(to_json).parameters.values())[1:]
    assert [(p.name, p.kind) for p in params] == [(f.name, inspect.Parameter.KEYWORD_ONLY) for f in FIELDS]
    assert [p.default for p in params] == [f.default for f in FIELDS]
    assert [p.annotation for p in params] == [f.type for f in FIELDS]


def test_every_option_has_a_non_default_example() -> None:
    assert set(OTHER) == {f.name for f in FIELDS}
    assert all(OTHER[f.name] != f.default for f in FIELDS)


def test_ctx_carries_every_option() -> None:
    ctx_types = typing.get_type_hints(Ctx)
    option_types = typing.get_type_hints(JsonOptions)
    for name in SHARED:
        assert ctx_types[name] == option_types[name], name
    assert set(SHARED) == {f.name for f in FIELDS} - {"digits", "pretty"}
    assert Ctx._fields[: len(SHARED)] == SHARED  # Ctx.top fills them in this order


@pytest.mark.parametrize("name", sorted(OTHER))
def test_ctx_top_takes_each_option(name: str) -> None:
    options = JsonOptions(**{name: OTHER[name]})
    ctx = top(options)
    for shared in SHARED:
        assert getattr(ctx, shared) == getattr(options, shared)
    assert (ctx.precision, ctx.use_signif) == (options.precision, options.use_signif)
    assert ctx.indent == (0 if options.pretty is True else None)
    assert (ctx.oldna, ctx.collapse, ctx.is_df, ctx.prefix) == (None, True, False, None)


VALUE = rv.r_list(
    f=rv.data_frame(x=[1.25, None], d=rv.as_date(["2024-01-02", None]), g=rv.factor(["a", "b"])),
    m=rv.matrix(rv.c(1, 2, 3, 4), nrow=2),
    z=rv.c(1 + 2j),
    r=rv.as_r(b"\x01\xff"),
    n=rv.NULL,
    v=rv.c(a=1.0, b=2.0),
    t=rv.as_posixct(["1970-01-01 00:00:00"], tz="UTC"),
    u=rv.as_posixct(["1970-01-01 00:00:00.5"], tz="Europe/Berlin"),  # utc and digits_secs show here
    **{"s.json": rv.Character(["[1]"], {"class": "json"})},  # json_verbatim and no_dots show here
)


MYSTERY = rv.c(1.0).with_attributes({"class": "mystery"})  # no method: only force=TRUE writes it


@pytest.mark.filterwarnings("ignore::rvalues.json.KeepVecNamesWarning")
@pytest.mark.parametrize("name", sorted(OTHER))
def test_to_json_forwards_each_option(name: str) -> None:
    value = rv.r_list(VALUE, MYSTERY) if name == "force" else VALUE
    changed = to_json(value, **{name: OTHER[name]})
    assert changed == encode_with(value, JsonOptions(**{name: OTHER[name]}))
    if name == "force":
        with pytest.raises(JsonliteError, match="mystery"):
            to_json(value)
    else:
        assert changed != to_json(value), f"{name} changed nothing here; pick a value that shows it"


@pytest.mark.parametrize("name", sorted(CHOICES))
def test_bad_choice_gives_the_same_error_both_ways(name: str) -> None:
    bad: dict[str, Any] = {name: "nope"}
    with pytest.raises(JsonliteError) as direct:
        JsonOptions(**bad)
    with pytest.raises(JsonliteError) as through:
        to_json(1, **bad)
    assert str(through.value) == str(direct.value)


@settings(max_examples=60, derandomize=True, deadline=None)
@given(
    choices=st.fixed_dictionaries({name: st.sampled_from(values) for name, values in CHOICES.items()}),
    flags=st.fixed_dictionaries(
        {
            name: st.booleans()
            for name in ("auto_unbox", "force", "keep_vec_names", "always_decimal", "pretty")
        }
    ),
    digits=st.one_of(st.none(), st.integers(0, 15), st.integers(1, 15).map(signif)),
    rownames=st.sampled_from([None, True, False]),
)
def test_ctx_gives_back_the_options_it_was_made_from(
    choices: dict[str, str], flags: dict[str, bool], digits: Any, rownames: bool | None
) -> None:
    options = JsonOptions(**choices, **flags, digits=digits, rownames=rownames)
    ctx = top(options)
    assert ctx.as_options() == options
    assert options_in(ctx) == options  # what a registered encoder is given


def test_options_seen_in_data_frame_rows_are_the_callers() -> None:
    ctx = top(JsonOptions(na="null")).but(na="NA", oldna="null", collapse=False, is_df=True)
    assert ctx.as_options() == JsonOptions(na="null")


# -- the row-key prefix ---------------------------------------------------------------------------

AWARE_VALUES = [
    rv.c(True, rv.NA),
    rv.Integer([3, None]),
    rv.c(1.5, rv.NA, float("inf")),
    rv.c("a\n", rv.NA),
    rv.factor(["x", None, "y"]),
    rv.factor(["x", "y"], ordered=True),
    rv.as_date(["2024-01-02", None]),
    rv.as_posixct(["2001-09-09 01:46:40", "1970-01-01 00:00:00.5", None], tz="UTC"),
    rv.I(rv.c(2.5, 3.0)),
    rv.unbox(rv.c("one")),
]
PREFIX = '{"key":'


def _tokens(out: Any) -> list[str | None]:
    if isinstance(out, Prefixed):
        out = out.tokens
    return [out] if isinstance(out, str) or out is None else list(out.tolist())


def test_every_prefix_aware_class_is_a_builtin_method_and_tested() -> None:
    assert PREFIX_AWARE <= set(BUILTIN_METHODS)
    assert {r_class(v)[0] for v in AWARE_VALUES} | {"numeric", "integer", "double"} >= PREFIX_AWARE


@pytest.mark.parametrize("na", [None, "null", "string", "NA"])
@pytest.mark.parametrize("value", AWARE_VALUES, ids=lambda v: r_class(v)[0])
def test_prefixed_tokens_are_the_plain_tokens_after_the_prefix(value: Any, na: str | None) -> None:
    cells = top(JsonOptions()).but(collapse=False, is_df=True, na=na)
    plain = _tokens(encode(value, cells))
    out = encode(value, cells.but(prefix=PREFIX))
    expected = plain if not isinstance(out, Prefixed) else [None if t is None else PREFIX + t for t in plain]
    assert _tokens(out) == expected
    assert any(t is not None and t.startswith(PREFIX) for t in _tokens(out)) == isinstance(out, Prefixed)


def test_other_classes_never_see_the_prefix() -> None:
    cells = top(JsonOptions()).but(collapse=False, is_df=True, prefix=PREFIX)
    for value in (rv.r_list(rv.c(1)), rv.as_r(b"\x00"), rv.c(1j), rv.matrix(rv.c(1, 2), nrow=1)):
        out = encode(value, cells)
        assert not isinstance(out, Prefixed)
        assert not any(t is not None and PREFIX in t for t in _tokens(out))


def test_pretty_module_is_split_into_collapse_and_prettify() -> None:
    assert to_json(VALUE, pretty=2) == prettify.beautify(to_json(VALUE), 2)
    assert not hasattr(collapse, "beautify")
    assert not hasattr(prettify, "collapse")

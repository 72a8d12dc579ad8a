"""A class of one's own: ``rvalues.json.register`` (jsonlite's setMethod) and ``register_converter``.

The JSON cases are compared with R, where the same encoders are registered as S4 methods of
jsonlite's ``asJSON`` (``setMethod``): what R writes then is what a registered encoder must write.
"""

from __future__ import annotations

import dataclasses
import json
import threading
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd
import pytest

import mcplite
import rvalues as rv
from mcplite.payload.returned import to_r
from rvalues.json import JsonOptions, register, registered, unregister
from rvalues.json.dispatch import BUILTIN_METHODS
from tests.conftest import RSCRIPT, r_json_output, requires_r

# --- the encoders, in Python and in R -------------------------------------------------------------


def money_encoder(x: rv.Double, options: JsonOptions) -> rv.RValue:
    """Amounts as strings with two decimals, NA staying NA."""
    text = np.char.mod("%.2f USD", x.data).astype(object)
    text[x.na_mask()] = None
    return rv.as_r(text)


def seconds_encoder(x: rv.RValue, options: JsonOptions) -> rv.RValue:
    """A difftime in seconds as plain numbers."""
    assert x.attributes["units"].data.tolist() == ["secs"]
    return x.with_attributes({"class": None, "units": None})


R_SETUP = r"""
suppressPackageStartupMessages(library(jsonlite))
asJSON <- jsonlite:::asJSON
setOldClass("money")
setMethod(asJSON, "money", function(x, ...) {
  out <- sprintf("%.2f USD", unclass(x)); out[is.na(x)] <- NA; asJSON(out, ...)
})
setMethod(asJSON, "difftime", function(x, ...) asJSON(as.numeric(x, units = "secs"), ...))
money <- function(...) structure(c(...), class = "money")
df <- data.frame(id = 1:3); df$price <- money(1.5, NA, 20)
listcol <- data.frame(id = 1:2); listcol$p <- list(money(1), money(2.5, NA))
big <- data.frame(id = 1:40); big$price <- money((0:39) / 3)
"""


def m(*values: float | None) -> rv.RValue:
    return rv.Double(list(values), {"class": "money"})


def frame() -> rv.DataFrame:
    return rv.data_frame(id=rv.Integer([1, 2, 3]), price=m(1.5, None, 20))


def list_column() -> rv.RValue:
    return rv.as_r(pd.DataFrame({"id": pd.array([1, 2], dtype="Int32"), "p": [Money(1), Money(2.5, None)]}))


@dataclasses.dataclass
class Money:
    amount: float | None
    currency: str | None = "USD"


def money_to_r(value: Money) -> rv.RValue:
    return m(value.amount) if value.currency is not None else m(value.amount, None)


def _tool_text(value: Any) -> str:
    block = mcplite.as_tool_result(value).content[0]
    assert isinstance(block, mcplite.TextContent)
    return block.text


# name: (what rvalues writes, R's expression)
CASES: dict[str, tuple[Callable[[], str], str]] = {
    "vector": (lambda: rv.to_json(m(1.5, None, 20)), "toJSON(money(1.5, NA, 20))"),
    "vector_na_string": (
        lambda: rv.to_json(m(1.5, None), na="string"),
        'toJSON(money(1.5, NA), na = "string")',
    ),
    "in_lists": (
        lambda: rv.to_json(rv.r_list(a=m(1.5), b=rv.r_list(c=m(2, None)))),
        "toJSON(list(a = money(1.5), b = list(c = money(2, NA))))",
    ),
    "unboxed_and_asis": (
        lambda: rv.to_json(rv.r_list(a=m(1.5), b=rv.I(m(2))), auto_unbox=True),
        "toJSON(list(a = money(1.5), b = I(money(2))), auto_unbox = TRUE)",
    ),
    "unbox": (lambda: rv.to_json(rv.unbox(m(3))), "toJSON(unbox(money(3)))"),
    "rows": (lambda: rv.to_json(frame()), "toJSON(df)"),
    "rows_na_null": (lambda: rv.to_json(frame(), na="null"), 'toJSON(df, na = "null")'),
    "rows_many": (
        lambda: rv.to_json(rv.data_frame(id=rv.Integer(list(range(1, 41))), price=m(*np.arange(40) / 3))),
        "toJSON(big)",
    ),
    "columns": (lambda: rv.to_json(frame(), dataframe="columns"), 'toJSON(df, dataframe = "columns")'),
    "columns_na_string": (
        lambda: rv.to_json(frame(), dataframe="columns", na="string"),
        'toJSON(df, dataframe = "columns", na = "string")',
    ),
    "values": (lambda: rv.to_json(frame(), dataframe="values"), 'toJSON(df, dataframe = "values")'),
    "pretty": (lambda: rv.to_json(frame(), pretty=True), "toJSON(df, pretty = TRUE)"),
    "pretty_columns": (
        lambda: rv.to_json(rv.r_list(f=frame(), m=m(1)), pretty=True, dataframe="columns"),
        'toJSON(list(f = df, m = money(1)), pretty = TRUE, dataframe = "columns")',
    ),
    "pretty_spaces": (lambda: rv.to_json(frame(), pretty=3), "toJSON(df, pretty = 3)"),
    "list_column_from_pandas": (lambda: rv.to_json(list_column()), "toJSON(listcol)"),
    "list_column_unboxed": (
        lambda: rv.to_json({"order": [Money(1.5)], "items": list_column()}, auto_unbox=True),
        "toJSON(list(order = list(money(1.5)), items = listcol), auto_unbox = TRUE)",
    ),
    "difftime_from_pandas": (
        lambda: rv.to_json(pd.DataFrame({"d": pd.to_timedelta([90, None], unit="s")})),
        'toJSON(data.frame(d = as.difftime(c(90, NA), units = "secs")))',
    ),
    "tool_result": (
        lambda: _tool_text({"total": m(1.5, None), "n": 2}),
        'toJSON(list(total = money(1.5, NA), n = 2L), auto_unbox = TRUE, null = "null")',
    ),
    "unregistered_class_still_errors": (
        lambda: rv.to_json(rv.Double([1.0], {"class": "yen"})),
        'toJSON(structure(1, class = "yen"))',
    ),
}


@pytest.fixture
def encoders() -> Iterator[None]:
    register("money", money_encoder)
    register("difftime", seconds_encoder)
    try:
        yield
    finally:
        unregister("money")
        unregister("difftime")


@pytest.fixture
def money_converter() -> Iterator[None]:
    remove = rv.register_converter(Money, money_to_r)
    try:
        yield
    finally:
        remove()


def _ours(name: str) -> str:
    try:
        return CASES[name][0]()
    except rv.RValueError as err:
        return f"ERROR: {err}"


def _ask_r(cases: dict[str, str]) -> dict[str, str]:
    assert RSCRIPT is not None
    caught = 'error = function(e) paste("ERROR:", conditionMessage(e))'
    lines = [f'"{name}" = tryCatch(as.character({{ {expr} }}), {caught})' for name, expr in cases.items()]
    script = R_SETUP + "out <- list(\n" + ",\n".join(lines) + ")\ncat(toJSON(out, auto_unbox = TRUE))\n"
    answers: dict[str, str] = r_json_output(script)
    return answers


@pytest.fixture(scope="module")
def r_answers() -> dict[str, str]:
    return _ask_r({name: expr for name, (_, expr) in CASES.items()})


@requires_r
@pytest.mark.parametrize("name", list(CASES))
def test_registered_encoder_writes_what_jsonlite_writes(
    name: str, r_answers: dict[str, str], encoders: None, money_converter: None
) -> None:
    assert _ours(name) == r_answers[name]


@requires_r
def test_replacing_a_builtin_method_as_r_does() -> None:
    # 20 rows: past the small-frame path, where row keys are folded into the column's tokens
    days = rv.as_date([f"2024-01-{d:02d}" for d in range(1, 20)] + [None])
    dated = rv.data_frame(d=days)
    r_days = 'as.Date(c(sprintf("2024-01-%02d", 1:19), NA))'

    def as_days(x: rv.RValue, options: JsonOptions) -> rv.RValue:
        return x.with_attributes({"class": None})

    r = _ask_r(
        {
            "default": f"toJSON(data.frame(d = {r_days}))",
            "replaced": 'setMethod(asJSON, "Date", function(x, ...) asJSON(unclass(x), ...)); '
            f"toJSON(data.frame(d = {r_days}))",
        }
    )
    before = rv.to_json(dated)
    assert before == r["default"]
    with pytest.raises(rv.RValueError, match="class 'Date' has a jsonlite method; pass replace=True"):
        register("Date", as_days)
    assert register("Date", as_days, replace=True) is None
    try:
        assert rv.to_json(dated) == r["replaced"] != before
    finally:
        assert unregister("Date") is as_days
    assert rv.to_json(dated) == before
    assert unregister("Date") is None  # the built-in method stays


# --- the registry itself ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(BUILTIN_METHODS))
def test_every_builtin_class_is_refused_without_replace(name: str) -> None:
    with pytest.raises(rv.RValueError, match=f"class '{name}' has a jsonlite method"):
        register(name, money_encoder)
    assert name not in registered()


def test_register_returns_the_encoder_it_replaced_and_unregister_restores(encoders: None) -> None:
    def upper(x: rv.RValue, options: JsonOptions) -> rv.RValue:
        return rv.Character(["MONEY"] * len(x.data))

    assert registered() == {"money": money_encoder, "difftime": seconds_encoder}
    assert register("money", upper) is money_encoder
    assert rv.to_json(m(1, 2)) == '["MONEY","MONEY"]'
    assert register("money", money_encoder) is upper
    assert rv.to_json(m(1, 2)) == '["1.00 USD","2.00 USD"]'
    assert unregister("money") is money_encoder
    assert unregister("money") is None
    with pytest.raises(rv.RValueError, match="No method asJSON S3 class: money"):
        rv.to_json(m(1))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("", money_encoder), "r_class must be a non-empty str"),
        ((["money"], money_encoder), r"r_class must be a non-empty str \(an R class name\), not \['money'\]"),
        (("money", "write it"), "encoder must be a function encoder\\(x, options\\), not str"),
    ],
)
def test_bad_registrations_are_refused(args: tuple[Any, Any], message: str) -> None:
    with pytest.raises(rv.RValueError, match=message):
        register(*args)
    assert "money" not in registered()


def test_declining_writes_the_value_as_if_nothing_were_registered() -> None:
    tagged = rv.Double([1.5], {"class": ["tagged", "numeric"]})
    lonely = rv.Double([1.5], {"class": "tagged"})
    plain = rv.to_json(tagged)
    with pytest.raises(rv.RValueError) as unregistered:
        rv.to_json(lonely)
    seen: list[rv.RValue] = []

    def decline(x: rv.RValue, options: JsonOptions) -> rv.RValue:
        seen.append(x)
        return x

    register("tagged", decline)
    try:
        assert rv.to_json(tagged) == plain == "[1.5]"
        with pytest.raises(rv.RValueError) as declined:
            rv.to_json(lonely)
        assert str(declined.value) == str(unregistered.value)
        register("Date", decline, replace=True)
        day = rv.as_date(["2024-01-02"])
        assert rv.to_json(rv.r_list(d=day)) == '{"d":["2024-01-02"]}'
    finally:
        unregister("tagged")
        unregister("Date")
    assert len(seen) == 3


def test_an_encoder_may_return_a_python_value(encoders: None) -> None:
    register("money", lambda x, options: {"amount": x.with_attributes({"class": None}), "currency": "USD"})
    same = rv.r_list(rv.r_list(amount=rv.c(1.5, rv.NA_real_), currency="USD"))
    assert (
        rv.to_json(rv.r_list(m(1.5, None)))
        == rv.to_json(same)
        == '[{"amount":[1.5,"NA"],"currency":["USD"]}]'
    )


@pytest.mark.parametrize(
    ("encoder", "message"),
    [
        (lambda x, options: None, "the JSON encoder for class 'money' returned None"),
        (lambda x, options: m(1), "returned a value of class 'money' again"),
        (lambda x, options: object(), "cannot convert builtins.object"),
    ],
)
def test_bad_encoder_results_are_errors(encoders: None, encoder: Any, message: str) -> None:
    register("money", encoder)
    with pytest.raises(rv.RValueError, match=message):
        rv.to_json(rv.r_list(a=m(1)))


def test_the_encoder_sees_the_options_in_force(encoders: None) -> None:
    seen: list[JsonOptions] = []

    def spy(x: rv.Double, options: JsonOptions) -> rv.RValue:
        seen.append(options)
        return money_encoder(x, options)

    register("money", spy)
    rv.to_json(rv.r_list(a=m(1), b=rv.I(m(2))), auto_unbox=True, digits=rv.signif(3), pretty=True)
    assert [(o.auto_unbox, o.digits, o.pretty) for o in seen] == [
        (True, rv.signif(3), True),
        (False, rv.signif(3), True),
    ]
    seen.clear()
    rv.to_json(frame(), na="null", dataframe="values")
    rv.to_json(frame())
    assert [(o.dataframe, o.na) for o in seen] == [("values", "null"), ("rows", None)]


def test_the_encoder_runs_once_per_column(encoders: None) -> None:
    calls: list[int] = []

    def counted(x: rv.Double, options: JsonOptions) -> rv.RValue:
        calls.append(len(x.data))
        return money_encoder(x, options)

    register("money", counted)
    n = 5000
    text = rv.to_json(rv.data_frame(id=rv.Integer(list(range(n))), price=m(*np.arange(n) / 4)))
    assert calls == [n]
    assert json.loads(text)[-1] == {"id": n - 1, "price": f"{(n - 1) / 4:.2f} USD"}


def test_registration_from_threads_leaves_an_honest_table() -> None:
    names = [f"cls{i}" for i in range(8)]

    def work(name: str) -> None:
        for _ in range(50):
            register(name, money_encoder)
            assert rv.to_json(rv.Double([1.0], {"class": name})) == '["1.00 USD"]'
            unregister(name)

    threads = [threading.Thread(target=work, args=(name,)) for name in names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not set(names) & set(registered())
    from rvalues.json.dispatch import METHODS

    assert dict(METHODS) == dict(BUILTIN_METHODS)


# --- register_converter ---------------------------------------------------------------------------


def test_converter_applies_in_as_r_lists_dicts_and_object_columns(money_converter: None) -> None:
    assert rv.identical(rv.as_r(Money(1.5)), m(1.5))
    assert rv.identical(rv.as_r([Money(1.5), 2]), rv.List([m(1.5), rv.Integer([2])]))
    assert rv.identical(rv.as_r({"a": {"b": Money(2)}}), rv.as_r({"a": {"b": m(2)}}))
    column = rv.as_r(pd.Series([Money(1), Money(3)]))
    assert rv.identical(column, rv.List([m(1), m(3)]))
    assert rv.identical(rv.from_numpy(np.array([Money(1)], dtype=object)), rv.List([m(1)]))
    frame_ = rv.as_r(pd.DataFrame({"p": [Money(1), Money(2)]}))
    assert rv.identical(frame_.data[0], rv.List([m(1), m(2)]))


class Tag(str):
    """A str subclass: object columns would read it as a string without looking for a converter."""


def test_a_converter_wins_over_an_object_columns_own_inference() -> None:
    remove = rv.register_converter(Tag, lambda t: rv.Character([t.upper()]))
    try:
        expected = rv.as_r([Tag("a"), None, Tag("b")])  # a Python list: each element converted
        assert rv.identical(expected, rv.List([rv.Character(["A"]), rv.NULL, rv.Character(["B"])]))
        assert rv.identical(rv.from_numpy(np.array([Tag("a"), None, Tag("b")], dtype=object)), expected)
        frame_ = rv.as_r(pd.DataFrame({"t": pd.Series([Tag("a"), None, Tag("b")], dtype=object)}))
        assert rv.identical(frame_.data[0], expected)
    finally:
        remove()
    assert rv.identical(rv.from_numpy(np.array([Tag("a")], dtype=object)), rv.Character(["a"]))


def test_tool_results_use_the_converter_before_cattrs_unstructures(money_converter: None) -> None:
    # a dataclass has a cattrs hook too; a registered converter must win, as it does in as_r
    value = {"a": Money(1.5), "rows": [Money(2)]}
    assert rv.identical(to_r(value), rv.as_r(value))
    assert rv.identical(to_r(value).data[0], m(1.5))


def test_without_a_converter_a_dataclass_is_a_named_list() -> None:
    assert rv.identical(rv.as_r(Money(1.5)), rv.as_r({"amount": 1.5, "currency": "USD"}))


def test_remove_undoes_the_registration_and_is_idempotent() -> None:
    with pytest.raises(rv.RValueError, match="register_converter"):
        rv.as_r(Fraction(1, 4))
    remove = rv.register_converter(Fraction, float)
    assert rv.identical(rv.as_r([Fraction(1, 4)]), rv.List([rv.Double([0.25])]))
    remove()
    remove()
    with pytest.raises(rv.RValueError, match=r"fractions\.Fraction"):
        rv.as_r(Fraction(1, 4))


def test_newest_converter_wins_and_kinds_may_be_tuples_or_predicates() -> None:
    first = rv.register_converter((Fraction, complex), lambda v: "first")
    second = rv.register_converter(lambda v: isinstance(v, Fraction) and v > 1, lambda v: "second")
    try:
        got = rv.as_r([Fraction(1, 2), Fraction(3), 1j])
        assert rv.identical(got, rv.as_r(["first", "second", "first"]))
    finally:
        second()
        first()


def test_a_converter_may_return_python_values_converted_in_turn(money_converter: None) -> None:
    remove = rv.register_converter(Fraction, lambda v: {"num": v.numerator, "cost": Money(float(v))})
    try:
        assert rv.identical(rv.as_r(Fraction(1, 4)), rv.as_r({"num": 1, "cost": m(0.25)}))
    finally:
        remove()


@pytest.mark.parametrize(
    ("convert", "message"),
    [
        (
            lambda v: None,
            r"the converter registered for Fraction returned None for Fraction\(1, 4\); return the R value",
        ),
        (lambda v: v, r"returned Fraction\(1, 4\), which it converts again"),
        (lambda v: object(), "cannot convert builtins.object"),
    ],
)
def test_bad_converter_results_are_errors(convert: Any, message: str) -> None:
    remove = rv.register_converter(Fraction, convert)
    try:
        with pytest.raises(rv.RValueError, match=message):
            rv.as_r(Fraction(1, 4))
    finally:
        remove()


@pytest.mark.parametrize(
    ("kind", "convert", "message"),
    [
        ("money", float, "kind must be a class, a tuple of classes or a function obj -> bool, not 'money'"),
        ((), float, "kind must be a class"),
        ((Fraction, "x"), float, "kind must be a class"),
        (Fraction, 1.5, "convert must be a function obj -> value, not float"),
    ],
)
def test_bad_converter_registrations_are_refused(kind: Any, convert: Any, message: str) -> None:
    with pytest.raises(rv.RValueError, match=message):
        rv.register_converter(kind, convert)
    with pytest.raises(rv.RValueError, match=r"cannot convert fractions\.Fraction"):
        rv.as_r(Fraction(1, 4))


def test_exported_from_rvalues_and_rvalues_convert() -> None:
    import rvalues.convert
    import rvalues.json

    assert rv.register_converter is rvalues.convert.register_converter
    assert "register_converter" in rv.__all__
    assert {"register", "unregister", "registered"} <= set(rvalues.json.__all__)

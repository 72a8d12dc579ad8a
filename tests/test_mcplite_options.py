"""mcplite.options() / get_option(): R's options() semantics, validation, context manager."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import mcplite
from mcplite.options import jsonlite_options

NAMES = ("json_null", "json_na", "json_auto_unbox")


@pytest.fixture(autouse=True)
def unset_options() -> Iterator[None]:
    mcplite.options(json_null=None, json_na=None, json_auto_unbox=None)
    yield
    mcplite.options(json_null=None, json_na=None, json_auto_unbox=None)


def test_defaults() -> None:
    assert [mcplite.get_option(n) for n in NAMES] == ["null", None, True]
    assert jsonlite_options() == {"auto_unbox": True, "null": "null"}  # na omitted, not na=None


def test_options_returns_the_old_values_and_restores_them() -> None:
    old = mcplite.options(json_na="null", json_auto_unbox=False)
    assert old == {"json_na": None, "json_auto_unbox": None}  # unset before, as R's options() gives NULL
    assert jsonlite_options() == {"auto_unbox": False, "null": "null", "na": "null"}
    again = mcplite.options(json_na="string")
    assert again == {"json_na": "null"}
    mcplite.options(**again)
    assert mcplite.get_option("json_na") == "null"
    mcplite.options(**old)
    assert [mcplite.get_option(n) for n in NAMES] == ["null", None, True]
    assert "na" not in jsonlite_options()


def test_none_removes_an_option_and_its_default_returns() -> None:
    mcplite.options(json_null="list")
    assert mcplite.options(json_null=None) == {"json_null": "list"}
    assert mcplite.get_option("json_null") == "null"
    mcplite.options(json_na="string")
    mcplite.options(json_na=None)
    assert mcplite.get_option("json_na") is None and "na" not in jsonlite_options()


def test_bare_options_returns_every_value_in_force() -> None:
    mcplite.options(json_null="list")
    assert mcplite.options() == {"json_null": "list", "json_na": None, "json_auto_unbox": True}


def test_options_work_as_a_context_manager() -> None:
    with mcplite.options(json_auto_unbox=False, json_na="string") as old:
        assert old == {"json_auto_unbox": None, "json_na": None}
        assert mcplite.get_option("json_auto_unbox") is False
        with mcplite.options(json_na="null"):
            assert mcplite.get_option("json_na") == "null"
        assert mcplite.get_option("json_na") == "string"
    assert mcplite.get_option("json_auto_unbox") is True and mcplite.get_option("json_na") is None


def test_context_manager_restores_after_an_error() -> None:
    with pytest.raises(RuntimeError), mcplite.options(json_null="list"):
        raise RuntimeError("tool failed")
    assert mcplite.get_option("json_null") == "null"


@pytest.mark.parametrize(
    ("name", "value", "allowed"),
    [
        ("json_null", "NULL", "'null' or 'list'"),
        ("json_null", 1, "'null' or 'list'"),
        ("json_na", "NA", "'null' or 'string'"),
        ("json_na", True, "'null' or 'string'"),
        ("json_auto_unbox", 1, "True or False"),
        ("json_auto_unbox", "TRUE", "True or False"),
    ],
)
def test_invalid_values_are_refused_naming_the_option_and_the_allowed_values(
    name: str, value: object, allowed: str
) -> None:
    with pytest.raises(ValueError, match=name) as err:
        mcplite.options(**{name: value})
    assert allowed in str(err.value) and repr(value) in str(err.value)
    assert mcplite.get_option(name) == {"json_null": "null", "json_na": None, "json_auto_unbox": True}[name]


def test_nothing_changes_unless_every_value_is_valid() -> None:
    with pytest.raises(ValueError, match="json_na"):
        mcplite.options(json_null="list", json_na="bad")
    assert mcplite.get_option("json_null") == "null"


def test_unknown_options_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown mcplite option 'json_digits'"):
        mcplite.options(json_digits=4)
    with pytest.raises(ValueError, match="unknown mcplite option"):
        mcplite.get_option("digits")

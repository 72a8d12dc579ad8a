"""Payload JSON options, with the semantics of R's ``options()``.

Three package-global options decide how payloads (ordinary noncharacter return values and
structured content) become JSON; every other jsonlite argument keeps jsonlite's default:

============== ============================== ===========================================
option          values                          default
============== ============================== ===========================================
json_null       ``"null"``, ``"list"``          ``"null"``
json_na         unset, ``"null"``, ``"string"`` unset: jsonlite's class-specific defaults
json_auto_unbox ``True``, ``False``             ``True``
============== ============================== ===========================================

>>> old = options(json_na="null")
>>> get_option("json_na")
'null'
>>> options(**old)["json_na"]
'null'
>>> get_option("json_na") is None
True
"""

from __future__ import annotations

from types import TracebackType
from typing import Any

DEFAULTS: dict[str, Any] = {"json_null": "null", "json_na": None, "json_auto_unbox": True}
"""Each option's default (``None`` for json_na: unset, jsonlite's na argument is omitted)."""

ALLOWED: dict[str, tuple[Any, ...]] = {
    "json_null": ("null", "list"),
    "json_na": ("null", "string"),
    "json_auto_unbox": (True, False),
}
"""The values each option accepts (``None`` is always accepted: it removes the option)."""

_set: dict[str, Any] = {}


class OldOptions(dict[str, Any]):
    """The previous values that :func:`options` returns; also a context manager that restores them.

    >>> with options(json_auto_unbox=False):
    ...     get_option("json_auto_unbox")
    False
    >>> get_option("json_auto_unbox")
    True
    """

    def __enter__(self) -> OldOptions:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        options(**self)


def _check(name: str, value: Any) -> None:
    if name not in DEFAULTS:
        known = ", ".join(DEFAULTS)
        raise ValueError(f"unknown mcplite option {name!r}; the options are {known}")
    if value is None:
        return
    allowed = ALLOWED[name]
    # `True == 1` in Python: compare booleans by identity so that 1 or "TRUE" are refused.
    ok = (
        any(value is a for a in allowed)
        if isinstance(allowed[0], bool)
        else (isinstance(value, str) and value in allowed)
    )
    if not ok:
        shown = " or ".join(repr(a) for a in allowed)
        default = "unset" if DEFAULTS[name] is None else repr(DEFAULTS[name])
        raise ValueError(
            f"mcplite option {name} must be {shown} (or None to restore its default, {default}), "
            f"not {value!r}"
        )


def options(**changes: Any) -> OldOptions:
    """Set options and return their previous values (all current values when called bare).

    ``None`` removes an option so that its default returns. Nothing changes unless every value
    is valid. The result restores the old values when passed back (``options(**old)``) or when
    used as a context manager.

    >>> options(json_null="list")      # it was unset: R's options() gives NULL, here None
    {'json_null': None}
    >>> options(json_null=None)
    {'json_null': 'list'}
    """
    for name, value in changes.items():
        _check(name, value)
    names = changes or DEFAULTS
    old = OldOptions({name: _set.get(name) for name in names})
    for name, value in changes.items():
        if value is None:
            _set.pop(name, None)
        else:
            _set[name] = value
    if not changes:
        old = OldOptions({name: get_option(name) for name in DEFAULTS})
    return old


def get_option(name: str) -> Any:
    """The value in force of one option (its default where unset; json_na unset is ``None``).

    >>> get_option("json_null")
    'null'
    """
    _check(name, None)
    return _set.get(name, DEFAULTS[name])


def jsonlite_options() -> dict[str, Any]:
    """The jsonlite arguments (rvalues.json's snake-case names) the options in force stand for.

    >>> jsonlite_options()
    {'auto_unbox': True, 'null': 'null'}
    """
    out: dict[str, Any] = {"auto_unbox": get_option("json_auto_unbox"), "null": get_option("json_null")}
    na = get_option("json_na")
    if na is not None:
        out["na"] = na
    return out

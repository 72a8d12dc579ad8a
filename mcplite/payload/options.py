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

``options(...)`` sets them package-wide, as R's ``options()`` does; ``with options(...)`` scopes the
change to the current thread or asyncio task, so that concurrent tool calls never see each
other's options.

>>> old = options(json_na="null")
>>> get_option("json_na")
'null'
>>> options(**old)["json_na"]
'null'
>>> get_option("json_na") is None
True
"""

from __future__ import annotations

import threading
from contextvars import ContextVar, Token
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

_global: dict[str, Any] = {}
"""The package-global values set with ``options()`` outside any ``with`` block (unset: absent)."""

_scoped: ContextVar[dict[str, Any] | None] = ContextVar("mcplite_options", default=None)
"""Inside ``with options(...)``: every value set for this thread or asyncio task (a snapshot)."""

_global_lock = threading.Lock()


def _in_force() -> dict[str, Any]:
    scoped = _scoped.get()
    return _global if scoped is None else scoped


class OldOptions(dict[str, Any]):
    """The previous values that :func:`options` returns; also a context manager that restores them.

    As a context manager the change is scoped to the current thread or asyncio task (a
    ``contextvars`` context): other threads and tasks keep seeing the options they had, and
    blocks that exit in any order restore exactly what they changed.

    >>> with options(json_auto_unbox=False):
    ...     get_option("json_auto_unbox")
    False
    >>> get_option("json_auto_unbox")
    True
    """

    def __init__(self, old: dict[str, Any], changes: dict[str, Any], token: Token[Any] | None) -> None:
        super().__init__(old)
        self._changes = changes
        self._token = token

    def __enter__(self) -> OldOptions:
        if self._token is None and not self._changes and _scoped.get() is not None:
            # a bare options() inside a block: a new scope that keeps the block's values
            self._token = _scoped.set(dict(_in_force()))
        elif self._token is None:
            # options() changed the globals; hand the change over to a scope of this context
            with _global_lock:
                for name, value in self._changes.items():
                    if _global.get(name) == value:
                        _restore(_global, name, self[name])
                scoped = dict(_global)
            _apply(scoped, self._changes)
            self._token = _scoped.set(scoped)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._token is not None:
            _scoped.reset(self._token)


def _restore(values: dict[str, Any], name: str, value: Any) -> None:
    if value is None:
        values.pop(name, None)
    else:
        values[name] = value


def _apply(values: dict[str, Any], changes: dict[str, Any]) -> None:
    for name, value in changes.items():
        _restore(values, name, value)


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
    if not changes:
        return OldOptions({name: get_option(name) for name in DEFAULTS}, {}, None)
    scoped = _scoped.get()
    if scoped is None:
        with _global_lock:
            old = {name: _global.get(name) for name in changes}
            _apply(_global, changes)
        return OldOptions(old, changes, None)
    old = {name: scoped.get(name) for name in changes}
    scoped = dict(scoped)
    _apply(scoped, changes)
    return OldOptions(old, changes, _scoped.set(scoped))


def get_option(name: str) -> Any:
    """The value in force of one option (its default where unset; json_na unset is ``None``).

    >>> get_option("json_null")
    'null'
    """
    _check(name, None)
    return _in_force().get(name, DEFAULTS[name])


def jsonlite_options() -> dict[str, Any]:
    """The jsonlite arguments (rvalues.json's snake-case names) the options in force stand for.

    >>> jsonlite_options()
    {'auto_unbox': True, 'null': 'null'}
    """
    values = _in_force()
    out: dict[str, Any] = {
        "auto_unbox": values.get("json_auto_unbox", DEFAULTS["json_auto_unbox"]),
        "null": values.get("json_null", DEFAULTS["json_null"]),
    }
    na = values.get("json_na")
    if na is not None:
        out["na"] = na
    return out

"""Where the whole of a cut result waits to be read page by page: a bounded store, private to the
session or token that made each result.

A key is random (128 bits) and carries its expiry, so a key that is no longer held says whether it
expired (:class:`ResultExpired`) or was never there, or is not the reader's (:class:`ResultNotFound`).
:class:`MemoryStore` keeps the values in this process (the default; a stateless deployment of
several workers needs :class:`DirectoryStore` on a volume they share).

>>> store = MemoryStore(max_results=2)
>>> key = store.put(StoredResult([1, 2, 3], owner="me", tool="t", total=3, size=7))
>>> store.get(key, "me").total
3
>>> store.get(key, "someone else")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
mcplite.features.result_store.ResultNotFound: ...
"""

from __future__ import annotations

import collections
import json
import os
import pickle
import secrets
import threading
import time
from pathlib import Path
from typing import Any, Protocol

import attrs

import rvalues as rv
from mcplite.payload.budget import (
    DEFAULT_MAX_RESULT_BYTES,
    DEFAULT_RESULT_BUDGET,
    row_total,
    rows_between,
    storable,
)
from mcplite.payload.returned import to_r
from mcplite.tools.failures import PublicError
from rvalues.lazy import import_pyarrow

RESULT_URI_PREFIX = "mcplite://results/"
"""The URIs of stored results: ``mcplite://results/<key>?offset=<row>[&limit=<rows>][&format=csv]``."""

TRUNCATED_KEY = "io.github.mcplite/truncated"
"""The ``_meta`` key of a cut result (and of a page): the rows shown, the total, the rest's URI."""


class ResultNotFound(PublicError, LookupError):
    """No stored result has this key for this reader (never made, evicted, or another client's)."""


class ResultExpired(PublicError, LookupError):
    """The stored result this key named has passed its time to live."""


@attrs.frozen
class StoredResult:
    """A tool's whole value, as kept for paging: who may read it (``owner``: a session or token
    key, None for anyone holding the link), the tool that made it, its rows and its estimated size
    in bytes of JSON."""

    value: Any
    owner: str | None
    tool: str
    total: int
    size: int


class ResultStore(Protocol):
    """What a result store does: keep a result under a new key, and give it back to its owner."""

    ttl_seconds: float

    def put(self, result: StoredResult) -> str: ...

    def get(self, key: str, owner: str | None) -> StoredResult: ...


def new_key(ttl_seconds: float) -> str:
    """A random key that carries the millisecond it expires (``<random>.<epoch milliseconds>``)."""
    return f"{secrets.token_hex(16)}.{int((time.time() + ttl_seconds) * 1000) + 1}"


def expiry_of(key: str) -> float | None:
    """The time (epoch seconds) a key expires, or None for what is not a key.

    >>> expiry_of("ab.12000"), expiry_of("../x")
    (12.0, None)
    """
    random, dot, when = key.partition(".")
    if not dot or not random or not all(c in "0123456789abcdef" for c in random) or not when.isdigit():
        return None
    return int(when[:15]) / 1000


def _gone(key: str, held: StoredResult | None, owner: str | None) -> StoredResult:
    """``held`` when its reader may read it; the error that says why not otherwise."""
    if held is not None and (held.owner is None or held.owner == owner):
        return held
    when = expiry_of(key)
    if held is None and when is not None and when < time.time():
        raise ResultExpired(
            f"the stored result {key} expired at {time.strftime('%H:%M:%S UTC', time.gmtime(when))} (results "
            "are kept for the server's result_store time to live); "
            "call the tool again for a fresh link"
        )
    raise ResultNotFound(f"no stored result {key} for this client (unknown, evicted, or another client's)")


def _positive(instance: Any, attribute: Any, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise ValueError(
            f"{type(instance).__name__}: {attribute.name} must be a positive number, not {value!r}"
        )


@attrs.define
class MemoryStore:
    """Results kept in this process's memory: at most ``max_results`` of them and ``max_bytes`` of
    estimated JSON, each for ``ttl_seconds``; past a bound the oldest go first.

    >>> MemoryStore().ttl_seconds
    600.0
    """

    max_results: int = attrs.field(default=64, validator=_positive)
    max_bytes: int = attrs.field(default=2**30, validator=_positive)
    ttl_seconds: float = attrs.field(default=600.0, converter=float, validator=_positive)
    _held: collections.OrderedDict[str, tuple[float, StoredResult]] = attrs.field(
        factory=collections.OrderedDict, init=False, repr=False
    )
    _lock: threading.Lock = attrs.field(factory=threading.Lock, init=False, repr=False)

    def put(self, result: StoredResult) -> str:
        key = new_key(self.ttl_seconds)
        with self._lock:
            self._held[key] = (
                time.monotonic() + self.ttl_seconds,
                attrs.evolve(result, value=storable(result.value)),
            )
            self._evict()
        return key

    def get(self, key: str, owner: str | None) -> StoredResult:
        with self._lock:
            self._evict()
            found = self._held.get(key)
        return _gone(key, None if found is None else found[1], owner)

    def __len__(self) -> int:
        with self._lock:
            self._evict()
            return len(self._held)

    def _evict(self) -> None:
        now = time.monotonic()
        for key in [key for key, (expires, _) in self._held.items() if expires <= now]:
            del self._held[key]
        total = sum(stored.size for _, stored in self._held.values())
        while self._held and (len(self._held) > self.max_results or total > self.max_bytes):
            _, (_, stored) = self._held.popitem(last=False)
            total -= stored.size


@attrs.define
class DirectoryStore:
    """Results kept as files in ``path``, a directory the server's workers share: any worker reads
    what another stored. A data frame is an Arrow IPC file when pyarrow is installed (read back as
    an R data frame), anything else a pickle, with a small JSON file of who may read it; files past
    ``ttl_seconds`` are removed as others are stored, and at most ``max_results`` are kept.
    """

    path: Path = attrs.field(converter=Path)
    max_results: int = attrs.field(default=256, validator=_positive)
    ttl_seconds: float = attrs.field(default=600.0, converter=float, validator=_positive)

    def __attrs_post_init__(self) -> None:
        self.path.mkdir(parents=True, exist_ok=True)

    def put(self, result: StoredResult) -> str:
        key = new_key(self.ttl_seconds)
        value = storable(result.value)
        kind = "arrow" if _write_arrow(self.path / f"{key}.arrow", value) else "pickle"
        if kind == "pickle":
            with open(self.path / f"{key}.pickle.part", "wb") as file:
                pickle.dump(value, file, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(self.path / f"{key}.pickle.part", self.path / f"{key}.pickle")
        about = {
            "owner": result.owner,
            "tool": result.tool,
            "total": result.total,
            "size": result.size,
            "kind": kind,
        }
        (self.path / f"{key}.json.part").write_text(json.dumps(about), encoding="utf-8")
        os.replace(self.path / f"{key}.json.part", self.path / f"{key}.json")  # last: the key exists now
        self._evict()
        return key

    def get(self, key: str, owner: str | None) -> StoredResult:
        when = expiry_of(key)
        held: StoredResult | None = None
        if when is not None and when >= time.time():
            try:
                about = json.loads((self.path / f"{key}.json").read_text(encoding="utf-8"))
            except (OSError, ValueError):
                about = None
            if about is not None and (about["owner"] is None or about["owner"] == owner):
                value = _read_value(self.path, key, about["kind"])
                held = StoredResult(value, about["owner"], about["tool"], about["total"], about["size"])
        return _gone(key, held, owner)

    def _evict(self) -> None:
        keys = sorted(
            (expiry_of(p.name[: -len(".json")]) or 0, p.name[: -len(".json")])
            for p in self.path.glob("*.json")
        )
        now = time.time()
        stale = [key for when, key in keys if when < now]
        live = [key for when, key in keys if when >= now]
        stale += live[: max(0, len(live) - self.max_results)]
        for key in stale:
            for suffix in (".json", ".arrow", ".pickle"):
                (self.path / f"{key}{suffix}").unlink(missing_ok=True)


_ROUND_TRIP_ROWS = 64
"""Rows of a frame written to Arrow and read back before it is stored as Arrow: a frame that does not
come back identical (row names, classes Arrow has no type for) is pickled instead."""


def _write_arrow(path: Path, value: Any) -> bool:
    """Write a data frame as an Arrow IPC file; False (nothing written) without pyarrow or for
    another value."""
    try:
        pa = import_pyarrow()
    except ImportError:
        return False
    try:
        x = to_r(value)
        if rv.r_class(x)[-1:] != ("data.frame",):
            return False
        sample = rows_between(x, 0, min(_ROUND_TRIP_ROWS, row_total(x) or 0))
        if not rv.identical(rv.from_arrow(rv.to_arrow(sample)), sample):
            return False  # Arrow would lose something (character row names, a class): pickled instead
        table = rv.to_arrow(x)
    except Exception:  # what Arrow cannot hold is pickled instead
        return False
    part = path.with_suffix(".arrow.part")
    with pa.OSFile(str(part), "wb") as sink, pa.ipc.new_file(sink, table.schema) as writer:
        writer.write_table(table)
    os.replace(part, path)
    return True


def _read_value(path: Path, key: str, kind: str) -> Any:
    if kind == "arrow":
        pa = import_pyarrow()
        with pa.memory_map(str(path / f"{key}.arrow")) as source:
            return rv.from_arrow(pa.ipc.open_file(source).read_all())
    with open(path / f"{key}.pickle", "rb") as file:
        return pickle.load(file)  # written by this server's workers, in a directory only they share


@attrs.define
class ResultPolicy:
    """How a server sizes its tool results: the budget (bytes of a response line; None: no
    budget), the hard cap no line may pass, and the store of the cut results' rest."""

    budget: int | None = DEFAULT_RESULT_BUDGET
    max_bytes: int = DEFAULT_MAX_RESULT_BYTES
    store: ResultStore = attrs.field(factory=MemoryStore)

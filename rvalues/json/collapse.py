"""Joining tokens into JSON arrays and objects, compact or in jsonlite's pretty layout
(jsonlite 1.8.4's ``collapse_array.c``, ``collapse_object.c``, ``collapse_pretty.c`` and ``row_collapse.c``).

``indent=None`` is jsonlite's ``NA`` (compact); an int is the pretty indent of the enclosing value.
A token None is R's NA_character_: skipped in objects, written ``NA`` in arrays (as jsonlite's C).

>>> collapse(["1", "2"], inner=False, indent=0)
'[\\n  1,\\n  2\\n]'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np

Tokens = Sequence[str | None]


def _texts(tokens: Tokens) -> list[str]:
    texts = list(tokens)
    if None in texts:
        return ["NA" if t is None else t for t in texts]
    return texts  # type: ignore[return-value]


# jsonlite: src/collapse_array.c C_collapse_array, src/collapse_pretty.c C_collapse_array_pretty_*
def collapse(tokens: Tokens, inner: bool = True, indent: int | None = None, may_have_na: bool = True) -> str:
    """jsonlite's ``collapse``: ``[a,b]``, ``[a, b]`` (inner) or one element per line (outer).

    ``may_have_na=False`` promises no token is None (skips the check).
    """
    texts = _texts(tokens) if may_have_na else cast("Sequence[str]", tokens)
    if indent is None:
        return "[" + ",".join(texts) + "]"
    if inner:
        return "[" + ", ".join(texts) + "]"
    if not texts:
        return "[]"
    pad = "\n" + " " * (indent + 2)
    return "[" + pad + ("," + pad).join(texts) + "\n" + " " * indent + "]"


# jsonlite: src/collapse_object.c C_collapse_object, src/collapse_pretty.c C_collapse_object_pretty
def collapse_object(keys: Sequence[str], values: Tokens, indent: int | None = None) -> str:
    """jsonlite's ``collapse_object``: ``{k:v}`` skipping NA values; pretty keys at indent+2."""
    pairs = [(k, v) for k, v in zip(keys, values) if v is not None]
    if indent is None:
        pieces = ["{"]
        for k, v in pairs:
            pieces += (k, ":", v, ",")
        if pairs:
            pieces[-1] = "}"
        else:
            pieces.append("}")
        return "".join(pieces)
    if not pairs:
        return "{}"
    pad = "\n" + " " * (indent + 2)
    return "{" + pad + ("," + pad).join(k + ": " + v for k, v in pairs) + "\n" + " " * indent + "}"


class RowPieces:
    """The text of many rows as parallel columns of pieces (row i is the i-th piece of each).

    Joining them once is far cheaper than building a string per row.
    """

    def __init__(self, nrow: int) -> None:
        self.nrow = nrow
        self.columns: list[Any] = []
        self._constant: str | None = None

    def add(self, piece: str | np.ndarray) -> None:
        """Append a piece to every row: one string for all, or an object array of str."""
        if isinstance(piece, str):
            if self._constant is not None:
                self._constant += piece
            else:
                self._constant = piece
            return
        self._settle()
        self.columns.append(piece)

    def _settle(self) -> None:
        if self._constant is not None:
            self.columns.append([self._constant] * self.nrow)
            self._constant = None

    def _flat(self, sep: str | None = None) -> tuple[list[str], int]:
        """All pieces in row order, and the number per row (``sep`` ends every row)."""
        if sep is not None and self._constant is not None:
            self._constant += sep
            sep = None
        self._settle()
        columns = [c if isinstance(c, list) else c.tolist() for c in self.columns]
        if sep is not None:
            columns.append([sep] * self.nrow)
        width = len(columns)
        flat: list[str] = [""] * (self.nrow * width)
        for k, col in enumerate(columns):
            flat[k::width] = col
        return flat, width

    def rows(self) -> np.ndarray:
        """One string per row."""
        flat, width = self._flat()
        return np.array(["".join(flat[i : i + width]) for i in range(0, len(flat), width)], dtype=object)

    def text(self, indent: int | None) -> str:
        """``collapse(rows, inner = FALSE, indent)`` in one join."""
        if not self.nrow:
            return "[]"
        opening, _, closing = row_delimiters(indent)
        return opening + self.body(indent) + closing

    def body(self, indent: int | None) -> str:
        """The rows joined by the separator ``text`` puts between them, without the brackets."""
        if not self.nrow:
            return ""
        _, sep, _ = row_delimiters(indent)
        flat, _ = self._flat(sep)
        flat[-1] = flat[-1][: len(flat[-1]) - len(sep)]
        return "".join(flat)


def row_delimiters(indent: int | None) -> tuple[str, str, str]:
    """The opening, separator and closing of ``collapse(rows, inner = FALSE, indent)``.

    >>> row_delimiters(None)
    ('[', ',', ']')
    """
    if indent is None:
        return "[", ",", "]"
    pad = "\n" + " " * (indent + 2)
    return "[" + pad, "," + pad, "\n" + " " * indent + "]"


class RowTexts:
    """A few rows already joined, with the interface of :class:`RowPieces` (``rows``, ``text``,
    ``body``): for small frames, plain Python beats numpy's per-call cost.

    >>> small_object_rows(['"a"', '"b"'], [["1", None], ["true", "false"]], 2, None).text(None)
    '[{"a":1,"b":true},{"b":false}]'
    """

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts
        self.nrow = len(texts)

    def rows(self) -> np.ndarray:
        out = np.empty(self.nrow, dtype=object)
        out[:] = self.texts
        return out

    def text(self, indent: int | None) -> str:
        opening, sep, closing = row_delimiters(indent)
        return opening + sep.join(self.texts) + closing if self.texts else "[]"

    def body(self, indent: int | None) -> str:
        return row_delimiters(indent)[1].join(self.texts)


def small_object_rows(
    keys: Sequence[str], columns: Sequence[Sequence[str | None]], nrow: int, indent: int | None
) -> RowTexts:
    """What :func:`object_rows` makes, one row at a time (NA cells, None, omitted)."""
    if indent is None:
        first, nxt, colon, close = "", ",", ":", "}"
    else:
        pad = "\n" + " " * (indent + 2)
        first, nxt, colon, close = pad, "," + pad, ": ", "\n" + " " * indent + "}"
    leads = [k + colon for k in keys]
    texts = []
    for row in zip(*columns):
        fields = [lead + cell for lead, cell in zip(leads, row) if cell is not None]
        texts.append("{" + first + nxt.join(fields) + close if fields else "{}")
    if not columns:
        texts = ["{}"] * nrow
    return RowTexts(texts)


def small_array_rows(columns: Sequence[Sequence[str | None]], nrow: int, indent: int | None) -> RowTexts:
    """What :func:`array_rows` makes, one row at a time (NA tokens written ``NA``)."""
    sep = "," if indent is None else ", "
    texts = ["[" + sep.join("NA" if col[i] is None else col[i] for col in columns) + "]" for i in range(nrow)]  # type: ignore[misc]
    return RowTexts(texts)


def _blank_missing(col: np.ndarray, missing: np.ndarray, fill: str) -> np.ndarray:
    if not missing.any():
        return col
    out = col.copy()
    out[missing] = fill
    return out


def array_rows(columns: Sequence[np.ndarray], nrow: int, indent: int | None = None) -> RowPieces:
    """One array per row (``[a,b]``, pretty ``[a, b]``); NA tokens are written ``NA``."""
    sep = "," if indent is None else ", "
    out = RowPieces(nrow)
    out.add("[")
    for j, col in enumerate(columns):
        if j:
            out.add(sep)
        out.add(_blank_missing(col, np.equal(col, None), "NA"))  # type: ignore[call-overload]
    out.add("]")
    return out


class ObjectRows:
    """Builds one object per row, a column at a time (``row_collapse_object``): keys in column
    order, NA cells (None) omitted.

    ``lead(key)`` is the text before a field when it is the same for every row (the first
    column's, or any once every row has a field); an encoder may fold it into its tokens.
    """

    def __init__(self, nrow: int, indent: int | None = None) -> None:
        if indent is None:
            self.first, self.nxt, self.colon, self.close = "", ",", ":", "}"
        else:
            pad = "\n" + " " * (indent + 2)
            self.first, self.nxt, self.colon = pad, "," + pad, ": "
            self.close = "\n" + " " * indent + "}"
        self.pieces = RowPieces(nrow)
        self.nrow = nrow
        self.count = 0
        self.seen = np.zeros(nrow, dtype=bool)
        self.all_seen = False

    def lead(self, key: str) -> str | None:
        if self.count == 0:
            return "{" + self.first + key + self.colon
        return self.nxt + key + self.colon if self.all_seen else None

    def add(self, key: str, col: np.ndarray, prefixed: bool = False) -> None:
        """Add a column of tokens; ``prefixed``: they already start with ``lead(key)``."""
        missing = np.equal(col, None)  # type: ignore[call-overload]  # numpy stubs lack None
        any_missing = bool(missing.any())
        if self.count == 0 and not prefixed:
            self.pieces.add("{")
        elif self.count == 0 and any_missing:
            # prefixed tokens carry the opening brace; rows whose first cell is omitted need one
            self.pieces.add(np.array(["", "{"], dtype=object)[missing.view(np.int8)])
        if not prefixed:
            lead = (self.nxt if self.count else self.first) + key + self.colon
            if self.all_seen and not any_missing:
                self.pieces.add(lead)
            else:
                # 0: omitted cell, 1: a field after another, 2: the row's first field
                choice = np.array(["", lead, self.first + key + self.colon], dtype=object)
                which = (~missing).astype(np.int8)
                if self.count and not self.all_seen:
                    which[~self.seen & ~missing] = 2
                self.pieces.add(choice[which])
        self.pieces.add(_blank_missing(col, missing, "") if any_missing else col)
        self.seen |= ~missing
        self.all_seen = bool(self.seen.all())
        self.count += 1

    def finish(self) -> RowPieces:
        if not self.count:
            self.pieces.add("{")
        if self.all_seen:
            self.pieces.add(self.close)
        else:
            self.pieces.add(np.array(["}", self.close], dtype=object)[self.seen.view(np.int8)])
        return self.pieces


def object_rows(
    keys: Sequence[str], columns: Sequence[np.ndarray], nrow: int, indent: int | None = None
) -> RowPieces:
    """One object per row, keys in column order, NA cells omitted (``row_collapse_object``)."""
    rows = ObjectRows(nrow, indent)
    for key, col in zip(keys, columns):
        rows.add(key, col)
    return rows.finish()


# jsonlite: src/row_collapse.c C_row_collapse_array
def row_collapse(columns: Sequence[np.ndarray], nrow: int, indent: int | None = None) -> np.ndarray:
    """One array per row from per-column token arrays (object arrays of str/None).

    >>> row_collapse([np.array(["1", "2"], object), np.array(["3", "4"], object)], 2).tolist()
    ['[1,3]', '[2,4]']
    """
    return array_rows(columns, nrow, indent).rows()


# jsonlite: src/row_collapse.c C_row_collapse_object
def row_collapse_object(
    keys: Sequence[str], columns: Sequence[np.ndarray], nrow: int, indent: int | None = None
) -> np.ndarray:
    """One object per row (keys in column order, NA cells omitted), vectorized over rows.

    >>> cols = [np.array(["1", None], object), np.array(["true", "false"], object)]
    >>> row_collapse_object(['"a"', '"b"'], cols, 2).tolist()
    ['{"a":1,"b":true}', '{"b":false}']
    """
    return object_rows(keys, columns, nrow, indent).rows()

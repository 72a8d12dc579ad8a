"""The arguments that travel down jsonlite's ``asJSON`` recursion (its formals and ``...``).

Each encoder consumes its own formals and passes the rest on, as the R methods do; ``but()``
returns a copy with some changed. ``na`` is None (not given), "null", "string" or "NA"
(jsonlite's marker for "omit this field" in data-frame rows); ``indent`` None is compact.
``prefix`` (set only by the data-frame encoder, with ``collapse`` off) is text the atomic
encoders may fold into every token they make (a row field's key), which saves joining it later.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from rvalues.json.options import JsonOptions


class Ctx(NamedTuple):
    """One call's arguments, immutable (``but`` makes a changed copy)."""

    dataframe: str
    matrix: str
    date: str
    posixt: str
    factor: str
    complex: str
    raw: str
    null: str
    na: str | None
    oldna: str | None
    auto_unbox: bool
    precision: int | None
    use_signif: bool
    always_decimal: bool
    keep_vec_names: bool
    indent: int | None
    force: bool
    rownames: bool | None
    collapse: bool
    is_df: bool
    prefix: str | None

    @classmethod
    def top(cls, options: JsonOptions) -> Ctx:
        """The arguments ``toJSON`` hands to the first ``asJSON`` call."""
        return cls(
            dataframe=options.dataframe,
            matrix=options.matrix,
            date=options.date,
            posixt=options.posixt,
            factor=options.factor,
            complex=options.complex,
            raw=options.raw,
            null=options.null,
            na=options.na,
            oldna=None,
            auto_unbox=options.auto_unbox,
            precision=options.precision,
            use_signif=options.use_signif,
            always_decimal=options.always_decimal,
            keep_vec_names=options.keep_vec_names,
            indent=0 if options.pretty is True else None,
            force=options.force,
            rownames=options.rownames,
            collapse=True,
            is_df=False,
            prefix=None,
        )

    def but(self, **changes: Any) -> Ctx:
        """A copy with ``changes`` applied."""
        return self._replace(**changes)

    def plus(self, indent: int | None, by: int = 2) -> int | None:
        """``indent + 2L`` with NA staying NA."""
        return None if indent is None else indent + by

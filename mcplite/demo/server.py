"""The demo MCP server: seven read-only tools over the Palmer penguins data (``mcplite/data/``), one
of them interactive (``fit_body_mass`` asks the user which measurement to fit) and one long enough
to be offered as a task (``bootstrap_mean``, see docs/tasks.md).

Serve it with ``mcplite demo`` or ``python -m mcplite``. Every tool is a plain function too, so it
can be called directly; R values come back, as an R server's tools would return them:

>>> rows = filter_rows("body_mass_g", ">=", 6000)
>>> rows.row_names, rows.columns["sex"]
([1] 170 186 230 270, [1] male male male male
Levels: female male)
>>> column_stats("bill_depth_mm").n
342

The tools that return data are typed: ``describe_data``, ``filter_rows``, ``summarize_by_group``
and ``bootstrap_mean`` return frames with declared rows, ``column_stats`` and ``fit_body_mass``
records, so their output schemas are derived (``mcplite.output_schema``) and nothing is typed in
by hand. Their inputs list the columns each one takes as an ``enum`` and give an example of every
required argument, so a client can call each tool from its input schema alone:

>>> build_server().get_tool("column_stats").tool.input_schema["properties"]["column"]["examples"]
['bill_length_mm']
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from importlib import resources
from typing import Annotated, Any, Literal, TypedDict

import attrs
import pandas as pd

import rvalues as rv
from mcplite import (
    Context,
    Examples,
    McpServer,
    Rows,
    ToolAnnotations,
    ToolError,
    content_image,
    content_text,
    tool_result,
)
from mcplite.demo.bootstrap import MAX_RESAMPLES, RESAMPLES, MeanInterval, bootstrap_intervals
from mcplite.demo.fitting import make_fit_body_mass
from mcplite.demo.offer import add_offer, lifespan_loading
from mcplite.demo.picture import histogram_png
from mcplite.protocol.types import CallToolResult

Operator = Literal["==", "!=", "<", "<=", ">", ">="]
Stat = Literal["mean", "median", "min", "max", "count"]

Column = Literal[
    "species", "island", "bill_length_mm", "bill_depth_mm", "flipper_length_mm", "body_mass_g", "sex", "year"
]
"""The columns of the data, in order (a test checks them against the CSV)."""
NumericColumn = Literal["bill_length_mm", "bill_depth_mm", "flipper_length_mm", "body_mass_g", "year"]
"""The columns that have a mean: all but the factors."""
GroupColumn = Literal["species", "island", "sex", "year"]
"""The columns whose values are groups: the factors and the year."""

#: The columns read as factors and as integers, as in R's ``palmerpenguins::penguins``.
FACTORS = ("species", "island", "sex")
INTEGERS = ("flipper_length_mm", "body_mass_g", "year")

_OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


@attrs.frozen
class ColumnStats:
    """Summary statistics of a numeric column (its output schema is derived from these fields)."""

    name: Annotated[str, "the column"]
    n: Annotated[int, "number of non-missing values"]
    missing: Annotated[int, "number of NA values"]
    mean: Annotated[float, "mean of the non-missing values"]
    sd: Annotated[float, "standard deviation (n - 1 denominator), as R's sd()"]


@attrs.frozen
class Penguin:
    """One row of the data, as ``filter_rows`` returns it (an NA field is left out of its JSON row)."""

    species: Literal["Adelie", "Chinstrap", "Gentoo"]
    island: Literal["Biscoe", "Dream", "Torgersen"]
    bill_length_mm: float | None
    bill_depth_mm: float | None
    flipper_length_mm: int | None
    body_mass_g: int | None
    sex: Literal["female", "male"] | None
    year: int


@attrs.frozen
class GroupValue:
    """One row of ``summarize_by_group``: a group's label (as R's ``split()`` names it) and its statistic."""

    group: str
    value: float


# "class" is a Python keyword: the functional form of TypedDict names the field as R does
ColumnInfo = TypedDict(
    "ColumnInfo",
    {"column": str, "class": str, "missing": int, "min": float, "mean": float, "max": float},
)
"""One row of ``describe_data``: a column, its R class, its NA count and its min, mean and max."""

INSTRUCTIONS = (
    "Tools over the Palmer penguins data (344 penguins, 8 columns; NA marks missing values). "
    "Start with describe_data to see the columns."
)


# -- the data -------------------------------------------------------------------------------------


@functools.cache
def penguins_pandas() -> pd.DataFrame:
    """The data as pandas reads it, once: factors as categoricals, integer columns as ``Int64``.

    >>> penguins_pandas().shape
    (344, 8)
    """
    dtypes = {name: "category" for name in FACTORS} | {name: "Int64" for name in INTEGERS}
    with resources.files("mcplite").joinpath("data").joinpath("penguins.csv").open("rb") as file:
        return pd.read_csv(file, dtype=dtypes, na_values=["NA"], keep_default_na=False)


@functools.cache
def penguins() -> rv.DataFrame:
    """The data as an R data frame (``palmerpenguins::penguins``, as a plain data.frame).

    >>> [str(c.r_class[0]) for c in penguins().columns.values()][:3]
    ['factor', 'factor', 'numeric']
    """
    return _r_frame(penguins_pandas())


def _r_frame(frame: Any) -> rv.DataFrame:
    """An R data frame from a pandas one (or an R data frame checked as such)."""
    value = frame if isinstance(frame, rv.RValue) else rv.from_pandas(frame)
    assert isinstance(value, rv.DataFrame)
    return value


def _column(name: str) -> pd.Series:
    """A column by name; an unknown name is a ``ToolError`` listing the columns."""
    frame = penguins_pandas()
    if name not in frame.columns:
        raise ToolError(f"unknown column {name!r}; the columns are: {', '.join(frame.columns)}")
    return frame[name]


def _is_factor(values: pd.Series) -> bool:
    return isinstance(values.dtype, pd.CategoricalDtype)


def _numeric_column(name: str) -> pd.Series:
    """A numeric column by name; a factor is a ``ToolError``."""
    values = _column(name)
    if _is_factor(values):
        numeric = [str(c) for c in penguins_pandas().columns if not _is_factor(penguins_pandas()[c])]
        raise ToolError(
            f"column {name!r} is a factor, not numeric; the numeric columns are: {', '.join(numeric)}"
        )
    return values


# -- the tools ------------------------------------------------------------------------------------


def describe_data() -> Annotated[rv.DataFrame, Rows(ColumnInfo)]:
    """Describe the Palmer penguins data (344 penguins): one row per column with its R class,
    its number of NAs and, for numeric columns, the min, mean and max of the non-missing values.

    The min, mean and max of a factor are NA, so they are left out of its JSON row.
    """
    frame = penguins_pandas()
    classes = [str(column.r_class[0]) for column in penguins().columns.values()]
    numeric = {name: frame[name].dropna() for name in frame.columns if not _is_factor(frame[name])}
    described = rv.data_frame_from_pairs(
        [
            ("column", rv.Character([str(name) for name in frame.columns])),
            ("class", rv.Character(classes)),
            ("missing", rv.Integer([int(frame[name].isna().sum()) for name in frame.columns])),
            ("min", rv.Double([_stat(numeric, name, "min") for name in frame.columns])),
            ("mean", rv.Double([_stat(numeric, name, "mean") for name in frame.columns])),
            ("max", rv.Double([_stat(numeric, name, "max") for name in frame.columns])),
        ]
    )
    return _r_frame(described)


def _stat(numeric: dict[str, pd.Series], name: str, stat: str) -> float | None:
    """A statistic of a numeric column as a float, None (NA) for a factor."""
    return float(numeric[name].agg(stat)) if name in numeric else None


def filter_rows(
    column: Annotated[Column, Examples("body_mass_g", "species")],
    op: Annotated[Operator, Examples(">=", "==")],
    value: Annotated[float | str, Examples(6000, "Gentoo")],
    limit: int = 20,
) -> Annotated[rv.DataFrame, Rows(Penguin)]:
    """The penguins where "column op value" holds (at most limit rows), as R's subset() returns
    them: rows where the column is NA are left out. The factor columns species, island and sex take
    == and != with a label such as "Adelie"; the other columns are numeric.

    Row names are the original row numbers, as subset() keeps them (jsonlite leaves numbers out).
    """
    if limit < 0:
        raise ToolError(f"limit must be 0 or more, not {limit}")
    values = _column(column)
    target = _comparable(column, values, op, value)
    keep = _OPERATORS[op](values, target)
    keep = keep.fillna(False).astype(bool) & values.notna()
    matched = penguins_pandas()[keep].head(limit)
    matched.index = matched.index + 1  # R's row numbers, which subset() keeps
    return _r_frame(matched)


def _comparable(column: str, values: pd.Series, op: str, value: float | str) -> Any:
    """The value to compare a column with, checked against the column's type."""
    if _is_factor(values):
        levels = ", ".join(str(level) for level in values.cat.categories)
        if op not in ("==", "!="):
            raise ToolError(f"{op!r} is not meaningful for factors: column {column!r} has levels {levels}")
        if not isinstance(value, str):
            raise ToolError(
                f"column {column!r} is a factor; compare it with a label ({levels}), not {value!r}"
            )
        return value
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            raise ToolError(
                f"column {column!r} is numeric; compare it with a number, not {value!r}"
            ) from None
    return value


def summarize_by_group(
    column: Annotated[Column, Examples("body_mass_g")],
    ctx: Context,
    by: GroupColumn = "species",
    stat: Stat = "mean",
) -> Annotated[rv.DataFrame, Rows(GroupValue)]:
    """A statistic of a column for each group of another column (by default species), as a
    table of group and value; NAs in either column are removed first. count also works on factors.

    Groups are labels, as R's split() names them (the year 2007 is the group "2007").

    Progress is reported once per group; a cancelled call stops between groups.
    """
    values, groups = _column(column), _column(by)
    if stat != "count" and _is_factor(values):
        values = _numeric_column(column)  # raises: a factor has no mean
    keep = values.notna() & groups.notna()
    grouped = list(values[keep].groupby(groups[keep], observed=True, sort=True))
    labels, results = [], []
    for done, (label, part) in enumerate(grouped, start=1):
        ctx.check_cancelled()
        labels.append(label)
        results.append(len(part) if stat == "count" else part.agg(stat))
        ctx.report_progress(done, total=len(grouped), message=f"{by} = {label}")
    columns = {"group": [str(label) for label in labels], "value": _stat_values(results, stat, values)}
    return _r_frame(pd.DataFrame(columns))


def _stat_values(results: list[Any], stat: str, values: pd.Series) -> pd.Series:
    """Statistics in R's type: count integer, mean and median double, min and max the column's type."""
    if stat == "count":
        return pd.Series(results, dtype="Int64")
    if stat in ("min", "max"):
        return pd.Series(results, dtype=values.dtype)
    return pd.Series(results, dtype="float64")


def plot_histogram(
    column: Annotated[NumericColumn, Examples("body_mass_g")], bins: int = 20
) -> CallToolResult:
    """A histogram of a numeric column of the penguins data as a PNG image (bars over a baseline,
    no axis labels), with a caption giving the number of values, the bins and the range (NAs removed).
    """
    if not 1 <= bins <= 200:
        raise ToolError(f"bins must be between 1 and 200, not {bins}")
    values = _numeric_column(column)
    present = values.dropna().to_numpy(dtype=float)
    caption = (
        f"Histogram of {column}: {len(present)} values in {bins} bins from {present.min():g} "
        f"to {present.max():g} ({len(values) - len(present)} NA removed)."
    )
    return tool_result([content_image(histogram_png(present, bins), "image/png"), content_text(caption)])


def column_stats(column: Annotated[NumericColumn, Examples("bill_length_mm")]) -> ColumnStats:
    """Summary statistics of a numeric column of the penguins data: the number of non-missing
    values, the number of NAs, and the mean and standard deviation of the non-missing values.

    A typed tool: its output schema is derived from :class:`ColumnStats`, and its scalar fields stay
    JSON scalars whatever the payload options say.
    """
    values = _numeric_column(column)
    present = values.dropna().astype("float64")
    if len(present) < 2:
        raise ToolError(f"column {column!r} has fewer than 2 non-missing values")
    return ColumnStats(
        column, len(present), len(values) - len(present), float(present.mean()), float(present.std(ddof=1))
    )


fit_body_mass = make_fit_body_mass(penguins_pandas)
"""The interactive tool (:mod:`mcplite.demo.fitting`): body mass fitted on the measurement the user picks."""


def bootstrap_mean(
    column: Annotated[NumericColumn, Examples("body_mass_g")],
    ctx: Context,
    by: GroupColumn | None = None,
    resamples: Annotated[int, Examples(2000)] = RESAMPLES,
    seed: int = 1,
) -> Annotated[rv.DataFrame, Rows(MeanInterval)]:
    """The mean of a numeric column, overall or for each group of another column, with its
    percentile bootstrap 95% interval from resamples resamples (NAs in either column removed first).
    Seeded: the same call gives the same interval. The default (three million) takes seconds, so
    a client that speaks tasks gets a task; fewer resamples answer at once.

    Progress is reported once per 10,000 resamples; a cancelled call stops between them.
    """
    if not 1 <= resamples <= MAX_RESAMPLES:
        raise ToolError(f"resamples must be between 1 and {MAX_RESAMPLES}, not {resamples}")
    values = _numeric_column(column)
    keep = values.notna() if by is None else values.notna() & _column(by).notna()
    groups = None if by is None else _column(by)[keep]
    intervals = bootstrap_intervals(values[keep].to_numpy(dtype=float), groups, resamples, seed, ctx)
    return _r_frame(intervals.frame())


# -- the server -----------------------------------------------------------------------------------


def build_server() -> McpServer:
    """The demo server: its seven tools (``bootstrap_mean`` a task for a client that speaks tasks),
    the data as a resource, a template per column, the ``explore_column`` prompt and column-name
    completion (the data is read when it starts)."""
    server = McpServer(
        "penguins", version=rv.__version__, instructions=INSTRUCTIONS, lifespan=lifespan_loading(penguins)
    )
    hints = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)
    server.tool(title="Describe the data", annotations=hints)(describe_data)
    server.tool(title="Filter rows", annotations=hints)(filter_rows)
    server.tool(title="Summarize by group", annotations=hints)(summarize_by_group)
    server.tool(title="Plot a histogram", annotations=hints)(plot_histogram)
    server.tool(title="Column statistics", annotations=hints)(column_stats)
    server.tool(title="Fit body mass", annotations=hints)(fit_body_mass)
    server.tool(title="Bootstrap a mean", annotations=hints, task="optional")(bootstrap_mean)
    add_offer(server, penguins)
    return server

"""The demo's long-running tool, ``bootstrap_mean``: a percentile bootstrap 95% interval of a
column's mean, overall or per group, with numpy. Seeded, so the same call gives the same interval;
at its default of three million resamples it takes a few seconds, so it is offered as a task.

The resamples of a group are one seeded draw of row indices, ``resamples`` by the group's size
(drawn a batch at a time, which draws the same numbers):

>>> interval = bootstrap_intervals(np.array([1.0, 2.0, 3.0, 4.0]), None, resamples=1000, seed=1)
>>> interval.group, interval.n, interval.mean
(['all'], [4], [2.5])
>>> bool(1.0 <= interval.lower[0] < 2.5 < interval.upper[0] <= 4.0)
True
"""

from __future__ import annotations

from typing import Annotated

import attrs
import numpy as np
import pandas as pd

from mcplite import Context

#: The number of resamples drawn between two checks for cancellation and two progress reports.
BATCH = 10_000
#: The default number of resamples: a few seconds of work, worth a task.
RESAMPLES = 3_000_000
#: The most resamples a call may ask for (their means are held in memory: 80 MB).
MAX_RESAMPLES = 10_000_000
#: The group label when the mean is taken over all rows.
ALL = "all"


@attrs.frozen
class MeanInterval:
    """One row of ``bootstrap_mean``: a group, its size, its mean and the interval's bounds."""

    group: Annotated[str, "the group's label (as R's split() names it), or 'all'"]
    n: Annotated[int, "the group's non-missing values"]
    mean: Annotated[float, "the mean of those values"]
    lower: Annotated[float, "the 2.5% quantile of the resampled means"]
    upper: Annotated[float, "the 97.5% quantile of the resampled means"]


@attrs.frozen
class Intervals:
    """The intervals as columns, one entry per group (sorted as ``groupby`` sorts them)."""

    group: list[str]
    n: list[int]
    mean: list[float]
    lower: list[float]
    upper: list[float]

    def frame(self) -> pd.DataFrame:
        """The intervals as a pandas frame, the columns of :class:`MeanInterval`."""
        return pd.DataFrame(attrs.asdict(self)).astype({"n": "int32"})


def bootstrap_intervals(
    values: np.ndarray,
    groups: pd.Series | None,
    resamples: int = RESAMPLES,
    seed: int = 1,
    ctx: Context | None = None,
) -> Intervals:
    """The mean of ``values`` (no NaN) per group of ``groups`` (aligned labels, or None for one
    group) and its percentile bootstrap 95% interval from ``resamples`` resamples of each group.

    Progress is reported once per batch of resamples, and a cancelled call stops between batches.
    """
    if resamples < 1:
        raise ValueError(f"resamples must be 1 or more, not {resamples}")
    if groups is None:
        parts = [(ALL, values)]
    else:
        grouped = pd.Series(values, index=groups.index).groupby(groups, observed=True, sort=True)
        parts = [(str(label), part.to_numpy(dtype=float)) for label, part in grouped]
    rng = np.random.default_rng(seed)
    batches = -(-resamples // BATCH)
    out = Intervals([], [], [], [], [])
    for index, (label, part) in enumerate(parts):
        means = np.empty(resamples)
        for batch in range(batches):
            if ctx is not None:
                ctx.check_cancelled()
            start, stop = batch * BATCH, min((batch + 1) * BATCH, resamples)
            rows = rng.integers(0, len(part), size=(stop - start, len(part)))
            means[start:stop] = part[rows].mean(axis=1)
            if ctx is not None:
                done = index * batches + batch + 1
                ctx.report_progress(done, total=len(parts) * batches, message=f"group {label}")
        lower, upper = np.quantile(means, [0.025, 0.975])
        out.group.append(label)
        out.n.append(len(part))
        out.mean.append(float(part.mean()))
        out.lower.append(float(lower))
        out.upper.append(float(upper))
    return out

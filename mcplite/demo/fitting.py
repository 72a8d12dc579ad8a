"""The demo's interactive tool: ``fit_body_mass`` asks the user which measurement to fit the
penguins' body mass on (``ctx.elicit``), then fits a least-squares line with numpy.

A client that cannot answer (no ``elicitation`` capability) gets the fit on the default measurement,
and a note saying so; the fit itself is a plain function:

>>> fit = least_squares(np.array([1.0, 2.0, 3.0]), np.array([3.0, 5.0, 7.0]))
>>> fit.slope, fit.intercept, fit.r_squared, fit.n
(2.0, 1.0, 1.0, 3)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Literal

import attrs
import numpy as np
import pandas as pd

from mcplite import Context

Measurement = Literal["flipper_length_mm", "bill_length_mm", "bill_depth_mm"]
"""The measurements body mass can be fitted on: the numeric columns but body mass and the year."""


@attrs.frozen
class FitChoice:
    """What the user is asked (each field's default is the form's default)."""

    measurement: Measurement = "flipper_length_mm"
    proceed: bool = True


@attrs.frozen
class LineFit:
    """A least-squares line ``y = intercept + slope * x`` over ``n`` rows."""

    slope: float
    intercept: float
    r_squared: float
    n: int


@attrs.frozen
class BodyMassFit:
    """The result of ``fit_body_mass`` (its output schema is derived from these fields); the fit's
    fields are null when nothing was fitted, and ``note`` says why."""

    fitted: Annotated[bool, "whether a line was fitted"]
    measurement: Annotated[str | None, "the column body_mass_g was fitted on"]
    slope: Annotated[float | None, "grams of body mass per unit of the measurement"]
    intercept: Annotated[float | None, "body mass (g) where the measurement is 0"]
    r_squared: Annotated[float | None, "the share of body mass variance the line explains"]
    n: Annotated[int | None, "the rows fitted: those where neither column is NA"]
    note: Annotated[str, "what was asked and answered, or why nothing was fitted"]


def least_squares(x: np.ndarray, y: np.ndarray) -> LineFit:
    """The least-squares line of ``y`` on ``x`` (as R's ``lm(y ~ x)``) and its R squared."""
    dx, dy = x - x.mean(), y - y.mean()
    slope = float(dx @ dy / (dx @ dx))
    intercept = float(y.mean() - slope * x.mean())
    residuals = y - (intercept + slope * x)
    return LineFit(slope, intercept, float(1 - residuals @ residuals / (dy @ dy)), len(x))


def make_fit_body_mass(data: Callable[[], pd.DataFrame]) -> Callable[[Context], BodyMassFit]:
    """The tool, over the frame ``data()`` returns (the demo's penguins, as pandas reads them)."""

    def fit_body_mass(ctx: Context) -> BodyMassFit:
        """Fit a straight line of the penguins' body mass (g) on one measurement, asking the user
        which (flipper length by default) and returning the slope, intercept, R squared and rows.

        A client that cannot answer questions gets the fit on flipper length, and a note saying so.
        """
        if "elicitation" not in ctx.client_capabilities:
            default = FitChoice().measurement
            note = f"Fitted on the default, {default}: the client cannot answer questions (no elicitation)."
            return fitted_on(data(), default, note)
        answer = ctx.elicit("Fit body mass on which measurement?", FitChoice)
        if answer.action != "accept":
            return nothing_fitted(f"Nothing fitted: the user chose {answer.action}.")
        if not answer.content.proceed:
            return nothing_fitted("Nothing fitted: the user did not choose to proceed.")
        return fitted_on(data(), answer.content.measurement, "Fitted on the measurement the user chose.")

    return fit_body_mass


def fitted_on(frame: pd.DataFrame, measurement: str, note: str) -> BodyMassFit:
    """Body mass fitted on ``measurement`` over the rows where neither is NA."""
    rows = frame[[measurement, "body_mass_g"]].dropna().to_numpy(dtype=float)
    line = least_squares(rows[:, 0], rows[:, 1])
    return BodyMassFit(True, measurement, line.slope, line.intercept, line.r_squared, line.n, note)


def nothing_fitted(note: str) -> BodyMassFit:
    """The result when nothing was fitted: the fit's fields null, ``note`` saying why."""
    return BodyMassFit(False, None, None, None, None, None, note)

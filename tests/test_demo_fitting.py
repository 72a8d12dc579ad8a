"""The demo's interactive tool, ``fit_body_mass``: its fit against numpy's ``polyfit`` and R's
``lm`` on the same rows of the CSV, and its asks end to end through the official SDK's client over
stdio (``python -m mcplite demo``): an elicitation callback that accepts a measurement, declines,
cancels or does not proceed, and a client without the callback, which gets the default's fit.
"""

from __future__ import annotations

import ast
import contextlib
import json
import os
import re
import subprocess
import sys
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any, get_args

import anyio
import jsonschema
import mcp_types as types
import numpy as np
import pandas as pd
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

import mcplite
import rvalues as rv
from mcplite.demo import fitting
from mcplite.demo import server as demo
from mcplite.tools.context import Context
from tests.conftest import RSCRIPT, requires_r

ROOT = Path(__file__).resolve().parent.parent
CSV = resources.files("mcplite").joinpath("data").joinpath("penguins.csv")
MEASUREMENTS = list(get_args(fitting.Measurement))
TIMEOUT = 30.0


@pytest.fixture(scope="module")
def raw() -> pd.DataFrame:
    """The CSV as plain pandas reads it (its own NA handling, no dtypes given)."""
    with CSV.open("rb") as file:
        return pd.read_csv(file)


def polyfit(raw: pd.DataFrame, measurement: str) -> dict[str, float]:
    """numpy's least-squares line of body mass on ``measurement`` (rows with neither NA) and its R²."""
    rows = raw[[measurement, "body_mass_g"]].dropna()
    x, y = rows[measurement].to_numpy(float), rows["body_mass_g"].to_numpy(float)
    slope, intercept = np.polyfit(x, y, 1)
    r_squared = np.corrcoef(x, y)[0, 1] ** 2
    return {"slope": slope, "intercept": intercept, "r_squared": r_squared, "n": len(rows)}


def without_elicitation() -> Context:
    """A context whose client declared nothing (as the legacy JSON-RPC tests' clients)."""
    return Context(request_id=1, protocol_version="2025-06-18", notify=lambda method, params: None)


def jsonlite_number(x: float) -> Any:
    """A double as jsonlite writes it (4 decimal digits), parsed back."""
    return json.loads(rv.to_json(rv.unbox(float(x))))


# -- the fit ----------------------------------------------------------------------------------------


def test_the_measurements_are_the_numeric_columns_but_body_mass_and_year() -> None:
    assert set(MEASUREMENTS) == set(get_args(demo.NumericColumn)) - {"body_mass_g", "year"}
    assert fitting.FitChoice().measurement in MEASUREMENTS


@pytest.mark.parametrize("measurement", MEASUREMENTS)
def test_least_squares_is_numpy_polyfit(raw: pd.DataFrame, measurement: str) -> None:
    expected = polyfit(raw, measurement)
    rows = raw[[measurement, "body_mass_g"]].dropna().to_numpy(float)
    line = fitting.least_squares(rows[:, 0], rows[:, 1])
    assert line.n == expected["n"] == 342
    for field in ("slope", "intercept", "r_squared"):
        assert getattr(line, field) == pytest.approx(expected[field], rel=1e-10), field


def test_without_elicitation_the_default_is_fitted_and_said(raw: pd.DataFrame) -> None:
    result = demo.fit_body_mass(without_elicitation())
    default = fitting.FitChoice().measurement
    assert result.fitted and result.measurement == default
    assert "default" in result.note and "elicitation" in result.note
    assert result.slope == pytest.approx(polyfit(raw, default)["slope"], rel=1e-10)


@requires_r
def test_the_fits_are_r_lm(raw: pd.DataFrame) -> None:
    assert RSCRIPT is not None
    script = (
        "d <- read.csv(commandArgs(TRUE)[1]); fits <- list(); "
        f"for (m in c({', '.join(repr(m) for m in MEASUREMENTS)})) {{ "
        "f <- lm(d$body_mass_g ~ d[[m]]); "
        "fits[[m]] <- list(intercept = unname(coef(f)[1]), slope = unname(coef(f)[2]), "
        "r_squared = summary(f)$r.squared, n = nobs(f)) }; "
        "cat(jsonlite::toJSON(fits, auto_unbox = TRUE, digits = NA))"
    )
    done = subprocess.run(
        [RSCRIPT, "--vanilla", "-e", script, str(CSV)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    by_r = json.loads(done.stdout)
    for measurement in MEASUREMENTS:
        fit = fitting.fitted_on(demo.penguins_pandas(), measurement, "")
        assert fit.n == by_r[measurement]["n"]
        for field in ("slope", "intercept", "r_squared"):
            assert getattr(fit, field) == pytest.approx(by_r[measurement][field], rel=1e-10), field


# -- through the SDK's client over stdio ----------------------------------------------------------


class Answers:
    """The client's elicitation callback: it answers the scripted results in turn and keeps what it
    was asked."""

    def __init__(self, *results: types.ElicitResult) -> None:
        self.results = list(results)
        self.asked: list[types.ElicitRequestParams] = []

    async def __call__(self, context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        self.asked.append(params)
        return self.results.pop(0)


@contextlib.asynccontextmanager
async def demo_client(mode: str, errlog: Any, answers: Answers | None) -> AsyncIterator[Client]:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "mcplite", "demo"], env=dict(os.environ)
    )
    callback: dict[str, Any] = {} if answers is None else {"elicitation_callback": answers}
    client = Client(stdio_client(params, errlog=errlog), mode=mode, read_timeout_seconds=TIMEOUT, **callback)  # type: ignore[arg-type]
    with anyio.fail_after(TIMEOUT):
        async with client:
            yield client


async def fit(client: Client) -> dict[str, Any]:
    """Call the tool; its structured content, checked against the output schema mcplite derives."""
    with anyio.fail_after(TIMEOUT):
        result = await client.call_tool("fit_body_mass", {})
    assert not result.is_error, result.content
    assert isinstance(result.structured_content, dict)
    jsonschema.validate(result.structured_content, mcplite.output_schema(fitting.BodyMassFit))
    [block] = result.content
    assert isinstance(block, types.TextContent) and json.loads(block.text) == result.structured_content
    return result.structured_content


def fitted_as_numpy(raw: pd.DataFrame, measurement: str, got: dict[str, Any]) -> None:
    expected = polyfit(raw, measurement)
    assert got["fitted"] is True and got["measurement"] == measurement and got["n"] == expected["n"]
    for field in ("slope", "intercept", "r_squared"):  # jsonlite's 4 decimal digits
        assert got[field] == pytest.approx(jsonlite_number(expected[field]), abs=1e-4), field


MODES = ["legacy", "2026-07-28"]


@pytest.mark.parametrize("mode", MODES)
def test_the_user_picks_the_measurement_or_declines(mode: str, raw: pd.DataFrame, tmp_path: Any) -> None:
    answers = Answers(
        types.ElicitResult(action="accept", content={"measurement": "bill_depth_mm", "proceed": True}),
        types.ElicitResult(action="decline"),
        types.ElicitResult(action="cancel"),
        types.ElicitResult(action="accept", content={"measurement": "bill_length_mm", "proceed": False}),
    )

    async def main() -> list[dict[str, Any]]:
        with (tmp_path / "stderr.log").open("w", encoding="utf-8") as errlog:
            async with demo_client(mode, errlog, answers) as client:
                return [await fit(client) for _ in range(4)]

    accepted, declined, cancelled, held_back = anyio.run(main)
    fitted_as_numpy(raw, "bill_depth_mm", accepted)
    assert accepted["note"] == "Fitted on the measurement the user chose."
    nothing = {
        "fitted": False,
        "measurement": None,
        "slope": None,
        "intercept": None,
        "r_squared": None,
        "n": None,
    }
    assert {k: declined[k] for k in nothing} == nothing and declined[
        "note"
    ] == "Nothing fitted: the user chose decline."
    assert {k: cancelled[k] for k in nothing} == nothing and cancelled[
        "note"
    ] == "Nothing fitted: the user chose cancel."
    assert {k: held_back[k] for k in nothing} == nothing and "did not choose to proceed" in held_back["note"]
    # the form the user saw, as the SDK parsed it: the measurements, flipper length by default
    asked = answers.asked[0]
    assert isinstance(asked, types.ElicitRequestFormParams)
    assert asked.message == "Fit body mass on which measurement?"
    measurement = asked.requested_schema["properties"]["measurement"]
    assert measurement["enum"] == MEASUREMENTS and measurement["default"] == "flipper_length_mm"
    assert asked.requested_schema["properties"]["proceed"] == {"type": "boolean", "default": True}
    jsonschema.Draft202012Validator.check_schema(asked.requested_schema)


def test_the_docs_client_script_gets_the_fit_it_asked_for(raw: pd.DataFrame, tmp_path: Any) -> None:
    page = (ROOT / "docs" / "interactive-tools.md").read_text(encoding="utf-8")
    [code] = re.findall(r"```python\n(# ask_the_demo\.py.*?)```", page, flags=re.S)
    script = tmp_path / "ask_the_demo.py"
    script.write_text(code, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=60, cwd=tmp_path, env=env
    )
    assert done.returncode == 0, done.stderr
    question, printed = done.stdout.splitlines()
    assert question == "Fit body mass on which measurement?"
    fitted_as_numpy(raw, "bill_depth_mm", ast.literal_eval(printed))


@pytest.mark.parametrize("mode", MODES)
def test_a_client_without_elicitation_gets_the_default(mode: str, raw: pd.DataFrame, tmp_path: Any) -> None:
    async def main() -> dict[str, Any]:
        with (tmp_path / "stderr.log").open("w", encoding="utf-8") as errlog:
            async with demo_client(mode, errlog, None) as client:
                return await fit(client)

    got = anyio.run(main)
    fitted_as_numpy(raw, "flipper_length_mm", got)
    assert got["note"].startswith("Fitted on the default, flipper_length_mm: the client cannot answer")

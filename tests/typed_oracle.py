"""The two oracles of the typed-tool tests: R writing the expected bytes (tests/r/typed_cases.R, many
cases in one Rscript run) and the official SDK client checking each result against the listed schema.

A case for R is ``{"value": NODE, "options": {...}}``, NODE a plain description of the value
(``{"frame": [column, ...]}``, ``{"record": [...]}``, ``{"unbox": column}``, ``{"I": column}``,
``{"null": True}``) that R builds on its own: see the header of tests/r/typed_cases.R.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from mcp import Client

import mcplite
from tests.conftest import RSCRIPT
from tests.sdk_handshake import offered_handshake

SCRIPT = Path(__file__).parent / "r" / "typed_cases.R"
MODERN = "2026-07-28"
TIMEOUT = 20.0


def r_writes(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """R's ``{"json": text}`` (or ``{"error": message}``) for each case, from one Rscript run."""
    assert RSCRIPT is not None
    with tempfile.TemporaryDirectory() as tmp:
        given, answered = Path(tmp) / "in.json", Path(tmp) / "out.json"
        given.write_text(json.dumps(cases), encoding="utf-8")
        subprocess.run(
            [RSCRIPT, "--vanilla", str(SCRIPT), str(given), str(answered)],
            check=True,
            env={"TZ": "UTC", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"},
            capture_output=True,
            timeout=120,
        )
        return json.loads(answered.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def r_options(options: dict[str, Any]) -> dict[str, Any]:
    """jsonlite's arguments for mcplite payload options (``json_na`` unset: no ``na``)."""
    out = {"auto_unbox": options.get("json_auto_unbox", True), "null": options.get("json_null") or "null"}
    if options.get("json_na") is not None:
        out["na"] = options["json_na"]
    return out


def double_text(x: float | None) -> str | None:
    """A double as typed_cases.R reads it back exactly (``repr`` round-trips; NaN and the infinities
    by R's names); None is NA."""
    if x is None:
        return None
    if x != x:
        return "NaN"
    if x in (float("inf"), float("-inf")):
        return "Inf" if x > 0 else "-Inf"
    return repr(float(x))


@contextlib.asynccontextmanager
async def sdk_client(url: str, version: str, options: dict[str, Any]) -> AsyncIterator[Client]:
    """The official SDK client of a server at ``url``, speaking ``version`` (a legacy one offered in
    its handshake), with the server's payload ``options`` set package-wide for the session."""
    old = mcplite.options(**options)
    try:
        mode = MODERN if version == MODERN else "legacy"
        client = Client(url, mode=mode, read_timeout_seconds=TIMEOUT)
        with offered_handshake(None if mode == MODERN else version):
            async with client:
                assert str(client.protocol_version) == version
                yield client
    finally:
        mcplite.options(**old)

"""An MCP server whose tasks run on a Dask cluster, for the end-to-end check of
tests/test_tasks_uvicorn_dask.py: serve it with uvicorn's factory option, the scheduler's address
in ``MCPLITE_TEST_SCHEDULER``::

    MCPLITE_TEST_SCHEDULER=tcp://127.0.0.1:8786 uvicorn --factory tests.servers.dask_fits:app

``fit`` is a module-level function so that the cluster's workers import it by name (they load this
module, which connects to nothing until ``app()`` is called).
"""

from __future__ import annotations

import os
import time
from typing import Any

import numpy as np

import mcplite


def fit(batches: int, seconds_per_batch: float, seed: int = 1) -> dict[str, Any]:
    """A least-squares line through `batches` seeded batches of noisy points, each batch taking
    at least `seconds_per_batch` (a stand-in for a slow model fit).

    >>> fit(2, 0.0)["batches"]
    2
    """
    rng = np.random.default_rng(seed)
    x = np.empty(0)
    y = np.empty(0)
    for _ in range(batches):
        started = time.monotonic()
        new_x = rng.uniform(0, 10, 1000)
        x = np.concatenate([x, new_x])
        y = np.concatenate([y, 3 * new_x + 2 + rng.normal(0, 1, 1000)])
        slope, intercept = np.polyfit(x, y, 1)
        time.sleep(max(0.0, seconds_per_batch - (time.monotonic() - started)))
    return {"batches": batches, "slope": float(slope), "intercept": float(intercept)}


def app() -> Any:
    """The ASGI app: ``fit`` as a task tool on the cluster at ``MCPLITE_TEST_SCHEDULER``."""
    tasks = mcplite.DaskTasks(os.environ["MCPLITE_TEST_SCHEDULER"], ttl_ms=600_000)
    server = mcplite.McpServer("dask-fits", tasks=tasks)
    server.tool(task="optional")(fit)
    return server.asgi_app()

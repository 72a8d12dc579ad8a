"""An ASGI app served by uvicorn on a free loopback port, in a background thread, for the HTTP tests.

A test module that imports this one is skipped where uvicorn (the ``http`` extra) is missing.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

uvicorn = pytest.importorskip("uvicorn")


def loopback_cluster(**options: Any) -> Any:
    """A Dask ``LocalCluster`` on 127.0.0.1, its dashboards on free ports; ``options`` (workers,
    threads, processes, ...) as ``LocalCluster`` takes them. Use it as a context manager."""
    distributed = pytest.importorskip("distributed")
    return distributed.LocalCluster(
        host="127.0.0.1", dashboard_address="127.0.0.1:0", worker_dashboard_address="127.0.0.1:0", **options
    )


def free_port(host: str = "127.0.0.1") -> int:
    """A port nothing listens on now (the OS's pick)."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def served(app: Any, host: str = "127.0.0.1", **config: Any) -> Iterator[str]:
    """Serve ``app`` until the block ends; yields its base URL (``http://host:port``).

    ``config`` goes to ``uvicorn.Config`` (``lifespan="off"``, ...).
    """
    port = free_port(host)
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning", **config))
    thread = threading.Thread(target=server.run, name="uvicorn", daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 10
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.01)
        yield f"http://{host}:{port}"
    finally:
        server.should_exit = True
        thread.join(10)

"""A small server for the attack tests (tests/test_server_attacks.py), run as a script over stdio.

``HOSTILE_MASK=0`` serves with ``mask_error_details=False``; ``HOSTILE_GRACE`` is the shutdown grace
in seconds; ``HOSTILE_PORT=n`` serves over HTTP on loopback port ``n`` instead of stdio.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pandas as pd

import mcplite

server = mcplite.McpServer("hostile", mask_error_details=os.environ.get("HOSTILE_MASK", "1") != "0")


@server.tool
def child_stdin() -> str:
    """What a child process sees as its stdin: 'null' (/dev/null), 'pipe', or something else."""
    code = (
        "import os, stat; s = os.fstat(0); n = os.stat(os.devnull)\n"
        "print('null' if stat.S_ISCHR(s.st_mode) and s.st_rdev == n.st_rdev"
        " else 'pipe' if stat.S_ISFIFO(s.st_mode) else 'other')"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=20, check=True
    )
    return done.stdout.strip()


@server.tool
def secret() -> str:
    """Fail with a secret in the message."""
    raise RuntimeError("db password is hunter2")


@server.tool
def polite(station: str) -> str:
    """Fail with a message meant for the client."""
    raise mcplite.ToolError(f"no such station: {station}")


@server.tool
def slow(seconds: float) -> str:
    """Sleep, then say so."""
    time.sleep(seconds)
    return f"slept {seconds}"


@server.tool
def echo(x: int) -> int:
    """Return the integer."""
    return x


@server.resource("data://unsendable")
def unsendable() -> pd.DataFrame:
    """A frame of more rows than the compiled writer leaves to Python, one string not UTF-8."""
    return pd.DataFrame({"s": pd.Series(["ok"] * 20 + ["a\udcffb"], dtype=object)})


@server.prompt
def greet(name: str) -> str:
    """Greet someone by name."""
    return f"Hello, {name}"


if __name__ == "__main__":
    grace = float(os.environ.get("HOSTILE_GRACE", "5"))
    if "HOSTILE_PORT" in os.environ:
        server.run("http", port=int(os.environ["HOSTILE_PORT"]), shutdown_grace=grace)
    else:
        server.run(shutdown_grace=grace)

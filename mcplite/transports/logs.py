"""mcplite's log records go to stderr while a transport serves, set up in this one place."""

from __future__ import annotations

import logging
import sys


def log_to_stderr() -> None:
    """Send the ``mcplite`` loggers' records (INFO and up) to stderr, unless logging is configured.

    Nothing changes when the application (or the root logger) has handlers already.
    """
    mcplite_log = logging.getLogger("mcplite")
    if not mcplite_log.handlers and not logging.getLogger().handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s: %(message)s"))
        mcplite_log.addHandler(handler)
        mcplite_log.setLevel(logging.INFO)

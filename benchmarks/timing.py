"""Timing shared by the benchmark scripts.

>>> best(lambda: sum(range(10)), 3) >= 0
True
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any


def best(fn: Callable[[], Any], repeat: int, *, collect: bool = False) -> float:
    """The best wall time of ``repeat`` calls of ``fn``, in seconds; ``collect``: run the garbage
    collector before each call (large results of the last call are freed outside the timing)."""
    times = []
    for _ in range(repeat):
        if collect:
            gc.collect()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)

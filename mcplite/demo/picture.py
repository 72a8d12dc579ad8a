"""A histogram drawn as a PNG with numpy, zlib and struct alone, so that the demo's
``plot_histogram`` works after a plain ``pip install`` (no plotting library).

The picture is bars on a white ground over a grey baseline and left axis; the tool's caption
carries the numbers (count, range, bins).

>>> png = histogram_png([1.0, 2.0, 2.5, 3.0], bins=2)
>>> png[:8] == PNG_SIGNATURE, png_size(png)
(True, (600, 400))
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence

import numpy as np

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

WIDTH, HEIGHT = 600, 400
MARGIN = 40
"""Pixels of white around the plot area."""
BAR = (0x4C, 0x72, 0xB0)
AXIS = (0x55, 0x55, 0x55)
WHITE = (0xFF, 0xFF, 0xFF)


def histogram_png(values: Sequence[float] | np.ndarray, bins: int) -> bytes:
    """The PNG bytes of a histogram of ``values`` (finite floats) in ``bins`` equal bins, as
    ``numpy.histogram`` counts them; the tallest bar fills the plot area's height."""
    counts, _ = np.histogram(np.asarray(values, dtype=float), bins=bins)
    return png_rgb(_draw(counts))


def _draw(counts: np.ndarray) -> np.ndarray:
    """An RGB picture (height x width x 3, uint8) of bars of these counts, with a 1-pixel gap between."""
    pixels = np.full((HEIGHT, WIDTH, 3), WHITE, dtype=np.uint8)
    left, right, top, bottom = MARGIN, WIDTH - MARGIN, MARGIN, HEIGHT - MARGIN
    x = np.arange(left, right)
    which = (x - left) * len(counts) // (right - left)  # the bin each pixel column shows
    starts = left + np.arange(len(counts)) * (right - left) // len(counts)
    tallest = max(int(counts.max()), 1)
    heights = np.rint(counts / tallest * (bottom - top)).astype(int)
    heights = np.maximum(heights, counts > 0)[which]  # a bin with any value shows at least a line
    heights[np.isin(x, starts[1:])] = 0  # the gap that keeps neighbouring bars apart
    rows = np.arange(top, bottom)[:, None]
    pixels[top:bottom, left:right][rows >= bottom - heights[None, :]] = BAR
    pixels[bottom, left - 1 : right] = AXIS
    pixels[top:bottom, left - 1] = AXIS
    return pixels


def png_rgb(pixels: np.ndarray) -> bytes:
    """An 8-bit RGB PNG of a (height x width x 3) uint8 array: each row unfiltered, deflated whole."""
    height, width, _ = pixels.shape
    rows = np.concatenate([np.zeros((height, 1), dtype=np.uint8), pixels.reshape(height, -1)], axis=1)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8 bits, RGB, no interlace
    return b"".join(
        [
            PNG_SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"IDAT", zlib.compress(rows.tobytes(), 9)),
            _chunk(b"IEND", b""),
        ]
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_size(png: bytes) -> tuple[int, int]:
    """The (width, height) a PNG's header gives.

    >>> png_size(png_rgb(np.zeros((2, 3, 3), dtype=np.uint8)))
    (3, 2)
    """
    width, height = struct.unpack(">II", png[16:24])
    return int(width), int(height)

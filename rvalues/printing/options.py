"""R's print options at their defaults: ``options(width = 80, max.print = 99999)``, gap 1.

The printers read ``WIDTH`` and ``MAX_PRINT`` from this module when they run, so a test (or a
user) may set them, as ``options(width = ...)`` would in R.
"""

from __future__ import annotations

WIDTH = 80
"""``getOption("width")``."""
GAP = 1
"""``print.gap``: spaces between columns."""
MAX_PRINT = 99999
"""``getOption("max.print")``."""
MIN_LABEL_OFFSET = 2
"""R's ``R_MIN_LBLOFF``: the least indent of row labels under a row-dimnames title."""

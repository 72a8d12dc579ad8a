"""The warnings a conversion to R raises, attributed to the caller outside rvalues.

>>> import warnings
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     warn("rounded", PrecisionWarning)
>>> caught[0].category.__name__
'PrecisionWarning'
"""

from __future__ import annotations

import sys
import warnings


class ConversionWarning(UserWarning):
    """A conversion to R changed a value's representation; silence with ``warnings.filterwarnings``."""


class IntegerOverflowWarning(ConversionWarning):
    """Integers that do not fit R's integer range became doubles.

    >>> import warnings
    >>> warnings.simplefilter("ignore", IntegerOverflowWarning)
    """


class PrecisionWarning(ConversionWarning):
    """Numbers were rounded to the nearest double (integers past 2**53, long doubles)."""


_PACKAGE_DIR = __file__.rsplit("/convert/", 1)[0]


def warn(message: str, category: type[Warning]) -> None:
    """Warn, attributed to the first caller outside rvalues."""
    frame = sys._getframe(1)
    level = 2
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    warnings.warn(message, category, stacklevel=level)

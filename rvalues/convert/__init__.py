"""Conversion from Python, numpy and pandas objects to R values (and back).

``as_r(obj)`` is the entry point; ``from_numpy``, ``from_pandas`` and ``from_arrow`` are the explicit
forms, and ``to_numpy`` / ``to_pandas`` / ``to_arrow`` the way back. pandas and pyarrow are imported
only when such an object is converted.
``register_converter(kind, convert)`` teaches ``as_r`` a type of one's own.

>>> import numpy as np
>>> from_numpy(np.array([1, 2])).data.tolist()
[1, 2]
"""

from __future__ import annotations

from rvalues.convert.arrow import from_arrow
from rvalues.convert.back import to_numpy, to_pandas, to_python
from rvalues.convert.notices import ConversionWarning, IntegerOverflowWarning, PrecisionWarning
from rvalues.convert.numpy import from_numpy
from rvalues.convert.python import as_r, from_pandas
from rvalues.convert.registry import has_converter, register_converter
from rvalues.convert.to_arrow import to_arrow

__all__ = [
    "ConversionWarning",
    "IntegerOverflowWarning",
    "PrecisionWarning",
    "as_r",
    "from_arrow",
    "from_numpy",
    "from_pandas",
    "has_converter",
    "register_converter",
    "to_arrow",
    "to_numpy",
    "to_pandas",
    "to_python",
]

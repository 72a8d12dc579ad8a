"""Conversion from Python, numpy and pandas objects to R values (and back).

``as_r(obj)`` is the entry point; ``from_numpy`` and ``from_pandas`` are the explicit forms, and
``to_numpy`` / ``to_pandas`` the way back. pandas is imported only when a pandas object is converted.
``register_converter(kind, convert)`` teaches ``as_r`` a type of one's own.

>>> import numpy as np
>>> from_numpy(np.array([1, 2])).data.tolist()
[1, 2]
"""

from __future__ import annotations

from typing import Any

from rvalues.convert.back import to_numpy, to_pandas, to_python
from rvalues.convert.notices import ConversionWarning, IntegerOverflowWarning, PrecisionWarning
from rvalues.convert.numpy import from_numpy
from rvalues.convert.python import (
    as_r,
    has_converter,
    register_converter,
)
from rvalues.model.base import RValue


def from_pandas(obj: Any) -> RValue:
    """Convert a pandas DataFrame, Series, Index or array (see :mod:`rvalues.convert.pandas`).

    >>> import pandas as pd
    >>> from_pandas(pd.Series(["a", None])).data.tolist()
    ['a', None]
    """
    # late: pandas is imported only when a pandas object comes
    from rvalues.convert.pandas import from_pandas as convert

    return convert(obj)


__all__ = [
    "ConversionWarning",
    "IntegerOverflowWarning",
    "PrecisionWarning",
    "as_r",
    "from_numpy",
    "from_pandas",
    "has_converter",
    "register_converter",
    "to_numpy",
    "to_pandas",
    "to_python",
]

"""rvalues: R's value semantics in Python, serialized exactly as R's jsonlite does.

>>> from rvalues import c, NA
>>> c(1, NA, 3)
[1]  1 NA  3
"""

from rvalues.constants import FALSE, NA, TRUE, NA_character_, NA_complex_, NA_integer_, NA_real_
from rvalues.construct import (
    I,
    array,
    as_date,
    as_posixct,
    c,
    data_frame,
    data_frame_from_pairs,
    factor,
    matrix,
    r_list,
    unbox,
)
from rvalues.convert import (
    ConversionWarning,
    IntegerOverflowWarning,
    PrecisionWarning,
    as_r,
    from_arrow,
    from_numpy,
    from_pandas,
    register_converter,
    to_arrow,
    to_numpy,
    to_pandas,
)
from rvalues.description import describe, from_description
from rvalues.errors import RValueError
from rvalues.json import register_hooks, signif, to_data, to_json
from rvalues.model import (
    MAX_DEPTH,
    NULL,
    Character,
    Complex,
    DataFrame,
    Date,
    Double,
    Factor,
    Integer,
    List,
    Logical,
    NULLType,
    POSIXct,
    Raw,
    RValue,
    Vector,
    identical,
    r_class,
)
from rvalues.model.bindings import bind
from rvalues.printing import format_html, format_value

# the upper layers' functions the value classes call (rvalues.model.bindings): bound here, once
bind(
    as_r=as_r,
    c=c,
    factor=factor,
    as_date=as_date,
    as_posixct=as_posixct,
    data_frame=data_frame,
    format_value=format_value,
    format_html=format_html,
)

__version__ = "0.1.0"

__all__ = [
    "FALSE",
    "MAX_DEPTH",
    "NA",
    "NULL",
    "TRUE",
    "Character",
    "Complex",
    "ConversionWarning",
    "DataFrame",
    "Date",
    "Double",
    "Factor",
    "I",
    "Integer",
    "IntegerOverflowWarning",
    "List",
    "Logical",
    "NA_character_",
    "NA_complex_",
    "NA_integer_",
    "NA_real_",
    "NULLType",
    "POSIXct",
    "PrecisionWarning",
    "RValue",
    "RValueError",
    "Raw",
    "Vector",
    "__version__",
    "array",
    "as_date",
    "as_posixct",
    "as_r",
    "c",
    "data_frame",
    "data_frame_from_pairs",
    "describe",
    "factor",
    "from_arrow",
    "from_description",
    "from_numpy",
    "from_pandas",
    "identical",
    "matrix",
    "r_class",
    "r_list",
    "register_converter",
    "register_hooks",
    "signif",
    "to_arrow",
    "to_data",
    "to_json",
    "to_numpy",
    "to_pandas",
    "unbox",
]

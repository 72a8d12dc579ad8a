"""R's constructors: ``c()``, ``r_list()``, ``data_frame()``, ``factor()``, dates, matrices, ``I()``."""

from rvalues.construct.arrays import array, matrix
from rvalues.construct.asis import I, unbox
from rvalues.construct.classed import as_date, as_posixct, factor
from rvalues.construct.dispatch import c
from rvalues.construct.frames import data_frame, data_frame_from_pairs, r_list
from rvalues.model.names import make_names, make_unique

__all__ = [
    "I",
    "array",
    "as_date",
    "as_posixct",
    "c",
    "data_frame",
    "data_frame_from_pairs",
    "factor",
    "make_names",
    "make_unique",
    "matrix",
    "r_list",
    "unbox",
]

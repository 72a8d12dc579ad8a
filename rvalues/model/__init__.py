"""The R value model: atomic vectors, lists, NULL and the classed values built on them."""

from rvalues.model.base import RValue
from rvalues.model.classed import DataFrame, Date, Factor, POSIXct
from rvalues.model.classes import explicit_class, r_class
from rvalues.model.identical import identical
from rvalues.model.lists import MAX_DEPTH, NULL, List, NULLType
from rvalues.model.vectors import Character, Complex, Double, Integer, Logical, Raw, Vector

__all__ = [
    "MAX_DEPTH",
    "NULL",
    "Character",
    "Complex",
    "DataFrame",
    "Date",
    "Double",
    "Factor",
    "Integer",
    "List",
    "Logical",
    "NULLType",
    "POSIXct",
    "RValue",
    "Raw",
    "Vector",
    "explicit_class",
    "identical",
    "r_class",
]

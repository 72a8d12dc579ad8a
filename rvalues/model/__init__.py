"""The R value model: atomic vectors, lists, NULL and the classed values built on them.

The value classes call ``build`` and the attribute rules through :mod:`rvalues.model.bindings`
(those modules import the classes); they are bound here, before any value is made.
"""

from rvalues.model.attributes import merge_attributes
from rvalues.model.base import RValue, identical
from rvalues.model.bindings import bind
from rvalues.model.build import build
from rvalues.model.classed import DataFrame, Date, Factor, POSIXct
from rvalues.model.classes import explicit_class, r_class
from rvalues.model.lists import MAX_DEPTH, NULL, List, NULLType
from rvalues.model.vectors import Character, Complex, Double, Integer, Logical, Raw, Vector

bind(build=build, merge_attributes=merge_attributes)

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

"""Conversion from Python, numpy and pandas objects to R values (and back)."""

from rvalues.convert.python import as_r, register_converter

__all__ = ["as_r", "register_converter"]

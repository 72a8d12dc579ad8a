"""R's five NA constants, each a length-1 vector as in R."""

from __future__ import annotations

from rvalues.model.vectors import Character, Complex, Double, Integer, Logical

NA = Logical([None])
"""R's ``NA``: a logical NA."""
NA_integer_ = Integer([None])
"""R's ``NA_integer_``."""
NA_real_ = Double([None])
"""R's ``NA_real_`` (distinct from NaN)."""
NA_character_ = Character([None])
"""R's ``NA_character_`` (distinct from the string "NA")."""
NA_complex_ = Complex([None])
"""R's ``NA_complex_``."""
TRUE = Logical([True])
FALSE = Logical([False])

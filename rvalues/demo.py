"""A tour of rvalues: build R values in Python, print them as R does, serialize them as jsonlite does.

Run it with ``python -m rvalues.demo``.
"""

from __future__ import annotations

import math

import rvalues as rv


def main() -> None:
    """Print a few values R-style, with the JSON jsonlite would give for each."""
    examples = {
        "c(1.5, NA, NaN)": rv.c(1.5, rv.NA, math.nan),
        'c(NA, "a")': rv.c(rv.NA, "a"),
        'factor(c("lo", "hi", NA, "lo"))': rv.factor(["lo", "hi", None, "lo"]),
        "data.frame(id = 1:3, score = c(0.5, NA, 2))": rv.data_frame(
            id=rv.Integer([1, 2, 3]), score=[0.5, None, 2.0]
        ),
        "list(ok = TRUE, tags = character(0))": rv.r_list(ok=True, tags=rv.Character([])),
        "matrix(1:6, nrow = 2)": rv.matrix(rv.Integer(range(1, 7)), nrow=2),
    }
    to_json = getattr(rv, "to_json", None)
    for expression, value in examples.items():
        print(f"> {expression}")
        print(repr(value))
        if to_json is not None:
            print(f"> toJSON({expression})")
            print(to_json(value))
        print()


if __name__ == "__main__":
    main()

"""The compiled JSON writer (``rvalues._speedups._core``); the metadata lives in pyproject.toml.

The extension is optional: without a compiler the build goes on and rvalues uses its pure
Python/numpy writer (``rvalues.json.backend()`` says which one runs).
"""

from setuptools import Extension, setup

SOURCES = [
    "module.c",
    "numbers.c",
    "strings.c",
    "assemble.c",
    "rows.c",
    "dates.c",
    "integers.c",
    "plain.c",
    "arrow_fill.c",
    "arrow_strings.c",
]

setup(
    ext_modules=[
        Extension(
            "rvalues._speedups._core",
            sources=[f"rvalues/_speedups/{name}" for name in SOURCES],
            depends=["rvalues/_speedups/speedups.h"],
            # the pure path's arithmetic, operation by operation: no fused multiply-add
            extra_compile_args=["-O3", "-ffp-contract=off"],
            optional=True,
        )
    ]
)

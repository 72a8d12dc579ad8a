"""Encoder for matrices and arrays (jsonlite's asJSON method for array and matrix):
row-major (``x[i, j, ...]`` nested in that order) or column-major (reversed), never unboxed."""

from __future__ import annotations

from typing import Any

import numpy as np

from rvalues.json.collapse import collapse, row_collapse
from rvalues.json.context import Ctx
from rvalues.json.options import JsonliteError
from rvalues.model.build import build


def _bare(x: Any, data: Any) -> Any:
    """The base vector or list holding ``data`` with no attributes (R's ``c(x)``)."""
    return build(x.r_type, tuple(data) if x.r_type == "list" else data)


def _slice_rows(x: Any, dim: tuple[int, ...]) -> list[Any]:
    """``x[i, ...]`` for each i: vectors for a matrix, sub-arrays (with their dim) otherwise."""
    flat = np.asarray(x.data, dtype=object) if x.r_type == "list" else x.data
    arr = np.reshape(flat, dim, order="F")
    out = []
    for i in range(dim[0]):
        part = np.asarray(arr[i]).ravel(order="F")
        value = _bare(x, part.tolist() if x.r_type == "list" else np.ascontiguousarray(part))
        if len(dim) > 2:
            value = build(x.r_type, value.data, {"dim": build("integer", np.array(dim[1:], dtype=np.int32))})
        out.append(value)
    return out


def encode_array(x: Any, ctx: Ctx) -> Any:
    """Nested arrays, row-major or column-major; 1-d arrays as plain vectors."""
    na = ctx.oldna if ctx.na == "NA" else ctx.na
    dim: tuple[int, ...] = x.dim or (len(x.data),)
    passed = ctx.but(na=na, oldna=None, auto_unbox=False, keep_vec_names=False)
    if len(dim) < 2:
        return ctx.encode(_bare(x, x.data), passed.but(indent=ctx.plus(ctx.indent), collapse=True))
    if ctx.matrix == "columnmajor" and not ctx.collapse:
        row_ctx = passed.but(indent=ctx.plus(ctx.indent), collapse=True)
        return np.array([ctx.encode(row, row_ctx) for row in _slice_rows(x, dim)], dtype=object)
    m = ctx.encode(_bare(x, x.data), passed.but(collapse=False, indent=None))
    size = int(np.prod(dim))
    if isinstance(m, str):
        m = np.array([m], dtype=object)
    length = len(m)
    if length != size:
        raise JsonliteError(f"dims [product {size}] do not match the length of object [{length}]")
    if len(dim) == 2 and ctx.matrix == "rowmajor":
        nrow, ncol = dim
        columns = [m[j * nrow : (j + 1) * nrow] for j in range(ncol)]
        tmp = row_collapse(columns, nrow, ctx.plus(ctx.indent))
    else:
        tmp = _collapse_nd(np.reshape(m, dim, order="F"), ctx.matrix == "columnmajor", ctx.indent)
    if ctx.collapse:
        return collapse(tmp.tolist(), inner=False, indent=ctx.indent)
    return tmp


def _collapse_axis(arr: np.ndarray, axis: int, inner: bool, indent: int | None) -> np.ndarray:
    moved = np.moveaxis(arr, axis, -1)
    shape = moved.shape[:-1]
    rows = (
        moved.reshape(-1, moved.shape[-1])
        if moved.size or moved.shape[-1]
        else np.empty((int(np.prod(shape)), 0), object)
    )
    out = np.array([collapse(r.tolist(), inner=inner, indent=indent) for r in rows], dtype=object)
    return out.reshape(shape)


def _collapse_nd(arr: np.ndarray, columnmajor: bool, indent: int | None) -> np.ndarray:
    """jsonlite's ``collapse_array``: the innermost vectors inline, each level out one indent."""
    axis = 0 if columnmajor else -1
    arr = _collapse_axis(arr, axis, True, indent)
    while arr.ndim > 1:
        i = arr.ndim - 1
        arr = _collapse_axis(arr, axis, False, None if indent is None else indent + 2 * i)
    return arr

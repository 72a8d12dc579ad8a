"""R's ``print.default`` (``PrintValueRec``), lists with their ``$a``/``[[1]]`` tags, and attributes.

Values with a class attribute go to the print method of their first class that has one
(``rvalues.printing.methods``), as R's S3 dispatch does; the rest print as ``print.default``.

>>> from rvalues.model.build import build
>>> print("\\n".join(print_value(build("list", (build("double", np.array([1.0])),)))))
[[1]]
[1] 1
<BLANKLINE>
"""

from __future__ import annotations

from typing import Any

import numpy as np

import rvalues.printing.options as options
from rvalues.format.strings import encode_string
from rvalues.model.build import build
from rvalues.model.names import is_syntactic_name as is_valid_name
from rvalues.printing.accessors import classes, dimnames, row_count, strings
from rvalues.printing.atomic import index_width
from rvalues.printing.cells import cell_summary
from rvalues.printing.matrix import print_array, print_matrix
from rvalues.printing.methods import print_object
from rvalues.printing.vector import print_named_vector, print_vector


# R: src/main/print.c PrintDispatch
def print_value(x: Any, tag: str = "", quote: bool = True) -> list[str]:
    """R's ``PrintDispatch``: classed values through their print method, others as print.default.

    ``quote`` is the ``quote`` argument of the print call in progress (it reaches nested values
    and attributes, but a classed value's method starts afresh).
    """
    if classes(x):
        return print_object(x, print_default)
    return print_default(x, tag, quote)


# R: src/main/print.c PrintValueRec
def print_default(x: Any, tag: str = "", quote: bool = True) -> list[str]:
    """R's ``PrintValueRec``: the value, then its attributes."""
    r_type = x.r_type
    if r_type == "NULL":
        return ["NULL"]
    if r_type == "list":
        return print_list(x, tag, quote)
    dim = x.attributes.get("dim")
    data = x.data
    if dim is not None:
        dims = [int(v) for v in dim.data.tolist()]
        parts, part_names = dimnames(x)
        if len(dims) == 1:
            if parts is not None and parts[0] is not None:
                title = part_names[0] if part_names else None
                lines = ([] if title is None else [title]) + print_named_vector(
                    r_type, data, np.array(parts[0], dtype=object), quote
                )
            else:
                lines = print_vector(r_type, data, quote)
        elif len(dims) == 2:
            rl, cl, rn, cn = _matrix_dimnames(parts, part_names)
            lines = print_matrix(r_type, data, dims[0], dims[1], rl, cl, rn, cn, quote, False)
        else:
            lines = print_array(r_type, data, dims, parts, part_names if parts is not None else None, quote)
    else:
        names = x.attributes.get("names")
        if names is not None:
            lines = print_named_vector(r_type, data, names.data, quote)
        else:
            lines = print_vector(r_type, data, quote)
    return lines + print_attributes(x, tag, quote)


def _matrix_dimnames(
    parts: list[Any] | None, part_names: list[str | None] | None
) -> tuple[Any, Any, str | None, str | None]:
    if parts is None:
        return None, None, None, None
    rn = cn = None
    if part_names is not None:
        rn = part_names[0] if part_names[0] is not None else "NA"
        cn = part_names[1] if part_names[1] is not None else "NA"
    return parts[0], parts[1], rn, cn


# R: src/main/print.c PrintGenericVector
def print_list(x: Any, tag: str = "", quote: bool = True) -> list[str]:
    """R's ``PrintGenericVector``: each element under its tag, a blank line after each."""
    dim = x.attributes.get("dim")
    if dim is not None and len(dim.data) > 1:
        return _print_list_array(x) + print_attributes(x, tag, quote)
    items = x.data
    names = strings(x.attributes.get("names"))
    lines: list[str] = []
    if items:
        n_pr = len(items) if len(items) <= options.MAX_PRINT + 1 else options.MAX_PRINT
        for i, item in enumerate(items[:n_pr]):
            if i > 0:
                lines.append("")
            item_tag = tag + _tag_suffix(tag, names[i] if names is not None else "", i)
            lines.append(item_tag)
            lines += print_value(item, item_tag, quote)
        lines.append("")
        if n_pr < len(items):
            lines.append(f' [ reached getOption("max.print") -- omitted {len(items) - n_pr} entries ]')
    else:
        lines.append("named list()" if names is not None else "list()")
    return lines + print_attributes(x, tag, quote)


TAG_BUFFER = 256
"""R's ``TAGBUFLEN``: tags longer than this are cut to ``$...``."""


def _tag_suffix(tag: str, name: str | None, i: int) -> str:
    """What R appends to the tag for element ``i``: ``$name``, ``$`odd name```, ``$<NA>``, ``[[i]]``."""
    taglen = len(tag.encode("utf-8"))
    if name is None or name:
        shown = "NA" if name is None else encode_string(name)
        if taglen + len(shown.encode("utf-8")) > TAG_BUFFER:
            return "$..." if taglen <= TAG_BUFFER else ""
        if name is None:
            return "$<NA>"
        return f"${shown}" if is_valid_name(name) else f"$`{shown}`"
    if taglen + index_width(i) > TAG_BUFFER:
        return "$..." if taglen <= TAG_BUFFER else ""
    return f"[[{i + 1}]]"


def _print_list_array(x: Any) -> list[str]:
    """A list with dim: each cell summarised (``1``, ``"a"``, ``numeric,3``) in a matrix."""
    cells = np.array([cell_summary(item) for item in x.data], dtype=object)
    dims = [int(v) for v in x.attributes["dim"].data.tolist()]
    parts, part_names = dimnames(x)
    if len(dims) == 2:
        rl, cl, rn, cn = _matrix_dimnames(parts, part_names)
        return print_matrix("character", cells, dims[0], dims[1], rl, cl, rn, cn, quote=False, right=False)
    return print_array("character", cells, dims, parts, part_names, quote=False, right=False)


_SKIP_ALWAYS = frozenset({"comment", "srcref", "wholeSrcref", "srcfile"})


# R: src/main/print.c printAttributes
def print_attributes(x: Any, tag: str = "", quote: bool = True) -> list[str]:
    """R's ``printAttributes``: each attribute print.default does not show otherwise, tagged."""
    if not x.attributes:
        return []
    if tag and not tag.endswith(")"):
        tag = ""
    is_array = "dim" in x.attributes
    cls = classes(x)
    is_factor = "factor" in cls
    is_frame = "data.frame" in cls
    lines: list[str] = []
    for name, value in x.attributes.items():
        if is_array and name in ("dim", "dimnames"):
            continue
        if is_factor and name in ("levels", "class"):
            continue
        if is_frame and name == "row.names":
            continue
        if not is_array and name == "names":
            continue
        if name in _SKIP_ALWAYS:
            continue
        attr_tag = f'{tag}attr(,"{encode_string(name)}")'
        lines.append(attr_tag)
        if name == "row.names":
            lines += print_default(_expanded_row_names(value, row_count(x)), attr_tag, quote)
            continue
        lines += print_value(value, attr_tag, quote)
    return lines


def _expanded_row_names(value: Any, n: int) -> Any:
    data = value.data
    if value.r_type == "integer" and len(data) == 2 and data[0] == np.int32(-(2**31)):
        return build("integer", np.arange(1, abs(int(data[1])) + 1, dtype=np.int32))
    return value

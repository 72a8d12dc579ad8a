"""R's ``printMatrix`` and ``printArray``: columns formatted one by one, wrapped in column blocks.

>>> import numpy as np
>>> print_matrix("integer", np.arange(1, 5, dtype=np.int32), 2, 2)
['     [,1] [,2]', '[1,]    1    3', '[2,]    2    4']
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

import rvalues.printing.options as options
from rvalues.format.strings import NA_NOQUOTE, encode_string, encoded_width, pad
from rvalues.printing.atomic import DIGITS, encode_atomic, encode_complex_cells, index_width
from rvalues.printing.options import GAP, MIN_LABEL_OFFSET

Labels = Sequence[str | None] | None

TYPE_NAMES = {
    "logical": "logical",
    "integer": "integer",
    "double": "double",
    "complex": "complex",
    "character": "character",
    "raw": "raw",
    "list": "list",
}


def _label_width(label: str | None) -> int:
    return len(NA_NOQUOTE) if label is None else encoded_width(label)


def _label_text(label: str | None) -> str:
    return encode_string(label)


# R: src/main/printarray.c printMatrix
def print_matrix(
    r_type: str,
    data: np.ndarray,
    nrow: int,
    ncol: int,
    row_labels: Labels = None,
    col_labels: Labels = None,
    row_title: str | None = None,
    col_title: str | None = None,
    quote: bool = True,
    right: bool = False,
    digits: int = DIGITS,
    print_entries: bool = True,
) -> list[str]:
    """The lines of a matrix (column-major ``data``) with optional dimnames and their names."""
    if nrow == 0 and ncol == 0:
        return ["<0 x 0 matrix>"]
    r_pr = nrow
    if ncol > 0 and options.MAX_PRINT // ncol < nrow:
        r_pr = options.MAX_PRINT // ncol
    out = _matrix_text(
        r_type,
        data,
        r_pr,
        nrow,
        ncol,
        row_labels,
        col_labels,
        row_title,
        col_title,
        quote,
        right,
        digits,
        print_entries,
    )
    lines = out.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if r_pr < nrow:
        omitted = nrow - r_pr
        lines.append(
            f' [ reached getOption("max.print") -- omitted {omitted} row{"s" if omitted != 1 else ""} ]'
        )
    return lines


def _matrix_text(
    r_type: str,
    data: np.ndarray,
    r_pr: int,
    nrow: int,
    ncol: int,
    row_labels: Labels,
    col_labels: Labels,
    row_title: str | None,
    col_title: str | None,
    quote: bool,
    right: bool,
    digits: int,
    print_entries: bool,
) -> str:
    is_string = r_type == "character"
    if row_labels is not None:
        rlabw = max((_label_width(v) for v in row_labels[:nrow]), default=0)
    else:
        rlabw = index_width(nrow + 1) + 3
    lbloff = 0
    if row_title is not None:
        rnw = encoded_width(row_title)
        lbloff = MIN_LABEL_OFFSET if rnw < rlabw + MIN_LABEL_OFFSET else rnw - rlabw
        rlabw += lbloff

    cells: list[list[str]] = []
    widths: list[int] = []
    for j in range(ncol):
        column = data[j * nrow : j * nrow + r_pr]
        if print_entries:
            texts, w = encode_atomic(r_type, column, quote, digits)
        else:
            texts, w = [], 0
        clabw = _label_width(col_labels[j]) if col_labels is not None else index_width(j + 1) + 3
        w = max(w, clabw)
        if not is_string:
            w += GAP
        if r_type == "complex" and print_entries:
            texts = encode_complex_cells(column, w, digits)
        cells.append(texts)
        widths.append(w)

    parts: list[str] = []
    extra = GAP if is_string else 0

    def row_lab() -> None:
        if col_title is not None:
            parts.append(" " * rlabw + col_title + "\n")
        if row_title is not None:
            parts.append(pad(row_title, rlabw, "left"))
        else:
            parts.append(" " * rlabw)

    def row_label(i: int) -> str:
        if row_labels is not None:
            label = row_labels[i]
            text = _label_text(label)
            return "\n" + " " * lbloff + text + " " * (rlabw - _label_width(label) - lbloff)
        return "\n" + " " * (rlabw - 3 - index_width(i + 1)) + f"[{i + 1},]"

    if ncol == 0:
        row_lab()
        for i in range(nrow):
            parts.append(row_label(i))
        parts.append("\n")
        return "".join(parts)

    jmin = 0
    while jmin < ncol:
        width = rlabw
        jmax = jmin
        while True:
            width += widths[jmax] + extra
            jmax += 1
            if not (jmax < ncol and width + widths[jmax] + extra < options.WIDTH):
                break
        row_lab()
        for j in range(jmin, jmax):
            parts.append(_column_label(col_labels, j, widths[j], is_string, right))
        for i in range(r_pr):
            parts.append(row_label(i))
            if print_entries:
                for j in range(jmin, jmax):
                    text = cells[j][i]
                    if is_string:
                        parts.append(" " * GAP + pad(text, widths[j], "right" if right else "left"))
                    else:
                        parts.append(text.rjust(widths[j]))
        parts.append("\n")
        jmin = jmax
    return "".join(parts)


def _column_label(col_labels: Labels, j: int, w: int, is_string: bool, right: bool) -> str:
    if col_labels is not None:
        label = col_labels[j]
        text = _label_text(label)
        lw = _label_width(label)
        if not is_string:
            return " " * (w - lw) + text
        if right:
            return " " * (GAP + w - lw) + text
        return " " * GAP + text + " " * (w - lw)
    index = f"[,{j + 1}]"
    if not is_string:
        return " " * (w - index_width(j + 1) - 3) + index
    return " " * GAP + index + " " * (w - index_width(j + 1) - 3)


# R: src/main/printarray.c printArray
def print_array(
    r_type: str,
    data: np.ndarray,
    dims: Sequence[int],
    dimnames: Sequence[Labels] | None = None,
    dimnames_names: Sequence[str | None] | None = None,
    quote: bool = True,
    right: bool = False,
    digits: int = DIGITS,
) -> list[str]:
    """The lines of an array of 3 or more dimensions: one ``, , k`` matrix slice after another."""
    nr, nc = dims[0], dims[1]
    b = nr * nc
    nb = 1
    for extent in dims[2:]:
        nb *= extent
    dn = list(dimnames) if dimnames is not None else [None] * len(dims)
    has_dnn = dimnames is not None and dimnames_names is not None
    rn = dimnames_names[0] if has_dnn and dimnames_names else None
    cn = dimnames_names[1] if has_dnn and dimnames_names else None
    max_reached = b > 0 and options.MAX_PRINT // b < nb
    if max_reached:
        nb_pr = -(-options.MAX_PRINT // b)
        nr_last = (options.MAX_PRINT - b * (nb_pr - 1)) // nc
        if nr_last == 0:
            nb_pr -= 1
            nr_last = nr
    else:
        nb_pr = nb if nb > 0 else 1
        nr_last = nr
    lines: list[str] = []
    for i in range(nb_pr):
        do_ij = nb > 0
        use_nr = nr_last if i == nb_pr - 1 else nr
        if do_ij:
            header = ", "
            k = 1
            for j in range(2, len(dims)):
                position = (i // k) % dims[j]
                names_j = dn[j]
                if names_j is not None:
                    value = names_j[position]
                    if has_dnn and dimnames_names is not None:
                        header += f", {dimnames_names[j]} = {value}"
                    else:
                        header += f", {value}"
                else:
                    header += f", {position + 1}"
                k *= dims[j]
            lines += [header, ""]
        else:
            lines.append("<" + " x ".join(str(d) for d in dims) + f" array of {TYPE_NAMES[r_type]}>")
        slice_data = data[i * b : (i + 1) * b] if do_ij else data[:0]
        text = _matrix_text(
            r_type, slice_data, use_nr, nr, nc, dn[0], dn[1], rn, cn, quote, right, digits, do_ij
        )
        body = text.split("\n")
        if body and body[-1] == "":
            body.pop()
        lines += body
        lines.append("")
    if max_reached and nb_pr < nb:
        rows = f" {nr - nr_last} row(s) and" if nr_last < nr else ""
        lines.append(f' [ reached getOption("max.print") -- omitted{rows} {nb - nb_pr} matrix slice(s) ]')
    return lines

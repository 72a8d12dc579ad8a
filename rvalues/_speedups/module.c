/* The module rvalues._speedups._core: column views over buffers and lists, and the method table. */
#include "speedups.h"

const char *format_code(const char *format)
{
    if (format == NULL)
        return "B";
    switch (*format) {
    case '@': case '=':
        return format + 1;
    case '<':
        return PY_LITTLE_ENDIAN ? format + 1 : "";
    case '>': case '!':
        return PY_LITTLE_ENDIAN ? "" : format + 1;
    case '|': /* no byte order: one-byte items only */
        return strchr("?bB", format[1]) && format[1] ? format + 1 : "";
    default:
        return format;
    }
}

int column_open(Column *col, PyObject *obj, const char *formats, Py_ssize_t itemsize, int writable)
{
    memset(col, 0, sizeof(*col));
    if (strcmp(formats, "O") == 0 && PyList_Check(obj)) {
        if (writable) {
            PyErr_SetString(PyExc_TypeError, "expected an object array to fill, not a list");
            return -1;
        }
        col->list = PyList_AsTuple(obj);
        if (col->list == NULL)
            return -1;
        col->len = PyTuple_GET_SIZE(col->list);
        return 0;
    }
    int flags = PyBUF_STRIDES | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, &col->view, flags) < 0)
        return -1;
    col->has_view = 1;
    const char *code = format_code(col->view.format);
    if (col->view.ndim != 1 || code[0] == '\0' || code[1] != '\0' || strchr(formats, code[0]) == NULL ||
        (itemsize > 0 && col->view.itemsize != itemsize)) {
        PyErr_Format(PyExc_TypeError,
                     "expected a one-dimensional array of format %s (size %zd) in native byte order, got %s "
                     "(size %zd, %d dims)",
                     formats, itemsize, col->view.format ? col->view.format : "B", col->view.itemsize,
                     col->view.ndim);
        column_close(col);
        return -1;
    }
    col->base = (char *)col->view.buf;
    col->stride = col->view.strides ? col->view.strides[0] : col->view.itemsize;
    col->len = col->view.shape ? col->view.shape[0] : col->view.len / col->view.itemsize;
    return 0;
}

void column_close(Column *col)
{
    if (col->has_view)
        PyBuffer_Release(&col->view);
    col->has_view = 0;
    Py_CLEAR(col->list);
}

void column_set_object(Column *col, Py_ssize_t i, PyObject *value)
{
    char *slot = col->base + i * col->stride;
    PyObject *old;
    memcpy(&old, slot, sizeof old);
    memcpy(slot, &value, sizeof value);
    Py_XDECREF(old);
}

PyObject *prefixed_ascii(PyObject *prefix, const char *text, Py_ssize_t n)
{
    Py_ssize_t plen = prefix ? PyUnicode_GET_LENGTH(prefix) : 0;
    Py_UCS4 maxchar = prefix ? PyUnicode_MAX_CHAR_VALUE(prefix) : 127;
    PyObject *out = PyUnicode_New(plen + n, maxchar < 127 ? 127 : maxchar);
    if (out == NULL)
        return NULL;
    int kind = PyUnicode_KIND(out);
    void *data = PyUnicode_DATA(out);
    if (plen)
        memcpy(data, PyUnicode_DATA(prefix), (size_t)plen * kind);
    if (kind == PyUnicode_1BYTE_KIND) {
        memcpy((char *)data + plen, text, (size_t)n);
    } else {
        for (Py_ssize_t i = 0; i < n; i++)
            PyUnicode_WRITE(kind, data, plen + i, (Py_UCS4)(unsigned char)text[i]);
    }
    return out;
}

static PyMethodDef methods[] = {
    {"double_tokens", sp_double_tokens, METH_VARARGS,
     "double_tokens(values, out, mode, precision, always_decimal, prefix, na, nan, inf, ninf)\n"
     "Fill the object array `out` with jsonlite's tokens of the float64 array `values` (mode 0: \"%.*g\" "
     "with 0 to 380 digits; mode 1: jsonlite's decimal places)."},
    {"int_tokens", sp_int_tokens, METH_VARARGS,
     "int_tokens(values, out, prefix, na)\nFill `out` with prefix + decimal text; R's NA becomes `na`."},
    {"escape_list", sp_escape_list, METH_VARARGS,
     "escape_list(texts, solidus, ascii) -> list | int\n"
     "JSON string tokens of a list of str; the index of the first one holding a lone surrogate "
     "instead, if any."},
    {"escape", sp_escape, METH_VARARGS,
     "escape(text, solidus, ascii) -> str | None\nOne JSON string token (None: a lone surrogate)."},
    {"join_rows", sp_join_rows, METH_VARARGS,
     "join_rows(pieces, nrow, sep) -> str\nRow i is the i-th item of every piece (a str is every "
     "row's); rows are joined by `sep`."},
    {"row_strings", sp_row_strings, METH_VARARGS,
     "row_strings(pieces, nrow, out)\nFill the object array `out` with each row's text."},
    {"join_coded", sp_join_coded, METH_VARARGS,
     "join_coded(pieces, out)\nFill `out[i]` with the concatenation of labels[codes[i]] over the "
     "(labels, codes) pairs."},
    {"rows_text", sp_rows_text, METH_VARARGS,
     "rows_text(cells, keys, nrow, layout, chunk=0, escape=False) -> str (escape: bytes)\n"
     "A data frame's rows as one JSON text: objects (keys: the escaped names) or arrays (keys: None).\n"
     "cells: a list of cell columns, or a function of (start, stop) giving them for those rows, called\n"
     "for every `chunk` rows.\n"
     "A cell column is an object array of tokens (None: NA) or a tuple that formats numbers from a\n"
     "buffer: ('d', float64, mode, precision, always_decimal, na, nan, inf, ninf), ('i', int32/64, na)\n"
     "('l', int32, false, true, na), ('D', float64 days, na) (years 1000 to 9999; NaN is NA),\n"
     "('T', others, shown, days, times or None, sep) (date-times: days of years 1000 to 9999, times of hours 0 to\n"
     "99, sep one printable ASCII byte), ('t', int32/int64 codes, tokens), ('s', str/None objects, na) (escaped\n"
     "here) or ('c', others,\n"
     "[(labels, codes), ...]) (coded text; code -1: the token in others). layout: (open, row separator, close, first field lead, next\n"
     "field lead, colon, object close)."},
    {"cells_text", sp_cells_text, METH_VARARGS,
     "cells_text(cell, open, sep, close) -> str\nOne cell column as a JSON array (NA tokens: NA)."},
    {"object_kinds", sp_object_kinds, METH_VARARGS,
     "object_kinds(values, out, cache, classify)\nFill the uint8 `out[i]` with the int code cache[type(values[i])] "
     "(0 to 255), calling classify(type) (which fills the cache) for a type not in it."},
    {"date_days", sp_date_days, METH_VARARGS,
     "date_days(values, skip, out)\nFill the float64 `out[i]` with the days since 1970-01-01 of the "
     "datetime.date values[i], where the bool `skip[i]` is false."},
    {"r_integers", sp_r_integers, METH_VARARGS,
     "r_integers(values, mask) -> bytes | None\nR's int32 storage of an integer or bool array (NA where "
     "the bool `mask` is true); None when an unmasked value is outside R's integer range."},
    {"arrow_fill", sp_arrow_fill, METH_VARARGS,
     "arrow_fill(out, values, validity, offset, kind, per) -> int\n"
     "Fill the int32 or float64 `out` from an Arrow values buffer and validity bitmap (None: no nulls), items\n"
     "from `offset` on; nulls become R's NA. kind 0: int32 (returns how many valid values are R's NA bit\n"
     "pattern), 1: float64, 2: date32 days as doubles, 3: int32 dictionary codes + 1, 4: int64 ticks as\n"
     "seconds, `per` ticks a second (0: the ticks are seconds)."},
    {"plain_json", sp_plain_json, METH_VARARGS,
     "plain_json(value, auto_unbox, null, mode, precision, always_decimal, no_dots, (na, nan, inf, ninf),\n"
     "max_depth, float_types, int_types, bool_types, str_types, escape=False) -> str | bytes | None\n"
     "The JSON of the R list a dict, list or tuple of plain values stands for (rvalues.json.plain), in one\n"
     "pass; None when an element needs the pure path (another type, an int beyond R's range, a NUL, ...).\n"
     "The *_types tuples name the numpy scalar types taken as doubles, integers, logicals and strings.\n"
     "escape: the text's UTF-8 bytes escaped as a JSON string's inside (json.dumps, ensure_ascii=False)."},
    {"arrow_strings", sp_arrow_strings, METH_VARARGS,
     "arrow_strings(validity, offsets, data, offset, length, wide, out, at) -> int\n"
     "Fill out[at:at + length] (an object array) with the strings of an Arrow string (wide: large_string) array from its\n"
     "buffers (validity None: no nulls; null -> None), elements offset..offset+length; short repeated strings\n"
     "are made once. The index of the first string holding a NUL, or -1. Invalid UTF-8: ValueError."},
    {NULL, NULL, 0, NULL},
};

/* Multi-phase init, so that the module can say what it needs: the GIL (free-threaded builds would
 * otherwise assume it safe without) and one interpreter (the datetime C API is a process global). */
static PyModuleDef_Slot slots[] = {
#ifdef Py_mod_multiple_interpreters
    {Py_mod_multiple_interpreters, Py_MOD_MULTIPLE_INTERPRETERS_NOT_SUPPORTED},
#endif
#ifdef Py_mod_gil
    {Py_mod_gil, Py_MOD_GIL_USED},
#endif
    {0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_core", "rvalues' compiled JSON writer (see rvalues.json.backend).", 0, methods,
    slots, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void)
{
    return PyModuleDef_Init(&module);
}

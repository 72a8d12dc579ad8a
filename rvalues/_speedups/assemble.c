/* Assembling rows of text from columns of pieces into one str (the oracle: RowPieces in
 * rvalues/json/collapse.py, join_pieces in rvalues/format/datetime.py).
 *
 * A piece is a str (the same in every row) or a column of str (a list or an object array) with
 * an item per row. The text is measured first, then written once into a str of its final size.
 */
#include <stdint.h>

#include "speedups.h"

typedef struct {
    PyObject *constant; /* a str held, or NULL for a column */
    Column column;
} Piece;

static void close_pieces(Piece *pieces, Py_ssize_t n)
{
    for (Py_ssize_t k = 0; k < n; k++) {
        Py_XDECREF(pieces[k].constant);
        column_close(&pieces[k].column);
    }
    PyMem_Free(pieces);
}

/* Open the pieces of the list `seq`, each a str or a column of at least `nrow` items. */
static Piece *open_pieces(PyObject *seq, Py_ssize_t nrow, Py_ssize_t *count)
{
    if (!PyList_Check(seq)) {
        PyErr_SetString(PyExc_TypeError, "expected a list of pieces");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(seq);
    Piece *pieces = PyMem_Calloc(n ? n : 1, sizeof(Piece));
    if (pieces == NULL)
        return (Piece *)PyErr_NoMemory();
    for (Py_ssize_t k = 0; k < n; k++) {
        if (k >= PyList_GET_SIZE(seq)) { /* opening a buffer may run code that shortens the list */
            PyErr_SetString(PyExc_RuntimeError, "the list of pieces changed while it was read");
            close_pieces(pieces, n);
            return NULL;
        }
        PyObject *item = PyList_GET_ITEM(seq, k);
        if (PyUnicode_Check(item)) {
            Py_INCREF(item);
            pieces[k].constant = item;
            continue;
        }
        if (column_open(&pieces[k].column, item, "O", sizeof(PyObject *), 0) < 0 ||
            pieces[k].column.len < nrow) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "piece %zd has %zd items, fewer than the %zd rows", k,
                             pieces[k].column.len, nrow);
            close_pieces(pieces, n); /* unopened columns are zeroed: closing them is a no-op */
            return NULL;
        }
    }
    *count = n;
    return pieces;
}

static PyObject *piece_item(const Piece *piece, Py_ssize_t row)
{
    PyObject *item = piece->constant ? piece->constant : column_object(&piece->column, row);
    if (!PyUnicode_Check(item)) {
        PyErr_Format(PyExc_TypeError, "row %zd holds a %.80s where text was expected", row, Py_TYPE(item)->tp_name);
        return NULL;
    }
    return item;
}

/* Add the length and widest character of row `row` to *length and *maxchar. */
static int measure_row(const Piece *pieces, Py_ssize_t n, Py_ssize_t row, Py_ssize_t *length, Py_UCS4 *maxchar)
{
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *item = piece_item(&pieces[k], row);
        if (item == NULL)
            return -1;
        *length += PyUnicode_GET_LENGTH(item);
        Py_UCS4 m = PyUnicode_MAX_CHAR_VALUE(item);
        if (m > *maxchar)
            *maxchar = m;
    }
    return 0;
}

static Py_ssize_t copy_text(int kind, void *data, Py_ssize_t at, PyObject *text)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    int skind = PyUnicode_KIND(text);
    const void *src = PyUnicode_DATA(text);
    if (skind == kind) {
        memcpy((char *)data + at * kind, src, (size_t)n * kind);
    } else {
        for (Py_ssize_t i = 0; i < n; i++)
            PyUnicode_WRITE(kind, data, at + i, PyUnicode_READ(skind, src, i));
    }
    return at + n;
}

static Py_ssize_t write_row(const Piece *pieces, Py_ssize_t n, Py_ssize_t row, int kind, void *data, Py_ssize_t at)
{
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *item = pieces[k].constant ? pieces[k].constant : column_object(&pieces[k].column, row);
        at = copy_text(kind, data, at, item);
    }
    return at;
}

PyObject *sp_join_rows(PyObject *self, PyObject *args)
{
    PyObject *seq, *sep;
    Py_ssize_t nrow, n;
    if (!PyArg_ParseTuple(args, "OnU", &seq, &nrow, &sep))
        return NULL;
    Piece *pieces = open_pieces(seq, nrow, &n);
    if (pieces == NULL)
        return NULL;
    Py_ssize_t length = nrow > 1 ? (nrow - 1) * PyUnicode_GET_LENGTH(sep) : 0;
    Py_UCS4 maxchar = nrow > 1 ? PyUnicode_MAX_CHAR_VALUE(sep) : 0;
    for (Py_ssize_t row = 0; row < nrow; row++) {
        if (measure_row(pieces, n, row, &length, &maxchar) < 0) {
            close_pieces(pieces, n);
            return NULL;
        }
    }
    PyObject *out = PyUnicode_New(length, maxchar);
    if (out != NULL) {
        int kind = PyUnicode_KIND(out);
        void *data = PyUnicode_DATA(out);
        Py_ssize_t at = 0;
        for (Py_ssize_t row = 0; row < nrow; row++) {
            if (row)
                at = copy_text(kind, data, at, sep);
            at = write_row(pieces, n, row, kind, data, at);
        }
    }
    close_pieces(pieces, n);
    return out;
}

PyObject *sp_row_strings(PyObject *self, PyObject *args)
{
    PyObject *seq, *out_obj;
    Py_ssize_t nrow, n;
    if (!PyArg_ParseTuple(args, "OnO", &seq, &nrow, &out_obj))
        return NULL;
    Column out;
    if (column_open(&out, out_obj, "O", sizeof(PyObject *), 1) < 0)
        return NULL;
    if (out.len != nrow) {
        column_close(&out);
        PyErr_SetString(PyExc_ValueError, "row_strings: `out` must have one item per row");
        return NULL;
    }
    Piece *pieces = open_pieces(seq, nrow, &n);
    if (pieces == NULL) {
        column_close(&out);
        return NULL;
    }
    for (Py_ssize_t row = 0; row < nrow; row++) {
        Py_ssize_t length = 0;
        Py_UCS4 maxchar = 0;
        PyObject *text = NULL;
        if (measure_row(pieces, n, row, &length, &maxchar) == 0)
            text = PyUnicode_New(length, maxchar);
        if (text == NULL) {
            close_pieces(pieces, n);
            column_close(&out);
            return NULL;
        }
        write_row(pieces, n, row, PyUnicode_KIND(text), PyUnicode_DATA(text), 0);
        column_set_object(&out, row, text);
    }
    close_pieces(pieces, n);
    column_close(&out);
    Py_RETURN_NONE;
}

typedef struct {
    Column labels;
    Column codes;
} Coded;

static void close_coded(Coded *coded, Py_ssize_t n)
{
    for (Py_ssize_t k = 0; k < n; k++) {
        column_close(&coded[k].labels);
        column_close(&coded[k].codes);
    }
    PyMem_Free(coded);
}

static Py_ssize_t code_at(const Column *codes, Py_ssize_t i)
{
    const char *at = codes->base + i * codes->stride;
    return (Py_ssize_t)load_int(at, codes->view.itemsize);
}

PyObject *sp_join_coded(PyObject *self, PyObject *args)
{
    PyObject *seq, *out_obj;
    if (!PyArg_ParseTuple(args, "O!O", &PyList_Type, &seq, &out_obj))
        return NULL;
    Column out;
    if (column_open(&out, out_obj, "O", sizeof(PyObject *), 1) < 0)
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(seq);
    Coded *coded = PyMem_Calloc(n ? n : 1, sizeof(Coded));
    if (coded == NULL) {
        column_close(&out);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        if (k >= PyList_GET_SIZE(seq)) { /* opening a buffer may run code that shortens the list */
            PyErr_SetString(PyExc_RuntimeError, "join_coded: the list of pieces changed while it was read");
            goto fail;
        }
        PyObject *labels, *codes, *pair = PyList_GET_ITEM(seq, k);
        Py_INCREF(pair); /* its items are borrowed while they are opened */
        int opened = PyArg_ParseTuple(pair, "OO", &labels, &codes) &&
                     column_open(&coded[k].labels, labels, "O", sizeof(PyObject *), 0) == 0 &&
                     column_open(&coded[k].codes, codes, "ilq", 0, 0) == 0;
        Py_DECREF(pair);
        if (!opened)
            goto fail;
        if (coded[k].codes.len != out.len || (coded[k].codes.view.itemsize != 4 && coded[k].codes.view.itemsize != 8)) {
            PyErr_Format(PyExc_ValueError,
                         "join_coded: piece %zd has %zd codes of %zd bytes; expected int32/int64 codes, one per "
                         "output (%zd)",
                         k, coded[k].codes.len, coded[k].codes.view.itemsize, out.len);
            goto fail;
        }
    }
    for (Py_ssize_t i = 0; i < out.len; i++) {
        Py_ssize_t length = 0;
        Py_UCS4 maxchar = 0;
        for (Py_ssize_t k = 0; k < n; k++) {
            Py_ssize_t code = code_at(&coded[k].codes, i);
            if (code < 0 || code >= coded[k].labels.len) {
                PyErr_Format(PyExc_IndexError, "join_coded: code %zd out of range for %zd labels", code,
                             coded[k].labels.len);
                goto fail;
            }
            PyObject *label = column_object(&coded[k].labels, code);
            if (!PyUnicode_Check(label)) {
                PyErr_SetString(PyExc_TypeError, "join_coded: labels must be str");
                goto fail;
            }
            length += PyUnicode_GET_LENGTH(label);
            if (PyUnicode_MAX_CHAR_VALUE(label) > maxchar)
                maxchar = PyUnicode_MAX_CHAR_VALUE(label);
        }
        PyObject *text = PyUnicode_New(length, maxchar);
        if (text == NULL)
            goto fail;
        Py_ssize_t at = 0;
        for (Py_ssize_t k = 0; k < n; k++)
            at = copy_text(PyUnicode_KIND(text), PyUnicode_DATA(text), at,
                           column_object(&coded[k].labels, code_at(&coded[k].codes, i)));
        column_set_object(&out, i, text);
    }
    close_coded(coded, n);
    column_close(&out);
    Py_RETURN_NONE;
fail:
    close_coded(coded, n); /* unopened columns are zeroed: closing them is a no-op */
    column_close(&out);
    return NULL;
}

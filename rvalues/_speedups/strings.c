/* JSON string tokens (the oracle: rvalues/json/strings.py, and json's encode_basestring_ascii).
 *
 * `"` `\` and the control characters are escaped (\b \f \n \r \t, others \u00xx, lowercase hex);
 * with `solidus`, "/" right after "<" becomes "\/" (jsonlite); with `ascii`, every character from
 * 0x7f up is written \uxxxx (astral ones as a surrogate pair). A lone surrogate is an error: R
 * strings are valid UTF-8.
 */
#include "speedups.h"

static const char HEX[] = "0123456789abcdef";

static Py_ssize_t escaped_width(Py_UCS4 c, int ascii)
{
    switch (c) {
    case '\\': case '"': case '\b': case '\f': case '\n': case '\r': case '\t':
        return 2;
    default:
        if (c <= 0x1f)
            return 6;
        if (ascii && c >= 0x7f)
            return c >= 0x10000 ? 12 : 6;
        return 1;
    }
}

static Py_ssize_t put_u(int kind, void *data, Py_ssize_t at, Py_UCS4 c)
{
    PyUnicode_WRITE(kind, data, at++, '\\');
    PyUnicode_WRITE(kind, data, at++, 'u');
    PyUnicode_WRITE(kind, data, at++, HEX[(c >> 12) & 0xf]);
    PyUnicode_WRITE(kind, data, at++, HEX[(c >> 8) & 0xf]);
    PyUnicode_WRITE(kind, data, at++, HEX[(c >> 4) & 0xf]);
    PyUnicode_WRITE(kind, data, at++, HEX[c & 0xf]);
    return at;
}

/* The token of one str; NULL with no exception set when it holds a lone surrogate. */
static PyObject *escape_one(PyObject *text, int solidus, int ascii)
{
    int kind = PyUnicode_KIND(text);
    const void *in = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    Py_ssize_t width = 2;
    Py_UCS4 prev = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, in, i);
        if (c >= 0xd800 && c <= 0xdfff)
            return NULL;
        width += escaped_width(c, ascii) + (solidus && c == '/' && prev == '<');
        prev = c;
    }
    Py_UCS4 maxchar = ascii ? 127 : PyUnicode_MAX_CHAR_VALUE(text);
    PyObject *out = PyUnicode_New(width, maxchar);
    if (out == NULL)
        return NULL;
    int okind = PyUnicode_KIND(out);
    void *od = PyUnicode_DATA(out);
    Py_ssize_t at = 0;
    PyUnicode_WRITE(okind, od, at++, '"');
    prev = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, in, i);
        char short_escape = json_short_escape(c);
        if (short_escape) {
            PyUnicode_WRITE(okind, od, at++, '\\');
            PyUnicode_WRITE(okind, od, at++, short_escape);
        } else if (c <= 0x1f || (ascii && c >= 0x7f && c < 0x10000)) {
            at = put_u(okind, od, at, c);
        } else if (ascii && c >= 0x10000) {
            Py_UCS4 v = c - 0x10000;
            at = put_u(okind, od, at, 0xd800 | (v >> 10));
            at = put_u(okind, od, at, 0xdc00 | (v & 0x3ff));
        } else {
            if (solidus && c == '/' && prev == '<')
                PyUnicode_WRITE(okind, od, at++, '\\');
            PyUnicode_WRITE(okind, od, at++, c);
        }
        prev = c;
    }
    PyUnicode_WRITE(okind, od, at++, '"');
    return out;
}

PyObject *sp_escape(PyObject *self, PyObject *args)
{
    PyObject *text;
    int solidus, ascii;
    if (!PyArg_ParseTuple(args, "Upp", &text, &solidus, &ascii))
        return NULL;
    PyObject *out = escape_one(text, solidus, ascii);
    if (out == NULL && !PyErr_Occurred())
        Py_RETURN_NONE;
    return out;
}

PyObject *sp_escape_list(PyObject *self, PyObject *args)
{
    PyObject *texts;
    int solidus, ascii;
    if (!PyArg_ParseTuple(args, "O!pp", &PyList_Type, &texts, &solidus, &ascii))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(texts);
    PyObject *out = PyList_New(n);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *text = PyList_GET_ITEM(texts, i);
        if (!PyUnicode_Check(text)) {
            PyErr_Format(PyExc_TypeError, "escape_list: item %zd is %.80s, not str", i, Py_TYPE(text)->tp_name);
            Py_DECREF(out);
            return NULL;
        }
        PyObject *token = escape_one(text, solidus, ascii);
        if (token == NULL) {
            Py_DECREF(out);
            return PyErr_Occurred() ? NULL : PyLong_FromSsize_t(i);
        }
        PyList_SET_ITEM(out, i, token);
    }
    return out;
}

/* R's integer storage from a numpy integer or bool array and a mask, in one pass (the oracle:
 * integers and _logical in rvalues/convert/numpy.py): int32 values, R's NA (INT32_MIN) where
 * masked. An unmasked value outside R's integer range (+-(2^31 - 1)) stops it: the caller then
 * converts to double, with its warning. */
#include <limits.h>
#include <stdint.h>

#include "speedups.h"

static int read_int(const char *at, char code, long long *out, unsigned long long *big)
{
    switch (code) {
    case '?': *out = *(const unsigned char *)at != 0; return 0;
    case 'b': *out = *(const signed char *)at; return 0;
    case 'B': *out = *(const unsigned char *)at; return 0;
    case 'h': *out = *(const short *)at; return 0;
    case 'H': *out = *(const unsigned short *)at; return 0;
    case 'i': *out = *(const int *)at; return 0;
    case 'I': *out = *(const unsigned int *)at; return 0;
    case 'l': *out = *(const long *)at; return 0;
    case 'q': *out = *(const long long *)at; return 0;
    case 'L': *big = *(const unsigned long *)at; break;
    case 'Q': *big = *(const unsigned long long *)at; break;
    default: return -1;
    }
    if (*big > (unsigned long long)INT_MAX)
        return 1;
    *out = (long long)*big;
    return 0;
}

/* r_integers(values, mask) -> bytes | None: the int32 storage (None: a value out of R's range). */
PyObject *sp_r_integers(PyObject *self, PyObject *args)
{
    PyObject *values, *mask_obj;
    if (!PyArg_ParseTuple(args, "OO", &values, &mask_obj))
        return NULL;
    Column col, mask = {0};
    if (column_open(&col, values, "?bBhHiIlLqQ", 0, 0) < 0)
        return NULL;
    if (mask_obj != Py_None && column_open(&mask, mask_obj, "?", 1, 0) < 0) {
        column_close(&col);
        return NULL;
    }
    if (mask.has_view && mask.len != col.len) {
        PyErr_SetString(PyExc_ValueError, "r_integers: the mask needs an item per value");
        column_close(&col);
        column_close(&mask);
        return NULL;
    }
    char code = format_code(col.view.format)[0];
    PyObject *out = PyBytes_FromStringAndSize(NULL, col.len * 4);
    int32_t *dst = out ? (int32_t *)PyBytes_AS_STRING(out) : NULL;
    int status = out ? 0 : -2;
    for (Py_ssize_t i = 0; i < col.len && status == 0; i++) {
        if (mask.has_view && *(const unsigned char *)(mask.base + i * mask.stride)) {
            dst[i] = INT32_MIN;
            continue;
        }
        long long v = 0;
        unsigned long long big = 0;
        status = read_int(col.base + i * col.stride, code, &v, &big);
        if (status == 0 && (v < -INT_MAX || v > INT_MAX))
            status = 1;
        if (status == 0)
            dst[i] = (int32_t)v;
    }
    column_close(&col);
    column_close(&mask);
    if (status == 0)
        return out;
    Py_XDECREF(out);
    if (status == -1)
        PyErr_Format(PyExc_TypeError, "r_integers: format %c is not an integer or bool", code);
    if (status == 1)
        Py_RETURN_NONE;
    return NULL;
}

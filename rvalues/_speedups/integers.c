/* R's integer storage from a numpy integer or bool array and a mask, in one pass (the oracle:
 * integers and _logical in rvalues/convert/numpy.py): int32 values, R's NA (INT32_MIN) where
 * masked. An unmasked value outside R's integer range (+-(2^31 - 1)) stops it: the caller then
 * converts to double, with its warning. */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "speedups.h"

/* The integer of `size` bytes at `at` (signed: the format letter is lowercase; '?' is a bool); the
 * size is the buffer's item size, not the letter's native one ("=l" is 4 bytes where long is 8). */
static int read_int(const char *at, Py_ssize_t size, int is_signed, long long *out)
{
    unsigned long long big;
    switch (size) {
    case 1: {
        uint8_t v;
        memcpy(&v, at, 1);
        *out = is_signed ? (long long)(int8_t)v : (long long)v;
        return 0;
    }
    case 2: {
        uint16_t v;
        memcpy(&v, at, 2);
        *out = is_signed ? (long long)(int16_t)v : (long long)v;
        return 0;
    }
    case 4: {
        uint32_t v;
        memcpy(&v, at, 4);
        *out = is_signed ? (long long)(int32_t)v : (long long)v;
        return 0;
    }
    default: {
        memcpy(&big, at, 8);
        if (is_signed) {
            *out = (long long)(int64_t)big;
            return 0;
        }
        if (big > (unsigned long long)INT_MAX)
            return 1;
        *out = (long long)big;
        return 0;
    }
    }
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
    Py_ssize_t size = col.view.itemsize;
    if (code == '?' ? size != 1 : size != 1 && size != 2 && size != 4 && size != 8) {
        PyErr_Format(PyExc_ValueError, "r_integers: format %s with items of %zd bytes; expected 1, 2, 4 or 8 (bool: 1)",
                     col.view.format ? col.view.format : "B", size);
        column_close(&col);
        column_close(&mask);
        return NULL;
    }
    int is_signed = code >= 'a' && code <= 'z';
    PyObject *out = PyBytes_FromStringAndSize(NULL, col.len * 4);
    char *dst = out ? PyBytes_AS_STRING(out) : NULL;
    int status = out ? 0 : -2;
    for (Py_ssize_t i = 0; i < col.len && status == 0; i++) {
        int32_t item = INT32_MIN;
        if (!(mask.has_view && *(const unsigned char *)(mask.base + i * mask.stride))) {
            long long v = 0;
            status = read_int(col.base + i * col.stride, size, is_signed, &v);
            if (code == '?')
                v = v != 0;
            if (status == 0 && (v < -INT_MAX || v > INT_MAX))
                status = 1;
            item = (int32_t)v;
        }
        if (status == 0)
            memcpy(dst + 4 * i, &item, 4);
    }
    column_close(&col);
    column_close(&mask);
    if (status == 0)
        return out;
    Py_XDECREF(out);
    if (status == 1)
        Py_RETURN_NONE;
    return NULL;
}

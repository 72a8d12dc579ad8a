/* Arrow's fixed-width columns as R's storage, nulls as R's NA, in one pass over Arrow's own buffers
 * (the oracle: the pyarrow.compute and numpy path of rvalues/convert/arrow_columns.py and
 * rvalues/convert/typed.py's _seconds). The caller makes `out`; the loop runs without the GIL. */
#include <stdint.h>
#include <string.h>

#include "speedups.h"

enum { INT32_TO_INT32, FLOAT64_TO_FLOAT64, DAYS_TO_FLOAT64, CODES_TO_INT32, TICKS_TO_SECONDS };

static const uint64_t NA_REAL_BITS = 0x7FF00000000007A2ULL; /* R's NA_real_: a NaN with payload 1954 */

/* Validity bits are unpacked a block at a time into one byte each (a table turns a bitmap byte into
 * eight), so that each conversion below is a plain select the compiler can vectorize. */
#define BLOCK 1024

static uint64_t unpacked[256];
static int unpacked_ready; /* set under the GIL, before any loop reads the table */

static void unpack_table(void)
{
    if (unpacked_ready)
        return;
    unpacked_ready = 1;
    for (int b = 0; b < 256; b++) {
        uint64_t word = 0;
        for (int j = 0; j < 8; j++)
            word |= (uint64_t)((b >> j) & 1) << (8 * j);
        unpacked[b] = word;
    }
}

/* valid[k] for the items `first` to `first + n` of the bitmap (all 1 without one). */
static void unpack(const unsigned char *bits, Py_ssize_t first, Py_ssize_t n, unsigned char *valid)
{
    if (bits == NULL) {
        memset(valid, 1, (size_t)n);
        return;
    }
    unsigned char bytes[BLOCK + 16];
    Py_ssize_t shift = first & 7, from = first >> 3, count = (shift + n + 7) >> 3;
    for (Py_ssize_t b = 0; b < count; b++) {
        uint64_t word = unpacked[bits[from + b]];
        memcpy(bytes + 8 * b, &word, 8);
    }
    memcpy(valid, bytes + shift, (size_t)n);
}

/* Seconds of `v` ticks, `per` ticks a second, as numpy's split does it: the floor quotient plus the
 * rest over `per`, each rounded once (so sub-second digits survive large counts). */
static inline double split_seconds(int64_t v, int64_t per)
{
    int64_t whole = v / per, rest = v % per;
    if (rest < 0) {
        whole -= 1;
        rest += per;
    }
    return (double)whole + (double)rest / (double)per;
}

static inline uint64_t double_bits(double v)
{
    uint64_t out;
    memcpy(&out, &v, sizeof out);
    return out;
}

static inline uint64_t select64(unsigned char valid, uint64_t value)
{
    uint64_t keep = (uint64_t)0 - valid;
    return (value & keep) | (NA_REAL_BITS & ~keep);
}

/* One loop per constant, so that the compiler divides by multiplying. */
#define SECONDS_LOOP(PER)                                                                          \
    for (Py_ssize_t i = 0; i < n; i++) {                                                           \
        uint64_t v = select64(valid[i], double_bits(split_seconds(load_int64(src + 8 * i), (PER)))); \
        memcpy(dst + 8 * i, &v, 8);                                                                \
    }

static void ticks_to_seconds(const char *src, const unsigned char *valid, Py_ssize_t n, char *dst, int64_t per)
{
    switch (per) {
    case 1000:
        SECONDS_LOOP(INT64_C(1000));
        break;
    case 1000000:
        SECONDS_LOOP(INT64_C(1000000));
        break;
    case 1000000000:
        SECONDS_LOOP(INT64_C(1000000000));
        break;
    case 0: /* whole seconds: numpy's astype(float64) * 1.0 */
        for (Py_ssize_t i = 0; i < n; i++) {
            uint64_t v = select64(valid[i], double_bits((double)load_int64(src + 8 * i) * 1.0));
            memcpy(dst + 8 * i, &v, 8);
        }
        break;
    default:
        SECONDS_LOOP(per);
    }
}

/* One block; returns the count of valid values that are R's NA bit pattern (kind INT32_TO_INT32 only:
 * the caller then takes the general path, which tells them apart from nulls). */
static Py_ssize_t fill_block(int kind, const char *src, const unsigned char *valid, Py_ssize_t n, char *dst,
                             int64_t per)
{
    Py_ssize_t clashes = 0;
    switch (kind) {
    case INT32_TO_INT32:
        for (Py_ssize_t i = 0; i < n; i++) {
            int32_t v = load_int32(src + 4 * i);
            clashes += valid[i] & (v == INT32_MIN);
            v = valid[i] ? v : INT32_MIN;
            memcpy(dst + 4 * i, &v, 4);
        }
        break;
    case CODES_TO_INT32:
        for (Py_ssize_t i = 0; i < n; i++) {
            /* codes + 1 as Arrow's unchecked add wraps; a null's code is NA */
            int32_t v = (int32_t)((uint32_t)load_int32(src + 4 * i) + 1u);
            v = valid[i] ? v : INT32_MIN;
            memcpy(dst + 4 * i, &v, 4);
        }
        break;
    case FLOAT64_TO_FLOAT64:
        for (Py_ssize_t i = 0; i < n; i++) {
            uint64_t v;
            memcpy(&v, src + 8 * i, 8);
            v = select64(valid[i], v);
            memcpy(dst + 8 * i, &v, 8);
        }
        break;
    case DAYS_TO_FLOAT64:
        for (Py_ssize_t i = 0; i < n; i++) {
            uint64_t v = select64(valid[i], double_bits((double)load_int32(src + 4 * i)));
            memcpy(dst + 8 * i, &v, 8);
        }
        break;
    default:
        ticks_to_seconds(src, valid, n, dst, per);
    }
    return clashes;
}

static Py_ssize_t fill(int kind, const char *src, const unsigned char *bits, Py_ssize_t start, Py_ssize_t n,
                       char *dst, int64_t per)
{
    Py_ssize_t in_size = kind == FLOAT64_TO_FLOAT64 || kind == TICKS_TO_SECONDS ? 8 : 4;
    Py_ssize_t out_size = kind == INT32_TO_INT32 || kind == CODES_TO_INT32 ? 4 : 8;
    unsigned char valid[BLOCK];
    Py_ssize_t clashes = 0;
    for (Py_ssize_t at = 0; at < n; at += BLOCK) {
        Py_ssize_t len = n - at < BLOCK ? n - at : BLOCK;
        unpack(bits, start + at, len, valid);
        clashes += fill_block(kind, src + at * in_size, valid, len, dst + at * out_size, per);
    }
    return clashes;
}

/* arrow_fill(out, values, validity, offset, kind, per) -> int */
PyObject *sp_arrow_fill(PyObject *self, PyObject *args)
{
    PyObject *out_obj, *values_obj, *validity_obj;
    Py_ssize_t offset;
    int kind;
    long long per;
    if (!PyArg_ParseTuple(args, "OOOniL", &out_obj, &values_obj, &validity_obj, &offset, &kind, &per))
        return NULL;
    if (kind < INT32_TO_INT32 || kind > TICKS_TO_SECONDS) {
        PyErr_Format(PyExc_ValueError, "arrow_fill: kind %d; expected 0 to %d", kind, TICKS_TO_SECONDS);
        return NULL;
    }
    if (offset < 0 || per < 0) {
        PyErr_Format(PyExc_ValueError, "arrow_fill: offset %zd and per %lld; expected both >= 0", offset, per);
        return NULL;
    }
    int to_int = kind == INT32_TO_INT32 || kind == CODES_TO_INT32;
    Py_ssize_t in_size = kind == FLOAT64_TO_FLOAT64 || kind == TICKS_TO_SECONDS ? 8 : 4;
    Column out;
    if (column_open(&out, out_obj, to_int ? "i" : "d", to_int ? 4 : 8, 1) < 0)
        return NULL;
    Py_ssize_t n = out.len;
    Py_buffer values, validity = {0};
    int has_validity = validity_obj != Py_None;
    if (out.stride != out.view.itemsize) {
        PyErr_SetString(PyExc_ValueError, "arrow_fill: `out` must be contiguous");
        column_close(&out);
        return NULL;
    }
    if (PyObject_GetBuffer(values_obj, &values, PyBUF_SIMPLE) < 0) {
        column_close(&out);
        return NULL;
    }
    if (has_validity && PyObject_GetBuffer(validity_obj, &validity, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&values);
        column_close(&out);
        return NULL;
    }
    PyObject *result = NULL;
    if (offset > (PY_SSIZE_T_MAX - n) / in_size || values.len < (offset + n) * in_size) {
        PyErr_Format(PyExc_ValueError, "arrow_fill: the values buffer has %zd bytes; %zd items from item %zd need %zd",
                     values.len, n, offset, (offset + n) * in_size);
    } else if (has_validity && validity.len < (offset + n + 7) / 8) {
        PyErr_Format(PyExc_ValueError, "arrow_fill: the validity bitmap has %zd bytes; %zd bits need %zd",
                     validity.len, offset + n, (offset + n + 7) / 8);
    } else {
        const char *src = (const char *)values.buf + offset * in_size;
        const unsigned char *bits = has_validity ? (const unsigned char *)validity.buf : NULL;
        char *dst = out.base;
        Py_ssize_t clashes;
        unpack_table();
        Py_BEGIN_ALLOW_THREADS
        clashes = fill(kind, src, bits, offset, n, dst, (int64_t)per);
        Py_END_ALLOW_THREADS
        result = PyLong_FromSsize_t(clashes);
    }
    if (has_validity)
        PyBuffer_Release(&validity);
    PyBuffer_Release(&values);
    column_close(&out);
    return result;
}

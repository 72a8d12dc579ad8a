/* jsonlite's num_to_char for whole arrays (the oracle: rvalues/json/numbers.py).
 *
 * mode 0: C's "%.*g" with `precision` digits (digits = NA, or signif()).
 * "%.*g" is Python's (PyOS_double_to_string), as the oracle's: its point is '.' whatever the
 * locale's LC_NUMERIC says, which C's sprintf follows.
 * mode 1: jsonlite's decimal places: fixed notation with at most `precision` decimals (ties to
 *         even on the binary value, modp_dtoa2) for 1e-5 < |x| < INT_MAX and -1 < precision < 10,
 *         else "%.*g" with ceil(min(15, max(1, log10|x|) + precision)) digits (6 if negative).
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "speedups.h"

#define R_INT_MAX 2147483647.0
#define NA_INTEGER_VALUE (-2147483647LL - 1)

int int_text(long long v, char *buf)
{
    char digits[24];
    int n = 0, at = 0;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do {
        digits[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        buf[at++] = '-';
    while (n)
        buf[at++] = digits[--n];
    buf[at] = '\0';
    return at;
}

/* modp_dtoa2: at most `prec` decimals, trailing zeros dropped. */
static int fixed_text(double val, int prec, char *buf)
{
    static const double POW10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};
    int neg = val < 0;
    double v = neg ? -val : val;
    double whole_d = (double)(long long)v; /* trunc and floor of values in [0, 2^31 * 10^9) */
    double scale = POW10[prec];
    double tmp = (v - whole_d) * scale;
    double frac_d = (double)(long long)tmp;
    double diff = tmp - frac_d;
    long long whole = (long long)whole_d;
    long long frac = (long long)frac_d;
    if (diff > 0.5 || (diff == 0.5 && ((prec > 0 ? frac : whole) & 1))) {
        frac += 1;
        if (frac >= (long long)scale) {
            frac = 0;
            whole += 1;
        }
    }
    int n = 0;
    if (neg)
        buf[n++] = '-';
    n += int_text(whole, buf + n);
    if (prec > 0 && frac > 0) {
        int width = prec;
        while (frac % 10 == 0) {
            frac /= 10;
            width--;
        }
        buf[n++] = '.';
        for (int k = width - 1; k >= 0; k--) {
            buf[n + k] = (char)('0' + frac % 10);
            frac /= 10;
        }
        n += width;
        buf[n] = '\0';
    }
    return n;
}

/* "%.*g" of a finite `v`, whatever the locale (0 <= precision <= NUMBER_PRECISION_MAX). */
static int g_text(double v, int precision, char *buf)
{
    char *text = PyOS_double_to_string(v, 'g', precision, 0, NULL);
    if (text == NULL)
        return -1;
    size_t n = strlen(text);
    if (n >= NUMBER_TEXT_MAX - 2) { /* not for a precision check_number_mode takes */
        PyMem_Free(text);
        PyErr_Format(PyExc_ValueError, "the text of %.17g with %d digits is too long", v, precision);
        return -1;
    }
    memcpy(buf, text, n + 1);
    PyMem_Free(text);
    return (int)n;
}

int check_number_mode(int mode, int precision, const char *who)
{
    if (mode == 1 || (mode == 0 && precision >= 0 && precision <= NUMBER_PRECISION_MAX))
        return 0;
    PyErr_Format(PyExc_ValueError, "%s: mode %d with precision %d; expected mode 0 with 0 to %d digits, or mode 1",
                 who, mode, precision, NUMBER_PRECISION_MAX);
    return -1;
}

int double_text(double v, int mode, int precision, int always_decimal, char *buf)
{
    int n;
    double mag = fabs(v);
    if (mode == 0) {
        n = g_text(v, precision, buf);
    } else if (precision > -1 && precision < 10 && mag < R_INT_MAX && mag > 1e-5) {
        n = fixed_text(v, precision, buf);
    } else {
        double logs = v == 0 ? -INFINITY : log10(mag);
        double t = (logs > 1 ? logs : 1) + precision;
        long long dec = (long long)ceil(t < 15 ? t : 15);
        n = g_text(v, (int)(dec < 0 ? 6 : dec), buf);
    }
    if (n < 0)
        return -1;
    if (always_decimal && memchr(buf, '.', (size_t)n) == NULL && memchr(buf, 'e', (size_t)n) == NULL) {
        memcpy(buf + n, ".0", 3);
        n += 2;
    }
    return n;
}

int is_r_na(double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return isnan(v) && (uint32_t)(bits & 0xffffffffu) == 1954u;
}

/* Open `values_obj` (of `formats`) and the object array `out_obj` it is written into, of the same
 * length; on failure both are closed and -1 is returned with the error set (naming `who`). */
static int open_values_and_out(PyObject *values_obj, const char *formats, Py_ssize_t itemsize, PyObject *out_obj,
                               Column *values, Column *out, const char *who)
{
    if (column_open(values, values_obj, formats, itemsize, 0) < 0)
        return -1;
    if (column_open(out, out_obj, "O", sizeof(PyObject *), 1) < 0) {
        column_close(values);
        return -1;
    }
    if (out->len != values->len) {
        PyErr_Format(PyExc_ValueError, "%s: `out` and `values` differ in length", who);
        column_close(values);
        column_close(out);
        return -1;
    }
    return 0;
}

PyObject *sp_double_tokens(PyObject *self, PyObject *args)
{
    PyObject *values_obj, *out_obj, *prefix, *na, *nan, *inf, *ninf;
    int mode, precision, always_decimal;
    if (!PyArg_ParseTuple(args, "OOiipUOOOO", &values_obj, &out_obj, &mode, &precision, &always_decimal,
                          &prefix, &na, &nan, &inf, &ninf))
        return NULL;
    if (check_number_mode(mode, precision, "double_tokens") < 0)
        return NULL;
    Column values, out;
    if (open_values_and_out(values_obj, "d", 8, out_obj, &values, &out, "double_tokens") < 0)
        return NULL;
    char buf[NUMBER_TEXT_MAX];
    for (Py_ssize_t i = 0; i < values.len; i++) {
        double v = load_double(values.base + i * values.stride);
        PyObject *token;
        if (!isfinite(v)) {
            token = is_r_na(v) ? na : isnan(v) ? nan : v > 0 ? inf : ninf;
            Py_INCREF(token);
        } else {
            int n = double_text(v, mode, precision, always_decimal, buf);
            token = n < 0 ? NULL : prefixed_ascii(prefix, buf, n);
            if (token == NULL)
                goto fail;
        }
        column_set_object(&out, i, token);
    }
    column_close(&values);
    column_close(&out);
    Py_RETURN_NONE;
fail:
    column_close(&values);
    column_close(&out);
    return NULL;
}

PyObject *sp_int_tokens(PyObject *self, PyObject *args)
{
    PyObject *values_obj, *out_obj, *prefix, *na;
    if (!PyArg_ParseTuple(args, "OOUO", &values_obj, &out_obj, &prefix, &na))
        return NULL;
    Column values, out;
    if (open_values_and_out(values_obj, "ilq", 0, out_obj, &values, &out, "int_tokens") < 0)
        return NULL;
    if (values.view.itemsize != 4 && values.view.itemsize != 8) {
        PyErr_SetString(PyExc_TypeError, "int_tokens: expected int32 or int64 values");
        goto fail;
    }
    int wide = values.view.itemsize == 8;
    char buf[32];
    for (Py_ssize_t i = 0; i < values.len; i++) {
        char *at = values.base + i * values.stride;
        long long v = wide ? (long long)load_int64(at) : (long long)load_int32(at);
        PyObject *token;
        if (v == NA_INTEGER_VALUE) {
            token = na;
            Py_INCREF(token);
        } else {
            int n = int_text(v, buf);
            token = prefixed_ascii(prefix, buf, n);
            if (token == NULL)
                goto fail;
        }
        column_set_object(&out, i, token);
    }
    column_close(&values);
    column_close(&out);
    Py_RETURN_NONE;
fail:
    column_close(&values);
    column_close(&out);
    return NULL;
}

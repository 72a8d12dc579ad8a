/* jsonlite's num_to_char for whole arrays (the oracle: rvalues/json/numbers.py).
 *
 * mode 0: C's "%.*g" with `precision` digits (digits = NA, or signif()).
 * mode 1: jsonlite's decimal places: fixed notation with at most `precision` decimals (ties to
 *         even on the binary value, modp_dtoa2) for 1e-5 < |x| < INT_MAX and -1 < precision < 10,
 *         else "%.*g" with ceil(min(15, max(1, log10|x|) + precision)) digits (6 if negative).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "speedups.h"

#define R_INT_MAX 2147483647.0
#define NA_INTEGER_VALUE (-2147483647LL - 1)

static int is_r_na(double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return isnan(v) && (uint32_t)(bits & 0xffffffffu) == 1954u;
}

/* modp_dtoa2: at most `prec` decimals, trailing zeros dropped. */
static int fixed_text(double val, int prec, char *buf)
{
    int neg = val < 0;
    double v = neg ? -val : val;
    double whole_d = trunc(v);
    double scale = pow(10.0, prec);
    double tmp = (v - whole_d) * scale;
    double frac_d = floor(tmp);
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
    int n = sprintf(buf, "%s%lld", neg ? "-" : "", whole);
    if (prec > 0 && frac > 0) {
        n += sprintf(buf + n, ".%0*lld", prec, frac);
        while (buf[n - 1] == '0')
            n--;
        buf[n] = '\0';
    }
    return n;
}

static int finite_text(double v, int mode, int precision, char *buf)
{
    if (mode == 0)
        return sprintf(buf, "%.*g", precision, v);
    double mag = fabs(v);
    if (precision > -1 && precision < 10 && mag < R_INT_MAX && mag > 1e-5)
        return fixed_text(v, precision, buf);
    double logs = v == 0 ? -INFINITY : log10(mag);
    double t = (logs > 1 ? logs : 1) + precision;
    long long dec = (long long)ceil(t < 15 ? t : 15);
    return sprintf(buf, "%.*g", (int)(dec < 0 ? 6 : dec), v);
}

PyObject *sp_double_tokens(PyObject *self, PyObject *args)
{
    PyObject *values_obj, *out_obj, *prefix, *na, *nan, *inf, *ninf;
    int mode, precision, always_decimal;
    if (!PyArg_ParseTuple(args, "OOiipUOOOO", &values_obj, &out_obj, &mode, &precision, &always_decimal,
                          &prefix, &na, &nan, &inf, &ninf))
        return NULL;
    Column values, out;
    if (column_open(&values, values_obj, "d", 8, 0) < 0)
        return NULL;
    if (column_open(&out, out_obj, "O", sizeof(PyObject *), 1) < 0) {
        column_close(&values);
        return NULL;
    }
    if (out.len != values.len) {
        PyErr_SetString(PyExc_ValueError, "double_tokens: `out` and `values` differ in length");
        goto fail;
    }
    char buf[400];
    for (Py_ssize_t i = 0; i < values.len; i++) {
        double v = *(double *)(values.base + i * values.stride);
        PyObject *token;
        if (!isfinite(v)) {
            token = is_r_na(v) ? na : isnan(v) ? nan : v > 0 ? inf : ninf;
            Py_INCREF(token);
        } else {
            int n = finite_text(v, mode, precision, buf);
            if (always_decimal && memchr(buf, '.', (size_t)n) == NULL && memchr(buf, 'e', (size_t)n) == NULL) {
                memcpy(buf + n, ".0", 3);
                n += 2;
            }
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

PyObject *sp_int_tokens(PyObject *self, PyObject *args)
{
    PyObject *values_obj, *out_obj, *prefix, *na;
    if (!PyArg_ParseTuple(args, "OOUO", &values_obj, &out_obj, &prefix, &na))
        return NULL;
    Column values, out;
    if (column_open(&values, values_obj, "ilq", 0, 0) < 0)
        return NULL;
    if (values.view.itemsize != 4 && values.view.itemsize != 8) {
        PyErr_SetString(PyExc_TypeError, "int_tokens: expected int32 or int64 values");
        column_close(&values);
        return NULL;
    }
    if (column_open(&out, out_obj, "O", sizeof(PyObject *), 1) < 0) {
        column_close(&values);
        return NULL;
    }
    if (out.len != values.len) {
        PyErr_SetString(PyExc_ValueError, "int_tokens: `out` and `values` differ in length");
        goto fail;
    }
    int wide = values.view.itemsize == 8;
    char buf[32];
    for (Py_ssize_t i = 0; i < values.len; i++) {
        char *at = values.base + i * values.stride;
        long long v = wide ? (long long)*(int64_t *)at : (long long)*(int32_t *)at;
        PyObject *token;
        if (v == NA_INTEGER_VALUE) {
            token = na;
            Py_INCREF(token);
        } else {
            int n = sprintf(buf, "%lld", v);
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

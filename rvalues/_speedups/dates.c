/* Conversion of object columns (the oracle: rvalues/convert/objects.py): the kind code of every
 * element, and datetime.date elements as R's day numbers, without a Python call per element. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "speedups.h"
#include <datetime.h>

/* Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil). */
static long long days_from_civil(long long y, long long m, long long d)
{
    y -= m <= 2;
    long long era = (y >= 0 ? y : y - 399) / 400;
    long long yoe = y - era * 400;
    long long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* The proleptic Gregorian year, month and day of a day number (H. Hinnant's civil_from_days). */
static void civil_from_days(long long day, long long *y, long long *m, long long *d)
{
    long long z = day + 719468;
    long long era = (z >= 0 ? z : z - 146096) / 146097;
    long long doe = z - era * 146097;
    long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    long long mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = yoe + era * 400 + (*m <= 2);
}

/* "YYYY-MM-DD" (years 1000 to 9999: four digits), 10 bytes. */
static inline void put_ymd_text(long long y, long long m, long long d, char *buf)
{
    const char text[] = {(char)('0' + y / 1000), (char)('0' + y / 100 % 10), (char)('0' + y / 10 % 10),
                         (char)('0' + y % 10), '-', (char)('0' + m / 10), (char)('0' + m % 10), '-',
                         (char)('0' + d / 10), (char)('0' + d % 10)};
    memcpy(buf, text, sizeof text);
}

/* "YYYY-MM-DD" of a day number (years 1000 to 9999), 10 bytes. */
void ymd_text(long long day, char *buf)
{
    long long y, m, d;
    civil_from_days(day, &y, &m, &d);
    put_ymd_text(y, m, d, buf);
}

/* The texts of the days `low` to `high`: the first one's date computed, each next one counted on
 * from it (no division a day). */
const char *day_table(long long low, long long high)
{
    static const int LENGTHS[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    char *table = PyMem_Malloc((size_t)(high - low + 1) * 10);
    if (table == NULL)
        return NULL;
    long long y, m, d;
    civil_from_days(low, &y, &m, &d);
    for (long long day = low; day <= high; day++) {
        if (day > low) {
            int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
            if (++d > LENGTHS[m - 1] + (m == 2 && leap)) {
                d = 1;
                if (++m > 12) {
                    m = 1;
                    y++;
                }
            }
        }
        put_ymd_text(y, m, d, table + (day - low) * 10);
    }
    return table;
}

static inline void put_ymd(long long day, const DayTable *days, char *buf)
{
    if (days && days->text && day >= days->low && day <= days->high)
        memcpy(buf, days->text + (day - days->low) * 10, 10);
    else
        ymd_text(day, buf);
}

int date_text(double days, const DayTable *table, char *buf)
{
    buf[0] = '"';
    put_ymd((long long)floor(days), table, buf + 1);
    buf[11] = '"';
    return 12;
}

int clock_text(long long day, long long time, char sep, const DayTable *table, char *buf)
{
    buf[0] = '"';
    put_ymd(day, table, buf + 1);
    if (time < 0) {
        buf[11] = '"';
        return 12;
    }
    long long minute = time / 61, second = time % 61, hour = minute / 60;
    minute %= 60;
    const char text[] = {sep, (char)('0' + hour / 10), (char)('0' + hour % 10), ':', (char)('0' + minute / 10),
                         (char)('0' + minute % 10), ':', (char)('0' + second / 10), (char)('0' + second % 10), '"'};
    memcpy(buf + 11, text, sizeof text);
    return 11 + (int)sizeof text;
}

/* The uint8 code of a kind the cache holds for a type: an int from 0 to 255, else -1 with an error. */
static int kind_code(PyObject *kind, PyObject *type)
{
    long code = PyLong_Check(kind) ? PyLong_AsLong(kind) : -1;
    if (code < 0 || code > 255) {
        if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "object_kinds: the kind of %R is %R, expected an int code from 0 to 255",
                         type, kind);
        }
        return -1;
    }
    return (int)code;
}

PyObject *sp_object_kinds(PyObject *self, PyObject *args)
{
    PyObject *values_obj, *out_obj, *cache, *classify;
    if (!PyArg_ParseTuple(args, "OOO!O", &values_obj, &out_obj, &PyDict_Type, &cache, &classify))
        return NULL;
    Column values, out;
    if (column_open(&values, values_obj, "O", sizeof(PyObject *), 0) < 0)
        return NULL;
    if (column_open(&out, out_obj, "B", 1, 1) < 0) {
        column_close(&values);
        return NULL;
    }
    int failed = out.len != values.len;
    if (failed)
        PyErr_Format(PyExc_ValueError, "object_kinds: `out` has %zd items and `values` %zd", out.len, values.len);
    /* classify is Python code (it may clear `values`, a list read through its tuple copy, or replace an
     * array's items): the last type is held, so that a new type cannot take its address. */
    PyObject *last_type = NULL;
    int last_code = 0;
    for (Py_ssize_t i = 0; i < values.len && !failed; i++) {
        PyObject *type = (PyObject *)Py_TYPE(column_object(&values, i));
        if (type != last_type) {
            Py_INCREF(type);
            Py_XSETREF(last_type, type);
            PyObject *kind = PyDict_GetItemWithError(cache, type);
            if (kind == NULL) {
                if (PyErr_Occurred()) {
                    failed = 1;
                    break;
                }
                kind = PyObject_CallOneArg(classify, type);
                if (kind == NULL) {
                    failed = 1;
                    break;
                }
                Py_DECREF(kind); /* the cache holds it now (classify stores what it returns) */
                kind = PyDict_GetItemWithError(cache, type);
                if (kind == NULL) {
                    if (!PyErr_Occurred())
                        PyErr_Format(PyExc_RuntimeError, "object_kinds: classify did not cache the kind of %R", type);
                    failed = 1;
                    break;
                }
            }
            last_code = kind_code(kind, type);
            if (last_code < 0) {
                failed = 1;
                break;
            }
        }
        *(uint8_t *)(out.base + i * out.stride) = (uint8_t)last_code;
    }
    Py_XDECREF(last_type);
    column_close(&values);
    column_close(&out);
    if (failed)
        return NULL;
    Py_RETURN_NONE;
}

PyObject *sp_date_days(PyObject *self, PyObject *args)
{
    PyObject *values_obj, *skip_obj, *out_obj;
    if (!PyArg_ParseTuple(args, "OOO", &values_obj, &skip_obj, &out_obj))
        return NULL;
    if (PyDateTimeAPI == NULL) {
        PyDateTime_IMPORT;
        if (PyDateTimeAPI == NULL)
            return NULL;
    }
    Column values, skip, out;
    if (column_open(&values, values_obj, "O", sizeof(PyObject *), 0) < 0)
        return NULL;
    if (column_open(&skip, skip_obj, "?B", 1, 0) < 0) {
        column_close(&values);
        return NULL;
    }
    if (column_open(&out, out_obj, "d", 8, 1) < 0) {
        column_close(&values);
        column_close(&skip);
        return NULL;
    }
    int failed = skip.len != values.len || out.len != values.len;
    if (failed)
        PyErr_SetString(PyExc_ValueError, "date_days: `values`, `skip` and `out` differ in length");
    for (Py_ssize_t i = 0; i < values.len && !failed; i++) {
        if (*(const uint8_t *)(skip.base + i * skip.stride))
            continue;
        PyObject *v = column_object(&values, i);
        if (!PyDate_Check(v) || PyDateTime_Check(v)) {
            PyErr_Format(PyExc_TypeError, "date_days: element %zd is %.80s, not a datetime.date", i,
                         Py_TYPE(v)->tp_name);
            failed = 1;
            break;
        }
        long long days =
            days_from_civil(PyDateTime_GET_YEAR(v), PyDateTime_GET_MONTH(v), PyDateTime_GET_DAY(v));
        double value = (double)days;
        memcpy(out.base + i * out.stride, &value, sizeof value);
    }
    column_close(&values);
    column_close(&skip);
    column_close(&out);
    if (failed)
        return NULL;
    Py_RETURN_NONE;
}

/* rvalues' compiled JSON writer: shared declarations.
 *
 * Every function mirrors a pure-Python function of rvalues.json (the oracle): same inputs, same
 * tokens, byte for byte. Arrays arrive through the buffer protocol (numpy without its headers);
 * object arrays (format "O") are read and filled as arrays of PyObject pointers.
 */
#ifndef RVALUES_SPEEDUPS_H
#define RVALUES_SPEEDUPS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* A one-dimensional view of a buffer or a list: item i is at base + i * stride (lists: items). */
typedef struct {
    Py_buffer view;
    int has_view;
    PyObject *list; /* a tuple of a list's items, taken when opened (a callback may change the list) */
    char *base;
    Py_ssize_t stride;
    Py_ssize_t len;
} Column;

/* Open `obj` as a column of `itemsize`-byte items whose format code is one of `formats`
 * (e.g. "d", "iIlLqQ" by size, "O"); lists are accepted when `formats` is "O". */
int column_open(Column *col, PyObject *obj, const char *formats, Py_ssize_t itemsize, int writable);
void column_close(Column *col);
/* A buffer format's one type code, a native byte-order prefix skipped ("B" for none); "" when the
 * prefix names the other byte order. */
const char *format_code(const char *format);

/* Items read and written through memcpy: a buffer's items need not be aligned. */
static inline double load_double(const char *at)
{
    double v;
    memcpy(&v, at, sizeof v);
    return v;
}
static inline int64_t load_int64(const char *at)
{
    int64_t v;
    memcpy(&v, at, sizeof v);
    return v;
}
static inline int32_t load_int32(const char *at)
{
    int32_t v;
    memcpy(&v, at, sizeof v);
    return v;
}
/* An int32 or int64 item, by `itemsize` (4 or 8). */
static inline long long load_int(const char *at, Py_ssize_t itemsize)
{
    return itemsize == 8 ? (long long)load_int64(at) : (long long)load_int32(at);
}
static inline PyObject *column_object(const Column *col, Py_ssize_t i) /* borrowed */
{
    if (col->list)
        return PyTuple_GET_ITEM(col->list, i);
    PyObject *item;
    memcpy(&item, col->base + i * col->stride, sizeof item);
    return item;
}
void column_set_object(Column *col, Py_ssize_t i, PyObject *value); /* steals `value` */

/* JSON's two-character escape of `c` (the letter after the backslash: '"', '\\', 'b', 'f', 'n',
 * 'r', 't'), or 0 where `c` has none. */
static inline char json_short_escape(unsigned int c)
{
    switch (c) {
    case '"': return '"';
    case '\\': return '\\';
    case '\b': return 'b';
    case '\f': return 'f';
    case '\n': return 'n';
    case '\r': return 'r';
    case '\t': return 't';
    default: return 0;
    }
}

/* A new str: `prefix` followed by `n` ASCII bytes. */
PyObject *prefixed_ascii(PyObject *prefix, const char *text, Py_ssize_t n);

/* numbers.c: jsonlite's text of one number into `buf` (NUMBER_TEXT_MAX bytes at least); its length
 * (-1: no memory, the error set). "%.*g" takes at most NUMBER_PRECISION_MAX digits: its text is then
 * at most the digits, a sign, a point, "0.000" or "e-308", and ".0". */
#define NUMBER_TEXT_MAX 400
#define NUMBER_PRECISION_MAX 380
int int_text(long long v, char *buf);
int double_text(double v, int mode, int precision, int always_decimal, char *buf);
/* Whether (mode, precision) is one double_text takes; else -1 with a ValueError naming `who`. */
int check_number_mode(int mode, int precision, const char *who);
int is_r_na(double v);

PyObject *sp_double_tokens(PyObject *self, PyObject *args);
PyObject *sp_int_tokens(PyObject *self, PyObject *args);

/* strings.c */
PyObject *sp_escape_list(PyObject *self, PyObject *args);
PyObject *sp_escape(PyObject *self, PyObject *args);

/* assemble.c */
PyObject *sp_join_rows(PyObject *self, PyObject *args);
PyObject *sp_row_strings(PyObject *self, PyObject *args);
PyObject *sp_join_coded(PyObject *self, PyObject *args);

/* dates.c: a day number's date as a JSON string ("YYYY-MM-DD", years 1000 to 9999); its length */
/* Every day's "YYYY-MM-DD" from low to high, written once (NULL: none, or no memory). */
typedef struct {
    const char *text;
    long long low, high;
} DayTable;
/* The day numbers of 1000-01-01 and 9999-12-31: R writes the years between with four digits. */
#define DAY_MIN (-354285)
#define DAY_MAX 2932896
/* Date-times' times are minute * 61 + second, of hours 0 to 99 (two digits): below this. */
#define CLOCK_TIME_END (100 * 60 * 61)
const char *day_table(long long low, long long high);
void ymd_text(long long day, char *buf);
int date_text(double days, const DayTable *table, char *buf);
/* a date-time as a JSON string: the date, then (time >= 0: minute * 61 + second) `sep` and HH:MM:SS */
int clock_text(long long day, long long time, char sep, const DayTable *table, char *buf);
PyObject *sp_object_kinds(PyObject *self, PyObject *args);
PyObject *sp_date_days(PyObject *self, PyObject *args);

/* integers.c */
PyObject *sp_r_integers(PyObject *self, PyObject *args);
PyObject *sp_arrow_fill(PyObject *self, PyObject *args);

/* rows.c */
PyObject *sp_rows_text(PyObject *self, PyObject *args);
PyObject *sp_cells_text(PyObject *self, PyObject *args);

/* plain.c: plain Python values (dicts, lists, scalars) as JSON in one pass, or None */
PyObject *sp_plain_json(PyObject *self, PyObject *args);

/* arrow_strings.c: an Arrow string/large_string array's buffers as str/None objects */
PyObject *sp_arrow_strings(PyObject *self, PyObject *args);

#endif

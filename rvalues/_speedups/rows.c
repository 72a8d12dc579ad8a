/* A data frame's rows (or one column) as JSON text, written once into one growing buffer (the
 * oracle: ObjectRows and array_rows in rvalues/json/collapse.py, fed by rvalues/json/frames.py).
 *
 * Number columns are formatted straight from their buffers; other columns arrive as tokens.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "speedups.h"

/* UTF-8 text. A writer with `str` set writes into that (new, unshared) str's own bytes, so that
 * ASCII text, the common case, becomes the result without a copy; other text is decoded at the end.
 * With `bytes` set, `str` is a new bytes object instead, and the result is those bytes.
 * With `escape` set, what is written is escaped as the inside of a JSON string holding the text
 * (w_escape_from), so the text can be spliced into a JSON string without a second pass. */
typedef struct {
    char *data;
    Py_ssize_t len, cap;
    PyObject *str;
    int nonascii, bytes, escape;
} Writer;

static int w_grow(Writer *w, Py_ssize_t extra)
{
    Py_ssize_t cap = w->cap ? w->cap : 256; /* most writers hold a key or a separator */
    while (cap < w->len + extra)
        cap += cap / 2 + 256;
    if (w->str != NULL && w->bytes) {
        if (_PyBytes_Resize(&w->str, cap) < 0) {
            w->data = NULL; /* the bytes are freed (w->str is NULL): nothing is left to discard */
            w->len = w->cap = 0;
            return -1;
        }
        w->data = PyBytes_AS_STRING(w->str);
    } else if (w->str != NULL) {
        if (PyUnicode_Resize(&w->str, cap) < 0)
            return -1;
        w->data = (char *)PyUnicode_DATA(w->str);
    } else {
        char *data = PyMem_Realloc(w->data, (size_t)cap);
        if (data == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        w->data = data;
    }
    w->cap = cap;
    return 0;
}

/* Start writing into a new str of `cap` bytes. */
static int w_start(Writer *w, Py_ssize_t cap)
{
    memset(w, 0, sizeof(*w));
    w->str = PyUnicode_New(cap, 127);
    if (w->str == NULL)
        return -1;
    w->data = (char *)PyUnicode_DATA(w->str);
    w->cap = cap;
    return 0;
}

/* Start writing escaped text into a new bytes object of `cap` bytes. */
static int w_start_escaped(Writer *w, Py_ssize_t cap)
{
    memset(w, 0, sizeof(*w));
    w->str = PyBytes_FromStringAndSize(NULL, cap);
    if (w->str == NULL)
        return -1;
    w->data = PyBytes_AS_STRING(w->str);
    w->cap = cap;
    w->bytes = w->escape = 1;
    return 0;
}

static void w_discard(Writer *w)
{
    if (w->str != NULL)
        Py_DECREF(w->str);
    else
        PyMem_Free(w->data);
    w->str = NULL;
    w->data = NULL;
}

static inline int w_reserve(Writer *w, Py_ssize_t extra)
{
    return w->len + extra <= w->cap ? 0 : w_grow(w, extra);
}

static inline int w_put(Writer *w, const char *text, Py_ssize_t n)
{
    if (w_reserve(w, n) < 0)
        return -1;
    char *dst = w->data + w->len;
    if (n <= 16) {
        for (Py_ssize_t i = 0; i < n; i++)
            dst[i] = text[i];
    } else {
        memcpy(dst, text, (size_t)n);
    }
    w->len += n;
    return 0;
}

/* How many bytes escaping a byte adds: 1 for `"`, `\\` and the control characters with a short
 * escape (\b \f \n \r \t), 5 for the other control characters (\u00xx), 0 for the rest. */
static const unsigned char ESCAPE_EXTRA[256] = {
    5, 5, 5, 5, 5, 5, 5, 5, 1, 1, 1, 5, 1, 1, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
    0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
};

/* With `escape` set, escape what was written from `mark` on in place, as json.dumps escapes a str
 * (ensure_ascii off): `"` and `\\` get a backslash, the control characters become \b \f \n \r \t
 * or \u00xx; bytes of 0x80 and up (UTF-8) stay as they are. Most of what a frame writes (numbers,
 * true, null) needs nothing: one branch-free count says so; the rest moves in runs. */
static int w_escape_run(Writer *w, Py_ssize_t mark)
{
    static const char HEX[] = "0123456789abcdef";
    const unsigned char *text = (const unsigned char *)w->data;
    Py_ssize_t extra = 0;
    for (Py_ssize_t i = mark; i < w->len; i++)
        extra += ESCAPE_EXTRA[text[i]];
    if (extra == 0)
        return 0;
    if (w_reserve(w, extra) < 0)
        return -1;
    char *d = w->data;
    Py_ssize_t from = w->len, to = w->len + extra;
    while (from > mark) {
        Py_ssize_t run_end = from;
        while (from > mark && !ESCAPE_EXTRA[(unsigned char)d[from - 1]])
            from--;
        if (run_end > from) {
            to -= run_end - from;
            memmove(d + to, d + from, (size_t)(run_end - from));
        }
        if (from == mark)
            break;
        unsigned char c = (unsigned char)d[--from];
        char short_escape = json_short_escape(c);
        if (short_escape) {
            d[--to] = short_escape;
            d[--to] = '\\';
        } else {
            d[--to] = HEX[c & 0xf];
            d[--to] = HEX[c >> 4];
            d[--to] = '0';
            d[--to] = '0';
            d[--to] = 'u';
            d[--to] = '\\';
        }
    }
    w->len += extra;
    return 0;
}

static inline int w_escape_from(Writer *w, Py_ssize_t mark) /* (the test inline: most writers do not escape) */
{
    return w->escape ? w_escape_run(w, mark) : 0;
}

static inline int w_put_w(Writer *w, const Writer *text)
{
    w->nonascii |= text->nonascii;
    if (text->len <= 16 && text->cap >= 16) { /* a lead or separator: 16 bytes copied at once (it has them) */
        if (w_reserve(w, 16) < 0)
            return -1;
        memcpy(w->data + w->len, text->data, 16);
        w->len += text->len;
        return 0;
    }
    return w_put(w, text->data, text->len);
}

/* The error of encoding `text` (which holds a lone surrogate) as UTF-8, as Python words it. */
static int utf8_error(PyObject *text)
{
    PyObject *encoded = PyUnicode_AsUTF8String(text);
    if (encoded == NULL)
        return -1;
    Py_DECREF(encoded);
    PyErr_SetString(PyExc_UnicodeEncodeError, "a lone surrogate cannot be written as UTF-8");
    return -1;
}

/* The UTF-8 bytes of the non-ASCII character `c` at `out`; their count (0: a lone surrogate). */
static inline int utf8_char(Py_UCS4 c, char *out)
{
    if (c < 0x800) {
        out[0] = (char)(0xc0 | (c >> 6));
        out[1] = (char)(0x80 | (c & 0x3f));
        return 2;
    }
    if (c < 0x10000) {
        if (c >= 0xd800 && c <= 0xdfff)
            return 0;
        out[0] = (char)(0xe0 | (c >> 12));
        out[1] = (char)(0x80 | ((c >> 6) & 0x3f));
        out[2] = (char)(0x80 | (c & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | (c >> 18));
    out[1] = (char)(0x80 | ((c >> 12) & 0x3f));
    out[2] = (char)(0x80 | ((c >> 6) & 0x3f));
    out[3] = (char)(0x80 | (c & 0x3f));
    return 4;
}

/* A str as UTF-8 (ASCII ones straight from their data), encoded here rather than through
 * PyUnicode_AsUTF8AndSize, which would keep a copy in the str for as long as it lives. */
static int w_put_str(Writer *w, PyObject *text)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    if (PyUnicode_IS_ASCII(text))
        return w_put(w, (const char *)PyUnicode_DATA(text), n);
    w->nonascii = 1;
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    if (w_reserve(w, (kind == PyUnicode_1BYTE_KIND ? 2 : 4) * n) < 0)
        return -1;
    char *out = w->data + w->len, *start = out;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c < 0x80) {
            *out++ = (char)c;
        } else {
            int width = utf8_char(c, out);
            if (width == 0)
                return utf8_error(text);
            out += width;
        }
    }
    w->len += out - start;
    return 0;
}

/* A str's `n` characters as a JSON string at `out`, escaped as jsonlite does (strings.c has the
 * rules), others as UTF-8; the bytes written (-1: a lone surrogate). */
static inline Py_ssize_t escape_chars(int kind, const void *data, Py_ssize_t n, char *out)
{
    static const char HEX[] = "0123456789abcdef";
    char *start = out;
    Py_UCS4 prev = 0;
    *out++ = '"';
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        int after_lt = prev == '<';
        prev = c;
        if (c >= 0x80) {
            int width = utf8_char(c, out);
            if (width == 0)
                return -1;
            out += width;
            continue;
        }
        if (c >= 0x20 && c != '"' && c != '\\' && !(c == '/' && after_lt)) {
            *out++ = (char)c;
            continue;
        }
        *out++ = '\\';
        switch (c) {
        case '"': *out++ = '"'; break;
        case '\\': *out++ = '\\'; break;
        case '/': *out++ = '/'; break;
        case '\b': *out++ = 'b'; break;
        case '\f': *out++ = 'f'; break;
        case '\n': *out++ = 'n'; break;
        case '\r': *out++ = 'r'; break;
        case '\t': *out++ = 't'; break;
        default:
            *out++ = 'u';
            *out++ = '0';
            *out++ = '0';
            *out++ = HEX[c >> 4];
            *out++ = HEX[c & 0xf];
        }
    }
    *out++ = '"';
    return out - start;
}

/* (UTF-8 from the str's own characters: see w_put_str.) */
static int w_put_escaped(Writer *w, PyObject *text)
{
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), written;
    w->nonascii |= !PyUnicode_IS_ASCII(text);
    if (w_reserve(w, 6 * n + 2) < 0) /* at most 6 bytes a character: \u00xx, or 4 of UTF-8 */
        return -1;
    char *out = w->data + w->len;
    switch (kind) { /* each kind its own loop */
    case PyUnicode_1BYTE_KIND: written = escape_chars(PyUnicode_1BYTE_KIND, data, n, out); break;
    case PyUnicode_2BYTE_KIND: written = escape_chars(PyUnicode_2BYTE_KIND, data, n, out); break;
    default: written = escape_chars(PyUnicode_4BYTE_KIND, data, n, out); break;
    }
    if (written < 0)
        return utf8_error(text);
    w->len += written;
    return 0;
}

/* The text written, as a str (the writer is spent). */
static PyObject *w_finish(Writer *w)
{
    PyObject *out;
    if (w->str != NULL && w->bytes) {
        out = w->str;
        w->str = NULL;
        if (_PyBytes_Resize(&out, w->len) < 0)
            return NULL;
        return out;
    }
    if (w->str != NULL && !w->nonascii) {
        out = w->str;
        w->str = NULL;
        if (PyUnicode_Resize(&out, w->len) < 0) {
            Py_XDECREF(out);
            return NULL;
        }
        return out;
    }
    out = PyUnicode_DecodeUTF8(w->data ? w->data : "", w->len, "strict");
    w_discard(w);
    return out;
}

enum { CELL_TOKENS, CELL_DOUBLE, CELL_INT, CELL_LOGICAL, CELL_CODED, CELL_STRING, CELL_DATE, CELL_TABLE, CELL_CLOCK };

typedef struct {
    int kind;
    Column col;
    int mode, precision, always_decimal;
    PyObject *tokens[4]; /* borrowed: NA, NaN, Inf, -Inf (doubles); NA (ints); false, true, NA */
    Py_ssize_t npieces;  /* coded text: labels[k][codes[k][row]] for each k; col holds the others */
    Writer *labels;      /* each piece's labels packed one after another, as UTF-8 */
    Py_ssize_t **ends;   /* where each label ends in them */
    Column *codes;
    Column table; /* table[code] (a negative code counts from the end), for CELL_TABLE */
    Column shown, days, times; /* CELL_CLOCK: where shown, the day and time (no times: the date) */
    char sep;
    DayTable day_texts; /* dates and date-times: each day of their range formatted once */
} Cell;

/* A table of day texts costs 10 bytes a day of the range; it is made when it is worth it: for
 * more than DAY_TABLE_ROWS rows, whose range is at most DAY_TABLE_SPAN days a row. */
#define DAY_TABLE_ROWS 64
#define DAY_TABLE_SPAN 4

/* Check the days of a date cell (doubles, floored; NaN is NA) or a date-time cell (int64 days and
 * times where shown) against years 1000 to 9999 and hours 0 to 99, and make their day table. */
static int check_days(Cell *cell, const Column *days, int doubles)
{
    long long low = DAY_MAX, high = DAY_MIN;
    Py_ssize_t counted = 0;
    for (Py_ssize_t i = 0; i < days->len; i++) {
        const char *at = days->base + i * days->stride;
        long long day;
        if (doubles) {
            double v = load_double(at);
            if (isnan(v))
                continue;
            double whole = floor(v);
            if (!(whole >= DAY_MIN && whole <= DAY_MAX)) {
                PyObject *number = PyFloat_FromDouble(v);
                if (number != NULL)
                    PyErr_Format(PyExc_ValueError, "a date cell's day %R is outside years 1000 to 9999 (days %d to %d)",
                                 number, DAY_MIN, DAY_MAX);
                Py_XDECREF(number);
                return -1;
            }
            day = (long long)whole;
        } else {
            if (!*(const uint8_t *)(cell->shown.base + i * cell->shown.stride))
                continue; /* hidden: its day is a placeholder */
            day = load_int64(at);
            if (day < DAY_MIN || day > DAY_MAX) {
                PyErr_Format(PyExc_ValueError, "a date-time cell's day %lld is outside years 1000 to 9999 (days %d to %d)",
                             day, DAY_MIN, DAY_MAX);
                return -1;
            }
            long long time = cell->times.has_view ? load_int64(cell->times.base + i * cell->times.stride) : 0;
            if (time < 0 || time >= CLOCK_TIME_END) {
                PyErr_Format(PyExc_ValueError,
                             "a date-time cell's time %lld is not minute * 61 + second of hours 0 to 99", time);
                return -1;
            }
        }
        counted++;
        low = day < low ? day : low;
        high = day > high ? day : high;
    }
    if (counted > DAY_TABLE_ROWS && high - low < DAY_TABLE_SPAN * counted) {
        cell->day_texts.text = day_table(low, high); /* NULL (no memory): formatted one by one */
        cell->day_texts.low = low;
        cell->day_texts.high = high;
    }
    return 0;
}

static int token_ok(PyObject *token)
{
    if (token == Py_None || PyUnicode_Check(token))
        return 0;
    PyErr_Format(PyExc_TypeError, "a token must be str or None, not %.80s", Py_TYPE(token)->tp_name);
    return -1;
}

/* ('c', others, [(labels, codes), ...]): a row whose first code is negative is its token in others. */
static int open_coded(Cell *cell, PyObject *obj, Py_ssize_t nrow)
{
    const char *kind;
    PyObject *others, *list;
    if (!PyArg_ParseTuple(obj, "sOO!", &kind, &others, &PyList_Type, &list) ||
        column_open(&cell->col, others, "O", sizeof(PyObject *), 0) < 0)
        return -1;
    PyObject *pieces = PyList_AsTuple(list); /* the pieces as they are now, whatever changes the list */
    if (pieces == NULL)
        return -1;
    Py_ssize_t n = PyTuple_GET_SIZE(pieces);
    cell->labels = PyMem_Calloc(n ? n : 1, sizeof(Writer));
    cell->ends = PyMem_Calloc(n ? n : 1, sizeof(Py_ssize_t *));
    cell->codes = PyMem_Calloc(n ? n : 1, sizeof(Column));
    if (cell->labels == NULL || cell->ends == NULL || cell->codes == NULL) {
        Py_DECREF(pieces);
        PyErr_NoMemory();
        return -1;
    }
    cell->npieces = n;
    int failed = 0;
    for (Py_ssize_t k = 0; k < n && !failed; k++) {
        PyObject *labels_obj, *codes;
        Column labels;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(pieces, k), "OO", &labels_obj, &codes) ||
            column_open(&cell->codes[k], codes, "lq", 8, 0) < 0 ||
            column_open(&labels, labels_obj, "O", sizeof(PyObject *), 0) < 0) {
            failed = 1;
            break;
        }
        if (cell->codes[k].len != nrow) {
            PyErr_Format(PyExc_ValueError, "coded text: piece %zd has %zd codes for %zd rows", k,
                         cell->codes[k].len, nrow);
            failed = 1;
        } else if ((cell->ends[k] = PyMem_Calloc(labels.len + 1, sizeof(Py_ssize_t))) == NULL) {
            PyErr_NoMemory();
            failed = 1;
        } else {
            cell->ends[k][0] = labels.len; /* the count, read back as the bound of the codes */
        }
        for (Py_ssize_t i = 0; i < labels.len && !failed; i++) {
            PyObject *label = column_object(&labels, i);
            if (!PyUnicode_Check(label)) {
                PyErr_Format(PyExc_TypeError, "coded text: label %zd of piece %zd is %.80s, not str", i, k,
                             Py_TYPE(label)->tp_name);
                failed = 1;
            } else {
                failed = w_put_str(&cell->labels[k], label) < 0;
                cell->ends[k][i + 1] = cell->labels[k].len;
            }
        }
        column_close(&labels);
    }
    Py_DECREF(pieces);
    return failed ? -1 : 0;
}

static void cell_close(Cell *cell)
{
    column_close(&cell->col);
    column_close(&cell->table);
    PyMem_Free((void *)cell->day_texts.text);
    cell->day_texts.text = NULL;
    column_close(&cell->shown);
    column_close(&cell->days);
    column_close(&cell->times);
    for (Py_ssize_t k = 0; k < cell->npieces; k++) {
        PyMem_Free(cell->labels[k].data);
        PyMem_Free(cell->ends[k]);
        column_close(&cell->codes[k]);
    }
    PyMem_Free(cell->labels);
    PyMem_Free(cell->ends);
    PyMem_Free(cell->codes);
    cell->labels = NULL;
    cell->ends = NULL;
    cell->codes = NULL;
    cell->npieces = 0;
}

static int write_coded(const Cell *cell, Py_ssize_t row, Writer *w, PyObject **token)
{
    *token = NULL;
    for (Py_ssize_t k = 0; k < cell->npieces; k++) {
        int64_t code = load_int64(cell->codes[k].base + row * cell->codes[k].stride);
        if (k == 0 && code < 0) {
            *token = column_object(&cell->col, row);
            return token_ok(*token);
        }
        const Py_ssize_t *ends = cell->ends[k];
        if (code < 0 || code >= ends[0]) {
            PyErr_Format(PyExc_IndexError, "coded text: code %lld out of range", (long long)code);
            return -1;
        }
        Py_ssize_t from = code ? ends[code] : 0;
        w->nonascii |= cell->labels[k].nonascii;
        if (w_put(w, cell->labels[k].data + from, ends[code + 1] - from) < 0)
            return -1;
    }
    return 0;
}

/* The `n` items of a cell tuple (borrowed), its first the kind. */
static int cell_items(PyObject *obj, Py_ssize_t n, const char *kind, PyObject **items)
{
    if (PyTuple_GET_SIZE(obj) != n) {
        PyErr_Format(PyExc_TypeError, "a '%s' cell is a tuple of %zd items, not %zd", kind, n, PyTuple_GET_SIZE(obj));
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++)
        items[k] = PyTuple_GET_ITEM(obj, k);
    return 0;
}

static int as_int(PyObject *obj, int *out)
{
    long v = PyLong_AsLong(obj);
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < INT_MIN || v > INT_MAX) {
        PyErr_SetString(PyExc_OverflowError, "a cell's number does not fit a C int");
        return -1;
    }
    *out = (int)v;
    return 0;
}

static int cell_open(Cell *cell, PyObject *obj, Py_ssize_t nrow)
{
    memset(cell, 0, sizeof(*cell));
    if (!PyTuple_Check(obj)) {
        cell->kind = CELL_TOKENS;
        if (column_open(&cell->col, obj, "O", sizeof(PyObject *), 0) < 0)
            return -1;
    } else {
        PyObject *it[9], **t = cell->tokens;
        PyObject *first = PyTuple_GET_SIZE(obj) ? PyTuple_GET_ITEM(obj, 0) : Py_None;
        const char *kind = PyUnicode_Check(first) ? PyUnicode_AsUTF8(first) : "";
        if (kind == NULL)
            return -1;
        if (strcmp(kind, "d") == 0) {
            cell->kind = CELL_DOUBLE;
            if (cell_items(obj, 9, kind, it) < 0 || as_int(it[2], &cell->mode) < 0 ||
                as_int(it[3], &cell->precision) < 0 || (cell->always_decimal = PyObject_IsTrue(it[4])) < 0 ||
                check_number_mode(cell->mode, cell->precision, "a number cell") < 0 ||
                column_open(&cell->col, it[1], "d", 8, 0) < 0)
                return -1;
            memcpy(t, it + 5, 4 * sizeof(PyObject *));
        } else if (strcmp(kind, "i") == 0) {
            cell->kind = CELL_INT;
            if (cell_items(obj, 3, kind, it) < 0 || column_open(&cell->col, it[1], "ilq", 0, 0) < 0)
                return -1;
            t[0] = it[2];
        } else if (strcmp(kind, "l") == 0) {
            cell->kind = CELL_LOGICAL;
            if (cell_items(obj, 5, kind, it) < 0 || column_open(&cell->col, it[1], "i", 4, 0) < 0)
                return -1;
            memcpy(t, it + 2, 3 * sizeof(PyObject *));
        } else if (strcmp(kind, "T") == 0) {
            cell->kind = CELL_CLOCK;
            PyObject *times;
            if (cell_items(obj, 6, kind, it) < 0 || !PyBytes_Check(it[5]) || PyBytes_GET_SIZE(it[5]) != 1) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_TypeError, "a date-time cell's separator is one byte");
                return -1;
            }
            times = it[4];
            cell->sep = PyBytes_AS_STRING(it[5])[0];
            if (cell->sep < 0x20 || cell->sep > 0x7e) { /* (char may be signed: non-ASCII is below 0) */
                PyErr_Format(PyExc_ValueError, "a date-time cell's separator is %R, not a printable ASCII byte", it[5]);
                return -1;
            }
            if (column_open(&cell->col, it[1], "O", sizeof(PyObject *), 0) < 0 ||
                column_open(&cell->shown, it[2], "?B", 1, 0) < 0 || column_open(&cell->days, it[3], "lq", 8, 0) < 0 ||
                (times != Py_None && column_open(&cell->times, times, "lq", 8, 0) < 0))
                return -1;
            if (cell->shown.len != nrow || cell->days.len != nrow || (times != Py_None && cell->times.len != nrow)) {
                PyErr_SetString(PyExc_ValueError, "a date-time cell needs an item per row in each array");
                return -1;
            }
            if (check_days(cell, &cell->days, 0) < 0)
                return -1;
        } else if (strcmp(kind, "t") == 0) {
            cell->kind = CELL_TABLE;
            if (cell_items(obj, 3, kind, it) < 0 || column_open(&cell->col, it[1], "ilq", 0, 0) < 0 ||
                column_open(&cell->table, it[2], "O", sizeof(PyObject *), 0) < 0)
                return -1;
            if (cell->col.view.itemsize != 4 && cell->col.view.itemsize != 8) {
                PyErr_SetString(PyExc_TypeError, "table codes must be int32 or int64");
                return -1;
            }
        } else if (strcmp(kind, "D") == 0) {
            cell->kind = CELL_DATE;
            if (cell_items(obj, 3, kind, it) < 0 || column_open(&cell->col, it[1], "d", 8, 0) < 0)
                return -1;
            t[0] = it[2];
            if (check_days(cell, &cell->col, 1) < 0)
                return -1;
        } else if (strcmp(kind, "s") == 0) {
            cell->kind = CELL_STRING;
            if (cell_items(obj, 3, kind, it) < 0 || column_open(&cell->col, it[1], "O", sizeof(PyObject *), 0) < 0)
                return -1;
            t[0] = it[2];
        } else if (strcmp(kind, "c") == 0) {
            cell->kind = CELL_CODED;
            if (open_coded(cell, obj, nrow) < 0)
                return -1;
        } else {
            PyErr_Format(PyExc_ValueError, "a cell tuple's kind is %R, not one of 'd' 'i' 'l' 'T' 't' 'D' 's' 'c'",
                         first);
            return -1;
        }
        if (cell->kind == CELL_INT && cell->col.view.itemsize != 4 && cell->col.view.itemsize != 8) {
            PyErr_SetString(PyExc_TypeError, "an integer cell column must be int32 or int64");
            return -1;
        }
        for (int k = 0; k < 4; k++)
            if (t[k] != NULL && token_ok(t[k]) < 0)
                return -1;
    }
    if (cell->col.len != nrow) {
        PyErr_Format(PyExc_ValueError, "a cell column has %zd items for %zd rows", cell->col.len, nrow);
        return -1;
    }
    return 0;
}

/* Write row `row` of the cell; *na is set instead when it is an NA token (None), and *plain when
 * what was written is a number's digits, which no JSON string escape touches. */
static int cell_write(const Cell *cell, Py_ssize_t row, Writer *w, int *na, int *plain)
{
    const char *at = cell->col.base + row * cell->col.stride;
    PyObject *token;
    *na = 0;
    *plain = 0;
    switch (cell->kind) {
    case CELL_DOUBLE: {
        double v = load_double(at);
        if (isfinite(v)) {
            if (w_reserve(w, NUMBER_TEXT_MAX) < 0)
                return -1;
            int n = double_text(v, cell->mode, cell->precision, cell->always_decimal, w->data + w->len);
            if (n < 0)
                return -1;
            w->len += n;
            *plain = 1;
            return 0;
        }
        token = cell->tokens[is_r_na(v) ? 0 : isnan(v) ? 1 : v > 0 ? 2 : 3];
        break;
    }
    case CELL_INT: {
        long long v = load_int(at, cell->col.view.itemsize);
        if (v != -2147483647LL - 1) {
            if (w_reserve(w, NUMBER_TEXT_MAX) < 0)
                return -1;
            w->len += int_text(v, w->data + w->len);
            *plain = 1;
            return 0;
        }
        token = cell->tokens[0];
        break;
    }
    case CELL_LOGICAL: {
        int32_t v = load_int32(at);
        token = cell->tokens[v == INT32_MIN ? 2 : v == 1 ? 1 : 0];
        break;
    }
    case CELL_DATE: {
        double v = load_double(at);
        if (!isnan(v)) {
            if (w_reserve(w, NUMBER_TEXT_MAX) < 0)
                return -1;
            w->len += date_text(v, &cell->day_texts, w->data + w->len);
            return 0;
        }
        token = cell->tokens[0];
        break;
    }
    case CELL_CLOCK:
        if (*(const uint8_t *)(cell->shown.base + row * cell->shown.stride)) {
            long long day = load_int64(cell->days.base + row * cell->days.stride);
            long long time = cell->times.has_view ? load_int64(cell->times.base + row * cell->times.stride) : -1;
            if (w_reserve(w, NUMBER_TEXT_MAX) < 0)
                return -1;
            w->len += clock_text(day, time, cell->sep, &cell->day_texts, w->data + w->len);
            return 0;
        }
        token = column_object(&cell->col, row);
        if (token_ok(token) < 0)
            return -1;
        break;
    case CELL_TABLE: {
        long long code = load_int(at, cell->col.view.itemsize);
        if (code < 0)
            code += cell->table.len;
        if (code < 0 || code >= cell->table.len) {
            PyErr_Format(PyExc_IndexError, "code %lld is out of bounds for a table of %zd", code, cell->table.len);
            return -1;
        }
        token = column_object(&cell->table, code);
        if (token_ok(token) < 0)
            return -1;
        break;
    }
    case CELL_STRING:
        token = column_object(&cell->col, row);
        if (PyUnicode_Check(token))
            return w_put_escaped(w, token);
        if (token != Py_None) {
            PyErr_Format(PyExc_TypeError, "a string cell must be str or None, not %.80s", Py_TYPE(token)->tp_name);
            return -1;
        }
        token = cell->tokens[0];
        break;
    case CELL_CODED:
        if (write_coded(cell, row, w, &token) < 0)
            return -1;
        if (token == NULL)
            return 0;
        break;
    default:
        token = column_object(&cell->col, row);
        if (token_ok(token) < 0)
            return -1;
    }
    if (token == Py_None) {
        *na = 1;
        return 0;
    }
    return w_put_str(w, token);
}

#define FEW_CELLS 16 /* frames of up to this many columns keep their cells on the stack */

static void close_cells(Cell *cells, Py_ssize_t n, Cell *few)
{
    for (Py_ssize_t k = 0; k < n; k++)
        cell_close(&cells[k]);
    if (cells != few)
        PyMem_Free(cells);
}

/* The cells of the columns in the tuple `seq`: in `few` (FEW_CELLS of them) when they fit, else
 * allocated. (A tuple: opening a cell may run Python code, such as a number's __index__.) */
static Cell *open_cells(PyObject *seq, Py_ssize_t nrow, Cell *few)
{
    Py_ssize_t n = PyTuple_GET_SIZE(seq);
    Cell *cells = n <= FEW_CELLS ? few : PyMem_Calloc(n, sizeof(Cell));
    if (cells == NULL)
        return (Cell *)PyErr_NoMemory();
    for (Py_ssize_t k = 0; k < n; k++) {
        if (cell_open(&cells[k], PyTuple_GET_ITEM(seq, k), nrow) < 0) {
            /* cell_open zeroes its cell first, so cells 0..k can be closed; the others never opened */
            close_cells(cells, k + 1, few);
            return NULL;
        }
    }
    return cells;
}

/* The UTF-8 text before a field: the row's first field's, and any other's (key and colon included). */
typedef struct {
    Writer first, next;
} Lead;

static void free_leads(Lead *leads, Py_ssize_t n)
{
    for (Py_ssize_t k = 0; leads && k < n; k++) {
        PyMem_Free(leads[k].first.data);
        PyMem_Free(leads[k].next.data);
    }
    PyMem_Free(leads);
}

/* The leads of the tuple of str `keys`. */
static Lead *make_leads(PyObject *keys, PyObject **layout, int escape)
{
    Py_ssize_t n = PyTuple_GET_SIZE(keys);
    Lead *leads = PyMem_Calloc(n ? n : 1, sizeof(Lead));
    if (leads == NULL)
        return (Lead *)PyErr_NoMemory();
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *key = PyTuple_GET_ITEM(keys, k);
        leads[k].first.escape = leads[k].next.escape = escape;
        if (w_put_str(&leads[k].first, layout[3]) < 0 || w_put_str(&leads[k].first, key) < 0 ||
            w_put_str(&leads[k].first, layout[5]) < 0 || w_put_str(&leads[k].next, layout[4]) < 0 ||
            w_put_str(&leads[k].next, key) < 0 || w_put_str(&leads[k].next, layout[5]) < 0 ||
            w_escape_from(&leads[k].first, 0) < 0 || w_escape_from(&leads[k].next, 0) < 0) {
            free_leads(leads, n);
            return NULL;
        }
    }
    return leads;
}

/* One row: an object (leads given: NA cells omitted) or an array (NA cells written NA). */
static int write_row(const Cell *cells, Py_ssize_t n, const Lead *leads, Py_ssize_t row, const Writer *sep,
                     const Writer *close, Writer *w)
{
    int na, plain;
    if (leads == NULL) {
        if (w_put(w, "[", 1) < 0)
            return -1;
        for (Py_ssize_t k = 0; k < n; k++) {
            if (k && w_put_w(w, sep) < 0)
                return -1;
            Py_ssize_t mark = w->len;
            if (cell_write(&cells[k], row, w, &na, &plain) < 0 || (!plain && w_escape_from(w, mark) < 0))
                return -1;
            if (na && w_put(w, "NA", 2) < 0)
                return -1;
        }
        return w_put(w, "]", 1);
    }
    if (w_put(w, "{", 1) < 0)
        return -1;
    Py_ssize_t fields = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        Py_ssize_t mark = w->len;
        const Writer *lead = fields ? &leads[k].next : &leads[k].first;
        if (w_put_w(w, lead) < 0)
            return -1;
        Py_ssize_t at = w->len;
        if (cell_write(&cells[k], row, w, &na, &plain) < 0 || (!na && !plain && w_escape_from(w, at) < 0))
            return -1;
        if (na)
            w->len = mark; /* an omitted field */
        else
            fields++;
    }
    return fields ? w_put_w(w, close) : w_put(w, "}", 1);
}

typedef struct {
    PyObject *keys; /* a tuple of the keys as they were when called, or None */
    Lead *leads;
    Writer sep, close, row_sep;
} Layout;

/* Rows `start` .. `start + nrow` from the cell columns in the list `list`. */
static int write_rows(PyObject *list, Py_ssize_t start, Py_ssize_t nrow, Py_ssize_t total, const Layout *lay, Writer *w)
{
    if (!PyList_Check(list) || (lay->keys != Py_None && PyList_GET_SIZE(list) != PyTuple_GET_SIZE(lay->keys))) {
        if (PyList_Check(list))
            PyErr_Format(PyExc_ValueError, "rows_text: %zd cell columns for %zd keys", PyList_GET_SIZE(list),
                         PyTuple_GET_SIZE(lay->keys));
        else
            PyErr_Format(PyExc_TypeError, "rows_text: expected a list of cell columns, not %.80s",
                         Py_TYPE(list)->tp_name);
        return -1;
    }
    PyObject *seq = PyList_AsTuple(list);
    if (seq == NULL)
        return -1;
    Py_ssize_t n = PyTuple_GET_SIZE(seq);
    Cell few[FEW_CELLS];
    Cell *cells = open_cells(seq, nrow, few);
    if (cells == NULL) {
        Py_DECREF(seq);
        return -1;
    }
    int failed = 0;
    for (Py_ssize_t row = 0; row < nrow && !failed; row++) {
        failed = (start + row && w_put_w(w, &lay->row_sep) < 0) ||
                 write_row(cells, n, lay->leads, row, &lay->sep, &lay->close, w) < 0;
        if (start + row == 1023 && total > 4096) /* room for the rest, as long as the first rows are */
            failed = failed || w_reserve(w, w->len / 1024 * (total - 1024) / 8 * 9) < 0;
    }
    close_cells(cells, n, few);
    Py_DECREF(seq);
    return failed ? -1 : 0;
}

PyObject *sp_rows_text(PyObject *self, PyObject *args)
{
    PyObject *cells, *layout_obj;
    Py_ssize_t nrow, chunk = 0;
    int escape = 0;
    PyObject *keys;
    Layout lay = {NULL, NULL, {0}, {0}, {0}};
    if (!PyArg_ParseTuple(args, "OOnO!|np", &cells, &keys, &nrow, &PyTuple_Type, &layout_obj, &chunk, &escape))
        return NULL;
    PyObject *layout[7];
    if (!PyArg_ParseTuple(layout_obj, "UUUUUUU", &layout[0], &layout[1], &layout[2], &layout[3], &layout[4],
                          &layout[5], &layout[6]))
        return NULL;
    if (nrow < 0) {
        PyErr_Format(PyExc_ValueError, "rows_text: nrow is %zd, not a count", nrow);
        return NULL;
    }
    if (keys == Py_None) {
        lay.keys = Py_NewRef(Py_None);
    } else if (!PyList_Check(keys)) {
        PyErr_Format(PyExc_TypeError, "rows_text: keys must be None or a list of str, not %.80s", Py_TYPE(keys)->tp_name);
        return NULL;
    } else if ((lay.keys = PyList_AsTuple(keys)) == NULL) { /* the callback may change the list */
        return NULL;
    }
    for (Py_ssize_t k = 0; lay.keys != Py_None && k < PyTuple_GET_SIZE(lay.keys); k++)
        if (!PyUnicode_Check(PyTuple_GET_ITEM(lay.keys, k))) {
            PyErr_Format(PyExc_TypeError, "rows_text: key %zd is %.80s, not str", k,
                         Py_TYPE(PyTuple_GET_ITEM(lay.keys, k))->tp_name);
            Py_DECREF(lay.keys);
            return NULL;
        }
    Writer w = {0};
    Py_ssize_t first_cap = nrow < 1000 ? 256 + 64 * nrow : 65536; /* a few rows: a small first buffer */
    lay.sep.escape = lay.close.escape = lay.row_sep.escape = escape;
    int failed = w_put_str(&lay.sep, lay.keys == Py_None ? layout[4] : layout[1]) < 0 ||
                 w_put_str(&lay.close, layout[6]) < 0 || w_put_str(&lay.row_sep, layout[1]) < 0 ||
                 w_escape_from(&lay.sep, 0) < 0 || w_escape_from(&lay.close, 0) < 0 ||
                 w_escape_from(&lay.row_sep, 0) < 0 ||
                 (lay.keys != Py_None && (lay.leads = make_leads(lay.keys, layout, escape)) == NULL) ||
                 (escape ? w_start_escaped(&w, first_cap) : w_start(&w, first_cap)) < 0 || w_put_str(&w, layout[0]) < 0 ||
                 w_escape_from(&w, 0) < 0;
    if (!PyCallable_Check(cells)) {
        failed = failed || write_rows(cells, 0, nrow, nrow, &lay, &w) < 0;
    } else {
        if (chunk <= 0)
            chunk = nrow ? nrow : 1;
        for (Py_ssize_t start = 0; start < nrow && !failed; start += chunk) {
            Py_ssize_t stop = start + chunk < nrow ? start + chunk : nrow;
            PyObject *seq = PyObject_CallFunction(cells, "nn", start, stop);
            failed = seq == NULL || write_rows(seq, start, stop - start, nrow, &lay, &w) < 0;
            Py_XDECREF(seq);
        }
    }
    Py_ssize_t mark = w.len;
    failed = failed || w_put_str(&w, layout[2]) < 0 || w_escape_from(&w, mark) < 0;
    free_leads(lay.leads, lay.keys == Py_None ? 0 : PyTuple_GET_SIZE(lay.keys));
    Py_DECREF(lay.keys);
    PyMem_Free(lay.sep.data);
    PyMem_Free(lay.close.data);
    PyMem_Free(lay.row_sep.data);
    if (failed) {
        w_discard(&w);
        return NULL;
    }
    return w_finish(&w);
}

PyObject *sp_cells_text(PyObject *self, PyObject *args)
{
    PyObject *obj, *open, *sep, *close;
    if (!PyArg_ParseTuple(args, "OUUU", &obj, &open, &sep, &close))
        return NULL;
    Cell cell;
    Py_ssize_t nrow = PyTuple_Check(obj) ? -1 : 0;
    if (nrow < 0) { /* the length of a tuple cell is its values' */
        Column probe;
        PyObject *values = PyTuple_GET_SIZE(obj) > 1 ? PyTuple_GET_ITEM(obj, 1) : Py_None;
        if (PyList_Check(values)) { /* a string cell's texts may be a list */
            nrow = PyList_GET_SIZE(values);
        } else {
            if (column_open(&probe, values, "dilqO", 0, 0) < 0)
                return NULL;
            nrow = probe.len;
            column_close(&probe);
        }
    } else {
        nrow = PySequence_Size(obj);
        if (nrow < 0)
            return NULL;
    }
    if (cell_open(&cell, obj, nrow) < 0) {
        cell_close(&cell);
        return NULL;
    }
    Writer w;
    int na, plain, failed = w_start(&w, 16 * nrow + 64) < 0 || w_put_str(&w, open) < 0;
    for (Py_ssize_t row = 0; row < nrow && !failed; row++) {
        failed = (row && w_put_str(&w, sep) < 0) || cell_write(&cell, row, &w, &na, &plain) < 0 ||
                 (na && w_put(&w, "NA", 2) < 0);
    }
    failed = failed || w_put_str(&w, close) < 0;
    cell_close(&cell);
    if (failed) {
        w_discard(&w);
        return NULL;
    }
    return w_finish(&w);
}

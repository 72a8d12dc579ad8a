/* Plain Python values (dict, list, tuple, str, int, float, bool, None, a few numpy scalars) as the
 * JSON of the R list they stand for, in one pass (the oracle: rvalues/json/plain.py).
 *
 * A dict is a named list, a list or tuple an unnamed list, and every other element its own R value
 * of length one: a str a string, an int in R's range an integer, a float a double, a bool a
 * logical, None NULL (each its own R value, so a list's elements are never coerced together, as
 * R's list() keeps them). Anything the pure path does more with (another type or a subclass, an int
 * beyond R's range, a NUL or a lone surrogate, a key that is not a plain non-empty str, nesting at
 * or past `max_depth`) makes the whole call decline: it returns None and the caller runs its pure
 * path, which writes or refuses the value with its own words.
 *
 * The text is built in one growing buffer (Latin-1, or UTF-8 once a wider character comes) and
 * made a str once. Only exact built-in types and numpy's own scalars are read, so no Python code of
 * the caller's runs during the call; still, items are held (a reference each) while they are
 * written and list sizes are read again at every step, so that a container changed meanwhile
 * would never be read out of bounds.
 */
#include <math.h>

#include "speedups.h"

#define R_INT_MAX 2147483647LL
#define KEY_SLOTS 256

typedef enum { WRITTEN = 0, DECLINED = 1, FAILED = -1 } Outcome;

/* Text as Latin-1 bytes while every character fits one (the str is then made by one copy), or as
 * UTF-8 from the first str holding a wider character on (then decoded once). */
typedef struct {
    char *data;
    Py_ssize_t len, cap;
    int utf8;      /* the bytes are UTF-8, not Latin-1 */
    int non_ascii; /* a byte from 0x80 up was written (Latin-1 only) */
} Buffer;

/* An escaped key, remembered by the identity of its str (held, so the address stays its own). */
typedef struct {
    PyObject *key;
    char *token;
    Py_ssize_t len;
    int non_ascii;
} KeySlot;

typedef struct {
    int auto_unbox, mode, precision, always_decimal, no_dots, max_depth;
    const char *null_token;
    Py_ssize_t null_len;
    /* the tokens of R's NA, NaN, Inf and -Inf among doubles (NULL: the pure path writes them) */
    const char *non_finite[4];
    Py_ssize_t non_finite_len[4];
    PyObject *floats, *ints, *bools, *strs; /* tuples of numpy scalar types taken as those kinds */
    KeySlot keys[KEY_SLOTS];
    Buffer out;
} Writer;

static int grow(Buffer *b, Py_ssize_t extra)
{
    if (extra > PY_SSIZE_T_MAX / 2 - b->len) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t cap = b->cap ? b->cap : 4096;
    while (cap - b->len < extra)
        cap *= 2;
    char *data = PyMem_Realloc(b->data, (size_t)cap);
    if (data == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    b->data = data;
    b->cap = cap;
    return 0;
}

static inline int reserve(Buffer *b, Py_ssize_t extra)
{
    return b->cap - b->len >= extra ? 0 : grow(b, extra);
}

static inline int put(Buffer *b, const char *text, Py_ssize_t n)
{
    if (reserve(b, n) < 0)
        return -1;
    memcpy(b->data + b->len, text, (size_t)n);
    b->len += n;
    return 0;
}

static inline void put_byte(Buffer *b, char c) /* room reserved by the caller */
{
    b->data[b->len++] = c;
}

static const char HEX[] = "0123456789abcdef";

/* The ASCII bytes a JSON string writes as they are (not '"', '\\', '/' or a control character:
 * '/' is checked only for "</", by the slow path). */
static int plain_ascii(const unsigned char *in, Py_ssize_t n)
{
    unsigned char any = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = in[i];
        any |= (unsigned char)((c < 0x20) | (c == '"') | (c == '\\') | (c == '/'));
    }
    return !any;
}

/* A str's JSON token (jsonlite's escapes, "</" as "<\/"), appended in the buffer's encoding (a
 * Latin-1 buffer takes only a str of one-byte kind); DECLINED for a NUL or a lone surrogate (R
 * strings hold neither; the pure path says so). */
static Outcome put_string(Buffer *b, PyObject *text)
{
    int kind = PyUnicode_KIND(text);
    const void *in = PyUnicode_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    if (PyUnicode_IS_ASCII(text) && plain_ascii(in, n)) {
        if (reserve(b, n + 2) < 0)
            return FAILED;
        char *at = b->data + b->len;
        at[0] = '"';
        memcpy(at + 1, in, (size_t)n);
        at[n + 1] = '"';
        b->len += n + 2;
        return WRITTEN;
    }
    if (n > (PY_SSIZE_T_MAX - 2) / 6) {
        PyErr_NoMemory();
        return FAILED;
    }
    if (reserve(b, 2 + 6 * n) < 0) /* \u00xx is the widest escape; UTF-8 takes at most 4 */
        return FAILED;
    char *at = b->data + b->len;
    *at++ = '"';
    Py_UCS4 prev = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, in, i);
        if (c < 0x80) {
            char short_escape = json_short_escape(c);
            if (short_escape) {
                *at++ = '\\';
                *at++ = short_escape;
            } else if (c == 0) {
                return DECLINED;
            } else if (c <= 0x1f) {
                memcpy(at, "\\u00", 4);
                at[4] = HEX[c >> 4];
                at[5] = HEX[c & 0xf];
                at += 6;
            } else {
                if (c == '/' && prev == '<')
                    *at++ = '\\';
                *at++ = (char)c;
            }
        } else if (!b->utf8) { /* a one-byte kind str: c < 0x100 */
            *at++ = (char)c;
            b->non_ascii = 1;
        } else if (c < 0x800) {
            *at++ = (char)(0xc0 | (c >> 6));
            *at++ = (char)(0x80 | (c & 0x3f));
        } else if (c < 0x10000) {
            if (c >= 0xd800 && c <= 0xdfff)
                return DECLINED;
            *at++ = (char)(0xe0 | (c >> 12));
            *at++ = (char)(0x80 | ((c >> 6) & 0x3f));
            *at++ = (char)(0x80 | (c & 0x3f));
        } else {
            *at++ = (char)(0xf0 | (c >> 18));
            *at++ = (char)(0x80 | ((c >> 12) & 0x3f));
            *at++ = (char)(0x80 | ((c >> 6) & 0x3f));
            *at++ = (char)(0x80 | (c & 0x3f));
        }
        prev = c;
    }
    *at++ = '"';
    b->len = at - b->data;
    return WRITTEN;
}

static void forget_keys(Writer *w)
{
    for (int i = 0; i < KEY_SLOTS; i++) {
        Py_CLEAR(w->keys[i].key);
        PyMem_Free(w->keys[i].token);
        w->keys[i].token = NULL;
    }
}

/* The text so far from Latin-1 to UTF-8, in place (the remembered keys' tokens go: they were
 * Latin-1). */
static int latin1_to_utf8(Buffer *b)
{
    Py_ssize_t wide = 0;
    for (Py_ssize_t i = 0; i < b->len; i++)
        wide += (unsigned char)b->data[i] >= 0x80;
    if (reserve(b, wide) < 0)
        return -1;
    unsigned char *data = (unsigned char *)b->data;
    Py_ssize_t to = b->len + wide;
    for (Py_ssize_t from = b->len - 1; from >= 0; from--) {
        unsigned char c = data[from];
        if (c < 0x80) {
            data[--to] = c;
        } else {
            data[--to] = (unsigned char)(0x80 | (c & 0x3f));
            data[--to] = (unsigned char)(0xc0 | (c >> 6));
        }
    }
    b->len += wide;
    b->utf8 = 1;
    return 0;
}

static int switch_to_utf8(Writer *w)
{
    if (latin1_to_utf8(&w->out) < 0)
        return -1;
    forget_keys(w);
    return 0;
}

/* The text as the UTF-8 bytes of a JSON string's inside, as json.dumps(text, ensure_ascii=False)
 * writes it: the text holds no control character (its strings are escaped), so only '"' and '\\'
 * take a backslash. */
static PyObject *writer_escaped(Writer *w)
{
    Buffer *b = &w->out;
    if (!b->utf8 && latin1_to_utf8(b) < 0)
        return NULL;
    Py_ssize_t extra = 0;
    for (Py_ssize_t i = 0; i < b->len; i++)
        extra += (b->data[i] == '"') | (b->data[i] == '\\');
    PyObject *out = PyBytes_FromStringAndSize(NULL, b->len + extra);
    if (out == NULL)
        return NULL;
    char *at = PyBytes_AS_STRING(out);
    for (Py_ssize_t i = 0; i < b->len; i++) {
        char c = b->data[i];
        if (c == '"' || c == '\\')
            *at++ = '\\';
        *at++ = c;
    }
    return out;
}

/* A str's token into the text, which turns UTF-8 first if the str holds a character beyond Latin-1. */
static Outcome put_str_token(Writer *w, PyObject *text)
{
    if (!w->out.utf8 && PyUnicode_KIND(text) != PyUnicode_1BYTE_KIND && switch_to_utf8(w) < 0)
        return FAILED;
    return put_string(&w->out, text);
}

/* `,` unless `first`, then the key's token and `:` (remembered by the key's identity). */
static Outcome put_key(Writer *w, PyObject *key, int first)
{
    if (!PyUnicode_CheckExact(key) || PyUnicode_GET_LENGTH(key) == 0)
        return DECLINED; /* the pure path names a non-str key; "" becomes its position */
    size_t slot = ((uintptr_t)key >> 4) % KEY_SLOTS;
    KeySlot *known = &w->keys[slot];
    if (known->key != key) {
        if (w->no_dots && PyUnicode_FindChar(key, '.', 0, PyUnicode_GET_LENGTH(key), 1) != -1)
            return DECLINED; /* jsonlite's no_dots: the pure path makes the names unique again */
        if (!w->out.utf8 && PyUnicode_KIND(key) != PyUnicode_1BYTE_KIND && switch_to_utf8(w) < 0)
            return FAILED;
        Buffer token = {NULL, 0, 0, w->out.utf8, 0};
        Outcome done = put_string(&token, key);
        if (done == WRITTEN && put(&token, ":", 1) < 0)
            done = FAILED;
        if (done != WRITTEN) {
            PyMem_Free(token.data);
            return done;
        }
        PyMem_Free(known->token);
        Py_XDECREF(known->key);
        Py_INCREF(key);
        known->key = key;
        known->token = token.data;
        known->len = token.len;
        known->non_ascii = token.non_ascii;
    }
    w->out.non_ascii |= known->non_ascii;
    if (reserve(&w->out, known->len + 1) < 0)
        return FAILED;
    if (!first)
        put_byte(&w->out, ',');
    memcpy(w->out.data + w->out.len, known->token, (size_t)known->len);
    w->out.len += known->len;
    return WRITTEN;
}

static int open_box(Writer *w)
{
    if (reserve(&w->out, NUMBER_TEXT_MAX + 4) < 0)
        return -1;
    if (!w->auto_unbox)
        put_byte(&w->out, '[');
    return 0;
}

static int close_box(Writer *w)
{
    return w->auto_unbox ? 0 : put(&w->out, "]", 1);
}

static const char PAIRS[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                            "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                            "8081828384858687888990919293949596979899";

/* The decimal text of |v| <= R_INT_MAX at `at` (room for 11 bytes); its length. int_text's
 * digits, two at a time from the end. */
static int r_integer_text(long long v, char *at)
{
    int n = 0;
    uint32_t u = (uint32_t)(v < 0 ? -v : v);
    if (v < 0)
        at[n++] = '-';
    static const uint32_t TENS[] = {10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u, 100000000u,
                                    1000000000u};
    int digits = 1;
    while (digits < 10 && u >= TENS[digits - 1])
        digits++;
    char *end = at + n + digits;
    while (u >= 100) {
        uint32_t pair = (u % 100) * 2;
        u /= 100;
        *--end = PAIRS[pair + 1];
        *--end = PAIRS[pair];
    }
    if (u >= 10) {
        *--end = PAIRS[u * 2 + 1];
        *--end = PAIRS[u * 2];
    } else {
        *--end = (char)('0' + u);
    }
    return n + digits;
}

static Outcome put_integer(Writer *w, PyObject *number)
{
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(number, &overflow);
    if (v == -1 && PyErr_Occurred())
        return FAILED;
    if (overflow || v < -R_INT_MAX || v > R_INT_MAX)
        return DECLINED; /* a double, with the pure path's warning */
    if (open_box(w) < 0)
        return FAILED;
    w->out.len += r_integer_text(v, w->out.data + w->out.len);
    return close_box(w) < 0 ? FAILED : WRITTEN;
}

static Outcome put_double(Writer *w, double v)
{
    if (!isfinite(v)) {
        int which = is_r_na(v) ? 0 : isnan(v) ? 1 : v > 0 ? 2 : 3;
        if (w->non_finite[which] == NULL)
            return DECLINED;
        if (open_box(w) < 0 || put(&w->out, w->non_finite[which], w->non_finite_len[which]) < 0)
            return FAILED;
        return close_box(w) < 0 ? FAILED : WRITTEN;
    }
    if (open_box(w) < 0)
        return FAILED;
    int n = double_text(v, w->mode, w->precision, w->always_decimal, w->out.data + w->out.len);
    if (n < 0)
        return FAILED;
    w->out.len += n;
    return close_box(w) < 0 ? FAILED : WRITTEN;
}

static Outcome put_logical(Writer *w, int truth)
{
    if (open_box(w) < 0)
        return FAILED;
    memcpy(w->out.data + w->out.len, truth ? "true" : "false", truth ? 4 : 5);
    w->out.len += truth ? 4 : 5;
    return close_box(w) < 0 ? FAILED : WRITTEN;
}

static Outcome put_text(Writer *w, PyObject *text)
{
    if (open_box(w) < 0)
        return FAILED;
    Outcome done = put_str_token(w, text);
    if (done == WRITTEN && close_box(w) < 0)
        return FAILED;
    return done;
}

static int among(PyObject *types, PyTypeObject *type)
{
    Py_ssize_t n = PyTuple_GET_SIZE(types);
    for (Py_ssize_t i = 0; i < n; i++)
        if (PyTuple_GET_ITEM(types, i) == (PyObject *)type)
            return 1;
    return 0;
}

/* A numpy scalar of a kind the fast path knows (the same R value as_r makes of it). */
static Outcome put_numpy(Writer *w, PyObject *v)
{
    PyTypeObject *type = Py_TYPE(v);
    if (among(w->floats, type)) {
        double d = PyFloat_AsDouble(v);
        return d == -1.0 && PyErr_Occurred() ? FAILED : put_double(w, d);
    }
    if (among(w->ints, type)) {
        PyObject *number = PyNumber_Index(v);
        if (number == NULL)
            return FAILED;
        Outcome done = put_integer(w, number);
        Py_DECREF(number);
        return done;
    }
    if (among(w->bools, type)) {
        int truth = PyObject_IsTrue(v);
        return truth < 0 ? FAILED : put_logical(w, truth);
    }
    if (among(w->strs, type))
        return put_text(w, v);
    return DECLINED;
}

static Outcome put_value(Writer *w, PyObject *v, int depth);

static Outcome put_items(Writer *w, PyObject *seq, int depth)
{
    if (put(&w->out, "[", 1) < 0)
        return FAILED;
    int is_list = PyList_CheckExact(seq);
    for (Py_ssize_t i = 0;; i++) {
        /* sizes read at every step: a finalizer may shrink the list */
        Py_ssize_t n = is_list ? PyList_GET_SIZE(seq) : PyTuple_GET_SIZE(seq);
        if (i >= n)
            break;
        PyObject *item = is_list ? PyList_GET_ITEM(seq, i) : PyTuple_GET_ITEM(seq, i);
        if (i > 0 && put(&w->out, ",", 1) < 0)
            return FAILED;
        Py_INCREF(item);
        Outcome done = put_value(w, item, depth + 1);
        Py_DECREF(item);
        if (done != WRITTEN)
            return done;
    }
    return put(&w->out, "]", 1) < 0 ? FAILED : WRITTEN;
}

static Outcome put_fields(Writer *w, PyObject *dict, int depth)
{
    if (put(&w->out, "{", 1) < 0)
        return FAILED;
    Py_ssize_t pos = 0;
    PyObject *key, *item;
    int first = 1;
    while (PyDict_Next(dict, &pos, &key, &item)) {
        Py_INCREF(key);
        Py_INCREF(item);
        Outcome done = put_key(w, key, first);
        if (done == WRITTEN)
            done = put_value(w, item, depth + 1);
        Py_DECREF(key);
        Py_DECREF(item);
        if (done != WRITTEN)
            return done;
        first = 0;
    }
    return put(&w->out, "}", 1) < 0 ? FAILED : WRITTEN;
}

static Outcome put_container(Writer *w, PyObject *v, int depth, int is_dict)
{
    if (depth >= w->max_depth)
        return DECLINED; /* the pure path names where it nests too deep */
    if (Py_EnterRecursiveCall(" while writing plain values as JSON"))
        return FAILED;
    Outcome done = is_dict ? put_fields(w, v, depth) : put_items(w, v, depth);
    Py_LeaveRecursiveCall();
    return done;
}

static Outcome put_value(Writer *w, PyObject *v, int depth)
{
    PyTypeObject *type = Py_TYPE(v);
    if (type == &PyDict_Type)
        return put_container(w, v, depth, 1);
    if (type == &PyList_Type || type == &PyTuple_Type)
        return put_container(w, v, depth, 0);
    if (type == &PyLong_Type)
        return put_integer(w, v);
    if (type == &PyFloat_Type)
        return put_double(w, PyFloat_AS_DOUBLE(v));
    if (type == &PyUnicode_Type)
        return put_text(w, v);
    if (type == &PyBool_Type)
        return put_logical(w, v == Py_True);
    if (v == Py_None)
        return put(&w->out, w->null_token, w->null_len) < 0 ? FAILED : WRITTEN;
    return put_numpy(w, v);
}

static int ascii_token(PyObject *obj, const char **text, Py_ssize_t *len, const char *what)
{
    if (obj == Py_None) {
        *text = NULL;
        *len = 0;
        return 0;
    }
    if (!PyUnicode_Check(obj) || !PyUnicode_IS_ASCII(obj)) {
        PyErr_Format(PyExc_TypeError, "plain_json: %s must be an ASCII str or None, not %.80s", what,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    *text = (const char *)PyUnicode_DATA(obj);
    *len = PyUnicode_GET_LENGTH(obj);
    return 0;
}

static void writer_close(Writer *w)
{
    forget_keys(w);
    PyMem_Free(w->out.data);
}

/* The str of the text written: one copy of Latin-1 bytes, or UTF-8 decoded. */
static PyObject *writer_text(Writer *w)
{
    Buffer *b = &w->out;
    if (b->utf8)
        return PyUnicode_DecodeUTF8(b->data, b->len, "strict");
    PyObject *text = PyUnicode_New(b->len, b->non_ascii ? 255 : 127);
    if (text != NULL)
        memcpy(PyUnicode_DATA(text), b->data, (size_t)b->len);
    return text;
}

PyObject *sp_plain_json(PyObject *self, PyObject *args)
{
    PyObject *value, *null_obj, *tokens[4];
    int escape = 0;
    Writer w;
    memset(&w, 0, sizeof w);
    if (!PyArg_ParseTuple(args, "OpUiipp(OOOO)iO!O!O!O!|p", &value, &w.auto_unbox, &null_obj, &w.mode,
                          &w.precision, &w.always_decimal, &w.no_dots, &tokens[0], &tokens[1], &tokens[2],
                          &tokens[3], &w.max_depth, &PyTuple_Type, &w.floats, &PyTuple_Type, &w.ints,
                          &PyTuple_Type, &w.bools, &PyTuple_Type, &w.strs, &escape))
        return NULL;
    if (check_number_mode(w.mode, w.precision, "plain_json") < 0)
        return NULL;
    if (ascii_token(null_obj, &w.null_token, &w.null_len, "null") < 0)
        return NULL;
    static const char *names[] = {"na", "nan", "inf", "ninf"};
    for (int i = 0; i < 4; i++)
        if (ascii_token(tokens[i], &w.non_finite[i], &w.non_finite_len[i], names[i]) < 0)
            return NULL;
    Py_INCREF(value);
    Outcome done = put_value(&w, value, 0);
    Py_DECREF(value);
    PyObject *text = NULL;
    if (done == WRITTEN)
        text = escape ? writer_escaped(&w) : writer_text(&w);
    writer_close(&w);
    if (done == DECLINED)
        Py_RETURN_NONE;
    return text;
}

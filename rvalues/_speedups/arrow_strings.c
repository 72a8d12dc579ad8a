/* An Arrow string or large_string array's buffers as R's character storage, in one pass (the
 * oracle: _python_strings and has_nul in rvalues/convert/arrow_columns.py): null -> None, each
 * element a Python str; the first element holding a NUL is reported (R refuses it, the caller
 * names it). Strings that repeat are made once: a small direct-mapped cache keyed by the bytes
 * hands out the str made before, so a column of a few words costs a few str objects. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "speedups.h"

/* The bytes of a string the cache's hash reads at most: its first ones and its last word (a hit is
 * confirmed by memcmp, which costs less than decoding the string again). */
#define HASH_MAX_BYTES 64
/* Slots of the cache: a power of two, at most 2^CACHE_MAX_BITS (fewer for a short array). */
#define CACHE_MAX_BITS 12

/* A string's key: its length and first 16 bytes (zero past its end); the rest, if any, compared
 * by memcmp. Strings of up to 16 bytes are compared by two words and no call. */
typedef struct {
    uint64_t head[2];
    Py_ssize_t len;
    const unsigned char *bytes; /* into the data buffer, which stays open for the whole pass */
    PyObject *text;             /* a reference of the cache's own */
} Slot;

static inline uint64_t load_word(const unsigned char *at)
{
    uint64_t v;
    memcpy(&v, at, sizeof v);
    return v;
}

/* The first k bytes (0 to 8) of a loaded word, the rest zero. */
static inline uint64_t first_bytes(uint64_t word, Py_ssize_t k)
{
    if (k >= 8)
        return word;
    if (k <= 0)
        return 0;
#if PY_LITTLE_ENDIAN
    return word & ((1ULL << (8 * k)) - 1);
#else
    return word & ~(~0ULL >> (8 * k));
#endif
}

/* The first 16 bytes of s[0:n], zero past n; `room` bytes may be read from s (n <= room). */
static inline void load_head(const unsigned char *s, Py_ssize_t n, Py_ssize_t room, uint64_t head[2])
{
    if (room >= 16) { /* whole words, masked: no call, no loop */
        head[0] = first_bytes(load_word(s), n);
        head[1] = first_bytes(load_word(s + 8), n - 8);
        return;
    }
    unsigned char buf[16] = {0};
    memcpy(buf, s, (size_t)(n < 16 ? n : 16));
    head[0] = load_word(buf);
    head[1] = load_word(buf + 8);
}

static inline uint64_t hash_key(const uint64_t head[2], const unsigned char *s, Py_ssize_t n)
{
    uint64_t h = head[0] * 0x9E3779B97F4A7C15ULL ^ head[1] * 0xC2B2AE3D27D4EB4FULL ^ (uint64_t)n;
    Py_ssize_t stop = n < HASH_MAX_BYTES ? n : HASH_MAX_BYTES;
    for (Py_ssize_t i = 16; i + 8 <= stop; i += 8) /* past 16 bytes: whole words, then the last one */
        h = (h ^ load_word(s + i)) * 0xBF58476D1CE4E5B9ULL;
    if (n > 16)
        h = (h ^ load_word(s + n - 8)) * 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 29;
    return h * 0x94D049BB133111EBULL; /* the top bits index the cache */
}

#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

/* Whether s[0:n] holds a byte past ASCII (UTF-8 to decode); *has_nul: whether it holds a zero byte. */
static int scan_bytes(const unsigned char *s, Py_ssize_t n, int *has_nul)
{
    uint64_t high = 0, zero = 0;
    Py_ssize_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w = load_word(s + i);
        high |= w;
        zero |= (w - ONES) & ~w & HIGHS;
    }
    for (; i < n; i++) {
        high |= s[i];
        zero |= s[i] == 0;
    }
    *has_nul = zero != 0;
    return (high & HIGHS) != 0;
}

/* The str of n bytes; NULL with an error naming element i where they are not UTF-8. */
static PyObject *make_text(const unsigned char *s, Py_ssize_t n, Py_ssize_t i, int *has_nul)
{
    if (!scan_bytes(s, n, has_nul)) {
        PyObject *out = PyUnicode_New(n, 127);
        if (out != NULL)
            memcpy(PyUnicode_DATA(out), s, (size_t)n);
        return out;
    }
    PyObject *out = PyUnicode_DecodeUTF8((const char *)s, n, "strict");
    if (out == NULL && PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) {
        PyObject *type, *value, *trace;
        PyErr_Fetch(&type, &value, &trace);
        PyErr_NormalizeException(&type, &value, &trace);
        PyErr_Format(PyExc_ValueError, "element %zd is not valid UTF-8 (%S)", i, value);
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(trace);
    }
    return out;
}

static int open_bytes(Py_buffer *view, PyObject *obj, const char *what)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_SIMPLE) < 0) {
        PyErr_Format(PyExc_TypeError, "arrow_strings: the %s buffer must support the buffer protocol, got %.100s",
                     what, Py_TYPE(obj)->tp_name);
        return -1;
    }
    return 0;
}

/* arrow_strings(validity, offsets, data, offset, length, wide, out, at) -> int: fills out[at:at + length] */
PyObject *sp_arrow_strings(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *validity_obj, *offsets_obj, *data_obj, *out_obj;
    Py_ssize_t offset, length, at;
    int wide;
    if (!PyArg_ParseTuple(args, "OOOnnpOn", &validity_obj, &offsets_obj, &data_obj, &offset, &length, &wide,
                          &out_obj, &at))
        return NULL;
    if (offset < 0 || length < 0 || at < 0 || offset > PY_SSIZE_T_MAX / 16 - length) {
        PyErr_Format(PyExc_ValueError,
                     "arrow_strings: offset %zd, length %zd and position %zd must be non-negative and in range",
                     offset, length, at);
        return NULL;
    }
    Py_buffer validity = {0}, offsets = {0}, data = {0};
    int has_validity = 0, has_offsets = 0, has_data = 0;
    Column out;
    if (column_open(&out, out_obj, "O", sizeof(PyObject *), 1) < 0)
        return NULL;
    Slot *cache = NULL;
    Py_ssize_t slots = 16;
    PyObject *result = NULL;
    Py_ssize_t width = wide ? 8 : 4;
    if (at > out.len - length) {
        PyErr_Format(PyExc_ValueError, "arrow_strings: the output holds %zd items, expected %zd at least", out.len,
                     at + length);
        goto done;
    }
    if (validity_obj != Py_None) {
        if (open_bytes(&validity, validity_obj, "validity") < 0)
            goto done;
        has_validity = 1;
        if (length && validity.len < (offset + length + 7) / 8) {
            PyErr_Format(PyExc_ValueError, "arrow_strings: the validity bitmap holds %zd bytes, expected %zd",
                         validity.len, (offset + length + 7) / 8);
            goto done;
        }
    }
    if (length == 0) {
        result = PyLong_FromLong(-1);
        goto done;
    }
    if (open_bytes(&offsets, offsets_obj, "offsets") < 0)
        goto done;
    has_offsets = 1;
    if (offsets.len / width < offset + length + 1) {
        PyErr_Format(PyExc_ValueError, "arrow_strings: the offsets buffer holds %zd bytes, expected %zd", offsets.len,
                     (offset + length + 1) * width);
        goto done;
    }
    if (data_obj != Py_None) {
        if (open_bytes(&data, data_obj, "data") < 0)
            goto done;
        has_data = 1;
    }
    int bits_of_slots = 4;
    while (bits_of_slots < CACHE_MAX_BITS && ((Py_ssize_t)1 << bits_of_slots) < length)
        bits_of_slots++;
    slots = (Py_ssize_t)1 << bits_of_slots;
    cache = calloc((size_t)slots, sizeof(Slot));
    if (cache == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    const unsigned char *bits = has_validity ? (const unsigned char *)validity.buf : NULL;
    const char *bounds = (const char *)offsets.buf + offset * width;
    const unsigned char *bytes = has_data ? (const unsigned char *)data.buf : (const unsigned char *)"";
    Py_ssize_t data_len = has_data ? data.len : 0;
    Py_ssize_t first_nul = -1;
    for (Py_ssize_t i = 0; i < length; i++) {
        Py_ssize_t bit = offset + i;
        if (bits && !((bits[bit >> 3] >> (bit & 7)) & 1)) {
            Py_INCREF(Py_None);
            column_set_object(&out, at + i, Py_None);
            continue;
        }
        long long start = load_int(bounds + i * width, width), end = load_int(bounds + (i + 1) * width, width);
        if (start < 0 || end < start || end > data_len) {
            PyErr_Format(PyExc_ValueError,
                         "arrow_strings: element %zd spans bytes %lld to %lld, outside the data buffer of %zd bytes",
                         at + i, start, end, data_len);
            goto done;
        }
        const unsigned char *s = bytes + start;
        Py_ssize_t n = (Py_ssize_t)(end - start);
        PyObject *text;
        int has_nul = 0;
        uint64_t head[2];
        load_head(s, n, data_len - (Py_ssize_t)start, head);
        Slot *slot = &cache[hash_key(head, s, n) >> (64 - bits_of_slots)];
        if (slot->len == n && slot->head[0] == head[0] && slot->head[1] == head[1] && slot->text != NULL &&
            (n <= 16 || memcmp(slot->bytes + 16, s + 16, (size_t)(n - 16)) == 0)) {
            text = slot->text; /* its NUL, if any, was reported where it was made */
            Py_INCREF(text);
        } else {
            text = make_text(s, n, at + i, &has_nul);
            if (text == NULL)
                goto done;
            Py_INCREF(text);
            Py_XSETREF(slot->text, text);
            slot->head[0] = head[0];
            slot->head[1] = head[1];
            slot->len = n;
            slot->bytes = s;
        }
        if (has_nul && first_nul < 0)
            first_nul = at + i;
        column_set_object(&out, at + i, text);
    }
    result = PyLong_FromSsize_t(first_nul);
done:
    if (cache != NULL) {
        for (Py_ssize_t k = 0; k < slots; k++)
            Py_XDECREF(cache[k].text);
        free(cache);
    }
    if (has_validity)
        PyBuffer_Release(&validity);
    if (has_offsets)
        PyBuffer_Release(&offsets);
    if (has_data)
        PyBuffer_Release(&data);
    column_close(&out);
    return result;
}

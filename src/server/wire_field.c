/* One length-delimited field of a protobuf message, read from its wire bytes.
 *
 * Why not from the decoded message: protobuf-c hands a string field to C as a NUL-terminated
 * char *, so a request id with a NUL inside ("coll\0x") reads as its prefix ("coll") and would
 * name another client's job. The wire keeps the real length. This runs only on bytes that
 * protobuf-c has just decoded without error, so the framing is known to be well formed; it is
 * still checked at every step, and anything unexpected reads as "not found". */
#include "wire_field.h"

/* A varint at *p (advanced past it); false when it runs past end or over 10 bytes. */
static bool read_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    *v = 0;
    for (unsigned shift = 0; shift < 70 && *p < end; shift += 7) {
        uint8_t b = *(*p)++;
        *v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) return true;
    }
    return false;
}

/* Skips a field's value of wire type wt; false on a malformed or unknown one. */
static bool skip_value(const uint8_t **p, const uint8_t *end, unsigned wt)
{
    uint64_t v;
    switch (wt) {
    case 0: return read_varint(p, end, &v);
    case 1: return end - *p >= 8 ? (*p += 8, true) : false;
    case 5: return end - *p >= 4 ? (*p += 4, true) : false;
    default: return false;
    }
}

size_t cuzk_wire_count(const uint8_t *msg, size_t len, size_t limit)
{
    const uint8_t *p = msg, *end = msg + len;
    size_t n = 0;
    while (p < end && n <= limit) {
        uint64_t key, v;
        if (!read_varint(&p, end, &key)) break;
        unsigned wt = (unsigned)(key & 7);
        if (wt == 2) {
            if (!read_varint(&p, end, &v) || v > (uint64_t)(end - p)) break;
            p += v;
        } else if (!skip_value(&p, end, wt)) {
            break;
        }
        n++;
    }
    return n;
}

bool cuzk_wire_varint(const uint8_t *msg, size_t len, const unsigned *path, size_t depth, uint64_t *out)
{
    const uint8_t *p = msg, *end = msg + len;
    if (depth > 1) {
        size_t n;
        if (!cuzk_wire_field(msg, len, path, depth - 1, &p, &n)) return false;
        end = p + n;
    }
    bool found = false;
    unsigned field = path[depth - 1];
    while (p < end) {
        uint64_t key, v;
        if (!read_varint(&p, end, &key)) return found;
        unsigned wt = (unsigned)(key & 7);
        if (wt == 0 && key >> 3 == field) {
            if (!read_varint(&p, end, &v)) return found;
            *out = v;
            found = true;
        } else if (wt == 2) {
            if (!read_varint(&p, end, &v) || v > (uint64_t)(end - p)) return found;
            p += v;
        } else if (!skip_value(&p, end, wt)) {
            return found;
        }
    }
    return found;
}

bool cuzk_wire_field(const uint8_t *msg, size_t len, const unsigned *path, size_t depth, const uint8_t **out,
                     size_t *out_len)
{
    bool found = false;
    const uint8_t *p = msg, *end = msg + len;
    while (depth && p < end) {
        uint64_t key, n;
        if (!read_varint(&p, end, &key)) return found;
        unsigned wt = (unsigned)(key & 7);
        if (wt != 2) {
            if (!skip_value(&p, end, wt)) return found;
            continue;
        }
        if (!read_varint(&p, end, &n) || n > (uint64_t)(end - p)) return found;
        if (key >> 3 == path[0]) {
            /* a later occurrence wins, as protobuf merges a singular field; a nested message's
             * occurrences merge, so its field is the last one found in any of them */
            if (depth == 1) {
                *out = p;
                *out_len = (size_t)n;
                found = true;
            } else if (cuzk_wire_field(p, (size_t)n, path + 1, depth - 1, out, out_len)) {
                found = true;
            }
        }
        p += n;
    }
    return found;
}

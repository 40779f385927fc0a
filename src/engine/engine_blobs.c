/* The packed vanilla proofs of a PoSt or SnapDeals job (include/cuzk/blobs.h). */
#include <stdlib.h>
#include <string.h>

#include "cuzk/blobs.h"

size_t cuzk_blobs_packed_size(const size_t *lens, size_t n)
{
    if (n > UINT32_MAX) return SIZE_MAX;
    size_t total = 4;
    for (size_t i = 0; i < n; i++) {
        if (lens[i] >= SIZE_MAX - total - 8) return SIZE_MAX;
        total += 8 + lens[i];
    }
    return total;
}

void cuzk_blobs_pack_into(uint8_t *out, const uint8_t *const *blobs, const size_t *lens, size_t n)
{
    uint8_t *p = out;
    for (int k = 0; k < 4; k++) *p++ = (uint8_t)((uint32_t)n >> (8 * k));
    for (size_t i = 0; i < n; i++) {
        uint64_t l = lens[i];
        for (int k = 0; k < 8; k++) *p++ = (uint8_t)(l >> (8 * k));
        if (l) memcpy(p, blobs[i], l);
        p += l;
    }
}

uint8_t *cuzk_blobs_pack(const uint8_t *const *blobs, const size_t *lens, size_t n, size_t *out_len)
{
    size_t total = cuzk_blobs_packed_size(lens, n);
    uint8_t *b = total == SIZE_MAX ? NULL : malloc(total);
    if (!b) return NULL;
    cuzk_blobs_pack_into(b, blobs, lens, n);
    *out_len = total;
    return b;
}

static uint64_t le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int k = n - 1; k >= 0; k--) v = (v << 8) | p[k];
    return v;
}

cuzk_status cuzk_blobs_unpack(const uint8_t *in, size_t len, size_t max, const uint8_t ***blobs, size_t **lens,
                              size_t *n)
{
    *blobs = NULL;
    *lens = NULL;
    *n = 0;
    if (len < 4) return cuzk_fail(CUZK_EFORMAT, "vanilla proofs: %zu bytes, too short for the count", len);
    uint64_t count = le(in, 4);
    if (count == 0) return cuzk_fail(CUZK_EFORMAT, "vanilla proofs: none given");
    if (count > max)
        return cuzk_fail(CUZK_EFORMAT, "vanilla proofs: %llu blobs, at most %zu expected", (unsigned long long)count,
                         max);
    /* every blob takes at least its 8-byte length: a count beyond that cannot be right */
    if (count > (len - 4) / 8)
        return cuzk_fail(CUZK_EFORMAT, "vanilla proofs: %llu blobs claimed in %zu bytes", (unsigned long long)count,
                         len);
    const uint8_t **b = calloc(count, sizeof *b);
    size_t *l = calloc(count, sizeof *l);
    if (!b || !l) {
        free(b);
        free(l);
        return cuzk_fail(CUZK_ENOMEM, "out of memory");
    }
    size_t off = 4;
    for (uint64_t i = 0; i < count; i++) {
        if (len - off < 8) {
            free(b);
            free(l);
            return cuzk_fail(CUZK_EFORMAT, "vanilla proof %llu: its length is cut off at byte %zu",
                             (unsigned long long)i, off);
        }
        uint64_t bl = le(in + off, 8);
        off += 8;
        if (bl > len - off) {
            free(b);
            free(l);
            return cuzk_fail(CUZK_EFORMAT, "vanilla proof %llu: %llu bytes claimed, %zu left", (unsigned long long)i,
                             (unsigned long long)bl, len - off);
        }
        b[i] = in + off;
        l[i] = (size_t)bl;
        off += (size_t)bl;
    }
    if (off != len) {
        free(b);
        free(l);
        return cuzk_fail(CUZK_EFORMAT, "vanilla proofs: %zu bytes after the last blob", len - off);
    }
    *blobs = b;
    *lens = l;
    *n = (size_t)count;
    return CUZK_OK;
}

/* Which key file is this: a verifying key, parameters or neither, from the layout alone
 * (the counts against the file's size; no point is decoded), so that a .vk given where a
 * .params is expected, or the reverse, can be named as such. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/groth16.h"

#define G1_BYTES 96u  /* uncompressed */
#define G2_BYTES 192u /* uncompressed */
#define VK_FIXED 864u /* alpha_g1 beta_g1 beta_g2 gamma_g2 delta_g1 delta_g2 */

typedef struct {
    const uint8_t *data; /* in memory, or */
    int fd;              /* read with pread */
    uint64_t size;
} source;

static bool read_at(const source *s, uint64_t off, uint8_t *buf, size_t n)
{
    if (off > s->size || n > s->size - off) return false;
    if (s->data) {
        memcpy(buf, s->data + off, n);
        return true;
    }
    while (n) {
        ssize_t got = pread(s->fd, buf, n, (off_t)off);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return false;
        buf += got;
        off += (uint64_t)got;
        n -= (size_t)got;
    }
    return true;
}

static bool read_count(const source *s, uint64_t off, uint64_t *out)
{
    uint8_t b[4];
    if (!read_at(s, off, b, 4)) return false;
    *out = (uint64_t)b[0] << 24 | (uint64_t)b[1] << 16 | (uint64_t)b[2] << 8 | b[3];
    return true;
}

static cuzk_key_kind classify(const source *s, cuzk_key_layout *out)
{
    cuzk_key_layout l;
    memset(&l, 0, sizeof l);
    if (out) *out = l;
    /* the six fixed points of a key are uncompressed and not the identity: the top three bits
     * of each (compression, infinity, sort flags) are clear */
    static const unsigned at[6] = {0, 96, 192, 384, 576, 672};
    for (int i = 0; i < 6; i++) {
        uint8_t b;
        if (!read_at(s, at[i], &b, 1) || (b & 0xe0)) return CUZK_KEY_UNKNOWN;
    }
    uint64_t n, pos = VK_FIXED;
    if (!read_count(s, pos, &n) || n == 0) return CUZK_KEY_UNKNOWN;
    l.ic_len = (size_t)n;
    pos += 4 + n * G1_BYTES;
    if (pos > s->size) return CUZK_KEY_UNKNOWN;
    if (pos == s->size) {
        l.kind = CUZK_KEY_VK;
        if (out) *out = l;
        return l.kind;
    }
    size_t *lens[5] = {&l.h_len, &l.l_len, &l.a_len, &l.b_g1_len, &l.b_g2_len};
    for (int k = 0; k < 5; k++) {
        if (!read_count(s, pos, &n)) return CUZK_KEY_UNKNOWN;
        *lens[k] = (size_t)n;
        pos += 4 + n * (k == 4 ? G2_BYTES : G1_BYTES);
        if (pos > s->size) return CUZK_KEY_UNKNOWN;
    }
    if (pos != s->size) return CUZK_KEY_UNKNOWN;
    l.kind = CUZK_KEY_PARAMS;
    if (out) *out = l;
    return l.kind;
}

cuzk_key_kind cuzk_groth16_key_kind(const uint8_t *data, size_t size, cuzk_key_layout *out)
{
    source s = {data, -1, size};
    return classify(&s, out);
}

cuzk_key_kind cuzk_groth16_key_kind_file(const char *path, cuzk_key_layout *out)
{
    if (out) memset(out, 0, sizeof *out);
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return CUZK_KEY_UNKNOWN;
    struct stat st;
    cuzk_key_kind k = CUZK_KEY_UNKNOWN;
    if (!fstat(fd, &st) && S_ISREG(st.st_mode)) {
        source s = {NULL, fd, (uint64_t)st.st_size};
        k = classify(&s, out);
    }
    close(fd);
    return k;
}

const char *cuzk_groth16_key_kind_name(cuzk_key_kind k)
{
    return k == CUZK_KEY_VK ? "a verifying key (.vk)" : k == CUZK_KEY_PARAMS ? "a parameter file (.params)" : "unknown";
}

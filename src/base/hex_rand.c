/* Hex encoding and randomness (OS CSPRNG for secrets, xoshiro256** for reproducible data). */
#include "cuzk/base.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

void cuzk_hex_encode(char *out, const uint8_t *in, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
    out[2 * n] = 0;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

cuzk_status cuzk_hex_decode(uint8_t *out, size_t n, const char *hex)
{
    if (hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X')) hex += 2;
    size_t len = strlen(hex);
    if (len != 2 * n) return cuzk_fail(CUZK_EINVAL, "expected %zu hex digits, got %zu", 2 * n, len);
    for (size_t i = 0; i < n; i++) {
        int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return cuzk_fail(CUZK_EINVAL, "not a hex digit at position %zu", 2 * i + (hi < 0 ? 0 : 1));
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return CUZK_OK;
}

cuzk_status cuzk_os_random(void *out, size_t n)
{
    uint8_t *p = out;
    while (n > 0) {
        ssize_t got = getrandom(p, n, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            return cuzk_fail(CUZK_EIO, "getrandom failed: %s", strerror(errno));
        }
        p += got;
        n -= (size_t)got;
    }
    return CUZK_OK;
}

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void cuzk_rng_seed(cuzk_rng *rng, uint64_t seed)
{
    for (int i = 0; i < 4; i++) rng->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t cuzk_rng_next(cuzk_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

void cuzk_rng_bytes(cuzk_rng *rng, void *out, size_t n)
{
    uint8_t *p = out;
    while (n > 0) {
        uint64_t v = cuzk_rng_next(rng);
        size_t k = n < 8 ? n : 8;
        memcpy(p, &v, k);
        p += k;
        n -= k;
    }
}

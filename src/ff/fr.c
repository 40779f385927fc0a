/* Fr: canonical encodings, decimal strings, powers, roots of unity, random elements. */
#include <string.h>

#include "cuzk/ff.h"

/* R mod r (Montgomery one) and zero, limbs little-endian. */
const cuzk_fr CUZK_FR_ZERO = {{0, 0, 0, 0}};
const cuzk_fr CUZK_FR_ONE = {
    {0x00000001fffffffeull, 0x5884b7fa00034802ull, 0x998c4fefecbc4ff5ull, 0x1824b159acc5056full}};
static const uint64_t MODULUS[4] = {0xffffffff00000001ull, 0x53bda402fffe5bfeull, 0x3339d80809a1d805ull,
                                    0x73eda753299d7d48ull};
const uint8_t CUZK_FR_MODULUS_LE[32] = {0x01, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x5b, 0xfe,
                                        0xff, 0x02, 0xa4, 0xbd, 0x53, 0x05, 0xd8, 0xa1, 0x09, 0x08, 0xd8,
                                        0x39, 0x33, 0x48, 0x7d, 0x9d, 0x29, 0x53, 0xa7, 0xed, 0x73};

static void limbs_from_le(uint64_t l[4], const uint8_t in[32])
{
    for (int i = 0; i < 4; i++) {
        uint64_t v = 0;
        for (int j = 7; j >= 0; j--) v = v << 8 | in[8 * i + j];
        l[i] = v;
    }
}

static void limbs_to_le(uint8_t out[32], const uint64_t l[4])
{
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++) out[8 * i + j] = (uint8_t)(l[i] >> (8 * j));
}

static bool limbs_below_modulus(const uint64_t l[4])
{
    for (int i = 3; i >= 0; i--) {
        if (l[i] < MODULUS[i]) return true;
        if (l[i] > MODULUS[i]) return false;
    }
    return false; /* equal */
}

static void fr_from_limbs(cuzk_fr *out, const uint64_t l[4]) { blst_fr_from_uint64(out, l); }

void cuzk_fr_from_u64(cuzk_fr *out, uint64_t v)
{
    uint64_t l[4] = {v, 0, 0, 0};
    fr_from_limbs(out, l);
}

cuzk_status cuzk_fr_from_bytes_le(cuzk_fr *out, const uint8_t in[32])
{
    uint64_t l[4];
    limbs_from_le(l, in);
    if (!limbs_below_modulus(l)) return cuzk_fail(CUZK_EINVAL, "field element is not below the modulus r");
    fr_from_limbs(out, l);
    return CUZK_OK;
}

cuzk_status cuzk_fr_from_bytes_be(cuzk_fr *out, const uint8_t in[32])
{
    uint8_t le[32];
    for (int i = 0; i < 32; i++) le[i] = in[31 - i];
    return cuzk_fr_from_bytes_le(out, le);
}

void cuzk_fr_to_bytes_le(uint8_t out[32], const cuzk_fr *a)
{
    uint64_t l[4];
    blst_uint64_from_fr(l, a);
    limbs_to_le(out, l);
}

void cuzk_fr_to_bytes_be(uint8_t out[32], const cuzk_fr *a)
{
    uint8_t le[32];
    cuzk_fr_to_bytes_le(le, a);
    for (int i = 0; i < 32; i++) out[i] = le[31 - i];
}

void cuzk_fr_from_wide_le(cuzk_fr *out, const uint8_t in[64])
{
    blst_scalar s;
    blst_scalar_from_le_bytes(&s, in, 64); /* reduces the 512-bit value mod r */
    blst_fr_from_scalar(out, &s);
}

bool cuzk_fr_eq(const cuzk_fr *a, const cuzk_fr *b) { return memcmp(a, b, sizeof *a) == 0; }
bool cuzk_fr_is_zero(const cuzk_fr *a) { return cuzk_fr_eq(a, &CUZK_FR_ZERO); }
bool cuzk_fr_is_one(const cuzk_fr *a) { return cuzk_fr_eq(a, &CUZK_FR_ONE); }

/* a^e for an exponent given as little-endian limbs. */
static void fr_pow_limbs(cuzk_fr *out, const cuzk_fr *a, const uint64_t *e, int nlimbs)
{
    cuzk_fr acc = CUZK_FR_ONE, base = *a;
    for (int i = 0; i < nlimbs; i++) {
        uint64_t w = e[i];
        for (int b = 0; b < 64; b++) {
            if (w & 1) blst_fr_mul(&acc, &acc, &base);
            blst_fr_sqr(&base, &base);
            w >>= 1;
        }
    }
    *out = acc;
}

void cuzk_fr_pow_u64(cuzk_fr *out, const cuzk_fr *a, uint64_t e) { fr_pow_limbs(out, a, &e, 1); }

void cuzk_fr_root_of_unity(cuzk_fr *out, unsigned log_n)
{
    /* (r - 1) / 2^log_n by shifting the limbs right. */
    uint64_t e[4];
    memcpy(e, MODULUS, sizeof e);
    e[0] -= 1;
    for (unsigned s = 0; s < log_n; s++) {
        for (int i = 0; i < 4; i++) e[i] = (e[i] >> 1) | (i < 3 ? e[i + 1] << 63 : 0);
    }
    cuzk_fr g;
    cuzk_fr_from_u64(&g, CUZK_FR_GENERATOR);
    fr_pow_limbs(out, &g, e, 4);
}

void cuzk_fr_random(cuzk_fr *out, cuzk_rng *rng)
{
    uint8_t wide[64];
    cuzk_rng_bytes(rng, wide, sizeof wide);
    cuzk_fr_from_wide_le(out, wide);
}

cuzk_status cuzk_fr_random_os(cuzk_fr *out)
{
    uint8_t wide[64];
    cuzk_status st = cuzk_os_random(wide, sizeof wide);
    if (st) return st;
    cuzk_fr_from_wide_le(out, wide);
    memset(wide, 0, sizeof wide);
    return CUZK_OK;
}

cuzk_status cuzk_fr_from_decimal(cuzk_fr *out, const char *s)
{
    if (!s || !*s) return cuzk_fail(CUZK_EINVAL, "empty decimal number");
    uint64_t l[4] = {0, 0, 0, 0};
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9')
            return cuzk_fail(CUZK_EINVAL, "'%s' is not a decimal number (character %ld)", s, (long)(p - s));
        /* l = l * 10 + digit, detecting overflow past 256 bits */
        unsigned __int128 carry = (unsigned)(*p - '0');
        for (int i = 0; i < 4; i++) {
            unsigned __int128 v = (unsigned __int128)l[i] * 10 + carry;
            l[i] = (uint64_t)v;
            carry = v >> 64;
        }
        if (carry) return cuzk_fail(CUZK_EINVAL, "decimal number %.20s... is not below the field modulus r", s);
    }
    if (!limbs_below_modulus(l)) {
        if (strlen(s) > 40)
            return cuzk_fail(CUZK_EINVAL, "decimal number %.40s... is not below the field modulus r", s);
        return cuzk_fail(CUZK_EINVAL, "decimal number %s is not below the field modulus r", s);
    }
    fr_from_limbs(out, l);
    return CUZK_OK;
}

void cuzk_fr_to_decimal(char out[CUZK_FR_DECIMAL_MAX], const cuzk_fr *a)
{
    uint64_t l[4];
    blst_uint64_from_fr(l, a);
    char tmp[CUZK_FR_DECIMAL_MAX];
    int n = 0;
    do {
        /* divide l by 10, remainder is the next digit */
        unsigned __int128 rem = 0;
        for (int i = 3; i >= 0; i--) {
            unsigned __int128 cur = (rem << 64) | l[i];
            l[i] = (uint64_t)(cur / 10);
            rem = cur % 10;
        }
        tmp[n++] = (char)('0' + (int)rem);
    } while (l[0] | l[1] | l[2] | l[3]);
    for (int i = 0; i < n; i++) out[i] = tmp[n - 1 - i];
    out[n] = 0;
}

/* SHA-256 block function on the x86 SHA extensions (SHA-NI). Only this function is compiled
 * for the extension (target attribute), so the library still runs on CPUs without it;
 * cuzk_sha256_have_shani() decides at run time. Elsewhere the stub reports "not available".
 *
 * Layout: sha256rnds2 keeps the state as two vectors, (A,B,E,F) and (C,D,G,H), and does two
 * rounds per call with the message+constant words in the low 64 bits of its third operand. */
#include "hash_internal.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <stdatomic.h>
#include <immintrin.h>

/* CPUID rather than __builtin_cpu_supports, which clang does not know "sha" in: SSE4.1 is
 * leaf 1 ECX bit 19, SHA leaf 7 (subleaf 0) EBX bit 29. */
static bool cpu_has_shani(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 19))) return false;
    if (__get_cpuid_max(0, NULL) < 7) return false;
    __cpuid_count(7, 0, a, b, c, d);
    return (b & (1u << 29)) != 0;
}

/* Asked once and remembered: every block compression asks, and CPUID is a serializing
 * instruction that a virtual machine traps (asking each time made SHA-256 many times slower).
 * Threads racing on the first call compute the same answer. */
bool cuzk_sha256_have_shani(void)
{
    static _Atomic int known = -1; /* -1: not asked yet */
    int v = atomic_load_explicit(&known, memory_order_relaxed);
    if (v < 0) {
        v = cpu_has_shani();
        atomic_store_explicit(&known, v, memory_order_relaxed);
    }
    return v != 0;
}

/* Four rounds: message words m (already scheduled) plus K[4g .. 4g+3]. */
#define QROUNDS(m, g)                                                                     \
    do {                                                                                  \
        __m128i k_ = _mm_add_epi32((m), _mm_loadu_si128((const __m128i *)(k + 4 * (g)))); \
        s1 = _mm_sha256rnds2_epu32(s1, s0, k_);                                           \
        s0 = _mm_sha256rnds2_epu32(s0, s1, _mm_shuffle_epi32(k_, 0x0e));                  \
    } while (0)
/* Message schedule: w0 = W[g-4] becomes W[g] from W[g-3], W[g-2], W[g-1]. */
#define SCHEDULE(w0, w1, w2, w3) \
    (w0) = _mm_sha256msg2_epu32(_mm_add_epi32(_mm_sha256msg1_epu32((w0), (w1)), _mm_alignr_epi8((w3), (w2), 4)), (w3))

__attribute__((target("sha,sse4.1"))) void cuzk_sha256_blocks_shani(uint32_t state[8], const uint8_t *blocks, size_t n)
{
    const uint32_t *k = cuzk_sha256_k();
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bll, 0x0405060700010203ll);
    /* (A,B,C,D), (E,F,G,H) -> (A,B,E,F), (C,D,G,H) in sha256rnds2's lane order. */
    __m128i abcd = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[0]), 0xb1);
    __m128i efgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&state[4]), 0x1b);
    __m128i s0 = _mm_alignr_epi8(abcd, efgh, 8);
    __m128i s1 = _mm_blend_epi16(efgh, abcd, 0xf0);

    for (; n > 0; n--, blocks += 64) {
        __m128i save0 = s0, save1 = s1;
        __m128i w0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(blocks + 0)), bswap);
        __m128i w1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(blocks + 16)), bswap);
        __m128i w2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(blocks + 32)), bswap);
        __m128i w3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(blocks + 48)), bswap);
        QROUNDS(w0, 0);
        QROUNDS(w1, 1);
        QROUNDS(w2, 2);
        QROUNDS(w3, 3);
        for (int g = 4; g < 16; g += 4) {
            SCHEDULE(w0, w1, w2, w3);
            QROUNDS(w0, g);
            SCHEDULE(w1, w2, w3, w0);
            QROUNDS(w1, g + 1);
            SCHEDULE(w2, w3, w0, w1);
            QROUNDS(w2, g + 2);
            SCHEDULE(w3, w0, w1, w2);
            QROUNDS(w3, g + 3);
        }
        s0 = _mm_add_epi32(s0, save0);
        s1 = _mm_add_epi32(s1, save1);
    }

    /* Back to (A,B,C,D), (E,F,G,H). */
    __m128i feba = _mm_shuffle_epi32(s0, 0x1b);
    __m128i dchg = _mm_shuffle_epi32(s1, 0xb1);
    _mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(feba, dchg, 0xf0));
    _mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(dchg, feba, 8));
}

#else

bool cuzk_sha256_have_shani(void) { return false; }

void cuzk_sha256_blocks_shani(uint32_t state[8], const uint8_t *blocks, size_t n)
{
    cuzk_sha256_blocks_portable(state, blocks, n);
}

#endif

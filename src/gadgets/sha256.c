/* SHA-256 in the circuit (see include/cuzk/gadgets/sha256.h).
 *
 * Upstream keeps `a` and `e` as deferred lists of operands: the new e of round i is the sum
 * h + S1 + ch + K + w + d of round i - 1, and the new a is h + S1 + ch + K + w + S0 + maj,
 * each computed by one addmany at the start of round i (e first, then S1 and ch, then a,
 * then S0 and maj). The final additions for h0 and h4 extend those lists with H0 and H4.
 * Rather than copying operand words around, the a and e words live in rings indexed by
 * round (a_i for i = -3..64, where a_-1..a_-3 are the incoming b, c, d), and the previous
 * round's S1, ch, K, S0 and maj are kept beside the current ones. */
#include "cuzk/gadgets/sha256.h"
#include "cuzk/hash.h"

static const uint32_t IV[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                               0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

void cuzk_sha256_gadget_iv(cuzk_u32 out[8])
{
    for (int i = 0; i < 8; i++) cuzk_u32_constant(&out[i], IV[i]);
}

/* rotr(x, r1) ^ rotr(x, r2) ^ (shr or rotr)(x, r3), in upstream's order; out is not x. */
static void sigma(cuzk_cs *cs, cuzk_u32 *out, const cuzk_u32 *x, unsigned r1, unsigned r2, unsigned r3, bool shift,
                  const char *name)
{
    cuzk_u32 t;
    cuzk_u32_rotr(out, x, r1);
    cuzk_u32_rotr(&t, x, r2);
    cuzk_cs_push(cs, "first xor for %s", name);
    cuzk_u32_xor(cs, out, out, &t);
    cuzk_cs_pop(cs);
    if (shift) cuzk_u32_shr(&t, x, r3);
    else cuzk_u32_rotr(&t, x, r3);
    cuzk_cs_push(cs, "second xor for %s", name);
    cuzk_u32_xor(cs, out, out, &t);
    cuzk_cs_pop(cs);
}

static void add(cuzk_cs *cs, cuzk_multieq *me, cuzk_u32 *out, const cuzk_u32 *const *ops, size_t n, const char *name)
{
    cuzk_cs_push(cs, "%s", name);
    cuzk_u32_addmany(cs, me, out, ops, n);
    cuzk_cs_pop(cs);
}

#define SLOT(i) (((i) + 8) & 7)

/* One compression with a MultiEq that is empty on entry and flushed on return (the upstream
 * MultiEq lives exactly this long); its storage is the caller's, so that hashing several
 * blocks reuses it. */
static void compress(cuzk_cs *cs, cuzk_multieq *me, const cuzk_bool input[512], const cuzk_u32 state[8],
                     cuzk_u32 out[8])
{
    const uint32_t *K = cuzk_sha256_k();
    cuzk_u32 w[64];
    for (int i = 0; i < 16; i++) cuzk_u32_from_bits_be(&w[i], input + 32 * i);
    me->ops = 0; /* packed rows are numbered per block, as each block has its own MultiEq */

    for (int i = 16; i < 64; i++) {
        cuzk_u32 s0, s1;
        cuzk_cs_push(cs, "w extension %d", i);
        sigma(cs, &s0, &w[i - 15], 7, 18, 3, true, "s0");
        sigma(cs, &s1, &w[i - 2], 17, 19, 10, true, "s1");
        const cuzk_u32 *ops[4] = {&w[i - 16], &s0, &w[i - 7], &s1};
        add(cs, me, &w[i], ops, 4, "computation of w[i]");
        cuzk_cs_pop(cs);
    }

    cuzk_u32 A[8], E[8];
    for (int k = 0; k < 4; k++) {
        A[SLOT(-k)] = state[k];
        E[SLOT(-k)] = state[4 + k];
    }
    cuzk_u32 S1[2], CH[2], KC[2], S0[2], MAJ[2]; /* [round & 1] */
    for (int i = 0; i < 64; i++) {
        int cur = i & 1, prev = cur ^ 1;
        cuzk_cs_push(cs, "round %d", i);
        if (i > 0) { /* e_i = h + S1 + ch + K + w + d of round i - 1, with h = e_{i-4}, d = a_{i-4} */
            const cuzk_u32 *ops[6] = {&E[SLOT(i - 4)], &S1[prev], &CH[prev], &KC[prev], &w[i - 1], &A[SLOT(i - 4)]};
            add(cs, me, &E[SLOT(i)], ops, 6, "deferred e computation");
        }
        sigma(cs, &S1[cur], &E[SLOT(i)], 6, 11, 25, false, "S1");
        cuzk_cs_push(cs, "ch");
        cuzk_u32_sha256_ch(cs, &CH[cur], &E[SLOT(i)], &E[SLOT(i - 1)], &E[SLOT(i - 2)]);
        cuzk_cs_pop(cs);
        cuzk_u32_constant(&KC[cur], K[i]);
        if (i > 0) { /* a_i = h + S1 + ch + K + w + S0 + maj of round i - 1 */
            const cuzk_u32 *ops[7] = {&E[SLOT(i - 4)], &S1[prev], &CH[prev], &KC[prev],
                                      &w[i - 1],       &S0[prev], &MAJ[prev]};
            add(cs, me, &A[SLOT(i)], ops, 7, "deferred a computation");
        }
        sigma(cs, &S0[cur], &A[SLOT(i)], 2, 13, 22, false, "S0");
        cuzk_cs_push(cs, "maj");
        cuzk_u32_sha256_maj(cs, &MAJ[cur], &A[SLOT(i)], &A[SLOT(i - 1)], &A[SLOT(i - 2)]);
        cuzk_cs_pop(cs);
        cuzk_cs_pop(cs);
    }

    /* h_k += the final words; each reads state[k] before writing out[k], so out may be state */
    const int p = 1; /* round 63's slot in the S1..MAJ pairs */
    const cuzk_u32 *h0[8] = {&E[SLOT(60)], &S1[p], &CH[p], &KC[p], &w[63], &S0[p], &MAJ[p], &state[0]};
    add(cs, me, &out[0], h0, 8, "deferred h0 computation");
    const cuzk_u32 *h1[2] = {&state[1], &A[SLOT(63)]};
    add(cs, me, &out[1], h1, 2, "new h1");
    const cuzk_u32 *h2[2] = {&state[2], &A[SLOT(62)]};
    add(cs, me, &out[2], h2, 2, "new h2");
    const cuzk_u32 *h3[2] = {&state[3], &A[SLOT(61)]};
    add(cs, me, &out[3], h3, 2, "new h3");
    const cuzk_u32 *h4[7] = {&E[SLOT(60)], &S1[p], &CH[p], &KC[p], &w[63], &A[SLOT(60)], &state[4]};
    add(cs, me, &out[4], h4, 7, "deferred h4 computation");
    const cuzk_u32 *h5[2] = {&state[5], &E[SLOT(63)]};
    add(cs, me, &out[5], h5, 2, "new h5");
    const cuzk_u32 *h6[2] = {&state[6], &E[SLOT(62)]};
    add(cs, me, &out[6], h6, 2, "new h6");
    const cuzk_u32 *h7[2] = {&state[7], &E[SLOT(61)]};
    add(cs, me, &out[7], h7, 2, "new h7");

    /* upstream's MultiEq is dropped here, emitting the last packed row */
    cuzk_multieq_flush(cs, me);
}

void cuzk_sha256_compression_gadget(cuzk_cs *cs, const cuzk_bool input[512], const cuzk_u32 state[8], cuzk_u32 out[8])
{
    cuzk_multieq me;
    cuzk_multieq_init(&me);
    compress(cs, &me, input, state, out);
    cuzk_multieq_free(&me);
}

void cuzk_sha256_block_no_padding_gadget(cuzk_cs *cs, const cuzk_bool input[512], cuzk_bool out[256])
{
    cuzk_u32 st[8];
    cuzk_sha256_gadget_iv(st);
    cuzk_sha256_compression_gadget(cs, input, st, st);
    for (int k = 0; k < 8; k++) cuzk_u32_into_bits_be(&st[k], out + 32 * k);
}

void cuzk_sha256_gadget(cuzk_cs *cs, const cuzk_bool *input, size_t nbits, cuzk_bool out[256])
{
    if (nbits % 8) {
        cuzk_cs_fail(cs, cuzk_fail(CUZK_EINVAL, "SHA-256 input of %zu bits is not whole bytes", nbits));
        return;
    }
    /* padding: a one bit, zeros, then the 64-bit big-endian bit length, all constants */
    size_t nblocks = (nbits + 1 + 64 + 511) / 512, total = nblocks * 512;
    cuzk_u32 st[8];
    cuzk_sha256_gadget_iv(st);
    cuzk_bool block[512];
    cuzk_multieq me;
    cuzk_multieq_init(&me);
    for (size_t b = 0; b < nblocks; b++) {
        for (size_t j = 0; j < 512; j++) {
            size_t pos = b * 512 + j;
            if (pos < nbits) block[j] = input[pos];
            else if (pos == nbits) block[j] = cuzk_bool_constant(true);
            else if (pos >= total - 64) block[j] = cuzk_bool_constant(((uint64_t)nbits >> (total - 1 - pos)) & 1);
            else block[j] = cuzk_bool_constant(false);
        }
        cuzk_cs_push(cs, "block %zu", b);
        compress(cs, &me, block, st, st);
        cuzk_cs_pop(cs);
    }
    cuzk_multieq_free(&me);
    for (int k = 0; k < 8; k++) cuzk_u32_into_bits_be(&st[k], out + 32 * k);
}

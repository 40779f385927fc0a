/* CPU NTT over Fr, radix-2, in place, natural order in and out.
 *
 * Forward = bit-reversal permutation, then Cooley-Tukey (DIT) butterflies. Layers whose
 * butterfly span fits in a cache-sized block run block by block (all small layers of one
 * block in one task); the larger layers run one at a time over all cores. The inverse reuses
 * the forward transform: DFT with omega^-1 is the DFT with omega followed by k -> -k mod n. */
#include <string.h>

#include "cuzk/ff.h"

#define NTT_BLOCK_LOG 13 /* 8192 elements = 256 KiB per block */

typedef struct {
    cuzk_fr *a;
    const cuzk_fr *base;
    cuzk_fr c;
} powers_ctx;

/* a[i] = c^i (when base is NULL) or a[i] *= c^i. */
static void powers_range(void *vctx, size_t b, size_t e, unsigned tid)
{
    powers_ctx *p = vctx;
    cuzk_fr w;
    cuzk_fr_pow_u64(&w, &p->c, b);
    for (size_t i = b; i < e; i++) {
        if (p->base) blst_fr_mul(&p->a[i], &p->base[i], &w);
        else p->a[i] = w;
        blst_fr_mul(&w, &w, &p->c);
    }
}

void cuzk_fr_distribute_powers(cuzk_fr *a, size_t n, const cuzk_fr *c)
{
    powers_ctx p = {a, a, *c};
    cuzk_parallel_for(n, 4096, powers_range, &p);
}

cuzk_status cuzk_ntt_domain_init(cuzk_ntt_domain *d, unsigned log_n)
{
    memset(d, 0, sizeof *d);
    if (log_n > CUZK_NTT_MAX_LOG)
        return cuzk_fail(CUZK_EINVAL, "NTT domain 2^%u is larger than the supported 2^%d", log_n, CUZK_NTT_MAX_LOG);
    d->log_n = log_n;
    d->n = (size_t)1 << log_n;
    cuzk_fr_root_of_unity(&d->omega, log_n);
    cuzk_fr_inv(&d->omega_inv, &d->omega);
    cuzk_fr nf;
    cuzk_fr_from_u64(&nf, d->n);
    cuzk_fr_inv(&d->n_inv, &nf);
    cuzk_fr_from_u64(&d->gen, CUZK_FR_GENERATOR);
    cuzk_fr_inv(&d->gen_inv, &d->gen);
    size_t half = d->n / 2 ? d->n / 2 : 1;
    d->twiddles = cuzk_big_alloc(half * sizeof(cuzk_fr));
    if (!d->twiddles) return CUZK_ENOMEM;
    powers_ctx p = {d->twiddles, NULL, d->omega};
    cuzk_parallel_for(half, 4096, powers_range, &p);
    return CUZK_OK;
}

void cuzk_ntt_domain_free(cuzk_ntt_domain *d)
{
    if (d->twiddles) cuzk_big_free(d->twiddles, (d->n / 2 ? d->n / 2 : 1) * sizeof(cuzk_fr));
    memset(d, 0, sizeof *d);
}

static size_t bitrev(size_t x, unsigned bits)
{
    size_t r = 0;
    for (unsigned i = 0; i < bits; i++, x >>= 1) r = (r << 1) | (x & 1);
    return r;
}

typedef struct {
    const cuzk_ntt_domain *d;
    cuzk_fr *a;
    size_t h; /* for one large layer */
} ntt_ctx;

static void bitrev_range(void *vctx, size_t b, size_t e, unsigned tid)
{
    ntt_ctx *c = vctx;
    for (size_t i = b; i < e; i++) {
        size_t j = bitrev(i, c->d->log_n);
        if (i < j) {
            cuzk_fr t = c->a[i];
            c->a[i] = c->a[j];
            c->a[j] = t;
        }
    }
}

static inline void butterfly(cuzk_fr *x, cuzk_fr *y, const cuzk_fr *w)
{
    cuzk_fr v;
    blst_fr_mul(&v, y, w);
    blst_fr_sub(y, x, &v);
    blst_fr_add(x, x, &v);
}

/* All layers with span 2h <= block size, for blocks [b, e). */
static void small_layers_range(void *vctx, size_t b, size_t e, unsigned tid)
{
    ntt_ctx *c = vctx;
    size_t n = c->d->n, block = (size_t)1 << NTT_BLOCK_LOG;
    if (block > n) block = n;
    for (size_t blk = b; blk < e; blk++) {
        cuzk_fr *a = c->a + blk * block;
        for (size_t h = 1; h < block; h <<= 1) {
            size_t stride = n / (2 * h);
            for (size_t g = 0; g < block; g += 2 * h)
                for (size_t j = 0; j < h; j++) butterfly(&a[g + j], &a[g + j + h], &c->d->twiddles[j * stride]);
        }
    }
}

/* One layer of span 2h over butterflies [b, e): butterfly k pairs a[i] and a[i + h] with
 * i = (k / h) * 2h + k % h; the division happens once per run of consecutive j. */
static void large_layer_range(void *vctx, size_t b, size_t e, unsigned tid)
{
    ntt_ctx *c = vctx;
    size_t h = c->h, stride = c->d->n / (2 * h);
    size_t g = b / h, j = b % h;
    for (size_t k = b; k < e;) {
        size_t run = h - j < e - k ? h - j : e - k;
        cuzk_fr *x = c->a + g * 2 * h + j;
        const cuzk_fr *w = c->d->twiddles + j * stride;
        for (size_t t = 0; t < run; t++, w += stride) butterfly(&x[t], &x[t + h], w);
        k += run;
        g++;
        j = 0;
    }
}

void cuzk_ntt_forward(const cuzk_ntt_domain *d, cuzk_fr *a)
{
    size_t n = d->n;
    if (n < 2) return;
    ntt_ctx c = {d, a, 0};
    cuzk_parallel_for(n, 1 << 12, bitrev_range, &c);
    size_t block = (size_t)1 << NTT_BLOCK_LOG;
    if (block > n) block = n;
    cuzk_parallel_for(n / block, 1, small_layers_range, &c);
    for (size_t h = block; h < n; h <<= 1) {
        c.h = h;
        cuzk_parallel_for(n / 2, 1 << 12, large_layer_range, &c);
    }
}

typedef struct {
    cuzk_fr *a;
    size_t n;
    cuzk_fr scale;
} negate_ctx;

/* Swaps a[k] and a[n-k] for 0 < k < n/2, and scales everything by `scale`. */
static void negate_index_scale_range(void *vctx, size_t b, size_t e, unsigned tid)
{
    negate_ctx *c = vctx;
    for (size_t k = b; k < e; k++) {
        if (k == 0 || k == c->n / 2) {
            blst_fr_mul(&c->a[k], &c->a[k], &c->scale);
            continue;
        }
        cuzk_fr t;
        blst_fr_mul(&t, &c->a[k], &c->scale);
        blst_fr_mul(&c->a[k], &c->a[c->n - k], &c->scale);
        c->a[c->n - k] = t;
    }
}

void cuzk_ntt_inverse(const cuzk_ntt_domain *d, cuzk_fr *a)
{
    if (d->n < 2) return;
    cuzk_ntt_forward(d, a);
    negate_ctx c = {a, d->n, d->n_inv};
    cuzk_parallel_for(d->n / 2 + 1, 1 << 12, negate_index_scale_range, &c);
}

void cuzk_ntt_coset_forward(const cuzk_ntt_domain *d, cuzk_fr *a)
{
    cuzk_fr_distribute_powers(a, d->n, &d->gen);
    cuzk_ntt_forward(d, a);
}

void cuzk_ntt_coset_inverse(const cuzk_ntt_domain *d, cuzk_fr *a)
{
    cuzk_ntt_inverse(d, a);
    cuzk_fr_distribute_powers(a, d->n, &d->gen_inv);
}

/* .params and .vk files in bellperson's layout:
 *   vk:     alpha_g1 beta_g1 beta_g2 gamma_g2 delta_g1 delta_g2 (uncompressed), u32 BE ic_len, ic[]
 *   params: vk, then h, l, a, b_g1 (G1) and b_g2 (G2), each a u32 BE length and the points.
 * Every count is checked against the bytes left before anything is allocated; points are
 * decoded in parallel and the first bad one is reported with its section, index and offset. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/groth16.h"
#include "cuzk/params_writer.h"
#include "points_decode.h"

typedef struct {
    const uint8_t *data;
    size_t size, pos;
    const char *path;
} reader;

static cuzk_status read_u32(reader *r, const char *what, uint32_t *out)
{
    if (r->size - r->pos < 4)
        return cuzk_fail(CUZK_EFORMAT, "%s: truncated at offset %zu: missing the %s count (file is %zu bytes)", r->path,
                         r->pos, what, r->size);
    const uint8_t *p = r->data + r->pos;
    *out = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    r->pos += 4;
    return CUZK_OK;
}

/* Decodes n points of a section into a newly allocated array (*out, owned by the caller). */
static cuzk_status read_points(reader *r, const char *section, size_t n, int g2, int flags, void **out)
{
    size_t psize = g2 ? G2_BYTES : G1_BYTES;
    *out = NULL;
    if (n > (r->size - r->pos) / psize)
        return cuzk_fail(CUZK_EFORMAT,
                         "%s: section %s claims %zu points (%zu bytes) at offset %zu but only %zu bytes remain",
                         r->path, section, n, n * psize, r->pos, r->size - r->pos);
    void *dst = cuzk_big_alloc(n * (g2 ? sizeof(blst_p2_affine) : sizeof(blst_p1_affine)));
    if (!dst) return CUZK_ENOMEM;
    size_t bad;
    cuzk_status st = groth16_decode_points(r->data + r->pos, dst, n, g2, flags, &bad);
    if (st) {
        cuzk_big_free(dst, n * (g2 ? sizeof(blst_p2_affine) : sizeof(blst_p1_affine)));
        return cuzk_fail_context(st, "%s: %s[%zu] at offset %zu", r->path, section, bad, r->pos + bad * psize);
    }
    r->pos += n * psize;
    *out = dst;
    return CUZK_OK;
}

/* A key element: checked (curve and subgroup), and never the point at infinity: the
 * verifier's pairings with alpha, beta, gamma and delta must be non-trivial (with gamma_g2 at
 * infinity, A = alpha, B = beta + delta, C = alpha verifies for every input), and the
 * prover's beta_g1 and delta_g1 are no less part of the key. */
static cuzk_status read_point(reader *r, const char *name, int g2, void *out)
{
    size_t psize = g2 ? G2_BYTES : G1_BYTES;
    if (r->size - r->pos < psize)
        return cuzk_fail(CUZK_EFORMAT, "%s: truncated at offset %zu: missing %s (file is %zu bytes)", r->path, r->pos,
                         name, r->size);
    int flags = CUZK_POINT_CHECKED | CUZK_POINT_NO_INFINITY;
    cuzk_status st =
        g2 ? cuzk_g2_decode(out, r->data + r->pos, psize, flags) : cuzk_g1_decode(out, r->data + r->pos, psize, flags);
    if (st) return cuzk_fail_context(st, "%s: %s at offset %zu", r->path, name, r->pos);
    r->pos += psize;
    return CUZK_OK;
}

/* delta_g2 = +-gamma_g2 lets C absorb the input term (C = -IC(x) with A = alpha, B = beta):
 * the key of a phase-2 setup nobody contributed to, where both are the generator. */
static cuzk_status check_gamma_delta(const reader *r, const cuzk_groth16_vk *vk)
{
    blst_p2 neg;
    blst_p2_from_affine(&neg, &vk->gamma_g2);
    blst_p2_cneg(&neg, 1);
    blst_p2_affine gamma_neg;
    blst_p2_to_affine(&gamma_neg, &neg);
    if (blst_p2_affine_is_equal(&vk->delta_g2, &vk->gamma_g2) || blst_p2_affine_is_equal(&vk->delta_g2, &gamma_neg))
        return cuzk_fail(CUZK_EFORMAT,
                         "%s: delta_g2 (offset 672) equals gamma_g2 or its negation: such a key accepts forged "
                         "proofs",
                         r->path);
    return CUZK_OK;
}

static cuzk_status parse_vk(reader *r, cuzk_groth16_vk *vk)
{
    memset(vk, 0, sizeof *vk);
    uint32_t n = 0;
    cuzk_status st;
    if ((st = read_point(r, "alpha_g1", 0, &vk->alpha_g1)) || (st = read_point(r, "beta_g1", 0, &vk->beta_g1)) ||
        (st = read_point(r, "beta_g2", 1, &vk->beta_g2)) || (st = read_point(r, "gamma_g2", 1, &vk->gamma_g2)) ||
        (st = read_point(r, "delta_g1", 0, &vk->delta_g1)) || (st = read_point(r, "delta_g2", 1, &vk->delta_g2)) ||
        (st = check_gamma_delta(r, vk)) || (st = read_u32(r, "ic", &n)))
        return st;
    if (n == 0)
        return cuzk_fail(CUZK_EFORMAT, "%s: ic has no points at offset %zu (a key has one for ONE and one per input)",
                         r->path, r->pos - 4);
    void *ic;
    st = read_points(r, "ic", n, 0, CUZK_POINT_CHECKED | CUZK_POINT_NO_INFINITY, &ic);
    if (st) return st;
    vk->ic = ic;
    vk->ic_len = n;
    return CUZK_OK;
}

cuzk_status cuzk_groth16_vk_parse(cuzk_groth16_vk *vk, const uint8_t *data, size_t size, size_t *consumed)
{
    reader r = {data, size, 0, "verifying key"};
    cuzk_status st = parse_vk(&r, vk);
    if (st == CUZK_OK && consumed) *consumed = r.pos;
    return st;
}

void cuzk_groth16_vk_free(cuzk_groth16_vk *vk)
{
    if (vk->ic) cuzk_big_free(vk->ic, vk->ic_len * sizeof(blst_p1_affine));
    memset(vk, 0, sizeof *vk);
}

cuzk_status cuzk_groth16_vk_read(cuzk_groth16_vk *vk, const char *path)
{
    cuzk_mapped_file f;
    memset(vk, 0, sizeof *vk);
    cuzk_status st = cuzk_map_file(&f, path);
    if (st) return st;
    reader r = {f.data, f.size, 0, path};
    st = parse_vk(&r, vk);
    if (st == CUZK_OK && r.pos != r.size) {
        st = cuzk_fail(CUZK_EFORMAT, "%s: %zu unexpected bytes after the verifying key (which ends at offset %zu)",
                       path, r.size - r.pos, r.pos);
        cuzk_groth16_vk_free(vk);
    }
    cuzk_unmap_file(&f);
    return st;
}

cuzk_status cuzk_groth16_params_parse(cuzk_groth16_params *p, const uint8_t *data, size_t size, const char *path,
                                      int flags)
{
    memset(p, 0, sizeof *p);
    reader r = {data, size, 0, path};
    int qflags = (flags & CUZK_PARAMS_UNCHECKED ? CUZK_POINT_UNCHECKED : CUZK_POINT_CHECKED) | CUZK_POINT_NO_INFINITY;
    cuzk_status st = parse_vk(&r, &p->vk);
    const char *names[5] = {"h", "l", "a", "b_g1", "b_g2"};
    void **dst[5] = {(void **)&p->h, (void **)&p->l, (void **)&p->a, (void **)&p->b_g1, (void **)&p->b_g2};
    size_t *lens[5] = {&p->h_len, &p->l_len, &p->a_len, &p->b_g1_len, &p->b_g2_len};
    for (int k = 0; k < 5 && !st; k++) {
        uint32_t n = 0;
        st = read_u32(&r, names[k], &n);
        if (!st) st = read_points(&r, names[k], n, k == 4, qflags, dst[k]);
        if (!st) *lens[k] = n;
    }
    if (!st && r.pos != r.size)
        st = cuzk_fail(CUZK_EFORMAT, "%s: %zu unexpected bytes after b_g2 (which ends at offset %zu)", path,
                       r.size - r.pos, r.pos);
    if (!st && p->b_g1_len != p->b_g2_len)
        st = cuzk_fail(CUZK_EFORMAT, "%s: b_g1 has %zu points but b_g2 has %zu", path, p->b_g1_len, p->b_g2_len);
    if (st) cuzk_groth16_params_free(p);
    return st;
}

/* The stream's sink for a whole read: every piece is decoded straight into its array, then
 * shown to the watcher (if any). */
typedef struct {
    cuzk_groth16_params *p;
    cuzk_status (*watch)(void *ctx, int section, size_t n);
    void *ctx;
} host_sink;

static void *host_dest(void *ctx, int section, size_t first, size_t n)
{
    (void)n;
    cuzk_groth16_params *p = ((host_sink *)ctx)->p;
    switch (section) {
    case CUZK_PARAMS_H: return p->h + first;
    case CUZK_PARAMS_L: return p->l + first;
    case CUZK_PARAMS_A: return p->a + first;
    case CUZK_PARAMS_B_G1: return p->b_g1 + first;
    default: return p->b_g2 + first;
    }
}

static cuzk_status host_points(void *ctx, int section, size_t first, size_t n, const void *pts)
{
    (void)first, (void)pts;
    const host_sink *hs = ctx;
    return hs->watch ? hs->watch(hs->ctx, section, n) : CUZK_OK;
}

cuzk_status cuzk_groth16_params_read(cuzk_groth16_params *p, const char *path, int flags)
{
    return cuzk_groth16_params_read_watched(p, path, flags, NULL, NULL);
}

cuzk_status cuzk_groth16_params_read_watched(cuzk_groth16_params *p, const char *path, int flags,
                                             cuzk_status (*watch)(void *ctx, int section, size_t n), void *ctx)
{
    memset(p, 0, sizeof *p);
    cuzk_groth16_params_file f;
    cuzk_status st = cuzk_groth16_params_open(&f, path);
    if (st) return st;
    p->vk = f.vk;
    memset(&f.vk, 0, sizeof f.vk); /* p owns it now */
    void **dst[5] = {(void **)&p->h, (void **)&p->l, (void **)&p->a, (void **)&p->b_g1, (void **)&p->b_g2};
    size_t *lens[5] = {&p->h_len, &p->l_len, &p->a_len, &p->b_g1_len, &p->b_g2_len};
    for (int k = 0; k < CUZK_PARAMS_SECTIONS && !st; k++) {
        size_t each = k == CUZK_PARAMS_B_G2 ? sizeof(blst_p2_affine) : sizeof(blst_p1_affine);
        *dst[k] = cuzk_big_alloc(f.count[k] * each); /* as the parser: an empty section has an array too */
        if (!*dst[k]) st = CUZK_ENOMEM;
        else *lens[k] = f.count[k];
    }
    host_sink hs = {p, watch, ctx};
    if (!st) st = cuzk_groth16_params_stream(&f, flags, &(cuzk_groth16_points_sink){host_dest, host_points, &hs}, NULL);
    cuzk_groth16_params_close(&f);
    if (st) cuzk_groth16_params_free(p);
    return st;
}

void cuzk_groth16_params_free(cuzk_groth16_params *p)
{
    cuzk_groth16_vk_free(&p->vk);
    cuzk_big_free(p->h, p->h_len * sizeof(blst_p1_affine));
    cuzk_big_free(p->l, p->l_len * sizeof(blst_p1_affine));
    cuzk_big_free(p->a, p->a_len * sizeof(blst_p1_affine));
    cuzk_big_free(p->b_g1, p->b_g1_len * sizeof(blst_p1_affine));
    cuzk_big_free(p->b_g2, p->b_g2_len * sizeof(blst_p2_affine));
    memset(p, 0, sizeof *p);
}

/* ---------------------------------------------------------------- writing */

static void put_u32(uint8_t *p, size_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

size_t cuzk_groth16_vk_size(const cuzk_groth16_vk *vk)
{
    return 3 * G1_BYTES + 3 * G2_BYTES + 4 + vk->ic_len * G1_BYTES;
}

void cuzk_groth16_vk_encode(uint8_t *out, const cuzk_groth16_vk *vk)
{
    cuzk_g1_encode(out, &vk->alpha_g1, false);
    cuzk_g1_encode(out + 96, &vk->beta_g1, false);
    cuzk_g2_encode(out + 192, &vk->beta_g2, false);
    cuzk_g2_encode(out + 384, &vk->gamma_g2, false);
    cuzk_g1_encode(out + 576, &vk->delta_g1, false);
    cuzk_g2_encode(out + 672, &vk->delta_g2, false);
    put_u32(out + 864, vk->ic_len);
    for (size_t i = 0; i < vk->ic_len; i++) cuzk_g1_encode(out + 868 + i * G1_BYTES, &vk->ic[i], false);
}

cuzk_status cuzk_groth16_vk_write(const cuzk_groth16_vk *vk, const char *path)
{
    if (vk->ic_len > UINT32_MAX) return cuzk_fail(CUZK_EINVAL, "verifying key has too many IC points");
    size_t n = cuzk_groth16_vk_size(vk);
    uint8_t *buf = cuzk_malloc(n);
    if (!buf) return CUZK_ENOMEM;
    cuzk_groth16_vk_encode(buf, vk);
    cuzk_status st = cuzk_write_file_atomic(path, buf, n);
    free(buf);
    return st;
}

typedef struct {
    uint8_t *dst;
    const void *src;
    int g2;
} encode_ctx;

static void encode_range(void *vctx, size_t b, size_t e, unsigned tid)
{
    encode_ctx *c = vctx;
    for (size_t i = b; i < e; i++) {
        if (c->g2) cuzk_g2_encode(c->dst + i * G2_BYTES, (const blst_p2_affine *)c->src + i, false);
        else cuzk_g1_encode(c->dst + i * G1_BYTES, (const blst_p1_affine *)c->src + i, false);
    }
}

/* Writes a u32 count and the points, encoding in parallel slices. */
static cuzk_status write_section(cuzk_out_file *f, const void *pts, size_t n, int g2, uint8_t *buf, size_t slice)
{
    uint8_t cnt[4];
    if (n > UINT32_MAX) return cuzk_fail(CUZK_EINVAL, "a parameter section has more than 2^32 points");
    put_u32(cnt, n);
    cuzk_status st = cuzk_out_write(f, cnt, 4);
    size_t psize = g2 ? G2_BYTES : G1_BYTES, asize = g2 ? sizeof(blst_p2_affine) : sizeof(blst_p1_affine);
    for (size_t b = 0; b < n && !st; b += slice) {
        size_t m = n - b < slice ? n - b : slice;
        encode_ctx c = {buf, (const uint8_t *)pts + b * asize, g2};
        cuzk_parallel_for(m, 256, encode_range, &c);
        st = cuzk_out_write(f, buf, m * psize);
    }
    return st;
}

struct cuzk_groth16_params_writer {
    cuzk_out_file f;
    int next;     /* -1: the key is next; then the section expected */
    uint8_t *buf; /* encoded points of one slice */
    size_t slice;
};

cuzk_status cuzk_groth16_params_writer_open(cuzk_groth16_params_writer **out, const char *path)
{
    cuzk_groth16_params_writer *w = calloc(1, sizeof *w);
    *out = NULL;
    if (!w) return CUZK_ENOMEM;
    w->slice = 1 << 16;
    w->next = -1;
    w->buf = cuzk_malloc(w->slice * G2_BYTES);
    cuzk_status st = w->buf ? cuzk_out_open(&w->f, path) : CUZK_ENOMEM;
    if (st) {
        free(w->buf);
        free(w);
        return st;
    }
    *out = w;
    return CUZK_OK;
}

cuzk_status cuzk_groth16_params_writer_vk(cuzk_groth16_params_writer *w, const cuzk_groth16_vk *vk)
{
    if (w->next != -1) return cuzk_fail(CUZK_EINTERNAL, "the verifying key goes first in a .params file");
    if (vk->ic_len > UINT32_MAX) return cuzk_fail(CUZK_EINVAL, "verifying key has too many IC points");
    size_t n = cuzk_groth16_vk_size(vk);
    uint8_t *vkbuf = cuzk_malloc(n);
    if (!vkbuf) return CUZK_ENOMEM;
    cuzk_groth16_vk_encode(vkbuf, vk);
    cuzk_status st = cuzk_out_write(&w->f, vkbuf, n);
    free(vkbuf);
    if (!st) w->next = CUZK_PARAMS_H;
    return st;
}

cuzk_status cuzk_groth16_params_writer_section(cuzk_groth16_params_writer *w, int section, const void *pts, size_t n)
{
    if (section != w->next)
        return cuzk_fail(CUZK_EINTERNAL, "parameter section %d given where %d goes", section, w->next);
    cuzk_status st = write_section(&w->f, pts, n, section == CUZK_PARAMS_B_G2, w->buf, w->slice);
    if (!st) w->next++;
    return st;
}

cuzk_status cuzk_groth16_params_writer_commit(cuzk_groth16_params_writer *w)
{
    cuzk_status st = w->next == CUZK_PARAMS_SECTIONS
        ? cuzk_out_commit(&w->f)
        : cuzk_fail(CUZK_EINTERNAL, "a .params file committed before all its sections were given");
    if (st && w->f.fp) cuzk_out_abort(&w->f);
    free(w->buf);
    free(w);
    return st;
}

void cuzk_groth16_params_writer_abort(cuzk_groth16_params_writer *w)
{
    if (!w) return;
    if (w->f.fp) cuzk_out_abort(&w->f);
    free(w->buf);
    free(w);
}

cuzk_status cuzk_groth16_params_write(const cuzk_groth16_params *p, const char *path)
{
    cuzk_groth16_params_writer *w;
    cuzk_status st = cuzk_groth16_params_writer_open(&w, path);
    if (st) return st;
    const void *pts[CUZK_PARAMS_SECTIONS] = {p->h, p->l, p->a, p->b_g1, p->b_g2};
    const size_t n[CUZK_PARAMS_SECTIONS] = {p->h_len, p->l_len, p->a_len, p->b_g1_len, p->b_g2_len};
    st = cuzk_groth16_params_writer_vk(w, &p->vk);
    for (int k = 0; k < CUZK_PARAMS_SECTIONS && !st; k++) st = cuzk_groth16_params_writer_section(w, k, pts[k], n[k]);
    if (st) {
        cuzk_groth16_params_writer_abort(w);
        return st;
    }
    return cuzk_groth16_params_writer_commit(w);
}

/* ---------------------------------------------------------------- proofs */

void cuzk_groth16_proof_encode(uint8_t out[CUZK_GROTH16_PROOF_BYTES], const cuzk_groth16_proof *p)
{
    cuzk_g1_encode(out, &p->a, true);
    cuzk_g2_encode(out + 48, &p->b, true);
    cuzk_g1_encode(out + 144, &p->c, true);
}

cuzk_status cuzk_groth16_proof_decode(cuzk_groth16_proof *p, const uint8_t in[CUZK_GROTH16_PROOF_BYTES])
{
    int flags = CUZK_POINT_CHECKED | CUZK_POINT_NO_INFINITY;
    cuzk_status st = cuzk_g1_decode(&p->a, in, 48, flags);
    if (st) return cuzk_fail_context(st, "proof A (bytes 0..48)");
    st = cuzk_g2_decode(&p->b, in + 48, 96, flags);
    if (st) return cuzk_fail_context(st, "proof B (bytes 48..144)");
    st = cuzk_g1_decode(&p->c, in + 144, 48, flags);
    if (st) return cuzk_fail_context(st, "proof C (bytes 144..192)");
    return CUZK_OK;
}

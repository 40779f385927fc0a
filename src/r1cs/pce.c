/* The precompiled circuit: compression, evaluation, file format (include/cuzk/pce.h). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/pce.h"

#include "pce_internal.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

/* ---------------------------------------------------------------- compression */

static cuzk_status compute_density(cuzk_pce *p)
{
    if (cuzk_density_init(&p->a_aux, p->num_aux) || cuzk_density_init(&p->b_input, p->num_inputs) ||
        cuzk_density_init(&p->b_aux, p->num_aux))
        return CUZK_ENOMEM;
    size_t ni = p->num_inputs;
    for (size_t j = 0; j < p->nnz[0]; j++)
        if (p->col[0][j] >= ni) cuzk_density_set(&p->a_aux, p->col[0][j] - ni);
    for (size_t j = 0; j < p->nnz[1]; j++) {
        uint32_t c = p->col[1][j];
        if (c < ni) cuzk_density_set(&p->b_input, c);
        else cuzk_density_set(&p->b_aux, c - ni);
    }
    return CUZK_OK;
}

cuzk_status cuzk_pce_from_r1cs(cuzk_pce *out, cuzk_r1cs *m, cuzk_cs_mark_t *marks, size_t nmarks)
{
    memset(out, 0, sizeof *out);
    out->num_constraints = m->num_constraints;
    out->num_inputs = m->num_inputs;
    out->num_aux = m->num_aux;
    out->marks = marks;
    out->nmarks = nmarks;
    coeff_table t;
    cuzk_status st = coeff_table_init(&t);
    for (int k = 0; k < 3 && !st; k++) {
        out->row_ptr[k] = m->row_ptr[k];
        out->col[k] = m->col[k];
        out->nnz[k] = m->nnz[k];
        m->row_ptr[k] = NULL;
        m->col[k] = NULL;
        out->coeff[k] = malloc((m->nnz[k] ? m->nnz[k] : 1) * sizeof(uint32_t));
        if (!out->coeff[k]) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
        for (size_t j = 0; j < m->nnz[k] && !st; j++) st = coeff_table_add(&t, &m->val[k][j], &out->coeff[k][j]);
    }
    cuzk_r1cs_free(m);
    if (!st) st = cuzk_pce_finish(out, &t);
    else coeff_table_free(&t);
    if (st) cuzk_pce_free(out);
    return st;
}

cuzk_status cuzk_pce_finish(cuzk_pce *p, coeff_table *t)
{
    p->coeffs = t->values;
    p->ncoeffs = t->n;
    t->values = NULL;
    coeff_table_free(t);
    return compute_density(p);
}

void cuzk_pce_free(cuzk_pce *p)
{
    for (int k = 0; k < 3; k++) {
        free(p->row_ptr[k]);
        free(p->col[k]);
        free(p->coeff[k]);
    }
    free(p->coeffs);
    free(p->marks);
    cuzk_density_free(&p->a_aux);
    cuzk_density_free(&p->b_input);
    cuzk_density_free(&p->b_aux);
    memset(p, 0, sizeof *p);
}

cuzk_status cuzk_pce_to_r1cs(const cuzk_pce *p, cuzk_r1cs *out)
{
    memset(out, 0, sizeof *out);
    out->num_constraints = p->num_constraints;
    out->num_inputs = p->num_inputs;
    out->num_aux = p->num_aux;
    for (int k = 0; k < 3; k++) {
        size_t n = p->nnz[k] ? p->nnz[k] : 1;
        out->row_ptr[k] = malloc((p->num_constraints + 1) * sizeof(uint32_t));
        out->col[k] = malloc(n * sizeof(uint32_t));
        out->val[k] = malloc(n * sizeof(cuzk_fr));
        out->nnz[k] = p->nnz[k];
        if (!out->row_ptr[k] || !out->col[k] || !out->val[k]) {
            cuzk_r1cs_free(out);
            return cuzk_fail(CUZK_ENOMEM, "out of memory");
        }
        memcpy(out->row_ptr[k], p->row_ptr[k], (p->num_constraints + 1) * sizeof(uint32_t));
        memcpy(out->col[k], p->col[k], p->nnz[k] * sizeof(uint32_t));
        for (size_t j = 0; j < p->nnz[k]; j++) out->val[k][j] = p->coeffs[p->coeff[k][j]];
    }
    return CUZK_OK;
}

/* ---------------------------------------------------------------- evaluation */

typedef struct {
    const cuzk_pce *p;
    const cuzk_fr *input, *aux;
    cuzk_fr *out[3];
} eval_ctx;

static void eval_range(void *vctx, size_t b, size_t e, unsigned tid)
{
    const eval_ctx *x = vctx;
    const cuzk_pce *p = x->p;
    size_t ni = p->num_inputs;
    for (int k = 0; k < 3; k++) {
        const uint32_t *rp = p->row_ptr[k], *col = p->col[k], *ci = p->coeff[k];
        cuzk_fr *out = x->out[k];
        for (size_t row = b; row < e; row++) {
            cuzk_fr acc = CUZK_FR_ZERO, t;
            for (uint32_t j = rp[row]; j < rp[row + 1]; j++) {
                uint32_t c = col[j];
                const cuzk_fr *v = c < ni ? &x->input[c] : &x->aux[c - ni];
                switch (ci[j]) {
                case CUZK_PCE_ONE: cuzk_fr_add(&acc, &acc, v); break;
                case CUZK_PCE_MINUS_ONE: cuzk_fr_sub(&acc, &acc, v); break;
                default:
                    /* most values are bits (packing rows weight bits by powers of two): a
                     * zero adds nothing and a one adds the coefficient, no multiplication */
                    if (cuzk_fr_is_zero(v)) break;
                    if (cuzk_fr_is_one(v)) {
                        cuzk_fr_add(&acc, &acc, &p->coeffs[ci[j]]);
                        break;
                    }
                    cuzk_fr_mul(&t, v, &p->coeffs[ci[j]]);
                    cuzk_fr_add(&acc, &acc, &t);
                }
            }
            out[row] = acc;
        }
    }
}

void cuzk_pce_evaluate(const cuzk_pce *p, const cuzk_fr *input, const cuzk_fr *aux, cuzk_fr *a, cuzk_fr *b, cuzk_fr *c)
{
    eval_ctx x = {p, input, aux, {a, b, c}};
    cuzk_parallel_for(p->num_constraints, 8192, eval_range, &x);
    for (size_t i = 0; i < p->num_inputs; i++) { /* appended Input(i) * 0 = 0 rows */
        a[p->num_constraints + i] = input[i];
        b[p->num_constraints + i] = CUZK_FR_ZERO;
        c[p->num_constraints + i] = CUZK_FR_ZERO;
    }
}

/* ---------------------------------------------------------------- file */

/* Version 2: the checksum covers the header (all but the checksum itself) as well as the body;
 * version 1 left the counts outside it. */
#define PCE_MAGIC "CUZKPCE1"
#define PCE_VERSION 2u
#define PCE_HEADER 64

typedef struct {
    char magic[8];
    uint32_t version, reserved;
    uint64_t num_constraints, num_inputs, num_aux, ncoeffs, nmarks, checksum;
} pce_header;
_Static_assert(sizeof(pce_header) == PCE_HEADER, "PCE header is 64 bytes");
#define PCE_HASHED_HEADER offsetof(pce_header, checksum)

typedef struct {
    char label[48];
    uint64_t constraint, input, aux;
} pce_mark_disk;

/* The body's sections in order: (pointer, bytes). */
typedef struct {
    void *ptr;
    size_t bytes;
} section;

static size_t density_bytes(size_t bits) { return ((bits + 63) / 64) * sizeof(uint64_t); }

static int layout(const cuzk_pce *p, const uint64_t nnz[3], section s[16])
{
    int n = 0;
    for (int k = 0; k < 3; k++) {
        s[n++] = (section){p->row_ptr[k], (p->num_constraints + 1) * sizeof(uint32_t)};
        s[n++] = (section){p->col[k], nnz[k] * sizeof(uint32_t)};
        s[n++] = (section){p->coeff[k], nnz[k] * sizeof(uint32_t)};
    }
    s[n++] = (section){p->coeffs, p->ncoeffs * sizeof(cuzk_fr)};
    s[n++] = (section){p->a_aux.words, density_bytes(p->num_aux)};
    s[n++] = (section){p->b_input.words, density_bytes(p->num_inputs)};
    s[n++] = (section){p->b_aux.words, density_bytes(p->num_aux)};
    return n;
}

typedef cuzk_status (*pce_sink)(void *ctx, const void *data, size_t n);

/* The file's bytes, in order, through put: header, nnz, sections, marks. Labels are written up
 * to their NUL and zero-padded, so equal circuits give equal files. */
static cuzk_status pce_emit(const cuzk_pce *p, pce_sink put, void *ctx)
{
    uint64_t nnz[3] = {p->nnz[0], p->nnz[1], p->nnz[2]};
    section s[16];
    int ns = layout(p, nnz, s);
    pce_mark_disk *marks = calloc(p->nmarks + 1, sizeof *marks);
    if (!marks) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    for (size_t i = 0; i < p->nmarks; i++) {
        strncpy(marks[i].label, p->marks[i].label, sizeof marks[i].label - 1);
        marks[i].constraint = p->marks[i].constraint;
        marks[i].input = p->marks[i].input;
        marks[i].aux = p->marks[i].aux;
    }
    pce_header hd;
    memset(&hd, 0, sizeof hd);
    memcpy(hd.magic, PCE_MAGIC, 8);
    hd.version = PCE_VERSION;
    hd.num_constraints = p->num_constraints;
    hd.num_inputs = p->num_inputs;
    hd.num_aux = p->num_aux;
    hd.ncoeffs = p->ncoeffs;
    hd.nmarks = p->nmarks;
    XXH64_state_t *h = XXH64_createState();
    if (!h) {
        free(marks);
        return cuzk_fail(CUZK_ENOMEM, "out of memory");
    }
    XXH64_reset(h, 0);
    XXH64_update(h, &hd, PCE_HASHED_HEADER);
    XXH64_update(h, nnz, sizeof nnz);
    for (int i = 0; i < ns; i++) XXH64_update(h, s[i].ptr, s[i].bytes);
    XXH64_update(h, marks, p->nmarks * sizeof *marks);
    hd.checksum = XXH64_digest(h);
    XXH64_freeState(h);
    cuzk_status st = put(ctx, &hd, sizeof hd);
    if (!st) st = put(ctx, nnz, sizeof nnz);
    for (int i = 0; i < ns && !st; i++) st = put(ctx, s[i].ptr, s[i].bytes);
    if (!st) st = put(ctx, marks, p->nmarks * sizeof *marks);
    free(marks);
    return st;
}

static cuzk_status put_file(void *ctx, const void *data, size_t n) { return cuzk_out_write(ctx, data, n); }

cuzk_status cuzk_pce_save(const cuzk_pce *p, const char *path)
{
    cuzk_out_file f;
    cuzk_status st = cuzk_out_open(&f, path);
    if (st) return st;
    st = pce_emit(p, put_file, &f);
    if (!st) return cuzk_out_commit(&f);
    cuzk_out_abort(&f);
    return st;
}

typedef struct {
    uint8_t *buf;
    size_t len, cap;
} mem_sink;

static cuzk_status put_mem(void *ctx, const void *data, size_t n)
{
    mem_sink *m = ctx;
    if (n > m->cap - m->len) {
        size_t cap = m->cap ? m->cap : 4096;
        while (n > cap - m->len) {
            if (cap > SIZE_MAX / 2) return cuzk_fail(CUZK_ENOMEM, "out of memory");
            cap *= 2;
        }
        uint8_t *b = realloc(m->buf, cap);
        if (!b) return cuzk_fail(CUZK_ENOMEM, "out of memory");
        m->buf = b;
        m->cap = cap;
    }
    if (n) memcpy(m->buf + m->len, data, n);
    m->len += n;
    return CUZK_OK;
}

cuzk_status cuzk_pce_encode(const cuzk_pce *p, uint8_t **out, size_t *len)
{
    mem_sink m = {NULL, 0, 0};
    cuzk_status st = pce_emit(p, put_mem, &m);
    if (st) {
        free(m.buf);
        m.buf = NULL;
        m.len = 0;
    }
    *out = m.buf;
    *len = m.len;
    return st;
}

/* A stored coefficient is Montgomery limbs; below r as an integer, or blst's arithmetic on it
 * is not field arithmetic. */
static bool limbs_below_r(const cuzk_fr *x)
{
    for (int i = 31; i >= 0; i--) {
        uint8_t b = (uint8_t)(x->l[i / 8] >> (8 * (i % 8)));
        if (b != CUZK_FR_MODULUS_LE[i]) return b < CUZK_FR_MODULUS_LE[i];
    }
    return false;
}

static cuzk_status validate(const cuzk_pce *p, const char *path)
{
    size_t nv = p->num_inputs + p->num_aux;
    for (int k = 0; k < 3; k++) {
        const uint32_t *rp = p->row_ptr[k];
        if (rp[0] != 0 || rp[p->num_constraints] != p->nnz[k])
            return cuzk_fail(CUZK_EFORMAT, "%s: matrix %c row offsets do not span its %zu terms", path, "ABC"[k],
                             p -> nnz[k]);
        for (size_t r = 0; r < p->num_constraints; r++)
            if (rp[r + 1] < rp[r])
                return cuzk_fail(CUZK_EFORMAT, "%s: matrix %c row %zu has a negative length", path, "ABC"[k], r);
        for (size_t j = 0; j < p->nnz[k]; j++) {
            if (p->col[k][j] >= nv)
                return cuzk_fail(CUZK_EFORMAT, "%s: matrix %c term %zu refers to variable %u of %zu", path, "ABC"[k], j,
                                 p -> col[k][j], nv);
            if (p->coeff[k][j] >= p->ncoeffs)
                return cuzk_fail(CUZK_EFORMAT, "%s: matrix %c term %zu refers to coefficient %u of %zu", path, "ABC"[k],
                                 j, p -> coeff[k][j], p -> ncoeffs);
        }
    }
    cuzk_fr minus_one;
    cuzk_fr_neg(&minus_one, &CUZK_FR_ONE);
    if (p->ncoeffs < 2 || !cuzk_fr_eq(&p->coeffs[0], &CUZK_FR_ONE) || !cuzk_fr_eq(&p->coeffs[1], &minus_one))
        return cuzk_fail(CUZK_EFORMAT, "%s: the coefficient table does not start with 1, -1", path);
    for (size_t i = 0; i < p->ncoeffs; i++)
        if (!limbs_below_r(&p->coeffs[i]))
            return cuzk_fail(CUZK_EFORMAT, "%s: coefficient %zu is not a field element below r", path, i);
    const cuzk_cs_mark_t *prev = NULL;
    for (size_t i = 0; i < p->nmarks; prev = &p->marks[i], i++) {
        const cuzk_cs_mark_t *m = &p->marks[i];
        if (m->constraint > p->num_constraints || m->input > p->num_inputs || m->aux > p->num_aux ||
            (prev && (m->constraint < prev->constraint || m->input < prev->input || m->aux < prev->aux)))
            return cuzk_fail(CUZK_EFORMAT,
                             "%s: mark %zu (at constraint %zu, input %zu, aux %zu) is not within the circuit's %zu, "
                             "%zu, %zu after the mark before it",
                             path, i, m->constraint, m->input, m->aux, p->num_constraints, p->num_inputs, p->num_aux);
    }
    return CUZK_OK;
}

/* The densities the file holds must be the ones its matrices give (no bit beyond the
 * variables, none missing, none extra). */
static cuzk_status check_density(const cuzk_pce *p, const char *path)
{
    cuzk_pce d;
    memset(&d, 0, sizeof d);
    d.num_inputs = p->num_inputs;
    d.num_aux = p->num_aux;
    for (int k = 0; k < 3; k++) {
        d.col[k] = p->col[k];
        d.nnz[k] = p->nnz[k];
    }
    cuzk_status st = compute_density(&d);
    const cuzk_density *mine[3] = {&d.a_aux, &d.b_input, &d.b_aux};
    const cuzk_density *file[3] = {&p->a_aux, &p->b_input, &p->b_aux};
    static const char *names[3] = {"A's aux", "B's input", "B's aux"};
    for (int k = 0; k < 3 && !st; k++) {
        size_t words = (file[k]->bits + 63) / 64;
        for (size_t w = 0; w < words && !st; w++) {
            uint64_t x = file[k]->words[w] ^ mine[k]->words[w];
            if (!x) continue;
            size_t bit = w * 64 + (size_t)__builtin_ctzll(x);
            if (bit >= file[k]->bits)
                st =
                    cuzk_fail(CUZK_EFORMAT, "%s: the density of %s variables has bit %zu set, beyond its %zu variables",
                              path, names[k], bit, file[k]->bits);
            else
                st = cuzk_fail(CUZK_EFORMAT,
                               "%s: the density of %s variables says variable %zu is %s, but matrix %c %s it", path,
                               names[k], bit, (file[k]->words[w] >> (bit % 64)) & 1 ? "used" : "unused",
                               k == 0 ? 'A' : 'B', (file[k]->words[w] >> (bit % 64)) & 1 ? "never uses" : "uses");
        }
    }
    cuzk_density_free(&d.a_aux);
    cuzk_density_free(&d.b_input);
    cuzk_density_free(&d.b_aux);
    return st;
}

cuzk_status cuzk_pce_parse(cuzk_pce *p, const uint8_t *data, size_t size, const char *path)
{
    memset(p, 0, sizeof *p);
    cuzk_status st = CUZK_OK;
    pce_header hd;
    uint64_t nnz[3];
    if (size < PCE_HEADER + sizeof nnz)
        return cuzk_fail(CUZK_EFORMAT, "%s: %zu bytes is too short for a precompiled circuit", path, size);
    memcpy(&hd, data, sizeof hd);
    memcpy(nnz, data + PCE_HEADER, sizeof nnz);
    if (memcmp(hd.magic, PCE_MAGIC, 8) != 0)
        return cuzk_fail(CUZK_EFORMAT, "%s: not a cuzk precompiled circuit (bad magic)", path);
    if (hd.version == 1)
        return cuzk_fail(CUZK_EUNSUPPORTED,
                         "%s: precompiled circuit format version 1 (its header is not under the checksum); this build "
                         "reads version %u: remove the file to have it recorded again",
                         path, PCE_VERSION);
    if (hd.version != PCE_VERSION)
        return cuzk_fail(CUZK_EFORMAT, "%s: precompiled circuit version %u, this build reads version %u", path,
                         hd.version, PCE_VERSION);
    /* each count on its own, so that no sum or product of them wraps */
    const uint64_t lim = (uint64_t)1 << 40;
    if (hd.reserved != 0 || hd.num_constraints > UINT32_MAX || hd.num_inputs > UINT32_MAX || hd.num_aux > UINT32_MAX ||
        hd.num_inputs + hd.num_aux > UINT32_MAX || hd.ncoeffs > lim || hd.nmarks > lim || nnz[0] > UINT32_MAX ||
        nnz[1] > UINT32_MAX || nnz[2] > UINT32_MAX)
        return cuzk_fail(CUZK_EFORMAT,
                         "%s: header counts are out of range (%llu constraints, %llu inputs, %llu aux, terms %llu, "
                         "%llu, %llu: at most 2^32 - 1 each, inputs + aux too)",
                         path, (unsigned long long)hd.num_constraints, (unsigned long long)hd.num_inputs,
                         (unsigned long long)hd.num_aux, (unsigned long long)nnz[0], (unsigned long long)nnz[1],
                         (unsigned long long)nnz[2]);
    uint64_t want = PCE_HEADER + sizeof nnz + 3 * (hd.num_constraints + 1) * 4 + 8 * (nnz[0] + nnz[1] + nnz[2]) +
        hd.ncoeffs * sizeof(cuzk_fr) + 2 * density_bytes(hd.num_aux) + density_bytes(hd.num_inputs) +
        hd.nmarks * sizeof(pce_mark_disk);
    if (want != size)
        return cuzk_fail(CUZK_EFORMAT,
                         "%s: the header describes %llu bytes but the file has %zu (truncated or corrupted)", path,
                         (unsigned long long)want, size);
    /* the counts are only compared so far; nothing is sized from them before the checksum holds */
    XXH64_state_t *h = XXH64_createState();
    if (!h) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    XXH64_reset(h, 0);
    XXH64_update(h, data, PCE_HASHED_HEADER);
    XXH64_update(h, data + PCE_HEADER, size - PCE_HEADER);
    uint64_t sum = XXH64_digest(h);
    XXH64_freeState(h);
    if (sum != hd.checksum) return cuzk_fail(CUZK_EFORMAT, "%s: checksum mismatch (the file is corrupted)", path);
    p->num_constraints = hd.num_constraints;
    p->num_inputs = hd.num_inputs;
    p->num_aux = hd.num_aux;
    p->ncoeffs = hd.ncoeffs;
    p->nmarks = hd.nmarks;
    for (int k = 0; k < 3; k++) {
        p->nnz[k] = nnz[k];
        p->row_ptr[k] = malloc((p->num_constraints + 1) * sizeof(uint32_t));
        p->col[k] = malloc((nnz[k] ? nnz[k] : 1) * sizeof(uint32_t));
        p->coeff[k] = malloc((nnz[k] ? nnz[k] : 1) * sizeof(uint32_t));
    }
    p->coeffs = malloc((p->ncoeffs ? p->ncoeffs : 1) * sizeof(cuzk_fr));
    p->marks = calloc(p->nmarks + 1, sizeof *p->marks);
    if (cuzk_density_init(&p->a_aux, p->num_aux) || cuzk_density_init(&p->b_input, p->num_inputs) ||
        cuzk_density_init(&p->b_aux, p->num_aux)) {
        st = CUZK_ENOMEM;
        goto out;
    }
    section s[16];
    int ns = layout(p, nnz, s);
    for (int i = 0; i < ns; i++)
        if (!s[i].ptr) {
            st = cuzk_fail(CUZK_ENOMEM, "out of memory loading %s", path);
            goto out;
        }
    if (!p->marks) {
        st = cuzk_fail(CUZK_ENOMEM, "out of memory loading %s", path);
        goto out;
    }
    size_t o = PCE_HEADER + sizeof nnz;
    for (int i = 0; i < ns; i++) {
        memcpy(s[i].ptr, data + o, s[i].bytes);
        o += s[i].bytes;
    }
    for (size_t i = 0; i < p->nmarks; i++, o += sizeof(pce_mark_disk)) {
        pce_mark_disk d;
        memcpy(&d, data + o, sizeof d);
        size_t n = strnlen(d.label, sizeof d.label);
        bool padded = n < sizeof d.label;
        for (size_t b = n; b < sizeof d.label; b++) padded = padded && d.label[b] == 0;
        if (!padded) {
            st =
                cuzk_fail(CUZK_EFORMAT, "%s: mark %zu: the label is not a NUL-terminated, zero-padded string", path, i);
            goto out;
        }
        memcpy(p->marks[i].label, d.label, sizeof d.label);
        p->marks[i].constraint = d.constraint;
        p->marks[i].input = d.input;
        p->marks[i].aux = d.aux;
    }
    st = validate(p, path);
    if (!st) st = check_density(p, path);
    if (!st) {
        cuzk_density *ds[3] = {&p->a_aux, &p->b_input, &p->b_aux};
        for (int k = 0; k < 3; k++) {
            ds[k]->popcount = 0;
            for (size_t w = 0; w < (ds[k]->bits + 63) / 64; w++)
                ds[k]->popcount += (size_t)__builtin_popcountll(ds[k]->words[w]);
        }
    }
out:
    if (st) cuzk_pce_free(p);
    return st;
}

cuzk_status cuzk_pce_load(cuzk_pce *p, const char *path)
{
    memset(p, 0, sizeof *p);
    cuzk_mapped_file f;
    cuzk_status st = cuzk_map_file(&f, path);
    if (st) return st;
    st = cuzk_pce_parse(p, f.data, f.size, path);
    cuzk_unmap_file(&f);
    return st;
}

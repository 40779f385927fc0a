/* Sparse R1CS matrices: incremental building, bellperson densities, evaluation. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/r1cs.h"

cuzk_status cuzk_density_init(cuzk_density *d, size_t bits)
{
    d->bits = bits;
    d->popcount = 0;
    d->words = cuzk_calloc((bits + 63) / 64 + 1, sizeof(uint64_t));
    return d->words ? CUZK_OK : CUZK_ENOMEM;
}

void cuzk_density_set(cuzk_density *d, size_t i)
{
    uint64_t bit = (uint64_t)1 << (i % 64);
    if (!(d->words[i / 64] & bit)) {
        d->words[i / 64] |= bit;
        d->popcount++;
    }
}

void cuzk_density_free(cuzk_density *d)
{
    free(d->words);
    memset(d, 0, sizeof *d);
}

void cuzk_r1cs_free(cuzk_r1cs *m)
{
    for (int k = 0; k < 3; k++) {
        free(m->row_ptr[k]);
        free(m->col[k]);
        free(m->val[k]);
    }
    memset(m, 0, sizeof *m);
}

cuzk_status cuzk_r1cs_builder_init(cuzk_r1cs_builder *b, size_t num_inputs)
{
    memset(b, 0, sizeof *b);
    b->m.num_inputs = num_inputs;
    b->cap_rows = 64;
    for (int k = 0; k < 3; k++) {
        b->cap_nnz[k] = 128;
        b->m.row_ptr[k] = malloc((b->cap_rows + 1) * sizeof(uint32_t));
        b->m.col[k] = malloc(b->cap_nnz[k] * sizeof(uint32_t));
        b->m.val[k] = malloc(b->cap_nnz[k] * sizeof(cuzk_fr));
        if (!b->m.row_ptr[k] || !b->m.col[k] || !b->m.val[k]) {
            cuzk_r1cs_builder_free(b);
            return cuzk_fail(CUZK_ENOMEM, "out of memory building an R1CS");
        }
        b->m.row_ptr[k][0] = 0;
    }
    return CUZK_OK;
}

cuzk_status cuzk_r1cs_builder_term(cuzk_r1cs_builder *b, int which, size_t col, const cuzk_fr *coeff)
{
    cuzk_r1cs *m = &b->m;
    if (col > UINT32_MAX) return cuzk_fail(CUZK_EINVAL, "R1CS column %zu does not fit 32 bits", col);
    for (size_t t = b->row_start[which]; t < m->nnz[which]; t++) {
        if (m->col[which][t] != col) continue;
        cuzk_fr_add(&m->val[which][t], &m->val[which][t], coeff);
        if (cuzk_fr_is_zero(&m->val[which][t])) { /* cancelled: drop the term */
            m->nnz[which]--;
            m->col[which][t] = m->col[which][m->nnz[which]];
            m->val[which][t] = m->val[which][m->nnz[which]];
        }
        return CUZK_OK;
    }
    if (cuzk_fr_is_zero(coeff)) return CUZK_OK;
    if (m->nnz[which] == b->cap_nnz[which]) {
        size_t cap = b->cap_nnz[which] * 2;
        uint32_t *c = realloc(m->col[which], cap * sizeof(uint32_t));
        if (c) m->col[which] = c;
        cuzk_fr *v = realloc(m->val[which], cap * sizeof(cuzk_fr));
        if (v) m->val[which] = v;
        if (!c || !v) return cuzk_fail(CUZK_ENOMEM, "out of memory building an R1CS");
        b->cap_nnz[which] = cap;
    }
    if (m->nnz[which] >= UINT32_MAX) return cuzk_fail(CUZK_EINVAL, "R1CS has more than 2^32 terms");
    m->col[which][m->nnz[which]] = (uint32_t)col;
    m->val[which][m->nnz[which]] = *coeff;
    m->nnz[which]++;
    return CUZK_OK;
}

cuzk_status cuzk_r1cs_builder_row(cuzk_r1cs_builder *b)
{
    cuzk_r1cs *m = &b->m;
    if (m->num_constraints + 1 == b->cap_rows) {
        size_t cap = b->cap_rows * 2;
        for (int k = 0; k < 3; k++) {
            uint32_t *r = realloc(m->row_ptr[k], (cap + 1) * sizeof(uint32_t));
            if (!r) return cuzk_fail(CUZK_ENOMEM, "out of memory building an R1CS");
            m->row_ptr[k] = r;
        }
        b->cap_rows = cap;
    }
    m->num_constraints++;
    for (int k = 0; k < 3; k++) {
        m->row_ptr[k][m->num_constraints] = (uint32_t)m->nnz[k];
        b->row_start[k] = m->nnz[k];
    }
    return CUZK_OK;
}

cuzk_status cuzk_r1cs_builder_finish(cuzk_r1cs_builder *b, size_t num_aux, cuzk_r1cs *out)
{
    b->m.num_aux = num_aux;
    size_t vars = b->m.num_inputs + num_aux;
    for (int k = 0; k < 3; k++)
        for (size_t t = 0; t < b->m.nnz[k]; t++)
            if (b->m.col[k][t] >= vars)
                return cuzk_fail(CUZK_EINTERNAL, "R1CS term refers to variable %u of %zu", b->m.col[k][t], vars);
    *out = b->m;
    memset(b, 0, sizeof *b);
    return CUZK_OK;
}

void cuzk_r1cs_builder_free(cuzk_r1cs_builder *b)
{
    cuzk_r1cs_free(&b->m);
    memset(b, 0, sizeof *b);
}

cuzk_status cuzk_r1cs_density(const cuzk_r1cs *m, cuzk_density *a_aux, cuzk_density *b_input, cuzk_density *b_aux)
{
    memset(a_aux, 0, sizeof *a_aux);
    memset(b_input, 0, sizeof *b_input);
    memset(b_aux, 0, sizeof *b_aux);
    if (cuzk_density_init(a_aux, m->num_aux) || cuzk_density_init(b_input, m->num_inputs) ||
        cuzk_density_init(b_aux, m->num_aux)) {
        cuzk_density_free(a_aux);
        cuzk_density_free(b_input);
        cuzk_density_free(b_aux);
        return CUZK_ENOMEM;
    }
    size_t ni = m->num_inputs;
    for (size_t t = 0; t < m->nnz[CUZK_MAT_A]; t++)
        if (m->col[CUZK_MAT_A][t] >= ni && !cuzk_fr_is_zero(&m->val[CUZK_MAT_A][t]))
            cuzk_density_set(a_aux, m->col[CUZK_MAT_A][t] - ni);
    for (size_t t = 0; t < m->nnz[CUZK_MAT_B]; t++) {
        if (cuzk_fr_is_zero(&m->val[CUZK_MAT_B][t])) continue;
        uint32_t c = m->col[CUZK_MAT_B][t];
        if (c < ni) cuzk_density_set(b_input, c);
        else cuzk_density_set(b_aux, c - ni);
    }
    return CUZK_OK;
}

typedef struct {
    const cuzk_r1cs *m;
    const cuzk_fr *input, *aux;
    cuzk_fr *out[3];
} eval_ctx;

static inline const cuzk_fr *var_value(const eval_ctx *e, uint32_t col)
{
    return col < e->m->num_inputs ? &e->input[col] : &e->aux[col - e->m->num_inputs];
}

/* out = (row of matrix k) · w */
static void eval_row(const eval_ctx *x, int k, size_t row, cuzk_fr *out)
{
    const uint32_t *rp = x->m->row_ptr[k], *col = x->m->col[k];
    const cuzk_fr *val = x->m->val[k];
    cuzk_fr acc = CUZK_FR_ZERO, t;
    for (uint32_t j = rp[row]; j < rp[row + 1]; j++) {
        const cuzk_fr *v = var_value(x, col[j]);
        if (cuzk_fr_is_one(&val[j])) {
            cuzk_fr_add(&acc, &acc, v);
        } else {
            cuzk_fr_mul(&t, v, &val[j]);
            cuzk_fr_add(&acc, &acc, &t);
        }
    }
    *out = acc;
}

static void eval_rows(void *vctx, size_t b, size_t e, unsigned tid)
{
    eval_ctx *x = vctx;
    for (int k = 0; k < 3; k++)
        for (size_t row = b; row < e; row++) eval_row(x, k, row, &x->out[k][row]);
}

void cuzk_r1cs_evaluate(const cuzk_r1cs *m, const cuzk_fr *input, const cuzk_fr *aux, cuzk_fr *a, cuzk_fr *b,
                        cuzk_fr *c)
{
    eval_ctx x = {m, input, aux, {a, b, c}};
    cuzk_parallel_for(m->num_constraints, 1024, eval_rows, &x);
    for (size_t i = 0; i < m->num_inputs; i++) {
        a[m->num_constraints + i] = input[i];
        b[m->num_constraints + i] = CUZK_FR_ZERO;
        c[m->num_constraints + i] = CUZK_FR_ZERO;
    }
}

long cuzk_r1cs_first_unsatisfied(const cuzk_r1cs *m, const cuzk_fr *input, const cuzk_fr *aux)
{
    eval_ctx x = {m, input, aux, {NULL, NULL, NULL}};
    cuzk_fr abc[3];
    for (size_t row = 0; row < m->num_constraints; row++) {
        for (int k = 0; k < 3; k++) eval_row(&x, k, row, &abc[k]);
        cuzk_fr ab;
        cuzk_fr_mul(&ab, &abc[0], &abc[1]);
        if (!cuzk_fr_eq(&ab, &abc[2])) return (long)row;
    }
    return -1;
}

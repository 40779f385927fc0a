/* The constraint system and its five backends (see include/cuzk/cs.h). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/cs.h"
#include "pce_internal.h"

typedef struct {
    cuzk_term *terms; /* A, B, C terms back to back */
    uint32_t n[3];
    char *path;
} test_constraint;

struct cuzk_cs_backend {
    /* TEST */
    test_constraint *tc;
    size_t ntc, tc_cap;
    char ns[1024];
    size_t ns_len, ns_stack[64];
    int ns_depth;
    /* PROVE */
    cuzk_fr *abc[3];
    size_t abc_cap;
    uint64_t *dens[3]; /* a_aux, b_input, b_aux */
    size_t dens_words[3];
    /* RECORD: compressed as it goes (column, coefficient index) over one coefficient table */
    uint32_t *row_ptr[3], *col[3], *cidx[3];
    coeff_table coeffs;
    size_t nnz[3], nnz_cap[3], rows_cap;
    cuzk_cs_mark_t *marks;
    size_t nmarks, marks_cap;
    cuzk_progress *progress; /* constraints recorded (not owned) */
};

cuzk_status cuzk_cs_fail(cuzk_cs *cs, cuzk_status st)
{
    if (cs->status == CUZK_OK) cs->status = st;
    cs->keep_lcs = false; /* everything after the first failure is a no-op */
    return cs->status;
}

/* Grows *p (elements of size sz) to hold at least `need` elements. */
static int grow(cuzk_cs *cs, void **p, size_t *cap, size_t need, size_t sz)
{
    if (need <= *cap) return 0;
    size_t c = *cap ? *cap : 1024;
    while (c < need) c *= 2;
    void *q = realloc(*p, c * sz);
    if (!q) {
        cuzk_cs_fail(cs, cuzk_fail(CUZK_ENOMEM, "out of memory growing a constraint system to %zu entries", need));
        return -1;
    }
    *p = q;
    *cap = c;
    return 0;
}

cuzk_status cuzk_cs_create(cuzk_cs **out, cuzk_cs_mode mode, bool values)
{
    *out = NULL;
    cuzk_cs *cs = calloc(1, sizeof *cs);
    if (!cs || !(cs->be = calloc(1, sizeof *cs->be))) {
        free(cs);
        return cuzk_fail(CUZK_ENOMEM, "out of memory");
    }
    cs->mode = mode;
    cs->values = mode == CUZK_CS_COUNT ? values : mode != CUZK_CS_RECORD;
    cs->keep_lcs = mode == CUZK_CS_TEST || mode == CUZK_CS_PROVE || mode == CUZK_CS_RECORD;
    if (mode == CUZK_CS_RECORD) {
        if (coeff_table_init(&cs->be->coeffs)) {
            cuzk_cs_destroy(cs);
            return CUZK_ENOMEM;
        }
        for (int k = 0; k < 3; k++) {
            cs->be->row_ptr[k] = malloc(1024 * sizeof(uint32_t));
            if (!cs->be->row_ptr[k]) {
                cuzk_cs_destroy(cs);
                return cuzk_fail(CUZK_ENOMEM, "out of memory");
            }
            cs->be->row_ptr[k][0] = 0;
        }
        cs->be->rows_cap = 1023;
    }
    cuzk_cs_alloc_input(cs, &CUZK_FR_ONE);
    if (cs->status) {
        cuzk_status st = cs->status;
        cuzk_cs_destroy(cs);
        return st;
    }
    *out = cs;
    return CUZK_OK;
}

void cuzk_cs_destroy(cuzk_cs *cs)
{
    if (!cs) return;
    cuzk_cs_backend *be = cs->be;
    if (be) {
        for (size_t i = 0; i < be->ntc; i++) {
            free(be->tc[i].terms);
            free(be->tc[i].path);
        }
        free(be->tc);
        for (int k = 0; k < 3; k++) {
            free(be->abc[k]);
            free(be->dens[k]);
            free(be->row_ptr[k]);
            free(be->col[k]);
            free(be->cidx[k]);
        }
        coeff_table_free(&be->coeffs);
        free(be->marks);
        free(be);
    }
    for (int k = 0; k < 3; k++) cuzk_lc_free(&cs->lc[k]);
    free(cs->scratch);
    free(cs->memo);
    if (!cs->borrowed) {
        free(cs->input_vals);
        free(cs->aux_vals);
    }
    free(cs);
}

void *cuzk_cs_scratch(cuzk_cs *cs, size_t bytes)
{
    if (bytes <= cs->scratch_cap) return cs->scratch;
    void *p = malloc(bytes);
    if (!p) {
        cuzk_cs_fail(cs, cuzk_fail(CUZK_ENOMEM, "out of memory for %zu bytes of gadget scratch", bytes));
        return NULL;
    }
    free(cs->scratch);
    cs->scratch = p;
    cs->scratch_cap = bytes;
    return p;
}

void *cuzk_cs_memo(cuzk_cs *cs, size_t bytes)
{
    if (cs->memo) {
        if (cs->memo_size == bytes) return cs->memo;
        cuzk_cs_fail(cs,
                     cuzk_fail(CUZK_EINTERNAL, "gadget memo asked for %zu bytes, made with %zu", bytes, cs->memo_size));
        return NULL;
    }
    if (!(cs->memo = calloc(1, bytes))) {
        cuzk_cs_fail(cs, cuzk_fail(CUZK_ENOMEM, "out of memory for %zu bytes of gadget memo", bytes));
        return NULL;
    }
    cs->memo_size = bytes;
    return cs->memo;
}

/* Exactly `need` elements (a reservation is a bound that WITNESS children rely on). */
static int reserve_exact(cuzk_cs *cs, void **p, size_t *cap, size_t need, size_t sz)
{
    if (need <= *cap) return 0;
    void *q = realloc(*p, (need ? need : 1) * sz);
    if (!q) {
        cuzk_cs_fail(cs, cuzk_fail(CUZK_ENOMEM, "out of memory reserving %zu entries", need));
        return -1;
    }
    *p = q;
    *cap = need;
    return 0;
}

cuzk_status cuzk_cs_reserve(cuzk_cs *cs, size_t num_inputs, size_t num_aux, size_t num_constraints)
{
    if (cs->values && !cs->borrowed) {
        if (reserve_exact(cs, (void **)&cs->input_vals, &cs->input_cap, num_inputs, sizeof(cuzk_fr)) ||
            reserve_exact(cs, (void **)&cs->aux_vals, &cs->aux_cap, num_aux, sizeof(cuzk_fr)))
            return cs->status;
    }
    if (cs->mode == CUZK_CS_PROVE) {
        size_t cap = cs->be->abc_cap;
        for (int k = 0; k < 3; k++) {
            cap = cs->be->abc_cap;
            if (grow(cs, (void **)&cs->be->abc[k], &cap, num_constraints + num_inputs, sizeof(cuzk_fr)))
                return cs->status;
        }
        cs->be->abc_cap = cap;
    }
    return cs->status;
}

cuzk_status cuzk_cs_use_buffers(cuzk_cs *cs, cuzk_fr *input, size_t input_cap, cuzk_fr *aux, size_t aux_cap)
{
    if (!cs->values || cs->borrowed)
        return cuzk_fail(CUZK_EINVAL, "assignment buffers need an owning system with values");
    if (cs->num_inputs > input_cap || cs->num_aux > aux_cap)
        return cuzk_fail(CUZK_EINVAL, "assignment buffers smaller than what is already allocated");
    if (cs->num_inputs) memcpy(input, cs->input_vals, cs->num_inputs * sizeof(cuzk_fr));
    if (cs->num_aux) memcpy(aux, cs->aux_vals, cs->num_aux * sizeof(cuzk_fr));
    free(cs->input_vals);
    free(cs->aux_vals);
    cs->input_vals = input;
    cs->aux_vals = aux;
    cs->input_cap = input_cap;
    cs->aux_cap = aux_cap;
    cs->borrowed = true;
    return CUZK_OK;
}

/* Density bitmaps grow with the variables (PROVE). */
static int density_fit(cuzk_cs *cs, int k, size_t bits)
{
    size_t words = (bits + 63) / 64 + 1;
    if (words <= cs->be->dens_words[k]) return 0;
    size_t old = cs->be->dens_words[k], cap = old;
    if (grow(cs, (void **)&cs->be->dens[k], &cap, words, sizeof(uint64_t))) return -1;
    memset(cs->be->dens[k] + old, 0, (cap - old) * sizeof(uint64_t));
    cs->be->dens_words[k] = cap;
    return 0;
}

static cuzk_var alloc_var(cuzk_cs *cs, const cuzk_fr *value, bool input)
{
    if (cs->status) return input ? 0 : CUZK_VAR_AUX;
    size_t idx = input ? cs->num_inputs : cs->num_aux;
    if (idx >= CUZK_VAR_AUX) {
        cuzk_cs_fail(cs, cuzk_fail(CUZK_EUNSUPPORTED, "more than 2^31 variables"));
        return 0;
    }
    if (cs->values) {
        cuzk_fr **vals = input ? &cs->input_vals : &cs->aux_vals;
        size_t *cap = input ? &cs->input_cap : &cs->aux_cap;
        if (idx >= *cap) {
            if (cs->borrowed) {
                cuzk_cs_fail(cs, cuzk_fail(CUZK_EINTERNAL, "witness sub-circuit ran past its reserved variables"));
                return 0;
            }
            if (grow(cs, (void **)vals, cap, idx + 1, sizeof(cuzk_fr))) return 0;
        }
        (*vals)[idx] = value ? *value : CUZK_FR_ZERO;
    }
    if (cs->mode == CUZK_CS_PROVE) {
        if (input ? density_fit(cs, 1, idx + 1) : (density_fit(cs, 0, idx + 1) || density_fit(cs, 2, idx + 1)))
            return 0;
    }
    if (input) {
        cs->num_inputs++;
        return (cuzk_var)idx;
    }
    cs->num_aux++;
    return (cuzk_var)idx | CUZK_VAR_AUX;
}

cuzk_var cuzk_cs_alloc(cuzk_cs *cs, const cuzk_fr *value) { return alloc_var(cs, value, false); }

cuzk_fr *cuzk_cs_witness_block(cuzk_cs *cs, size_t n_aux, size_t n_constraints, cuzk_var *first)
{
    *first = CUZK_VAR_AUX;
    if (cs->status) return NULL;
    if (cs->mode != CUZK_CS_WITNESS) {
        cuzk_cs_fail(cs, cuzk_fail(CUZK_EINTERNAL, "a witness block outside WITNESS mode"));
        return NULL;
    }
    size_t idx = cs->num_aux;
    if (n_aux > CUZK_VAR_AUX - idx) {
        cuzk_cs_fail(cs, cuzk_fail(CUZK_EUNSUPPORTED, "more than 2^31 variables"));
        return NULL;
    }
    if (idx + n_aux > cs->aux_cap) {
        if (cs->borrowed) {
            cuzk_cs_fail(cs, cuzk_fail(CUZK_EINTERNAL, "witness sub-circuit ran past its reserved variables"));
            return NULL;
        }
        if (grow(cs, (void **)&cs->aux_vals, &cs->aux_cap, idx + n_aux, sizeof(cuzk_fr))) return NULL;
    }
    cs->num_aux += n_aux;
    cs->num_constraints += n_constraints;
    *first = (cuzk_var)idx | CUZK_VAR_AUX;
    return cs->aux_vals + idx;
}
cuzk_var cuzk_cs_alloc_input(cuzk_cs *cs, const cuzk_fr *value) { return alloc_var(cs, value, true); }

/* ---------------------------------------------------------------- enforce */

static void set_bit(uint64_t *w, size_t i) { w[i / 64] |= (uint64_t)1 << (i % 64); }

/* bellperson's eval_with_trackers: zero coefficients are skipped and not counted. */
static void prove_eval(cuzk_cs *cs, const cuzk_lc *lc, cuzk_fr *out, uint64_t *dens_in, uint64_t *dens_aux)
{
    cuzk_fr acc = CUZK_FR_ZERO, t;
    for (uint32_t i = 0; i < lc->n; i++) {
        const cuzk_term *term = &lc->t[i];
        if (cuzk_fr_is_zero(&term->coeff)) continue;
        const cuzk_fr *v = cuzk_cs_value(cs, term->var);
        if (cuzk_fr_is_one(&term->coeff)) cuzk_fr_add(&acc, &acc, v);
        else {
            cuzk_fr_mul(&t, v, &term->coeff);
            cuzk_fr_add(&acc, &acc, &t);
        }
        uint32_t idx = cuzk_var_index(term->var);
        if (cuzk_var_is_aux(term->var)) {
            if (dens_aux) set_bit(dens_aux, idx);
        } else if (dens_in) {
            set_bit(dens_in, idx);
        }
    }
    *out = acc;
}

static void enforce_prove(cuzk_cs *cs)
{
    cuzk_cs_backend *be = cs->be;
    size_t row = cs->num_constraints;
    if (row >= be->abc_cap) {
        size_t cap = be->abc_cap;
        for (int k = 0; k < 3; k++) {
            cap = be->abc_cap;
            if (grow(cs, (void **)&be->abc[k], &cap, row + 1, sizeof(cuzk_fr))) return;
        }
        be->abc_cap = cap;
    }
    prove_eval(cs, &cs->lc[0], &be->abc[0][row], NULL, be->dens[0]);
    prove_eval(cs, &cs->lc[1], &be->abc[1][row], be->dens[1], be->dens[2]);
    prove_eval(cs, &cs->lc[2], &be->abc[2][row], NULL, NULL);
}

/* Grows one matrix's columns and coefficient indices of cs to hold `need` entries. */
static int grow_nnz(cuzk_cs *cs, int k, size_t need)
{
    cuzk_cs_backend *be = cs->be;
    size_t cap = be->nnz_cap[k];
    if (grow(cs, (void **)&be->col[k], &cap, need, sizeof(uint32_t))) return -1;
    cap = be->nnz_cap[k];
    if (grow(cs, (void **)&be->cidx[k], &cap, need, sizeof(uint32_t))) return -1;
    be->nnz_cap[k] = cap;
    return 0;
}

/* Grows the three matrices' row ends of cs to hold indices up to rows + 1 (one of slack),
 * rows_cap + 1 entries each. */
static int grow_rows(cuzk_cs *cs, size_t rows)
{
    cuzk_cs_backend *be = cs->be;
    if (rows + 1 < be->rows_cap) return 0;
    size_t cap = 0;
    for (int k = 0; k < 3; k++) {
        cap = be->rows_cap + 1;
        if (grow(cs, (void **)&be->row_ptr[k], &cap, rows + 2, sizeof(uint32_t))) return -1;
    }
    be->rows_cap = cap - 1;
    return 0;
}

static void enforce_record(cuzk_cs *cs)
{
    cuzk_cs_backend *be = cs->be;
    size_t row = cs->num_constraints;
    if ((row & 0x3fff) == 0 && row) cuzk_progress_set(be->progress, row);
    if (grow_rows(cs, row)) return;
    for (int k = 0; k < 3; k++) {
        const cuzk_lc *lc = &cs->lc[k];
        size_t need = be->nnz[k] + lc->n;
        if (need > UINT32_MAX) {
            cuzk_cs_fail(cs, cuzk_fail(CUZK_EUNSUPPORTED, "a matrix has more than 2^32 nonzero terms"));
            return;
        }
        if (grow_nnz(cs, k, need)) return;
        for (uint32_t i = 0; i < lc->n; i++) {
            if (cuzk_fr_is_zero(&lc->t[i].coeff)) continue; /* as RecordingCS: zero terms dropped */
            cuzk_status st = coeff_table_add(&be->coeffs, &lc->t[i].coeff, &be->cidx[k][be->nnz[k]]);
            if (st) {
                cuzk_cs_fail(cs, st);
                return;
            }
            be->col[k][be->nnz[k]] = lc->t[i].var; /* aux flag kept until finish */
            be->nnz[k]++;
        }
        be->row_ptr[k][row + 1] = (uint32_t)be->nnz[k];
    }
}

static void enforce_test(cuzk_cs *cs, const char *name)
{
    cuzk_cs_backend *be = cs->be;
    if (grow(cs, (void **)&be->tc, &be->tc_cap, be->ntc + 1, sizeof *be->tc)) return;
    test_constraint *c = &be->tc[be->ntc];
    size_t total = (size_t)cs->lc[0].n + cs->lc[1].n + cs->lc[2].n;
    c->terms = malloc((total ? total : 1) * sizeof(cuzk_term));
    size_t plen = be->ns_len + strlen(name ? name : "") + 2;
    c->path = malloc(plen);
    if (!c->terms || !c->path) {
        free(c->terms);
        free(c->path);
        cuzk_cs_fail(cs, cuzk_fail(CUZK_ENOMEM, "out of memory"));
        return;
    }
    snprintf(c->path, plen, "%.*s/%s", (int)be->ns_len, be->ns, name ? name : "");
    size_t o = 0;
    for (int k = 0; k < 3; k++) {
        if (cs->lc[k].n) memcpy(c->terms + o, cs->lc[k].t, cs->lc[k].n * sizeof(cuzk_term));
        c->n[k] = cs->lc[k].n;
        o += cs->lc[k].n;
    }
    be->ntc++;
}

void cuzk_cs_enforce(cuzk_cs *cs, const char *name)
{
    if (cs->status) return;
    switch (cs->mode) {
    case CUZK_CS_PROVE: enforce_prove(cs); break;
    case CUZK_CS_RECORD: enforce_record(cs); break;
    case CUZK_CS_TEST: enforce_test(cs, name); break;
    default: break;
    }
    if (cs->status) return;
    cs->num_constraints++;
    for (int k = 0; k < 3; k++) cuzk_lc_clear(&cs->lc[k]);
}

void cuzk_cs_set_progress(cuzk_cs *cs, cuzk_progress *p)
{
    if (cs->mode == CUZK_CS_RECORD) cs->be->progress = p;
}

void cuzk_cs_set_stop(cuzk_cs *cs, const cuzk_cancel *stop) { cs->stop = stop; }

/* ---------------------------------------------------------------- namespaces, marks */

void cuzk_cs_push(cuzk_cs *cs, const char *fmt, ...)
{
    if (cs->mode != CUZK_CS_TEST) return;
    cuzk_cs_backend *be = cs->be;
    if (be->ns_depth < 64) be->ns_stack[be->ns_depth] = be->ns_len;
    be->ns_depth++;
    if (be->ns_len + 2 >= sizeof be->ns) return;
    be->ns[be->ns_len++] = '/';
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(be->ns + be->ns_len, sizeof be->ns - be->ns_len, fmt, ap);
    va_end(ap);
    if (n > 0) be->ns_len += (size_t)n < sizeof be->ns - be->ns_len ? (size_t)n : sizeof be->ns - be->ns_len - 1;
}

void cuzk_cs_pop(cuzk_cs *cs)
{
    if (cs->mode != CUZK_CS_TEST) return;
    cuzk_cs_backend *be = cs->be;
    if (be->ns_depth == 0) return;
    be->ns_depth--;
    if (be->ns_depth < 64) be->ns_len = be->ns_stack[be->ns_depth];
}

static void add_mark(cuzk_cs *cs, const char *label, size_t constraint, size_t input, size_t aux)
{
    cuzk_cs_backend *be = cs->be;
    if (grow(cs, (void **)&be->marks, &be->marks_cap, be->nmarks + 1, sizeof *be->marks)) return;
    cuzk_cs_mark_t *m = &be->marks[be->nmarks++];
    snprintf(m->label, sizeof m->label, "%s", label);
    m->constraint = constraint;
    m->input = input;
    m->aux = aux;
}

void cuzk_cs_mark(cuzk_cs *cs, const char *label)
{
    if ((cs->mode != CUZK_CS_RECORD && cs->mode != CUZK_CS_COUNT) || cs->status) return;
    add_mark(cs, label, cs->num_constraints, cs->num_inputs, cs->num_aux);
}

cuzk_status cuzk_cs_take_marks(cuzk_cs *cs, cuzk_cs_mark_t **marks, size_t *nmarks)
{
    *marks = cs->be->marks;
    *nmarks = cs->be->nmarks;
    cs->be->marks = NULL;
    cs->be->nmarks = cs->be->marks_cap = 0;
    return cs->status;
}

/* ---------------------------------------------------------------- TEST queries */

long cuzk_cs_which_unsatisfied(const cuzk_cs *cs, const char **path)
{
    if (cs->mode != CUZK_CS_TEST) return -1;
    const cuzk_cs_backend *be = cs->be;
    for (size_t i = 0; i < be->ntc; i++) {
        const test_constraint *c = &be->tc[i];
        cuzk_fr v[3];
        size_t o = 0;
        for (int k = 0; k < 3; k++) {
            cuzk_lc lc = {c->terms + o, c->n[k], c->n[k]};
            cuzk_lc_eval(cs, &lc, &v[k]);
            o += c->n[k];
        }
        cuzk_fr ab;
        cuzk_fr_mul(&ab, &v[0], &v[1]);
        if (!cuzk_fr_eq(&ab, &v[2])) {
            if (path) *path = c->path;
            return (long)i;
        }
    }
    return -1;
}

size_t cuzk_cs_test_constraint_count(const cuzk_cs *cs) { return cs->mode == CUZK_CS_TEST ? cs->be->ntc : 0; }

/* ---------------------------------------------------------------- WITNESS children */

cuzk_status cuzk_cs_witness_child(cuzk_cs *parent, size_t input_offset, size_t aux_offset, cuzk_cs **out)
{
    *out = NULL;
    if (parent->mode != CUZK_CS_WITNESS) return cuzk_fail(CUZK_EINVAL, "witness children exist only in WITNESS mode");
    if (input_offset > parent->input_cap || aux_offset > parent->aux_cap)
        return cuzk_fail(CUZK_EINVAL, "witness child offsets are beyond the reserved assignment");
    cuzk_cs *cs = calloc(1, sizeof *cs);
    if (!cs || !(cs->be = calloc(1, sizeof *cs->be))) {
        free(cs);
        return cuzk_fail(CUZK_ENOMEM, "out of memory");
    }
    cs->mode = CUZK_CS_WITNESS;
    cs->values = true;
    cs->borrowed = true;
    cs->input_vals = parent->input_vals;
    cs->aux_vals = parent->aux_vals;
    cs->input_cap = parent->input_cap;
    cs->aux_cap = parent->aux_cap;
    cs->num_inputs = input_offset;
    cs->num_aux = aux_offset;
    *out = cs;
    return CUZK_OK;
}

/* ---------------------------------------------------------------- RECORD children */

cuzk_status cuzk_cs_record_child(const cuzk_cs *parent, size_t input_offset, size_t aux_offset, cuzk_cs **out)
{
    *out = NULL;
    if (parent->mode != CUZK_CS_RECORD) return cuzk_fail(CUZK_EINVAL, "record children exist only in RECORD mode");
    cuzk_cs *cs;
    cuzk_status st = cuzk_cs_create(&cs, CUZK_CS_RECORD, false);
    if (st) return st;
    /* create allocated ONE as input 0; the child's variables start where its part starts */
    cs->num_inputs = input_offset;
    cs->num_aux = aux_offset;
    *out = cs;
    return CUZK_OK;
}

/* Where one child's rows go in the parent, and its coefficients' parent indices. */
typedef struct {
    const cuzk_cs *child;
    size_t row0, base[3];
    uint32_t *map;
} append_slot;

typedef struct {
    cuzk_cs_backend *be;
    append_slot *slot;
} append_job;

/* Copies child i's rows into their place: columns as they are (aux flags are resolved at
 * finish), coefficient indices through the child's map, row ends shifted. */
static void append_rows(void *vctx, size_t i, size_t end, unsigned tid)
{
    (void)tid;
    append_job *j = vctx;
    for (; i < end; i++) {
        const append_slot *a = &j->slot[i];
        const cuzk_cs_backend *cb = a->child->be;
        size_t rows = a->child->num_constraints;
        for (int k = 0; k < 3; k++) {
            size_t base = a->base[k], add = cb->nnz[k];
            if (add) memcpy(j->be->col[k] + base, cb->col[k], add * sizeof(uint32_t));
            for (size_t e = 0; e < add; e++) j->be->cidx[k][base + e] = a->map[cb->cidx[k][e]];
            for (size_t r = 1; r <= rows; r++) j->be->row_ptr[k][a->row0 + r] = (uint32_t)(base + cb->row_ptr[k][r]);
        }
    }
}

cuzk_status cuzk_cs_record_append(cuzk_cs *parent, cuzk_cs *const *children, size_t n, const char *mark)
{
    if (parent->status) return parent->status;
    if (parent->mode != CUZK_CS_RECORD)
        return cuzk_cs_fail(parent, cuzk_fail(CUZK_EINVAL, "record_append: not a RECORD system"));
    cuzk_cs_backend *be = parent->be;
    append_slot *slot = calloc(n ? n : 1, sizeof *slot);
    if (!slot) return cuzk_cs_fail(parent, cuzk_fail(CUZK_ENOMEM, "out of memory"));
    /* in order, on this thread: the marks, each child's place and its coefficients added to the
     * parent's table in the child's index order (its order of first use), so the indices are
     * those one child after another on the parent would have given */
    size_t rows = parent->num_constraints, nnz[3] = {be->nnz[0], be->nnz[1], be->nnz[2]};
    size_t ni = parent->num_inputs, na = parent->num_aux;
    cuzk_status st = CUZK_OK;
    for (size_t i = 0; i < n && !st; i++) {
        const cuzk_cs *ch = children[i];
        if (ch->status) st = ch->status;
        else if (ch->mode != CUZK_CS_RECORD)
            st = cuzk_fail(CUZK_EINVAL, "record_append: a child is not a RECORD system");
        else if (ch->num_inputs < ni || ch->num_aux < na)
            st = cuzk_fail(CUZK_EINTERNAL, "record_append: child %zu starts before the one before it ends", i);
        if (st) break;
        if (mark) {
            add_mark(parent, mark, rows, ni, na); /* where this child starts */
            if ((st = parent->status)) break;
        }
        const coeff_table *ct = &ch->be->coeffs;
        slot[i].child = ch;
        slot[i].row0 = rows;
        slot[i].map = malloc((ct->n ? ct->n : 1) * sizeof(uint32_t));
        if (!slot[i].map) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
        for (size_t c = 0; c < ct->n && !st; c++) st = coeff_table_add(&be->coeffs, &ct->values[c], &slot[i].map[c]);
        for (int k = 0; k < 3; k++) {
            slot[i].base[k] = nnz[k];
            nnz[k] += ch->be->nnz[k];
            if (nnz[k] > UINT32_MAX) st = cuzk_fail(CUZK_EUNSUPPORTED, "a matrix has more than 2^32 nonzero terms");
        }
        rows += ch->num_constraints;
        ni = ch->num_inputs;
        na = ch->num_aux;
    }
    /* room for all of them at once, then their rows copied in parallel */
    if (!st) grow_rows(parent, rows);
    for (int k = 0; k < 3 && !st && !parent->status; k++) grow_nnz(parent, k, nnz[k]);
    if (!st && !parent->status) {
        append_job j = {be, slot};
        cuzk_parallel_tasks(n, append_rows, &j);
        for (int k = 0; k < 3; k++) be->nnz[k] = nnz[k];
        parent->num_constraints = rows;
        parent->num_inputs = ni;
        parent->num_aux = na;
        cuzk_progress_set(be->progress, rows);
    }
    for (size_t i = 0; i < n; i++) free(slot[i].map);
    free(slot);
    if (st) return cuzk_cs_fail(parent, st);
    return parent->status;
}

/* ---------------------------------------------------------------- outputs */

static void popcount_into(cuzk_density *d, uint64_t *words, size_t bits)
{
    d->words = words;
    d->bits = bits;
    d->popcount = 0;
    size_t nw = (bits + 63) / 64;
    if (nw && bits % 64) words[nw - 1] &= ((uint64_t)1 << (bits % 64)) - 1;
    for (size_t i = 0; i < nw; i++) d->popcount += (size_t)__builtin_popcountll(words[i]);
}

cuzk_status cuzk_cs_finish_prove(cuzk_cs *cs, cuzk_prove_result *out)
{
    memset(out, 0, sizeof *out);
    if (cs->status) return cs->status;
    if (cs->mode != CUZK_CS_PROVE) return cuzk_fail(CUZK_EINVAL, "not a PROVE constraint system");
    cuzk_cs_backend *be = cs->be;
    size_t n = cs->num_constraints + cs->num_inputs;
    for (int k = 0; k < 3; k++) {
        size_t cap = be->abc_cap;
        if (grow(cs, (void **)&be->abc[k], &cap, n, sizeof(cuzk_fr))) return cs->status;
        if (k == 2) be->abc_cap = cap;
    }
    for (int k = 0; k < 3; k++) /* every density array exists, even with no variables */
        if (density_fit(cs, k, 1)) return cs->status;
    /* bellperson appends Input(i) * 0 = 0 after synthesis: a = input_i, b = c = 0 */
    for (size_t i = 0; i < cs->num_inputs; i++) {
        be->abc[0][cs->num_constraints + i] = cs->input_vals[i];
        be->abc[1][cs->num_constraints + i] = CUZK_FR_ZERO;
        be->abc[2][cs->num_constraints + i] = CUZK_FR_ZERO;
    }
    out->a = be->abc[0];
    out->b = be->abc[1];
    out->c = be->abc[2];
    out->n = n;
    out->input = cs->input_vals;
    out->aux = cs->aux_vals ? cs->aux_vals : calloc(1, sizeof(cuzk_fr));
    out->num_inputs = cs->num_inputs;
    out->num_aux = cs->num_aux;
    popcount_into(&out->a_aux, be->dens[0], cs->num_aux);
    popcount_into(&out->b_input, be->dens[1], cs->num_inputs);
    popcount_into(&out->b_aux, be->dens[2], cs->num_aux);
    for (int k = 0; k < 3; k++) {
        be->abc[k] = NULL;
        be->dens[k] = NULL;
        be->dens_words[k] = 0;
    }
    be->abc_cap = 0;
    cs->input_vals = cs->aux_vals = NULL;
    cs->input_cap = cs->aux_cap = 0;
    return out->aux ? CUZK_OK : cuzk_fail(CUZK_ENOMEM, "out of memory");
}

void cuzk_prove_result_free(cuzk_prove_result *r)
{
    free(r->a);
    free(r->b);
    free(r->c);
    free(r->input);
    free(r->aux);
    cuzk_density_free(&r->a_aux);
    cuzk_density_free(&r->b_input);
    cuzk_density_free(&r->b_aux);
    memset(r, 0, sizeof *r);
}

/* Moves the recorded rows into p (aux columns remapped past the final input count). */
static cuzk_status take_record(cuzk_cs *cs, cuzk_pce *p)
{
    memset(p, 0, sizeof *p);
    if (cs->status) return cs->status;
    if (cs->mode != CUZK_CS_RECORD) return cuzk_fail(CUZK_EINVAL, "not a RECORD constraint system");
    cuzk_cs_backend *be = cs->be;
    size_t ni = cs->num_inputs;
    if (ni + cs->num_aux > UINT32_MAX) return cuzk_fail(CUZK_EUNSUPPORTED, "too many variables for 32-bit columns");
    p->num_constraints = cs->num_constraints;
    p->num_inputs = ni;
    p->num_aux = cs->num_aux;
    for (int k = 0; k < 3; k++) {
        /* inputs interleave with aux during synthesis, so aux columns move past the final
         * input count only now */
        for (size_t j = 0; j < be->nnz[k]; j++) {
            uint32_t c = be->col[k][j];
            if (c & CUZK_VAR_AUX) be->col[k][j] = (uint32_t)(ni + (c & ~CUZK_VAR_AUX));
        }
        p->row_ptr[k] = be->row_ptr[k];
        p->col[k] = be->col[k] ? be->col[k] : calloc(1, sizeof(uint32_t));
        p->coeff[k] = be->cidx[k] ? be->cidx[k] : calloc(1, sizeof(uint32_t));
        p->nnz[k] = be->nnz[k];
        be->row_ptr[k] = be->col[k] = be->cidx[k] = NULL;
        be->nnz[k] = be->nnz_cap[k] = 0;
    }
    p->marks = be->marks;
    p->nmarks = be->nmarks;
    be->marks = NULL;
    be->nmarks = be->marks_cap = 0;
    cuzk_status st = CUZK_OK;
    for (int k = 0; k < 3; k++)
        if (!p->col[k] || !p->coeff[k]) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
    if (!st) st = cuzk_pce_finish(p, &be->coeffs);
    if (st) cuzk_pce_free(p);
    return st;
}

cuzk_status cuzk_cs_finish_record_pce(cuzk_cs *cs, cuzk_pce *p) { return take_record(cs, p); }

cuzk_status cuzk_cs_finish_record(cuzk_cs *cs, cuzk_r1cs *m, cuzk_cs_mark_t **marks, size_t *nmarks)
{
    memset(m, 0, sizeof *m);
    if (marks) *marks = NULL;
    if (nmarks) *nmarks = 0;
    cuzk_pce p;
    cuzk_status st = take_record(cs, &p);
    if (!st) st = cuzk_pce_to_r1cs(&p, m);
    if (!st && marks) {
        *marks = p.marks;
        *nmarks = p.nmarks;
        p.marks = NULL;
    }
    cuzk_pce_free(&p);
    return st;
}

/* ---------------------------------------------------------------- constants */

#include <pthread.h>
static cuzk_fr pow2_table[256];
static pthread_once_t pow2_once = PTHREAD_ONCE_INIT;

static void pow2_init(void)
{
    pow2_table[0] = CUZK_FR_ONE;
    for (int k = 1; k < 256; k++) cuzk_fr_add(&pow2_table[k], &pow2_table[k - 1], &pow2_table[k - 1]);
}

const cuzk_fr *cuzk_fr_pow2(unsigned k)
{
    pthread_once(&pow2_once, pow2_init);
    return &pow2_table[k & 255];
}

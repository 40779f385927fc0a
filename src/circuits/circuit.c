/* The built-in circuit registry and the conveniences over constraint systems. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/builtin.h"

static const cuzk_circuit_def *const FAMILIES[] = {
    &cuzk_circuit_cubic,
    &cuzk_circuit_random,
    &cuzk_circuit_random_parts,
    &cuzk_circuit_parts,
    &cuzk_circuit_porep,
    &cuzk_circuit_porep_test,
    &cuzk_circuit_sha256_compress,
    &cuzk_circuit_sha256_bytes,
    &cuzk_circuit_poseidon,
    &cuzk_circuit_por,
    &cuzk_circuit_por_private,
};
#define NFAMILIES (sizeof FAMILIES / sizeof FAMILIES[0])

const char *cuzk_circuit_names(void)
{
    static char buf[4096];
    if (!buf[0]) {
        size_t o = 0;
        for (size_t i = 0; i < NFAMILIES && o < sizeof buf; i++)
            o += (size_t)snprintf(buf + o, sizeof buf - o, "  %s\n", FAMILIES[i]->help);
    }
    return buf;
}

const char *cuzk_circuit_example(size_t i) { return i < NFAMILIES ? FAMILIES[i]->example : NULL; }
size_t cuzk_circuit_family_count(void) { return NFAMILIES; }

cuzk_status cuzk_circuit_open(cuzk_circuit **out, const char *name)
{
    *out = NULL;
    const cuzk_circuit_def *def = NULL;
    const char *args = "";
    for (size_t i = 0; i < NFAMILIES && !def; i++) {
        const char *p = FAMILIES[i]->prefix;
        size_t n = strlen(p);
        if (p[n - 1] == ':' ? !strncmp(name, p, n) : !strcmp(name, p)) {
            def = FAMILIES[i];
            args = name + (p[n - 1] == ':' ? n : strlen(name));
        }
    }
    if (!def) return cuzk_fail(CUZK_EINVAL, "unknown circuit '%s'; known circuits:\n%s", name, cuzk_circuit_names());
    cuzk_circuit *c = calloc(1, sizeof *c);
    if (!c) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    snprintf(c->name, sizeof c->name, "%s", name);
    snprintf(c->shape_key, sizeof c->shape_key, "%s", name);
    c->def = def;
    cuzk_status st = def->open(c, args);
    if (st) {
        cuzk_circuit_free(c);
        return st;
    }
    *out = c;
    return CUZK_OK;
}

void cuzk_circuit_free(cuzk_circuit *c)
{
    if (!c) return;
    if (c->state && c->def->free_state) c->def->free_state(c->state);
    free(c);
}

cuzk_status cuzk_circuit_synthesize(const cuzk_circuit *c, cuzk_cs *cs, uint64_t seed)
{
    const cuzk_circuit_def *d = c->def;
    if (d->synthesize) {
        d->synthesize(c, cs, seed);
        return cuzk_cs_status(cs);
    }
    void *ctx = d->header(c, cs, seed);
    size_t n = d->nparts(c);
    for (size_t i = 0; i < n && !cs->status; i++) {
        cuzk_cs_mark(cs, "part");
        d->part(c, cs, seed, ctx, i);
    }
    if (d->free_ctx) d->free_ctx(ctx);
    return cuzk_cs_status(cs);
}

void cuzk_witness_free(cuzk_witness *w)
{
    cuzk_big_free(w->input, w->input_cap * sizeof(cuzk_fr));
    cuzk_big_free(w->aux, w->aux_cap * sizeof(cuzk_fr));
    memset(w, 0, sizeof *w);
}

/* Buffers of at least the layout's size (reused when large enough). */
static cuzk_status witness_buffers(cuzk_witness *w, size_t ni, size_t na)
{
    if (w->input_cap < ni) {
        cuzk_big_free(w->input, w->input_cap * sizeof(cuzk_fr));
        w->input_cap = ni;
        if (!(w->input = cuzk_big_alloc(ni * sizeof(cuzk_fr)))) w->input_cap = 0;
    }
    if (w->aux_cap < na || !w->aux) {
        cuzk_big_free(w->aux, w->aux_cap * sizeof(cuzk_fr));
        w->aux_cap = na ? na : 1;
        if (!(w->aux = cuzk_big_alloc(w->aux_cap * sizeof(cuzk_fr)))) w->aux_cap = 0;
    }
    return w->input && w->aux ? CUZK_OK : CUZK_ENOMEM;
}

typedef struct {
    const cuzk_circuit *c;
    cuzk_cs *parent;
    uint64_t seed;
    const void *ctx;
    const cuzk_cs_mark_t *marks;
    size_t nmarks, total_inputs, total_aux;
    cuzk_status *status; /* per part */
    char (*errors)[256];
} parts_job;

static void run_part(void *vctx, size_t i, size_t end, unsigned tid)
{
    parts_job *j = vctx;
    for (; i < end; i++) {
        cuzk_cs *child;
        cuzk_status st = cuzk_cs_witness_child(j->parent, j->marks[i].input, j->marks[i].aux, &child);
        if (!st) {
            j->c->def->part(j->c, child, j->seed, j->ctx, i);
            st = cuzk_cs_status(child);
            size_t want_in = i + 1 < j->nmarks ? j->marks[i + 1].input : j->total_inputs;
            size_t want_aux = i + 1 < j->nmarks ? j->marks[i + 1].aux : j->total_aux;
            if (!st && (child->num_inputs != want_in || child->num_aux != want_aux))
                st = cuzk_fail(CUZK_EINTERNAL, "part %zu allocated variables up to %zu/%zu, the count pass says %zu/%zu", i,
                               child->num_inputs, child->num_aux, want_in, want_aux);
            cuzk_cs_destroy(child);
        }
        j->status[i] = st;
        if (st) snprintf(j->errors[i], sizeof j->errors[i], "%s", cuzk_last_error());
    }
}

/* Parallel witness: the header runs on the parent, then the parts on children writing at
 * the offsets the layout marked. */
static cuzk_status witness_parallel(const cuzk_circuit *c, uint64_t seed, cuzk_cs *ws, const cuzk_circuit_layout *l)
{
    const cuzk_cs_mark_t *marks = l->marks;
    size_t nmarks = l->nmarks, ni = l->inputs, na = l->aux;
    size_t nparts = c->def->nparts(c);
    if (nmarks != nparts) return cuzk_fail(CUZK_EINTERNAL, "%zu parts but %zu marks", nparts, nmarks);
    void *ctx = c->def->header(c, ws, seed);
    cuzk_status st = cuzk_cs_status(ws);
    if (!st && nparts && (ws->num_inputs != marks[0].input || ws->num_aux != marks[0].aux))
        st = cuzk_fail(CUZK_EINTERNAL, "the header allocated %zu/%zu variables, the count pass says %zu/%zu",
                       ws->num_inputs, ws->num_aux, marks[0].input, marks[0].aux);
    if (!st && nparts) {
        parts_job j = {c, ws, seed, ctx, marks, nmarks, ni, na, calloc(nparts, sizeof(cuzk_status)),
                       calloc(nparts, 256)};
        if (!j.status || !j.errors) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
        else cuzk_parallel_tasks(nparts, run_part, &j);
        for (size_t i = 0; i < nparts && !st; i++)
            if (j.status[i]) st = cuzk_fail(j.status[i], "%s", j.errors[i]);
        free(j.status);
        free(j.errors);
        ws->num_inputs = ni; /* the children filled the rest */
        ws->num_aux = na;
    }
    if (ctx && c->def->free_ctx) c->def->free_ctx(ctx);
    return st;
}

cuzk_status cuzk_circuit_witness(const cuzk_circuit *c, uint64_t seed, bool parallel, cuzk_witness *w)
{
    const cuzk_circuit_layout *l;
    cuzk_status st = cuzk_circuit_layout_get(c, &l);
    if (!st) st = witness_buffers(w, l->inputs, l->aux);
    if (st) return st;
    w->num_inputs = w->num_aux = 0;
    cuzk_cs *cs;
    if ((st = cuzk_cs_create(&cs, CUZK_CS_WITNESS, true))) return st;
    st = cuzk_cs_use_buffers(cs, w->input, w->input_cap, w->aux, w->aux_cap);
    if (!st) {
        if (parallel && c->def->header && cuzk_threads() > 1) st = witness_parallel(c, seed, cs, l);
        else st = cuzk_circuit_synthesize(c, cs, seed);
    }
    if (!st && (cs->num_inputs != l->inputs || cs->num_aux != l->aux))
        st = cuzk_fail(CUZK_EINTERNAL, "the witness has %zu/%zu variables, the layout %zu/%zu", cs->num_inputs,
                       cs->num_aux, l->inputs, l->aux);
    if (!st) {
        w->num_inputs = cs->num_inputs;
        w->num_aux = cs->num_aux;
    }
    cuzk_cs_destroy(cs); /* the buffers stay with w */
    return st;
}

cuzk_status cuzk_circuit_count(const cuzk_circuit *c, cuzk_circuit_counts *out)
{
    const cuzk_circuit_layout *l;
    cuzk_status st = cuzk_circuit_layout_get(c, &l);
    if (st) return st;
    out->constraints = l->constraints;
    out->inputs = l->inputs;
    out->aux = l->aux;
    return CUZK_OK;
}

/* Layouts by (family, shape key), computed once. */
typedef struct layout_entry {
    const cuzk_circuit_def *def;
    char key[96];
    cuzk_circuit_layout layout;
    struct layout_entry *next;
} layout_entry;
static layout_entry *layouts;
static pthread_mutex_t layouts_lock = PTHREAD_MUTEX_INITIALIZER;

cuzk_status cuzk_circuit_layout_get(const cuzk_circuit *c, const cuzk_circuit_layout **out)
{
    pthread_mutex_lock(&layouts_lock);
    cuzk_status st = CUZK_OK;
    layout_entry *e;
    for (e = layouts; e; e = e->next)
        if (e->def == c->def && !strcmp(e->key, c->shape_key)) break;
    if (!e) {
        cuzk_cs *cs;
        st = cuzk_cs_create(&cs, CUZK_CS_COUNT, false);
        if (!st) {
            st = cuzk_circuit_synthesize(c, cs, 0);
            e = calloc(1, sizeof *e);
            if (!st && !e) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
            if (!st) {
                e->def = c->def;
                snprintf(e->key, sizeof e->key, "%s", c->shape_key);
                e->layout.constraints = cs->num_constraints;
                e->layout.inputs = cs->num_inputs;
                e->layout.aux = cs->num_aux;
                cuzk_cs_take_marks(cs, &e->layout.marks, &e->layout.nmarks);
                e->next = layouts;
                layouts = e;
            } else {
                free(e);
                e = NULL;
            }
            cuzk_cs_destroy(cs);
        }
    }
    pthread_mutex_unlock(&layouts_lock);
    *out = e ? &e->layout : NULL;
    return st;
}

cuzk_status cuzk_circuit_record(const cuzk_circuit *c, cuzk_r1cs *out)
{
    cuzk_cs *cs;
    cuzk_status st = cuzk_cs_create(&cs, CUZK_CS_RECORD, false);
    if (st) return st;
    st = cuzk_circuit_synthesize(c, cs, 0);
    if (!st) st = cuzk_cs_finish_record(cs, out, NULL, NULL);
    cuzk_cs_destroy(cs);
    return st;
}

cuzk_status cuzk_circuit_prove_input(const cuzk_circuit *c, uint64_t seed, cuzk_prove_result *out)
{
    cuzk_cs *cs;
    memset(out, 0, sizeof *out);
    cuzk_status st = cuzk_cs_create(&cs, CUZK_CS_PROVE, true);
    if (st) return st;
    st = cuzk_circuit_synthesize(c, cs, seed);
    if (!st) st = cuzk_cs_finish_prove(cs, out);
    cuzk_cs_destroy(cs);
    return st;
}

void cuzk_cs_emit_r1cs(cuzk_cs *cs, const cuzk_r1cs *m, const cuzk_fr *input, const cuzk_fr *aux)
{
    /* m's input i >= 1 becomes input base_in + i - 1, its aux k becomes aux base_aux + k */
    size_t base_in = cs->num_inputs, base_aux = cs->num_aux;
    for (size_t i = 1; i < m->num_inputs; i++) cuzk_cs_alloc_input(cs, cs->values ? &input[i] : NULL);
    for (size_t k = 0; k < m->num_aux; k++) cuzk_cs_alloc(cs, cs->values ? &aux[k] : NULL);
    size_t ni = m->num_inputs;
    for (size_t row = 0; row < m->num_constraints; row++) {
        for (int k = 0; k < 3; k++)
            for (uint32_t j = m->row_ptr[k][row]; j < m->row_ptr[k][row + 1]; j++) {
                uint32_t col = m->col[k][j];
                cuzk_var v = col == 0 ? CUZK_VAR_ONE
                             : col < ni ? (cuzk_var)(base_in + col - 1)
                                        : (cuzk_var)(base_aux + col - ni) | CUZK_VAR_AUX;
                cuzk_lc_add(cs, &cs->lc[k], v, &m->val[k][j]);
            }
        cuzk_cs_enforce(cs, "row");
    }
}

/* ---------------------------------------------------------------- matrix circuits */

void matrix_circuit_free(void *state)
{
    matrix_circuit *mc = state;
    cuzk_r1cs_free(&mc->r1cs);
    free(mc->gates);
    free(mc);
}

void matrix_circuit_synthesize(const cuzk_circuit *c, cuzk_cs *cs, uint64_t seed)
{
    const matrix_circuit *mc = c->state;
    cuzk_fr *input = NULL, *aux = NULL;
    if (cs->values) {
        input = calloc(mc->r1cs.num_inputs, sizeof(cuzk_fr));
        aux = calloc(mc->r1cs.num_aux + 1, sizeof(cuzk_fr));
        cuzk_status st = !input || !aux ? cuzk_fail(CUZK_ENOMEM, "out of memory") : mc->witness(mc, seed, input, aux);
        if (st) {
            cuzk_cs_fail(cs, st);
            free(input);
            free(aux);
            return;
        }
    }
    cuzk_cs_emit_r1cs(cs, &mc->r1cs, input, aux);
    free(input);
    free(aux);
}

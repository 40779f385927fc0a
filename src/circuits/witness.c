/* Circuit layouts (counts and part marks, computed once per shape) and witness generation,
 * sequential or with the parts of a circuit in parallel at the offsets of its layout. */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/circuits.h"
#include "parts_internal.h"

/* Layouts by (family, shape key), computed once. The list's lock is held only to find or
 * insert an entry; the COUNT pass runs under the entry's own lock, so two shapes count at the
 * same time and callers asking for the same shape wait for the one pass. A failed pass leaves
 * the entry not done, and the next caller counts again. */
typedef struct layout_entry {
    const cuzk_circuit_def *def;
    char key[96];
    pthread_mutex_t lock; /* guards done and layout */
    bool done;
    cuzk_circuit_layout layout;
    struct layout_entry *next;
} layout_entry;
static layout_entry *layouts;
static pthread_mutex_t layouts_lock = PTHREAD_MUTEX_INITIALIZER;

/* The entry of c's shape, inserted when missing (NULL: out of memory). */
static layout_entry *layout_entry_for(const cuzk_circuit *c)
{
    pthread_mutex_lock(&layouts_lock);
    layout_entry *e;
    for (e = layouts; e; e = e->next)
        if (e->def == c->def && !strcmp(e->key, c->shape_key)) break;
    if (!e && (e = calloc(1, sizeof *e))) {
        e->def = c->def;
        snprintf(e->key, sizeof e->key, "%s", c->shape_key);
        pthread_mutex_init(&e->lock, NULL);
        e->next = layouts;
        layouts = e;
    }
    pthread_mutex_unlock(&layouts_lock);
    return e;
}

static cuzk_status layout_count(const cuzk_circuit *c, cuzk_circuit_layout *out)
{
    cuzk_cs *cs;
    cuzk_status st = cuzk_cs_create(&cs, CUZK_CS_COUNT, false);
    if (st) return st;
    st = cuzk_circuit_synthesize(c, cs, 0);
    if (!st) {
        out->constraints = cs->num_constraints;
        out->inputs = cs->num_inputs;
        out->aux = cs->num_aux;
        cuzk_cs_take_marks(cs, &out->marks, &out->nmarks);
    }
    cuzk_cs_destroy(cs);
    return st;
}

cuzk_status cuzk_circuit_layout_get(const cuzk_circuit *c, const cuzk_circuit_layout **out)
{
    *out = NULL;
    layout_entry *e = layout_entry_for(c);
    if (!e) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    pthread_mutex_lock(&e->lock);
    cuzk_status st = CUZK_OK;
    if (!e->done && !(st = layout_count(c, &e->layout))) e->done = true;
    pthread_mutex_unlock(&e->lock);
    if (!st) *out = &e->layout;
    return st;
}

void cuzk_witness_free(cuzk_witness *w)
{
    cuzk_big_free(w->input, w->input_cap * sizeof(cuzk_fr));
    cuzk_big_free(w->aux, w->aux_cap * sizeof(cuzk_fr));
    memset(w, 0, sizeof *w);
}

cuzk_status cuzk_witness_reserve(cuzk_witness *w, size_t ni, size_t na)
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
    const cuzk_circuit_layout *l;
    cuzk_status *status; /* per part */
    char (*errors)[256];
} parts_job;

static void run_part(void *vctx, size_t i, size_t end, unsigned tid)
{
    parts_job *j = vctx;
    for (; i < end; i++) {
        cuzk_cs *child;
        cuzk_status st = cuzk_cs_witness_child(j->parent, j->l->marks[i].input, j->l->marks[i].aux, &child);
        if (!st) {
            j->c->def->part(j->c, child, j->seed, j->ctx, i);
            st = cuzk_cs_status(child);
            if (!st) st = parts_check_end(j->l, i, child);
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
    size_t nparts = c->def->nparts(c);
    if (l->nmarks != nparts) return cuzk_fail(CUZK_EINTERNAL, "%zu parts but %zu marks", nparts, l->nmarks);
    void *ctx = c->def->header(c, ws, seed);
    cuzk_status st = cuzk_cs_status(ws);
    if (!st) st = parts_check_header(l, ws);
    if (!st && nparts) {
        parts_job j = {c, ws, seed, ctx, l, calloc(nparts, sizeof(cuzk_status)), calloc(nparts, 256)};
        if (!j.status || !j.errors) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
        else cuzk_parallel_tasks(nparts, run_part, &j);
        for (size_t i = 0; i < nparts && !st; i++)
            if (j.status[i]) st = cuzk_fail(j.status[i], "%s", j.errors[i]);
        free(j.status);
        free(j.errors);
        ws->num_inputs = l->inputs; /* the children filled the rest */
        ws->num_aux = l->aux;
    }
    if (ctx && c->def->free_ctx) c->def->free_ctx(ctx);
    return st;
}

cuzk_status cuzk_circuit_witness(const cuzk_circuit *c, uint64_t seed, bool parallel, cuzk_witness *w)
{
    const cuzk_circuit_layout *l;
    cuzk_status st = cuzk_circuit_layout_get(c, &l);
    if (!st) st = cuzk_witness_reserve(w, l->inputs, l->aux);
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

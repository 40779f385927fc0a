/* RECORD synthesis with the parts of a circuit recorded in parallel: each part on a child
 * system starting at the offsets of the circuit's layout, appended to the parent in part order,
 * so the recorded matrices are those of one part after another, byte for byte. A WindowPoSt
 * partition (2349 sectors) or a PoRep partition (its challenges) is recorded by every core
 * instead of one. */
#include <stdio.h>
#include <stdlib.h>

#include "cuzk/circuits.h"
#include "parts_internal.h"

typedef struct {
    const cuzk_circuit *c;
    const cuzk_cs *parent;
    const void *ctx;
    const cuzk_circuit_layout *l;
    size_t first;     /* the batch's first part */
    cuzk_cs **child;  /* per part of the batch */
    cuzk_status *st;  /* per part of the batch */
    char (*err)[256]; /* per part of the batch */
} record_batch;

static void record_part(void *vctx, size_t k, size_t end, unsigned tid)
{
    (void)tid;
    record_batch *b = vctx;
    for (; k < end; k++) {
        size_t i = b->first + k;
        const cuzk_cs_mark_t *m = &b->l->marks[i];
        cuzk_cs *child = NULL;
        cuzk_status st = cuzk_cancel_check(b->parent->stop, "recording, between its parts");
        if (!st) st = cuzk_cs_record_child(b->parent, m->input, m->aux, &child);
        if (!st) {
            b->c->def->part(b->c, child, 0, b->ctx, i);
            st = cuzk_cs_status(child);
            if (!st) st = parts_check_end(b->l, i, child);
        }
        b->child[k] = child;
        b->st[k] = st;
        if (st) snprintf(b->err[k], sizeof b->err[k], "%s", cuzk_last_error());
    }
}

static cuzk_status record_parallel(const cuzk_circuit *c, cuzk_cs *cs, const cuzk_circuit_layout *l)
{
    size_t nparts = c->def->nparts(c);
    if (l->nmarks != nparts) return cuzk_fail(CUZK_EINTERNAL, "%zu parts but %zu marks", nparts, l->nmarks);
    void *ctx = c->def->header(c, cs, 0);
    cuzk_status st = cuzk_cs_status(cs);
    if (!st) st = parts_check_header(l, cs);
    /* batches of a few parts per thread: the children of one batch are held until appended,
     * so memory beyond the result stays a batch's worth */
    size_t batch = (size_t)cuzk_threads() * 4;
    record_batch b = {
        c, cs, ctx, l, 0, calloc(batch, sizeof(cuzk_cs *)), calloc(batch, sizeof(cuzk_status)), calloc(batch, 256)};
    if (!st && (!b.child || !b.st || !b.err)) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
    for (size_t first = 0; first < nparts && !st; first += batch) {
        size_t n = nparts - first < batch ? nparts - first : batch;
        b.first = first;
        cuzk_parallel_tasks(n, record_part, &b);
        for (size_t k = 0; k < n && !st; k++)
            if (b.st[k]) st = cuzk_fail(b.st[k], "%s", b.err[k]);
        if (!st) st = cuzk_cs_record_append(cs, b.child, n, "part");
        for (size_t k = 0; k < n; k++) {
            cuzk_cs_destroy(b.child[k]);
            b.child[k] = NULL;
        }
    }
    free(b.child);
    free(b.st);
    free(b.err);
    if (ctx && c->def->free_ctx) c->def->free_ctx(ctx);
    if (st) cuzk_cs_fail(cs, st);
    return st;
}

cuzk_status cuzk_circuit_synthesize_record(const cuzk_circuit *c, cuzk_cs *cs)
{
    if (cs->mode != CUZK_CS_RECORD) return cuzk_fail(CUZK_EINVAL, "synthesize_record needs a RECORD system");
    const cuzk_circuit_def *d = c->def;
    /* one thread, a single circuit, or a system already holding rows: one part after another */
    if (d->synthesize || !d->nparts || cuzk_threads() < 2 || d->nparts(c) < 2 || cs->num_constraints ||
        cs->num_inputs != 1 || cs->num_aux)
        return cuzk_circuit_synthesize(c, cs, 0);
    const cuzk_circuit_layout *l;
    cuzk_status st = cuzk_circuit_layout_get(c, &l);
    if (st) return cuzk_cs_fail(cs, st);
    return record_parallel(c, cs, l);
}

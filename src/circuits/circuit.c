/* Circuits as objects (include/cuzk/circuits.h): synthesis of a whole circuit or of a header
 * and its parts, and the conveniences over a fresh constraint system. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/circuits.h"

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
        if (cuzk_cancel_requested(cs->stop)) {
            cuzk_cs_fail(cs, cuzk_cancel_check(cs->stop, "synthesis, between its parts"));
            break;
        }
        cuzk_cs_mark(cs, "part");
        d->part(c, cs, seed, ctx, i);
    }
    if (d->free_ctx) d->free_ctx(ctx);
    return cuzk_cs_status(cs);
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

cuzk_status cuzk_circuit_record(const cuzk_circuit *c, cuzk_r1cs *out)
{
    return cuzk_circuit_record_progress(c, out, NULL);
}

cuzk_progress *cuzk_circuit_record_task(const cuzk_circuit *c, cuzk_cs *cs, const cuzk_progress_sink *progress)
{
    if (!progress) return NULL;
    const cuzk_circuit_layout *l; /* the total from the layout: a COUNT pass, quick beside a recording */
    uint64_t total = cuzk_circuit_layout_get(c, &l) ? 0 : l->constraints;
    cuzk_progress *p = cuzk_progress_startf(progress, total, "record %s", c->name);
    cuzk_cs_set_progress(cs, p);
    return p;
}

cuzk_status cuzk_circuit_record_progress(const cuzk_circuit *c, cuzk_r1cs *out, const cuzk_progress_sink *progress)
{
    cuzk_cs *cs;
    cuzk_status st = cuzk_cs_create(&cs, CUZK_CS_RECORD, false);
    if (st) return st;
    cuzk_progress *p = cuzk_circuit_record_task(c, cs, progress);
    st = cuzk_circuit_synthesize_record(c, cs);
    cuzk_progress_set(p, cs->num_constraints);
    cuzk_progress_finish(p);
    if (!st) st = cuzk_cs_finish_record(cs, out, NULL, NULL);
    cuzk_cs_destroy(cs);
    return st;
}

cuzk_status cuzk_circuit_prove_input(const cuzk_circuit *c, uint64_t seed, cuzk_prove_result *out)
{
    cuzk_cs *cs;
    memset(out, 0, sizeof *out);
    const cuzk_circuit_layout *l;
    cuzk_status st = cuzk_circuit_layout_get(c, &l);
    if (!st) st = cuzk_cs_create(&cs, CUZK_CS_PROVE, true);
    if (st) return st;
    st = cuzk_cs_reserve(cs, l->inputs, l->aux, l->constraints); /* no regrowing of a, b, c */
    if (!st) st = cuzk_circuit_synthesize(c, cs, seed);
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
                    : col < ni        ? (cuzk_var)(base_in + col - 1)
                                      : (cuzk_var)(base_aux + col - ni) | CUZK_VAR_AUX;
                cuzk_lc_add(cs, &cs->lc[k], v, &m->val[k][j]);
            }
        cuzk_cs_enforce(cs, "row");
    }
}

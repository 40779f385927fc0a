/* The fast proving path (include/cuzk/engine.h). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/engine.h"
#include "cuzk/prove_path.h"

void cuzk_prove_buffers_free(cuzk_prove_buffers *b)
{
    cuzk_witness_free(&b->w);
    for (int k = 0; k < 3; k++) cuzk_big_free(b->abc[k], b->n * sizeof(cuzk_fr));
    memset(b, 0, sizeof *b);
}

cuzk_status cuzk_pce_check_circuit(const cuzk_pce *pce, const cuzk_circuit *c, const char *path)
{
    const cuzk_circuit_layout *l;
    cuzk_status st = cuzk_circuit_layout_get(c, &l);
    if (st) return st;
    if (l->constraints != pce->num_constraints || l->inputs != pce->num_inputs || l->aux != pce->num_aux)
        return cuzk_fail(
            CUZK_EINVAL,
            "%s: the precompiled circuit has %zu constraints, %zu inputs, %zu aux, but %s has %zu, %zu, %zu", path,
            pce->num_constraints, pce->num_inputs, pce->num_aux, c->name, l->constraints, l->inputs, l->aux);
    return CUZK_OK;
}

cuzk_status cuzk_pce_record(const cuzk_circuit *c, cuzk_pce *pce, cuzk_timeline *tl)
{
    return cuzk_pce_record_progress(c, pce, tl, NULL);
}

cuzk_status cuzk_pce_record_progress(const cuzk_circuit *c, cuzk_pce *pce, cuzk_timeline *tl,
                                     const cuzk_progress_sink *progress)
{
    return cuzk_pce_record_until(c, pce, tl, progress, NULL);
}

cuzk_status cuzk_pce_record_until(const cuzk_circuit *c, cuzk_pce *pce, cuzk_timeline *tl,
                                  const cuzk_progress_sink *progress, const cuzk_cancel *stop)
{
    int span = cuzk_span_begin(tl, "record precompiled circuit (once)");
    cuzk_cs *cs;
    cuzk_progress *p = NULL;
    cuzk_status st = cuzk_cs_create(&cs, CUZK_CS_RECORD, false);
    if (!st) cuzk_cs_set_stop(cs, stop);
    if (!st) p = cuzk_circuit_record_task(c, cs, progress);
    if (!st) st = cuzk_circuit_synthesize_record(c, cs);
    if (p) cuzk_progress_set(p, cs->num_constraints);
    cuzk_progress_finish(p);
    if (!st) st = cuzk_cs_finish_record_pce(cs, pce);
    cuzk_cs_destroy(cs);
    cuzk_span_end(tl, span);
    return st;
}

cuzk_status cuzk_pce_load_or_record(const char *path, const cuzk_circuit *c, cuzk_pce *pce, cuzk_timeline *tl)
{
    return cuzk_pce_load_or_record_progress(path, c, pce, tl, NULL);
}

cuzk_status cuzk_pce_load_or_record_progress(const char *path, const cuzk_circuit *c, cuzk_pce *pce, cuzk_timeline *tl,
                                             const cuzk_progress_sink *progress)
{
    return cuzk_pce_load_or_record_until(path, c, pce, tl, progress, NULL);
}

cuzk_status cuzk_pce_load_or_record_until(const char *path, const cuzk_circuit *c, cuzk_pce *pce, cuzk_timeline *tl,
                                          const cuzk_progress_sink *progress, const cuzk_cancel *stop)
{
    cuzk_status st;
    bool record = access(path, F_OK) != 0;
    if (!record) {
        int span = cuzk_span_begin(tl, "load precompiled circuit");
        st = cuzk_pce_load(pce, path);
        cuzk_span_end(tl, span);
        /* a file of an older format version is recorded again in place */
        record = st == CUZK_EUNSUPPORTED;
    }
    if (record) {
        st = cuzk_pce_record_until(c, pce, tl, progress, stop);
        if (!st) st = cuzk_pce_save(pce, path);
    }
    if (!st) st = cuzk_pce_check_circuit(pce, c, path);
    if (st) cuzk_pce_free(pce);
    return st;
}

cuzk_status cuzk_prove_buffers_reserve(cuzk_prove_buffers *b, const cuzk_pce *pce, bool abc)
{
    cuzk_status st = cuzk_witness_reserve(&b->w, pce->num_inputs, pce->num_aux);
    size_t n = pce->num_constraints + pce->num_inputs;
    if (st || !abc || b->n >= n) return st;
    for (int k = 0; k < 3; k++) {
        cuzk_big_free(b->abc[k], b->n * sizeof(cuzk_fr));
        b->abc[k] = NULL;
    }
    b->n = 0;
    for (int k = 0; k < 3; k++)
        if (!(b->abc[k] = cuzk_big_alloc(n * sizeof(cuzk_fr)))) return CUZK_ENOMEM;
    b->n = n;
    return CUZK_OK;
}

cuzk_status cuzk_prove_buffers_fill_witness(cuzk_prove_buffers *b, const cuzk_circuit *c, uint64_t seed,
                                            const cuzk_pce *pce, cuzk_timeline *tl, const char *prefix)
{
    /* checked first, so that buffers sized for the PCE are never reallocated */
    cuzk_status st = cuzk_pce_check_circuit(pce, c, "witness");
    if (st) return st;
    char name[64];
    snprintf(name, sizeof name, "%switness", prefix);
    int span = cuzk_span_begin_under(tl, -1, name);
    st = cuzk_circuit_witness(c, seed, true, &b->w);
    cuzk_span_end(tl, span);
    return st;
}

cuzk_status cuzk_prove_buffers_fill(cuzk_prove_buffers *b, const cuzk_circuit *c, uint64_t seed, const cuzk_pce *pce,
                                    cuzk_timeline *tl, const char *prefix)
{
    cuzk_status st = cuzk_prove_buffers_fill_witness(b, c, seed, pce, tl, prefix);
    if (!st) st = cuzk_prove_buffers_reserve(b, pce, true);
    if (st) return st;
    char name[64];
    snprintf(name, sizeof name, "%sa, b, c", prefix);
    int span = cuzk_span_begin_under(tl, -1, name);
    cuzk_pce_evaluate(pce, b->w.input, b->w.aux, b->abc[0], b->abc[1], b->abc[2]);
    cuzk_span_end(tl, span);
    return CUZK_OK;
}

cuzk_groth16_witness cuzk_prove_buffers_witness(const cuzk_prove_buffers *b, const cuzk_pce *pce)
{
    cuzk_groth16_witness w = {b->abc[0],   b->abc[1],       b->abc[2],  pce->num_constraints + pce->num_inputs,
                              b->w.input,  b->w.num_inputs, b->w.aux,   b->w.num_aux,
                              &pce->a_aux, &pce->b_input,   &pce->b_aux};
    return w;
}

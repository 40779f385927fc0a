/* The checks shared by the two parallel paths over a circuit of parts (the witness, the
 * recording): what the header and each part allocate must be what the layout's COUNT pass
 * marked, or the parts' fixed offsets would be wrong. Internal to src/circuits. */
#ifndef CUZK_CIRCUITS_PARTS_INTERNAL_H
#define CUZK_CIRCUITS_PARTS_INTERNAL_H

#include "cuzk/circuits.h"

/* The header left cs at the first part's offsets. */
static inline cuzk_status parts_check_header(const cuzk_circuit_layout *l, const cuzk_cs *cs)
{
    if (!l->nmarks || (cs->num_inputs == l->marks[0].input && cs->num_aux == l->marks[0].aux)) return CUZK_OK;
    return cuzk_fail(CUZK_EINTERNAL, "the header allocated %zu/%zu variables, the count pass says %zu/%zu",
                     cs->num_inputs, cs->num_aux, l->marks[0].input, l->marks[0].aux);
}

/* Part i (synthesized on cs) ended where part i + 1 (or the circuit) starts. */
static inline cuzk_status parts_check_end(const cuzk_circuit_layout *l, size_t i, const cuzk_cs *cs)
{
    size_t want_in = i + 1 < l->nmarks ? l->marks[i + 1].input : l->inputs;
    size_t want_aux = i + 1 < l->nmarks ? l->marks[i + 1].aux : l->aux;
    if (cs->num_inputs == want_in && cs->num_aux == want_aux) return CUZK_OK;
    return cuzk_fail(CUZK_EINTERNAL, "part %zu allocated variables up to %zu/%zu, the count pass says %zu/%zu", i,
                     cs->num_inputs, cs->num_aux, want_in, want_aux);
}

#endif

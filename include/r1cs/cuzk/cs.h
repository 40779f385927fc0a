/* cuzk constraint systems: one gadget code path, five backends.
 *
 * Gadgets allocate variables, build the A, B, C linear combinations of the next constraint
 * in the system's three slots (cs->lc[0..2]) and call cuzk_cs_enforce. Variables and
 * constraints are numbered in call order, exactly as bellperson/bellpepper number them:
 * input 0 is ONE (allocated by cuzk_cs_create), inputs and aux each in allocation order.
 *
 *   COUNT    counts constraints, inputs and aux; linear combinations are not built
 *   TEST     keeps every constraint with its namespace path; cuzk_cs_is_satisfied
 *   PROVE    a, b, c per constraint, assignments and bellperson densities (the reference path)
 *   RECORD   the constraint matrices (the precompiled circuit), densities, sub-circuit marks
 *   WITNESS  assignments only: no linear-combination work at all
 *
 * Values: gadgets compute a value only when cs->values is true (PROVE, TEST, WITNESS, and
 * COUNT when asked); they read values with cuzk_cs_value.
 * Errors are sticky: after an allocation failure every call is a no-op and cuzk_cs_status
 * reports it, so gadget code does not check each call. */
#ifndef CUZK_CS_H
#define CUZK_CS_H

#include <stdbool.h>

#include "cuzk/r1cs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A variable: an input index, or an aux index with CUZK_VAR_AUX set. */
typedef uint32_t cuzk_var;
#define CUZK_VAR_AUX 0x80000000u
#define CUZK_VAR_ONE ((cuzk_var)0)
static inline bool cuzk_var_is_aux(cuzk_var v) { return (v & CUZK_VAR_AUX) != 0; }
static inline uint32_t cuzk_var_index(cuzk_var v) { return v & ~CUZK_VAR_AUX; }

typedef struct {
    cuzk_fr coeff;
    cuzk_var var;
} cuzk_term;

/* A linear combination: terms sorted by variable (inputs first), one term per variable
 * (adding a variable again merges the coefficients, as bellpepper's LinearCombination does;
 * a term whose coefficient cancels to zero stays, with coefficient zero). Owned storage,
 * reused across clears so steady-state building does not allocate. */
typedef struct {
    cuzk_term *t;
    uint32_t n, cap;
} cuzk_lc;

typedef enum { CUZK_CS_COUNT, CUZK_CS_TEST, CUZK_CS_PROVE, CUZK_CS_RECORD, CUZK_CS_WITNESS } cuzk_cs_mode;

typedef struct cuzk_cs_backend cuzk_cs_backend;

/* A sub-circuit mark (see cuzk_cs_mark). */
typedef struct {
    char label[48];
    size_t constraint, input, aux; /* counts when the mark was made */
} cuzk_cs_mark_t;

/* Fields are read-only for gadgets. */
typedef struct cuzk_cs {
    cuzk_cs_mode mode;
    bool values;   /* gadgets compute values */
    bool keep_lcs; /* linear combinations are built (TEST, PROVE, RECORD) */
    cuzk_status status;
    size_t num_inputs, num_aux, num_constraints;
    cuzk_lc lc[3]; /* the next constraint: A, B, C */
    /* assignments (PROVE, TEST, WITNESS, COUNT with values) */
    cuzk_fr *input_vals, *aux_vals;
    size_t input_cap, aux_cap;
    bool borrowed; /* a WITNESS child: the assignment arrays belong to the parent */
    cuzk_cs_backend *be;
    void *scratch; /* cuzk_cs_scratch's block, owned */
    size_t scratch_cap;
    void *memo; /* cuzk_cs_memo's block, owned */
    size_t memo_size;
    const cuzk_cancel *stop; /* a circuit of parts stops between its parts once set (NULL: never) */
} cuzk_cs;

/* Creates a system in `mode` (values: also compute values in COUNT mode; ignored for
 * other modes, which have values except RECORD) with ONE allocated as input 0. */
cuzk_status cuzk_cs_create(cuzk_cs **out, cuzk_cs_mode mode, bool values) CUZK_WARN_UNUSED;
void cuzk_cs_destroy(cuzk_cs *cs);
static inline cuzk_status cuzk_cs_status(const cuzk_cs *cs) { return cs->status; }
/* Records a failure (the first one wins) and returns it. */
cuzk_status cuzk_cs_fail(cuzk_cs *cs, cuzk_status st);

/* Presizes the assignment arrays (WITNESS/PROVE) when the counts are known. */
cuzk_status cuzk_cs_reserve(cuzk_cs *cs, size_t num_inputs, size_t num_aux, size_t num_constraints) CUZK_WARN_UNUSED;

/* Makes the system write its assignment into caller-owned arrays of fixed capacity (what is
 * already allocated, ONE included, is copied over). Allocating past a capacity fails the
 * system. Used to reuse large, pre-faulted buffers across witnesses. */
cuzk_status cuzk_cs_use_buffers(cuzk_cs *cs, cuzk_fr *input, size_t input_cap, cuzk_fr *aux,
                                size_t aux_cap) CUZK_WARN_UNUSED;

/* A scratch block of at least `bytes` owned by the system, for a gadget's temporary arrays
 * (bit vectors of a hash preimage, say): grown when too small, kept for the next call, freed
 * with the system, so a circuit's repeated parts do not allocate each time. Valid until the
 * next call; NULL (and the system failed) when memory runs out. */
void *cuzk_cs_scratch(cuzk_cs *cs, size_t bytes);

/* A block of `bytes` owned by the system that keeps its contents from call to call (zeroed
 * when first made, freed with the system), for a gadget's memo of work already done in this
 * system: the Poseidon witness's recent hashes. Every call must ask for the same size; NULL
 * (and the system failed) when memory runs out or the size differs. */
void *cuzk_cs_memo(cuzk_cs *cs, size_t bytes);

/* New variables. value may be NULL when !cs->values. */
cuzk_var cuzk_cs_alloc(cuzk_cs *cs, const cuzk_fr *value);
cuzk_var cuzk_cs_alloc_input(cuzk_cs *cs, const cuzk_fr *value);
/* WITNESS mode only: n_aux new aux variables at once (the first is *first, the rest follow it)
 * and n_constraints constraints counted, for a gadget that computes its values natively
 * instead of allocating them one by one; the caller writes the n_aux values into the slots
 * returned (valid until the next allocation). Exactly what the gadget's constraint-building
 * path allocates, in its order: tests compare the two. NULL when the system failed. */
cuzk_fr *cuzk_cs_witness_block(cuzk_cs *cs, size_t n_aux, size_t n_constraints, cuzk_var *first);
/* The value of a variable (cs->values must be true). */
static inline const cuzk_fr *cuzk_cs_value(const cuzk_cs *cs, cuzk_var v)
{
    return cuzk_var_is_aux(v) ? &cs->aux_vals[cuzk_var_index(v)] : &cs->input_vals[cuzk_var_index(v)];
}

/* Linear combinations. The cs argument decides whether anything is built at all. */
void cuzk_lc_init(cuzk_lc *lc);
void cuzk_lc_free(cuzk_lc *lc);
static inline void cuzk_lc_clear(cuzk_lc *lc) { lc->n = 0; }
void cuzk_lc_add_slow(cuzk_cs *cs, cuzk_lc *lc, cuzk_var v, const cuzk_fr *coeff);
static inline void cuzk_lc_add(cuzk_cs *cs, cuzk_lc *lc, cuzk_var v, const cuzk_fr *coeff)
{
    if (cs->keep_lcs) cuzk_lc_add_slow(cs, lc, v, coeff);
}
void cuzk_lc_add_one(cuzk_cs *cs, cuzk_lc *lc, cuzk_var v); /* coefficient +1 */
void cuzk_lc_sub_one(cuzk_cs *cs, cuzk_lc *lc, cuzk_var v); /* coefficient -1 */
/* dst += coeff * src (coeff NULL = 1). */
void cuzk_lc_add_lc(cuzk_cs *cs, cuzk_lc *dst, const cuzk_lc *src, const cuzk_fr *coeff);
/* The value of an LC under the system's assignment. */
void cuzk_lc_eval(const cuzk_cs *cs, const cuzk_lc *lc, cuzk_fr *out);

/* Enforces lc[0] * lc[1] = lc[2] and clears the three slots. name is kept in TEST mode. */
void cuzk_cs_enforce(cuzk_cs *cs, const char *name);

/* Namespaces (TEST mode keeps them; free elsewhere). */
void cuzk_cs_push(cuzk_cs *cs, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cuzk_cs_pop(cuzk_cs *cs);

/* Sub-circuit marks: RECORD and COUNT keep (label, constraint, input and aux counts) at each
 * mark, so the witness of independent pieces can be generated at known offsets in parallel. */
void cuzk_cs_mark(cuzk_cs *cs, const char *label);

/* ---------------------------------------------------------------- TEST */
/* -1 when every constraint holds; otherwise the index of the first failing one, with its
 * namespace path in *path (owned by cs). */
long cuzk_cs_which_unsatisfied(const cuzk_cs *cs, const char **path);
size_t cuzk_cs_test_constraint_count(const cuzk_cs *cs);

/* ---------------------------------------------------------------- WITNESS children */
/* A child system writing into the parent's (presized) assignment arrays from the given
 * offsets, for one independent sub-circuit on another thread. Destroy it before the parent. */
cuzk_status cuzk_cs_witness_child(cuzk_cs *parent, size_t input_offset, size_t aux_offset,
                                  cuzk_cs **out) CUZK_WARN_UNUSED;

/* ---------------------------------------------------------------- RECORD children */
/* A RECORD system of its own for one independent sub-circuit, whose variables start at the
 * given offsets (where the sub-circuit starts in the parent), for recording on another thread;
 * its rows are then appended to the parent in order. */
cuzk_status cuzk_cs_record_child(const cuzk_cs *parent, size_t input_offset, size_t aux_offset,
                                 cuzk_cs **out) CUZK_WARN_UNUSED;
/* Appends n children's rows to parent in order, each preceded by a mark of that label (NULL:
 * none): coefficients re-indexed in parent's table in each child's order of first use, so the
 * result is what recording the sub-circuits on parent one after another gives; the rows are
 * copied by the current pool's threads. Each child must start where the one before it ends
 * (the first where parent ends); parent's variable counts move to the last child's. */
cuzk_status cuzk_cs_record_append(cuzk_cs *parent, cuzk_cs *const *children, size_t n,
                                  const char *mark) CUZK_WARN_UNUSED;

/* ---------------------------------------------------------------- PROVE output */
/* What bellperson's ProvingAssignment holds after synthesis: a, b, c with the appended
 * Input(i) * 0 = 0 rows, assignments and densities. The arrays belong to the result. */
typedef struct {
    cuzk_fr *a, *b, *c;
    size_t n;
    cuzk_fr *input, *aux;
    size_t num_inputs, num_aux;
    cuzk_density a_aux, b_input, b_aux;
} cuzk_prove_result;
/* Appends the input constraints and moves everything into *out (cs is left empty). */
cuzk_status cuzk_cs_finish_prove(cuzk_cs *cs, cuzk_prove_result *out) CUZK_WARN_UNUSED;
void cuzk_prove_result_free(cuzk_prove_result *r);

/* ---------------------------------------------------------------- RECORD output */

/* Moves the marks made so far into *marks (caller frees with free()). */
cuzk_status cuzk_cs_take_marks(cuzk_cs *cs, cuzk_cs_mark_t **marks, size_t *nmarks);
/* The recorded circuit, compressed (include/cuzk/pce.h), marks and densities included. */
typedef struct cuzk_pce cuzk_pce;
cuzk_status cuzk_cs_finish_record_pce(cuzk_cs *cs, cuzk_pce *p) CUZK_WARN_UNUSED;
/* RECORD: constraints recorded are set on p every 16384 (p is not owned; NULL: none). */
void cuzk_cs_set_progress(cuzk_cs *cs, cuzk_progress *p);
/* The synthesis of a circuit of parts into cs (cuzk_circuit_synthesize, the parallel record)
 * checks stop before each part and, once it is set, ends with CUZK_ECANCELLED; a part under way
 * is finished first. stop (NULL: never) must outlive the synthesis. */
void cuzk_cs_set_stop(cuzk_cs *cs, const cuzk_cancel *stop);
/* The same expanded to plain matrices (aux columns remapped after the final inputs) in *m,
 * with the marks in *marks (caller frees with free()). */
cuzk_status cuzk_cs_finish_record(cuzk_cs *cs, cuzk_r1cs *m, cuzk_cs_mark_t **marks, size_t *nmarks) CUZK_WARN_UNUSED;

/* Powers of two 2^k, k < 256, in Montgomery form (multipack and UInt32 use them). */
const cuzk_fr *cuzk_fr_pow2(unsigned k);

#ifdef __cplusplus
}
#endif
#endif

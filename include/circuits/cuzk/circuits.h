/* Circuits as objects: the interface the engine proves through.
 *
 * A circuit is a definition (cuzk_circuit_def) and its state. It synthesizes through a
 * constraint system (include/cuzk/cs.h), so the same code gives its counts (COUNT), its
 * matrices (RECORD, for setup), its proving input (PROVE) and its witness (WITNESS). A
 * circuit of parts (a header and independent parts) has its witness filled by all cores at
 * once, at the offsets of its layout. Production circuits are opened by the layer that
 * defines them (include/cuzk/filecoin_circuit.h); the named test circuits by
 * include/cuzk/testcircuits.h. */
#ifndef CUZK_CIRCUITS_H
#define CUZK_CIRCUITS_H

#include "cuzk/cs.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cuzk_circuit cuzk_circuit;

/* A family of circuits: "prefix" matches the name exactly, or the part before ':' when it
 * ends with ':' (the rest is passed to open as args). */
typedef struct {
    const char *prefix;
    const char *help;    /* e.g. "sha256:BYTES  SHA-256 of BYTES allocated input bytes" */
    const char *example; /* a small instance with a witness, for tests that cover every family */
    /* Parses args and prepares state (c->state); errors name the bad argument. */
    cuzk_status (*open)(cuzk_circuit *c, const char *args);
    /* Synthesizes into cs with the witness derived from seed (values only when cs->values).
     * NULL for circuits made of parts (below): then synthesis is the header followed, for
     * each part i, by cuzk_cs_mark(cs, "part") and part i. */
    void (*synthesize)(const cuzk_circuit *c, cuzk_cs *cs, uint64_t seed);
    void (*free_state)(void *state);
    /* Optional: a circuit of independent parts, whose witness can be generated in parallel.
     * header synthesizes what every part shares and returns a context for the parts (freed
     * with free_ctx); part i reads only the header's variables and allocates its own. */
    size_t (*nparts)(const cuzk_circuit *c);
    void *(*header)(const cuzk_circuit *c, cuzk_cs *cs, uint64_t seed);
    void (*part)(const cuzk_circuit *c, cuzk_cs *cs, uint64_t seed, const void *ctx, size_t i);
    void (*free_ctx)(void *ctx);
} cuzk_circuit_def;

struct cuzk_circuit {
    char name[96];
    char shape_key[96]; /* circuits with equal keys have the same R1CS (by convention: the name) */
    const cuzk_circuit_def *def;
    void *state;
};

/* Frees c and its state (NULL is ignored). */
void cuzk_circuit_free(cuzk_circuit *c);
/* Runs synthesis into cs and returns cs's status. */
cuzk_status cuzk_circuit_synthesize(const cuzk_circuit *c, cuzk_cs *cs, uint64_t seed) CUZK_WARN_UNUSED;
/* Synthesis into a fresh RECORD system (the witness is not needed): a circuit of parts has
 * its parts recorded by the threads of the current pool and appended in order, the same
 * matrices as cuzk_circuit_synthesize gives. */
cuzk_status cuzk_circuit_synthesize_record(const cuzk_circuit *c, cuzk_cs *cs) CUZK_WARN_UNUSED;
/* Conveniences over a fresh constraint system: */
typedef struct {
    size_t constraints, inputs, aux; /* inputs include ONE; constraints exclude the appended ones */
} cuzk_circuit_counts;
cuzk_status cuzk_circuit_count(const cuzk_circuit *c, cuzk_circuit_counts *out) CUZK_WARN_UNUSED;
cuzk_status cuzk_circuit_record(const cuzk_circuit *c, cuzk_r1cs *out) CUZK_WARN_UNUSED;
/* cuzk_circuit_record reporting the constraints recorded to progress (NULL: none). */
cuzk_status cuzk_circuit_record_progress(const cuzk_circuit *c, cuzk_r1cs *out,
                                         const cuzk_progress_sink *progress) CUZK_WARN_UNUSED;
/* A task "record NAME" (constraints) of progress, set on cs (a RECORD system) to follow
 * its constraints; the caller finishes it after the synthesis. NULL when progress is. */
cuzk_progress *cuzk_circuit_record_task(const cuzk_circuit *c, cuzk_cs *cs, const cuzk_progress_sink *progress);
cuzk_status cuzk_circuit_prove_input(const cuzk_circuit *c, uint64_t seed, cuzk_prove_result *out) CUZK_WARN_UNUSED;

/* A circuit's counts and the marks of its parts, from a COUNT pass made once per shape and
 * kept for the life of the process (thread-safe: different shapes count at the same time, and
 * callers asking for a shape being counted wait for that one pass). */
typedef struct {
    size_t constraints, inputs, aux;
    cuzk_cs_mark_t *marks;
    size_t nmarks;
} cuzk_circuit_layout;
cuzk_status cuzk_circuit_layout_get(const cuzk_circuit *c, const cuzk_circuit_layout **out) CUZK_WARN_UNUSED;

/* The witness alone (WITNESS mode): input[num_inputs] (input[0] = ONE) and aux[num_aux].
 * The arrays are large-page allocations owned by the witness; a witness passed in again (or
 * zeroed the first time) has its buffers reused when they are large enough, so repeated
 * witnesses do not pay for fresh memory. With threads > 1 and a circuit of parts, the parts
 * run in parallel at the offsets of the layout; the result equals the sequential one. */
typedef struct {
    cuzk_fr *input, *aux;
    size_t num_inputs, num_aux;
    size_t input_cap, aux_cap;
} cuzk_witness;
cuzk_status cuzk_circuit_witness(const cuzk_circuit *c, uint64_t seed, bool parallel, cuzk_witness *w) CUZK_WARN_UNUSED;
void cuzk_witness_free(cuzk_witness *w);
/* Grows w's buffers to hold ni inputs and na aux (kept when large enough), so that a caller
 * can page-lock them once before the witnesses that reuse them. */
cuzk_status cuzk_witness_reserve(cuzk_witness *w, size_t ni, size_t na) CUZK_WARN_UNUSED;

/* Emits the rows of m into cs with the given assignment, allocating m's inputs (except ONE)
 * and aux as new variables (so a matrix can be emitted several times, as parts), for
 * circuits defined directly by matrices. */
void cuzk_cs_emit_r1cs(cuzk_cs *cs, const cuzk_r1cs *m, const cuzk_fr *input, const cuzk_fr *aux);

#ifdef __cplusplus
}
#endif
#endif

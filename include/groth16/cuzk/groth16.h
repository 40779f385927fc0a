/* Groth16 over BLS12-381, in bellperson's formats and with bellperson's prover semantics.
 *
 * Files: .params and .vk exactly as bellperson writes them (big-endian u32 counts,
 * uncompressed ZCash points); proofs are 192 bytes (A G1 compressed, B G2 compressed,
 * C G1 compressed), several back to back in one file.
 * Ownership: *_read and cuzk_groth16_setup fill caller structs that own their arrays; free
 * them with the matching *_free. Nothing here keeps pointers to caller inputs. */
#ifndef CUZK_GROTH16_H
#define CUZK_GROTH16_H

#include "cuzk/ff.h"
#include "cuzk/progress.h"
#include "cuzk/cs.h"
#include "cuzk/r1cs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- keys */
typedef struct {
    blst_p1_affine alpha_g1, beta_g1, delta_g1;
    blst_p2_affine beta_g2, gamma_g2, delta_g2;
    blst_p1_affine *ic; /* one per public input, ONE included; owned */
    size_t ic_len;
} cuzk_groth16_vk;

typedef struct {
    cuzk_groth16_vk vk;
    blst_p1_affine *h;    /* N - 1 points: tau^i t(tau) / delta */
    blst_p1_affine *l;    /* one per aux variable */
    blst_p1_affine *a;    /* all inputs, then the aux with A density */
    blst_p1_affine *b_g1; /* inputs with B density, then aux with B density */
    blst_p2_affine *b_g2; /* same index set as b_g1 */
    size_t h_len, l_len, a_len, b_g1_len, b_g2_len;
} cuzk_groth16_params;

/* Reading flags. */
enum {
    CUZK_PARAMS_CHECKED = 0,  /* every point: on the curve and in the subgroup */
    CUZK_PARAMS_UNCHECKED = 1 /* query points: on-curve only (trusted files); vk always checked */
};

/* Reads a .params file (streamed: read in pieces, decoded in parallel while the next piece is
 * read). Every count is checked against the file size before use; errors name the section and
 * byte offset. */
cuzk_status cuzk_groth16_params_read(cuzk_groth16_params *p, const char *path, int flags) CUZK_WARN_UNUSED;
/* cuzk_groth16_params_read, watched: watch (NULL: none) is called with ctx on the reading
 * thread after every piece of points is decoded in place (section, points in the piece); a
 * nonzero status from it stops the read, frees what was read and is returned. So a load can be
 * given up between pieces (a cancel token checked there) or report its progress. Returns,
 * Errors: as cuzk_groth16_params_read, or watch's status. Thread: any. */
cuzk_status cuzk_groth16_params_read_watched(cuzk_groth16_params *p, const char *path, int flags,
                                             cuzk_status (*watch)(void *ctx, int section, size_t n),
                                             void *ctx) CUZK_WARN_UNUSED;
/* A .params file opened for streaming: its verifying key decoded and checked, and where each
 * query section lies, from the counts alone (every count checked against the file's size, the
 * whole layout against its length), before any query point is read. So a file of the wrong
 * shape is refused at once, and a caller can size its destination (device memory) first. */
enum { CUZK_PARAMS_H, CUZK_PARAMS_L, CUZK_PARAMS_A, CUZK_PARAMS_B_G1, CUZK_PARAMS_B_G2, CUZK_PARAMS_SECTIONS };
typedef struct {
    char *path;
    int fd;
    uint64_t file_bytes;
    cuzk_groth16_vk vk;
    size_t count[CUZK_PARAMS_SECTIONS];    /* points of h, l, a, b_g1, b_g2 */
    uint64_t offset[CUZK_PARAMS_SECTIONS]; /* byte offset of each section's first point */
} cuzk_groth16_params_file;
cuzk_status cuzk_groth16_params_open(cuzk_groth16_params_file *f, const char *path) CUZK_WARN_UNUSED;
void cuzk_groth16_params_close(cuzk_groth16_params_file *f); /* frees the vk too */
const char *cuzk_groth16_section_name(int section);
/* Where the query points go, section by section in file order. dest (optional) gives the place
 * to decode points [first, first + n) of a section into (NULL: a buffer of the reader's);
 * points is called with them once decoded and checked (pts valid during the call only). A
 * nonzero status from points stops the stream and is returned. */
typedef struct {
    void *(*dest)(void *ctx, int section, size_t first, size_t n);
    cuzk_status (*points)(void *ctx, int section, size_t first, size_t n, const void *pts);
    void *ctx;
} cuzk_groth16_points_sink;
/* Reads every query point once, in order: a reader thread reads the next pieces (pread) while
 * this thread decodes one in parallel (the pool bound to it) and hands it to the sink. flags as
 * for cuzk_groth16_params_read. *read_s (optional) gets the seconds the reader spent in pread. */
cuzk_status cuzk_groth16_params_stream(cuzk_groth16_params_file *f, int flags, const cuzk_groth16_points_sink *sink,
                                       double *read_s) CUZK_WARN_UNUSED;
/* The same as cuzk_groth16_params_read from a file's bytes in memory, all of them at once (no
 * stream; the points are decoded in parallel on the current pool); name is what messages call
 * it. */
cuzk_status cuzk_groth16_params_parse(cuzk_groth16_params *p, const uint8_t *data, size_t size, const char *name,
                                      int flags) CUZK_WARN_UNUSED;
cuzk_status cuzk_groth16_params_write(const cuzk_groth16_params *p, const char *path) CUZK_WARN_UNUSED;
void cuzk_groth16_params_free(cuzk_groth16_params *p);

cuzk_status cuzk_groth16_vk_read(cuzk_groth16_vk *vk, const char *path) CUZK_WARN_UNUSED;
/* Parses a .vk from memory (the first bytes of a .params file have the same layout);
 * *consumed gets the vk's length. */
cuzk_status cuzk_groth16_vk_parse(cuzk_groth16_vk *vk, const uint8_t *data, size_t size,
                                  size_t *consumed) CUZK_WARN_UNUSED;
cuzk_status cuzk_groth16_vk_write(const cuzk_groth16_vk *vk, const char *path) CUZK_WARN_UNUSED;
void cuzk_groth16_vk_free(cuzk_groth16_vk *vk);
size_t cuzk_groth16_vk_size(const cuzk_groth16_vk *vk); /* bytes of its encoding */
void cuzk_groth16_vk_encode(uint8_t *out, const cuzk_groth16_vk *vk);

/* Which kind of key file a file is, from its layout alone (counts against its size, the flag
 * bits of the key's fixed points; no point is decoded, a few bytes are read): a .vk is the
 * verifying key and nothing after it; a .params is the verifying key, then h, l, a, b_g1 and
 * b_g2, ending exactly at the end of the file. Anything else (truncated, another kind of file,
 * unreadable) is UNKNOWN. For messages that name a file given in the other one's place. */
typedef enum { CUZK_KEY_UNKNOWN = 0, CUZK_KEY_VK = 1, CUZK_KEY_PARAMS = 2 } cuzk_key_kind;
typedef struct {
    cuzk_key_kind kind;
    size_t ic_len;                                  /* public inputs + 1 (ONE) */
    size_t h_len, l_len, a_len, b_g1_len, b_g2_len; /* parameters only (0 for a .vk) */
} cuzk_key_layout;
/* out (may be NULL) gets the counts of a VK or PARAMS. */
cuzk_key_kind cuzk_groth16_key_kind(const uint8_t *data, size_t size, cuzk_key_layout *out);
cuzk_key_kind cuzk_groth16_key_kind_file(const char *path, cuzk_key_layout *out);
/* "a verifying key (.vk)", "a parameter file (.params)" or "unknown". */
const char *cuzk_groth16_key_kind_name(cuzk_key_kind k);

/* ---------------------------------------------------------------- proofs */
typedef struct {
    blst_p1_affine a;
    blst_p2_affine b;
    blst_p1_affine c;
} cuzk_groth16_proof;

#define CUZK_GROTH16_PROOF_BYTES 192
void cuzk_groth16_proof_encode(uint8_t out[CUZK_GROTH16_PROOF_BYTES], const cuzk_groth16_proof *p);
/* Checked decode (subgroup checks; identity rejected, as bellperson does). */
cuzk_status cuzk_groth16_proof_decode(cuzk_groth16_proof *p,
                                      const uint8_t in[CUZK_GROTH16_PROOF_BYTES]) CUZK_WARN_UNUSED;

/* ---------------------------------------------------------------- the prover's input */
/* What synthesis produces, exactly as bellperson's ProvingAssignment holds it:
 * a, b, c: one evaluation per constraint, the appended Input(i) * 0 = 0 constraints
 * included (n = circuit constraints + num_inputs); input[0] is ONE. */
typedef struct {
    const cuzk_fr *a, *b, *c;
    size_t n;
    const cuzk_fr *input;
    size_t num_inputs;
    const cuzk_fr *aux;
    size_t num_aux;
    const cuzk_density *a_aux_density;   /* num_aux bits */
    const cuzk_density *b_input_density; /* num_inputs bits */
    const cuzk_density *b_aux_density;   /* num_aux bits */
} cuzk_groth16_witness;

/* The prover's view of a PROVE-mode synthesis result (borrowed, not copied). */
cuzk_groth16_witness cuzk_groth16_witness_of(const cuzk_prove_result *pr);

/* Checks that the parameter lengths fit the witness shape (|ic| = num_inputs, |l| = num_aux,
 * |h| = N - 1, |a| and |b| = density popcounts); the error says which one does not. */
cuzk_status cuzk_groth16_check_shape(const cuzk_groth16_params *p, const cuzk_groth16_witness *w) CUZK_WARN_UNUSED;

/* The CPU prover, as bellperson computes it: iNTT of a, b, c; coset NTT; (a*b - c)/Z on the
 * coset; inverse coset NTT; H MSM over N - 1 coefficients; L over aux; A, B_G1, B_G2 over the
 * density-filtered assignment (L, A, B with the 0/1 split); randomizers r and s; assembly. r and s given (deterministic
 * tests) or NULL to draw them from the OS CSPRNG. Stages are timed on tl (may be NULL). */
cuzk_status cuzk_groth16_prove(cuzk_groth16_proof *out, const cuzk_groth16_params *p, const cuzk_groth16_witness *w,
                               const cuzk_fr *r, const cuzk_fr *s, cuzk_timeline *tl) CUZK_WARN_UNUSED;

/* The CPU prover's large memory, kept across proofs so that a prover of many partitions
 * allocates nothing large per proof: the three N-element vectors of the H polynomial, the
 * NTT domain (its twiddles) and the A/B gather scratch, grown when a larger circuit comes.
 * Zero it before first use; one per thread. cuzk_groth16_prove uses a temporary one. */
typedef struct {
    cuzk_fr *v[3];
    size_t v_cap;           /* elements of each v[k] */
    cuzk_ntt_domain domain; /* twiddles NULL until first use */
    cuzk_fr *scratch;
    size_t scratch_cap;
} cuzk_groth16_workspace;
void cuzk_groth16_workspace_free(cuzk_groth16_workspace *ws);
/* cuzk_groth16_prove with ws's memory (grown as needed and kept). */
cuzk_status cuzk_groth16_prove_ws(cuzk_groth16_workspace *ws, cuzk_groth16_proof *out, const cuzk_groth16_params *p,
                                  const cuzk_groth16_witness *w, const cuzk_fr *r, const cuzk_fr *s,
                                  cuzk_timeline *tl) CUZK_WARN_UNUSED;

/* What a proof runs with besides its parameters and witness; zeroed, the defaults. The CPU
 * and the GPU provers (gpu.h) take the same. */
typedef struct {
    const cuzk_fr *r, *s; /* the randomizers (deterministic tests), or NULL: drawn from the OS CSPRNG */
    cuzk_timeline *tl;    /* stage timings, or NULL */
    /* The owner's cancel token (NULL: never cancelled). The CPU prover polls it between the
     * NTTs of H and between the MSMs, and the MSMs between their tiles; once it is set the proof
     * ends CUZK_ECANCELLED with *out unwritten, and the workspace stays fit for the next proof. */
    const cuzk_cancel *cancel;
    /* Where the CPU prover is, for another thread to read while it runs (a job's progress):
     * it stores the cuzk_prove_stage it enters into *stage with relaxed atomic stores, and
     * CUZK_PROVE_STAGE_NONE when it returns (NULL: not kept). The GPU prover leaves it alone. */
    int *stage;
    /* Progress of the CPU prover (NULL: none): a task "NAME: NTT" over the H polynomial's
     * CUZK_PROVE_NTTS transforms, then "NAME: MSM" over its CUZK_PROVE_MSMS multi-scalar
     * multiplications, NAME being progress_name (NULL: "prove"), so that a single long proof
     * shows where it is. The GPU prover reports none. */
    const cuzk_progress_sink *progress;
    const char *progress_name;
    /* Where the caller made a, b, c on the host (cuzk_groth16_witness a, b, c), the GPU prover
     * calls abc_read(read_ctx, k) on the calling thread once proof k's (k: its place in a batch,
     * 0 for a single proof) have been copied to the device, before the call returns: from then
     * on the caller may reuse that memory (for the next partition's a, b, c, while this proof's
     * MSMs run). A prover with streamed parameters likewise calls witness_read(read_ctx, k) once
     * proof k's assignment (input, aux) has been copied for its last MSMs: from then on the call
     * reads neither. A proof that fails or is cancelled first may not call them; other
     * placements do not call witness_read. NULL: not called. The CPU prover reads its input
     * until it returns and calls neither. */
    void (*abc_read)(void *read_ctx, size_t k);
    void (*witness_read)(void *read_ctx, size_t k);
    void *read_ctx;
} cuzk_groth16_prove_opts;
/* The CPU prover's stages, as cuzk_groth16_prove_opts.stage reports them. */
typedef enum {
    CUZK_PROVE_STAGE_NONE = 0,
    CUZK_PROVE_STAGE_NTT = 1,     /* the H polynomial: the NTTs of a, b, c and of H */
    CUZK_PROVE_STAGE_MSM = 2,     /* the MSMs of H, L, A, B_G1, B_G2 */
    CUZK_PROVE_STAGE_ASSEMBLE = 3 /* the proof from the MSMs' results */
} cuzk_prove_stage;
#define CUZK_PROVE_NTTS 7 /* inverse and coset NTTs of a, b and c, then H's inverse coset NTT */
#define CUZK_PROVE_MSMS 5
/* Returns: "ntt", "msm", "assemble" (static), "" for NONE or a value that is no stage. Thread: any. */
const char *cuzk_prove_stage_name(int stage);
/* cuzk_groth16_prove_ws with options (opts NULL: the defaults). */
cuzk_status cuzk_groth16_prove_with(cuzk_groth16_workspace *ws, cuzk_groth16_proof *out, const cuzk_groth16_params *p,
                                    const cuzk_groth16_witness *w,
                                    const cuzk_groth16_prove_opts *opts) CUZK_WARN_UNUSED;

/* The proof from the five MSM results and the randomizers, as bellperson assembles it:
 * A = alpha + A_msm + r delta; B = beta + B_msm + s delta (G2);
 * C = rs delta + s alpha + r beta + s A_msm + r B1_msm + H + L. Uses vk's alpha_g1, beta_g1,
 * beta_g2, delta_g1 and delta_g2 only. Shared by the CPU and GPU provers. */
void cuzk_groth16_assemble(cuzk_groth16_proof *out, const cuzk_groth16_vk *vk, const cuzk_fr *r, const cuzk_fr *s,
                           const blst_p1 *h_msm, const blst_p1 *l_msm, const blst_p1 *a_msm, const blst_p1 *b1_msm,
                           const blst_p2 *b2_msm);

/* The H polynomial's coefficients as the prover computes them (N - 1 values into h_out),
 * exposed so other provers (GPU) can be checked stage by stage. */
cuzk_status cuzk_groth16_compute_h(cuzk_fr *h_out, const cuzk_groth16_witness *w, cuzk_timeline *tl) CUZK_WARN_UNUSED;

/* ---------------------------------------------------------------- verifier */
/* inputs: the public inputs without the leading ONE (vk->ic_len - 1 values).
 * CUZK_OK when the proof verifies, CUZK_EVERIFY when it does not, CUZK_EINVAL on a wrong
 * input count. */
cuzk_status cuzk_groth16_verify(const cuzk_groth16_vk *vk, const cuzk_groth16_proof *proof, const cuzk_fr *inputs,
                                size_t num_inputs) CUZK_WARN_UNUSED;
/* Several proofs against one vk with a random linear combination and one final
 * exponentiation; inputs are nproofs consecutive groups of num_inputs values. */
cuzk_status cuzk_groth16_verify_batch(const cuzk_groth16_vk *vk, const cuzk_groth16_proof *proofs, size_t nproofs,
                                      const cuzk_fr *inputs, size_t num_inputs) CUZK_WARN_UNUSED;

/* ---------------------------------------------------------------- public inputs JSON */
/* The public inputs of nproofs proofs (ninputs each, ONE omitted) as JSON: an array of decimal
 * strings for one proof (unless nested), an array of such arrays otherwise. */
cuzk_status cuzk_inputs_json_write(const char *path, const cuzk_fr *inputs, size_t nproofs, size_t ninputs,
                                   bool nested) CUZK_WARN_UNUSED;
/* The same document in memory: *text (malloc'd, NUL-terminated, *len bytes with the final
 * newline) belongs to the caller. */
cuzk_status cuzk_inputs_json_format(char **text, size_t *len, const cuzk_fr *inputs, size_t nproofs, size_t ninputs,
                                    bool nested) CUZK_WARN_UNUSED;
/* Reads either form from path, a regular file of at most max_bytes (what the caller takes: a
 * FIFO is refused, not waited on, and a larger file is not read); *inputs (malloc'd, nproofs *
 * ninputs values) belongs to the caller. Values must be canonical decimal strings below r;
 * errors name the element, e.g. "[1][0]". Every row's length is checked against the first
 * row's before memory is sized from them. */
cuzk_status cuzk_inputs_json_read(const char *path, uint64_t max_bytes, cuzk_fr **inputs, size_t *nproofs,
                                  size_t *ninputs) CUZK_WARN_UNUSED;
/* The same from len bytes of text; name is what messages call it (a path). */
cuzk_status cuzk_inputs_json_parse(const char *text, size_t len, const char *name, cuzk_fr **inputs, size_t *nproofs,
                                   size_t *ninputs) CUZK_WARN_UNUSED;

/* ---------------------------------------------------------------- setup */
/* Random parameters for an R1CS (toxic waste from the OS CSPRNG, or from rng when given, for
 * reproducible tests). Fails like bellperson on an unconstrained aux variable. */
cuzk_status cuzk_groth16_setup(cuzk_groth16_params *out, const cuzk_r1cs *m, cuzk_rng *rng,
                               cuzk_timeline *tl) CUZK_WARN_UNUSED;
/* How a setup multiplies one base by many scalars (almost all of its time): the CPU's comb
 * (cuzk_g1_fixed_base_mul, cuzk_g2_fixed_base_mul) unless given, e.g. a GPU's. Both must give
 * the same affine points, so a seeded setup writes the same files either way. */
typedef struct {
    cuzk_status (*g1)(void *ctx, blst_p1_affine *out, const blst_p1 *base, const cuzk_fr *scalars, size_t n);
    cuzk_status (*g2)(void *ctx, blst_p2_affine *out, const blst_p2 *base, const cuzk_fr *scalars, size_t n);
    void *ctx;
} cuzk_fixed_base_ops;
/* cuzk_groth16_setup with its fixed-base multiplications done by ops (NULL: the CPU's). */
cuzk_status cuzk_groth16_setup_with(cuzk_groth16_params *out, const cuzk_r1cs *m, cuzk_rng *rng, cuzk_timeline *tl,
                                    const cuzk_fixed_base_ops *ops) CUZK_WARN_UNUSED;
/* ... reporting its progress to progress (NULL: none): a task for the QAP evaluation (rows of
 * the three matrices) and one for each fixed-base section (points: "setup: l", "setup: h",
 * "setup: a", "setup: b g1", "setup: b g2"). With ops given, each section is multiplied in up
 * to 16 calls of at least 2^22 points, so that its progress moves. */
cuzk_status cuzk_groth16_setup_progress(cuzk_groth16_params *out, const cuzk_r1cs *m, cuzk_rng *rng, cuzk_timeline *tl,
                                        const cuzk_fixed_base_ops *ops,
                                        const cuzk_progress_sink *progress) CUZK_WARN_UNUSED;

#ifdef __cplusplus
}
#endif
#endif

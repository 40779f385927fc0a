/* What bench engine and bench cancel prove through an in-process engine (bench_target.c): a
 * built-in circuit with its parameters, a C1 with its parameters, or synthetic data of a proof
 * kind at any sector size (every job partition then proves partition 0's data, made once before
 * the run). Both commands take the same options for it and check them the same way. */
#ifndef CUZK_CLI_BENCH_TARGET_H
#define CUZK_CLI_BENCH_TARGET_H

#include <stdbool.h>

#include "cli/args.h"
#include "cuzk/engine.h"
#include "cuzk/filecoin_c1.h"
#include "cuzk/filecoin_post.h"
#include "cuzk/filecoin_snap.h"

/* What a job partition opens: a named circuit, or one synthetic partition of a proof kind. */
typedef struct {
    const char *name;        /* circuit name (testcircuits) when the rest are NULL */
    cuzk_c1 *c1;             /* PoRep */
    cuzk_post_partition *pp; /* WindowPoSt, WinningPoSt */
    cuzk_snap_proofs *sp;    /* SnapDeals */
} bench_circuit;

/* An engine circuit's open function over a bench_circuit (ctx). */
cuzk_status bench_circuit_open(void *ctx, const uint8_t *input, size_t input_len, uint64_t seed, unsigned k,
                               cuzk_circuit **out);

typedef struct {
    /* the options (borrowed strings; NULL when not given) */
    const char *kind; /* circuit, porep, window-post, winning-post or snap */
    const char *circuit, *params, *c1_path, *size, *pce_path;
    bool synthetic, gpu;
    /* made by bench_target_open; the engine reads bc while it lives */
    bench_circuit bc;
    cuzk_mapped_file c1f;
    char reg_id[96];      /* the registered circuit's id ("" for a C1, whose kind names it) */
    cuzk_job_request req; /* every job's request: kind, circuit, input, partitions, priority */
    double data_s;        /* seconds bench_target_open took (synthetic data, mapping the C1) */
} bench_target;

/* The options naming the target (--kind, --circuit, --params, --c1, --sector-size, --synthetic,
 * --pce) into out, pointing into t: BENCH_TARGET_NOPTS of them, returned. */
#define BENCH_TARGET_NOPTS 7
size_t bench_target_opt_table(bench_target *t, cli_opt *out);

/* Checks the options' combination, printing what is wrong under `me` ("bench engine"): 0, or
 * 2 for a usage error; a kind given by another of its names (porep-c2) is set to its own.
 * partitions_given: --partitions was given (kind circuit only). */
int bench_target_check(const char *me, bench_target *t, bool partitions_given);
/* Makes the data and the jobs' request: kind circuit proves `partitions` partitions per job,
 * a proof kind its own. */
cuzk_status bench_target_open(bench_target *t, unsigned partitions, cuzk_priority prio) CUZK_WARN_UNUSED;
/* Registers the circuit (or a C1's parameter files) with e. */
cuzk_status bench_target_register(bench_target *t, cuzk_engine *e) CUZK_WARN_UNUSED;
/* The circuit's id, or the C1's path. */
const char *bench_target_name(const bench_target *t);
/* Frees the data; after the engine that used it is destroyed. */
void bench_target_close(bench_target *t);

#endif

/* The circuit, C1 or synthetic proof-kind data that bench engine and bench cancel run their jobs
 * on (bench_target.h). */
#include <stdio.h>
#include <string.h>

#include "cuzk/engine_circuits.h"
#include "cli/args.h"
#include "cli/bench_target.h"
#include "cli/hints.h"
#include "cuzk/filecoin.h"
#include "cuzk/filecoin_circuit.h"
#include "cuzk/testcircuits.h"

cuzk_status bench_circuit_open(void *ctx, const uint8_t *input, size_t input_len, uint64_t seed, unsigned k,
                               cuzk_circuit **out)
{
    (void)input;
    (void)input_len;
    (void)seed;
    (void)k;
    const bench_circuit *b = ctx;
    if (b->c1) return cuzk_porep_circuit_open(out, b->c1, 0);
    if (b->pp) return cuzk_post_circuit_open(out, b->pp);
    if (b->sp) return cuzk_snap_circuit_open(out, b->sp, 0);
    return cuzk_circuit_open(out, b->name);
}

/* The partitions of one SnapDeals proof of this size (16 for 32 GiB), 0 if unknown. */
static unsigned snap_partitions(const char *size)
{
    char name[64];
    snprintf(name, sizeof name, "StackedDrg%sV1", size);
    for (unsigned p = 0; p < CUZK_UPDATE_PROOF_COUNT; p++) {
        const cuzk_update_proof_info *info = cuzk_update_proof_info_get((cuzk_update_proof)p);
        if (info && !strcmp(info->name, name)) return info->partitions;
    }
    return 0;
}

/* Synthetic data of kind K at SIZE: the registered circuit's id and the partitions per job. */
static cuzk_status open_synthetic(bench_circuit *b, const char *kind, const char *size, char *reg_id, size_t reg_cap,
                                  unsigned *partitions)
{
    char name[64];
    snprintf(name, sizeof name, "%s:%.32s", kind, size);
    cuzk_circuit *c = NULL;
    cuzk_status st;
    if (!strcmp(kind, "porep")) {
        st = cuzk_porep_synthetic_open(&c, &b->c1, name, 1);
        if (!st) *partitions = b->c1->info->partitions;
    } else if (!strcmp(kind, "snap")) {
        st = cuzk_snap_synthetic_open(&c, &b->sp, name, 1);
        if (!st) *partitions = snap_partitions(size);
        if (!st && !*partitions) st = cuzk_fail(CUZK_EINTERNAL, "no SnapDeals proof of size %s", size);
    } else {
        st = cuzk_post_synthetic_open(&c, &b->pp, name, 1);
        *partitions = 1; /* one WindowPoSt partition, or the one WinningPoSt proof */
    }
    cuzk_circuit_free(c);
    char id[64], family[64]; /* as the daemon names the circuit: "porep-32g-synthetic" */
    snprintf(reg_id, reg_cap, "%s-synthetic", cuzk_filecoin_circuit_spellings(name, id, family) ? id : name);
    return st;
}

static bool is_porep(const bench_target *t) { return !strcmp(t->kind, "porep"); }
static bool is_circuit(const bench_target *t) { return !strcmp(t->kind, "circuit"); }
static bool is_proof_kind(const bench_target *t)
{
    return !strcmp(t->kind, "window-post") || !strcmp(t->kind, "winning-post") || !strcmp(t->kind, "snap");
}

int bench_target_check(const char *me, bench_target *t, bool partitions_given)
{
    cuzk_job_kind k;
    if (!cuzk_kind_parse(&k, t->kind)) t->kind = cuzk_kind_name(k); /* porep-c2 is porep */
    if (!is_porep(t) && !is_circuit(t) && !is_proof_kind(t)) {
        fprintf(stderr, "cuzk %s: --kind circuit, porep, window-post, winning-post or snap, not '%s'\n", me, t->kind);
        return 2;
    }
    if (is_proof_kind(t) && !t->synthetic) {
        fprintf(stderr,
                "cuzk %s: --kind %s is timed with --synthetic (random vanilla data of the exact "
                "shape); a real partition is proved with cuzk prove %s\n",
                me, t->kind, t->kind);
        return 2;
    }
    if (is_circuit(t) && !t->circuit) return cli_missing(me, "circuit");
    if (t->size && (!t->synthetic || is_circuit(t))) {
        fprintf(stderr, "cuzk %s: --sector-size goes with --synthetic and a proof kind\n", me);
        return 2;
    }
    if (partitions_given && !is_circuit(t)) {
        fprintf(stderr, "cuzk %s: --partitions is for --kind circuit (a proof kind has its own)\n", me);
        return 2;
    }
    if (is_porep(t) && !t->synthetic && !t->c1_path) return cli_missing(me, "c1 (or --synthetic)");
    if (!t->synthetic && !t->params) return cli_missing(me, "params (or --synthetic)");
    if (t->synthetic && !t->gpu) {
        fprintf(stderr, "cuzk %s: --synthetic parameters are made on a GPU: add --gpu\n", me);
        return 2;
    }
    return 0;
}

cuzk_status bench_target_open(bench_target *t, unsigned partitions, cuzk_priority prio)
{
    memset(&t->bc, 0, sizeof t->bc);
    memset(&t->c1f, 0, sizeof t->c1f);
    memset(&t->req, 0, sizeof t->req);
    t->reg_id[0] = 0;
    t->bc.name = t->circuit;
    t->req.kind = CUZK_KIND_CIRCUIT;
    t->req.priority = prio;
    t->req.partitions = partitions;
    cuzk_status st = CUZK_OK;
    double t0 = cuzk_now();
    if (!is_circuit(t) && t->synthetic) {
        st = open_synthetic(&t->bc, t->kind, t->size ? t->size : "32GiB", t->reg_id, sizeof t->reg_id,
                            &t->req.partitions);
    } else if (is_porep(t)) {
        st = cuzk_map_file(&t->c1f, t->c1_path);
        t->req.kind = CUZK_KIND_POREP;
        t->req.input = t->c1f.data;
        t->req.input_len = t->c1f.size;
    } else {
        cuzk_circuit *c = NULL;
        st = cuzk_circuit_open(&c, t->circuit);
        cuzk_circuit_free(c);
        if (!st && !t->synthetic) st = cli_check_key_kind("params", t->params, CUZK_KEY_PARAMS);
        snprintf(t->reg_id, sizeof t->reg_id, "%s", t->circuit);
    }
    t->data_s = cuzk_now() - t0;
    return st;
}

cuzk_status bench_target_register(bench_target *t, cuzk_engine *e)
{
    if (t->reg_id[0]) {
        cuzk_engine_circuit reg = {t->reg_id, bench_circuit_open, &t->bc,       t->params,
                                   NULL,      t->pce_path,        t->synthetic, false};
        t->req.circuit = t->reg_id;
        return cuzk_engine_register_circuit(e, &reg);
    }
    /* a C1: the engine proves it with its kind's built-in circuit, from these files */
    cuzk_c1 *c1 = NULL;
    char id[64];
    cuzk_status st = cli_c1_hint(cuzk_c1_parse_any(&c1, t->c1f.data, t->c1f.size, NULL, NULL), t->c1_path);
    if (!st && t->params) st = cli_check_porep_params(t->params, c1);
    if (!st) cuzk_porep_circuit_id(id, (uint64_t)c1->proof);
    if (!st) st = cuzk_engine_set_files(e, id, t->params, NULL, t->pce_path);
    cuzk_c1_free(c1);
    return st;
}

const char *bench_target_name(const bench_target *t) { return t->reg_id[0] ? t->reg_id : t->c1_path; }

void bench_target_close(bench_target *t)
{
    cuzk_c1_free(t->bc.c1);
    cuzk_post_partition_free(t->bc.pp);
    cuzk_snap_proofs_free(t->bc.sp);
    memset(&t->bc, 0, sizeof t->bc);
    cuzk_unmap_file(&t->c1f);
}

size_t bench_target_opt_table(bench_target *t, cli_opt *out)
{
    const cli_opt opts[BENCH_TARGET_NOPTS] = {
        {"kind", "K",
         "circuit (a built-in circuit; the default), porep (a C1, or --synthetic), or window-post, winning-post, "
         "snap (--synthetic)",
         &t->kind, NULL},
        {"circuit", "NAME", "kind circuit: the built-in circuit", &t->circuit, NULL},
        {"params", "FILE", "its parameters (required unless --synthetic)", &t->params, NULL},
        {"c1", "FILE", "kind porep: the C1 output every job proves", &t->c1_path, NULL},
        {"sector-size", "SIZE", "with --synthetic: 2KiB, 8MiB, 512MiB, 32GiB or 64GiB (default 32GiB)", &t->size, NULL},
        {"synthetic", NULL,
         "synthetic parameters made on the GPU (and random vanilla data for a proof kind): timed, not verified "
         "(default: off)",
         NULL, &t->synthetic},
        {"pce", "FILE", "keep the precompiled circuit there (a 32 GiB PoRep records in about 40 s; default: in memory)",
         &t->pce_path, NULL},
    };
    memcpy(out, opts, sizeof opts);
    return BENCH_TARGET_NOPTS;
}

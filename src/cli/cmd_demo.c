/* cuzk demo: the main job on an embedded default — seal a 2 KiB test sector, set up (once,
 * cached) its Groth16 parameters, prove its PoRep C2 and verify it, printing the per-stage
 * timeline; then the other three proofs of a 2 KiB sector (demo_post_snap.c). --circuit NAME
 * runs set up / prove / verify of a built-in circuit instead. Every step is announced on stdout
 * with its time and peak memory; long ones draw the progress line on a terminal.
 *
 * The parameters are kept in the parameter cache folder the daemon reads (daemon.param_dir:
 * FIL_PROOFS_PARAMETER_CACHE, default /var/tmp/filecoin-proof-parameters), under test names
 * (cuzk-test-porep-2KiB.params, ...): they are made here with random toxic waste, so they must
 * never take the official names a daemon or lotus would load. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/cache_names.h"
#include "cli/cli.h"
#include "cli/demo.h"
#include "cli/progress_term.h"
#include "cli/settings.h"
#include "cuzk/testcircuits.h"
#include "cuzk/filecoin_circuit.h"
#include "cuzk/filecoin_seal.h"
#include "cuzk/engine.h"
#include "cuzk/engine_circuits.h"
#include "cuzk/groth16.h"

static cuzk_status open_named(void *ctx, const uint8_t *input, size_t input_len, uint64_t seed, unsigned k,
                              cuzk_circuit **out)
{
    (void)input;
    (void)input_len;
    (void)seed;
    (void)k;
    return cuzk_circuit_open(out, ctx);
}

/* Proves one job through an in-process engine (the one proving path). */
cuzk_status demo_run_job(cuzk_engine *e, const cuzk_job_request *req, cuzk_job_result *r)
{
    uint64_t id;
    cuzk_status st = cuzk_engine_submit(e, req, &id, NULL);
    if (!st) st = cuzk_engine_await(e, id, -1, r);
    if (!st && r->state != CUZK_JOB_COMPLETED) st = cuzk_fail(CUZK_EVERIFY, "%s", r->error);
    return st;
}

void demo_say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("cuzk demo: ", stdout);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

double demo_step_start(void)
{
    /* resets the peak resident size to the current one (Linux: clear_refs 5), so that each
     * step's peak is its own */
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (f) {
        fputs("5", f);
        fclose(f);
    }
    return cuzk_now();
}

void demo_step_end(double t0, const char *what)
{
    double s = cuzk_now() - t0;
    long kib = cli_rss_kib("VmHWM:");
    if (kib <= 0) demo_say("%s: %.2f s", what, s);
    else if (kib < (1 << 20)) demo_say("%s: %.2f s, peak memory %.0f MiB", what, s, (double)kib / 1024);
    else demo_say("%s: %.2f s, peak memory %.2f GiB", what, s, (double)kib / (1 << 20));
}

/* mkdir -p */
static cuzk_status make_folder(const char *dir)
{
    char p[4096];
    if (snprintf(p, sizeof p, "%s", dir) >= (int)sizeof p) return cuzk_fail(CUZK_EINVAL, "%s: path too long", dir);
    for (char *q = p + 1;; q++) {
        if (*q && *q != '/') continue;
        char c = *q;
        *q = 0;
        if (mkdir(p, 0755) != 0 && errno != EEXIST)
            return cuzk_fail(CUZK_EIO,
                             "cannot create %s: %s (the demo keeps its parameters in the parameter cache folder: "
                             "set FIL_PROOFS_PARAMETER_CACHE or --cache DIR)",
                             p, strerror(errno));
        *q = c;
        if (!c) return CUZK_OK;
    }
}

static int demo_circuit(const char *circuit, const demo_opts *o, cuzk_timeline *tl)
{
    cuzk_circuit *c;
    if (cuzk_circuit_open(&c, circuit)) return cli_error("demo");
    cuzk_r1cs m = {0};
    cuzk_groth16_params p = {0};
    char dir[] = "/tmp/cuzk-demo-XXXXXX", params[64], vk[64];
    bool made = mkdtemp(dir) != NULL;
    snprintf(params, sizeof params, "%s/demo.params", dir);
    snprintf(vk, sizeof vk, "%s/demo.vk", dir);
    int span = cuzk_span_begin(tl, "record circuit");
    cuzk_status st = made ? cuzk_circuit_record_progress(c, &m, o->progress)
                          : cuzk_fail(CUZK_EIO, "cannot make a folder under /tmp");
    cuzk_span_end(tl, span);
    if (!st) {
        span = cuzk_span_begin(tl, "setup");
        st = cuzk_groth16_setup_progress(&p, &m, NULL, tl, NULL, o->progress);
        if (!st) st = cuzk_groth16_params_write(&p, params);
        cuzk_span_end(tl, span);
    }
    cuzk_engine *e = NULL;
    cuzk_job_result r;
    memset(&r, 0, sizeof r);
    if (!st) st = cli_engine_create_progress(&e, false, NULL, o->progress);
    cuzk_engine_circuit reg = {circuit, open_named, (void *)circuit, params, NULL, NULL, false, false};
    if (!st) st = cuzk_engine_register_circuit(e, &reg);
    cuzk_job_request req = {.kind = CUZK_KIND_CIRCUIT, .circuit = circuit, .partitions = 1, .seed = 3};
    if (!st) st = demo_run_job(e, &req, &r);
    cuzk_engine_destroy(e);
    if (!st) {
        printf("cuzk demo: %s, %zu constraints, %zu public inputs: proved and verified OK\n", circuit,
               m.num_constraints, m.num_inputs - 1);
        cuzk_timeline_print(tl, stdout);
        cli_print_timeline_json("the proof (engine)", r.timeline_json, stdout);
    }
    cuzk_job_result_free(&r);
    if (made) {
        remove(params);
        remove(vk);
        rmdir(dir);
    }
    cuzk_groth16_params_free(&p);
    cuzk_r1cs_free(&m);
    cuzk_circuit_free(c);
    return st ? cli_error("demo") : 0;
}

cuzk_status demo_cached_params(const demo_opts *o, const char *circuit, char *path, char *vk, size_t cap,
                               cuzk_timeline *tl)
{
    char *pp, *vv;
    cuzk_status st = cli_cache_test_paths(o->cache, circuit, &pp, &vv);
    if (st) return st;
    if (strlen(pp) >= cap || strlen(vv) >= cap)
        st = cuzk_fail(CUZK_EINVAL, "the parameter cache path %s is longer than the %zu bytes the demo takes",
                       strlen(pp) >= cap ? pp : vv, cap - 1);
    else {
        snprintf(path, cap, "%s", pp);
        snprintf(vk, cap, "%s", vv);
    }
    free(pp);
    free(vv);
    if (st) return st;
    struct stat sb;
    if (stat(path, &sb) == 0 && stat(vk, &sb) == 0) {
        demo_say("parameters of %s: cached in %s", circuit, path);
        return CUZK_OK;
    }
    if ((st = make_folder(o->cache))) return st;
    demo_say("setup of %s: Groth16 parameters made once, with random toxic waste (for tests, not the official "
             "ones), into %s",
             circuit, path);
    cuzk_circuit *c;
    if ((st = cuzk_circuit_open(&c, circuit))) return st;
    cuzk_r1cs m;
    cuzk_groth16_params p = {0};
    char name[128];
    snprintf(name, sizeof name, "setup of %s (first run only)", circuit);
    double t0 = demo_step_start();
    int span = cuzk_span_begin(tl, name);
    st = cuzk_circuit_record_progress(c, &m, o->progress);
    cuzk_circuit_free(c);
    if (!st) {
        st = cuzk_groth16_setup_progress(&p, &m, NULL, tl, NULL, o->progress);
        cuzk_r1cs_free(&m);
    }
    cuzk_progress *writing = st ? NULL : cuzk_progress_start(o->progress, "writing the parameter files", 0);
    if (!st) st = cuzk_groth16_params_write(&p, path);
    if (!st) st = cuzk_groth16_vk_write(&p.vk, vk);
    cuzk_progress_finish(writing);
    cuzk_groth16_params_free(&p);
    cuzk_span_end(tl, span);
    if (!st) demo_step_end(t0, name);
    return st;
}

static int demo_porep(const demo_opts *o, cuzk_timeline *tl)
{
    cuzk_seal_params sp;
    memset(&sp, 0, sizeof sp);
    sp.proof = CUZK_SEAL_2KIB_V1_1;
    cuzk_prover_id_from_actor(sp.prover_id, 1002);
    sp.sector_id = 1;
    /* the 2 KiB devnet sector of porep-circuit.md: its comm_d and comm_r are on record */
    cuzk_status st = cuzk_hex_decode(sp.ticket, 32, "c3a1ca12b981a8a59f9a4764edf3398edd239b2afa8ca2bbd57e0091ec193aa0");
    uint8_t seed[32];
    if (!st) st = cuzk_hex_decode(seed, 32, "62a9ec8794bdb9cf9899e3e1fde9dd3c84ecb285bfeeace7fdbf4924b25eba85");
    cuzk_sealed_sector *s = NULL;
    cuzk_c1 *c1 = NULL;
    char params[4200], vk[4200], id[64];
    uint8_t *json = NULL;
    size_t json_len = 0;
    cuzk_engine *e = NULL;
    cuzk_job_result r;
    memset(&r, 0, sizeof r);
    int job = cuzk_span_begin(tl, "PoRep C2, 2 KiB sector");
    int span = cuzk_span_begin(tl, "seal (precommit + commit1)");
    double t0 = demo_step_start();
    if (!st) st = cuzk_seal_precommit(&s, &sp, tl);
    if (!st) st = cuzk_seal_commit1(&c1, s, seed, tl);
    if (!st) st = cuzk_c1_write(c1, &json, &json_len); /* the C1 JSON, as Curio would send it */
    cuzk_span_end(tl, span);
    if (!st) demo_step_end(t0, "seal a 2 KiB test sector (precommit, commit1)");
    if (!st) st = demo_cached_params(o, "porep:2KiB", params, vk, sizeof params, tl);
    /* the proof through an in-process engine: vanilla checks, witness, prover, verification */
    if (!st) {
        cuzk_porep_circuit_id(id, (uint64_t)c1->proof);
        span = cuzk_span_begin(tl, "start the engine");
        st = cli_engine_create_progress(&e, false, NULL, o->progress);
        if (!st) st = cuzk_engine_set_files(e, id, params, vk, NULL);
        cuzk_span_end(tl, span);
    }
    cuzk_job_request req = {.kind = CUZK_KIND_POREP, .input = json, .input_len = json_len};
    if (!st) {
        span = cuzk_span_begin(tl, "prove (engine job)");
        demo_say("prove PoRep C2 through the engine (vanilla checks, parameters read, witness, CPU prover, "
                 "verification)");
        t0 = demo_step_start();
        st = demo_run_job(e, &req, &r);
        cuzk_span_end(tl, span);
        if (!st) demo_step_end(t0, "prove PoRep C2");
    }
    cuzk_engine_destroy(e);
    cuzk_span_end(tl, job);
    if (!st) {
        const cuzk_seal_commitments *cm = cuzk_sealed_commitments(s);
        char d[65], rr[65], hex[2 * CUZK_GROTH16_PROOF_BYTES + 1];
        cuzk_hex_encode(d, cm->comm_d, 32);
        cuzk_hex_encode(rr, cm->comm_r, 32);
        cuzk_hex_encode(hex, r.proof, CUZK_GROTH16_PROOF_BYTES);
        printf("cuzk demo: PoRep C2 of a 2 KiB sector (StackedDrg2KiBV1_1, t01002, sector 1), %u threads\n"
               "comm_d %s\ncomm_r %s\nproof  %s\n",
               cuzk_threads(), d, rr, hex);
        cuzk_timeline_print(tl, stdout);
        cli_print_timeline_json("the proof (engine job)", r.timeline_json, stdout);
        printf("verified: OK (%zu public inputs recomputed from the sector's public data)\n",
               cuzk_seal_proof_num_inputs(c1->proof));
    }
    cuzk_job_result_free(&r);
    free(json);
    cuzk_c1_free(c1);
    cuzk_sealed_sector_free(s);
    return st ? cli_error("demo") : 0;
}

int cli_demo(int argc, char **argv)
{
    const char *circuit = NULL, *threads = NULL, *cache = NULL;
    bool quiet = false, done;
    cli_opt opts[] = {
        {"cache", "DIR",
         "where the 2 KiB parameters are kept, as cuzk-test-*.params/.vk (default: the parameter cache folder, "
         "FIL_PROOFS_PARAMETER_CACHE or /var/tmp/filecoin-proof-parameters)",
         &cache, NULL},
        {"circuit", "NAME",
         "instead: set up, prove and verify this built-in circuit (e.g. random:65536; default: the 2 KiB sector)",
         &circuit, NULL},
        {"threads", "T", "worker threads (default: all CPUs)", &threads, NULL},
        {"quiet", NULL, "no progress line", NULL, &quiet},
    };
    int rc = cli_parse(argc, argv,
                       "cuzk demo [--cache DIR] [--circuit NAME] [--threads T] [--quiet]\n\n"
                       "A 2 KiB sector end to end: seals it, then proves and verifies its PoRep C2, a WindowPoSt, a\n"
                       "WinningPoSt and a SnapDeals update, printing each step's time. The parameters are made once\n"
                       "(a few minutes) and kept in --cache (cuzk-test-* names in the parameter cache folder).\n"
                       "With --circuit: setup, prove and verify of that\n"
                       "built-in circuit, with the timeline.\n\n"
                       "examples:\n  cuzk demo\n  cuzk demo --circuit random:65536",
                       opts, (int)(sizeof opts / sizeof opts[0]), &done);
    if (rc || done) return rc;
    if (cli_threads("demo", threads)) return 2;
    demo_opts o = {cache ? cache : cli_settings_get()->daemon.param_dir, cli_progress(quiet, false)};
    if (!o.cache || !o.cache[0]) o.cache = CUZK_PARAM_DIR_DEFAULT;
    cuzk_timeline *tl = cuzk_timeline_create("demo");
    double t0 = cuzk_now();
    rc = circuit ? demo_circuit(circuit, &o, tl) : demo_porep(&o, tl);
    if (!circuit && rc == 0) rc = demo_post_snap(&o);
    if (!circuit && rc == 0) demo_say("all four proofs made and verified in %.1f s", cuzk_now() - t0);
    if (circuit && rc == 0) cuzk_timeline_print(tl, stdout);
    cuzk_timeline_destroy(tl);
    return rc;
}

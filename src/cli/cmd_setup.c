/* cuzk setup: random Groth16 parameters for a built-in circuit, written to the files named or,
 * with --into-cache DIR, under the names a daemon looks up in its parameter folder. With --gpu
 * the fixed-base multiplications (nearly all of a large setup's time) run on the GPU; the
 * files are the same as the CPU's for the same seed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cache_names.h"
#include "cli/cli.h"
#include "cli/outputs.h"
#include "cli/progress_term.h"
#include "cli/settings.h"
#include "cuzk/testcircuits.h"
#include "cuzk/gpu.h"
#include "cuzk/groth16.h"
#include "cuzk/params_writer.h"

static cuzk_status gpu_g1(void *ctx, blst_p1_affine *out, const blst_p1 *base, const cuzk_fr *scalars, size_t n)
{
    return cuzk_gpu_fixed_base_g1(ctx, out, base, scalars, n);
}

static cuzk_status gpu_g2(void *ctx, blst_p2_affine *out, const blst_p2 *base, const cuzk_fr *scalars, size_t n)
{
    return cuzk_gpu_fixed_base_g2(ctx, out, base, scalars, n);
}

/* The setup's sink: each section written to the .params file as it is made, then freed, so a
 * 32 GiB setup holds one section at a time (not all 47 GB); the key kept for the .vk file. */
typedef struct {
    cuzk_groth16_params_writer *w;
    cuzk_groth16_vk vk;
    cuzk_timeline *tl;
} setup_files;

static cuzk_status files_vk(void *ctx, const cuzk_groth16_vk *vk)
{
    setup_files *f = ctx;
    f->vk = *vk;
    f->vk.ic = cuzk_big_alloc(vk->ic_len * sizeof *vk->ic);
    if (!f->vk.ic) {
        f->vk.ic_len = 0;
        return CUZK_ENOMEM;
    }
    memcpy(f->vk.ic, vk->ic, vk->ic_len * sizeof *vk->ic);
    return cuzk_groth16_params_writer_vk(f->w, vk);
}

static cuzk_status files_section(void *ctx, int section, void *pts, size_t n)
{
    setup_files *f = ctx;
    char name[32];
    snprintf(name, sizeof name, "write %s", cuzk_groth16_section_name(section));
    int span = cuzk_span_begin(f->tl, name);
    cuzk_status st = cuzk_groth16_params_writer_section(f->w, section, pts, n);
    cuzk_span_end(f->tl, span);
    cuzk_big_free(pts, n * (section == CUZK_PARAMS_B_G2 ? sizeof(blst_p2_affine) : sizeof(blst_p1_affine)));
    return st;
}

int cli_setup(int argc, char **argv)
{
    const char *circuit = NULL, *params = NULL, *vk = NULL, *into = NULL, *seed_s = NULL, *threads = NULL;
    bool quiet = false, print_paths = false, use_gpu = false, done;
    cli_opt opts[] = {
        {"circuit", "NAME", "built-in circuit (required; see cuzk circuit-info --list)", &circuit, NULL},
        {"params", "OUT.params", "where to write the parameters (bellperson layout; required unless --into-cache)",
         &params, NULL},
        {"vk", "OUT.vk", "where to write the verifying key (required unless --into-cache)", &vk, NULL},
        {"into-cache", "DIR",
         "instead of --params/--vk: write both into parameter folder DIR (made if missing) under the names a daemon "
         "looks up: the official file names of porep:SIZE, window-post:SIZE, winning-post:SIZE and snap:SIZE, "
         "cuzk-test-NAME for the others",
         &into, NULL},
        {"print-paths", NULL, "with --into-cache: print the two paths (parameters, then key) and exit, making nothing",
         NULL, &print_paths},
        {"seed", "S",
         "derive the toxic waste from S (reproducible, for tests only: insecure; default: from the OS CSPRNG)", &seed_s,
         NULL},
        {"gpu", NULL,
         "do the fixed-base multiplications on the GPU of a CUDA build (same files as the CPU's; default: the CPU)",
         NULL, &use_gpu},
        {"threads", "T", "worker threads (default: all CPUs)", &threads, NULL},
        {"quiet", NULL, "do not print the timeline", NULL, &quiet},
    };
    int rc = cli_parse(argc, argv,
                       "cuzk setup --circuit NAME (--params OUT.params --vk OUT.vk | --into-cache DIR [--print-paths]) "
                       "[--seed S] [--gpu]\n\n"
                       "Makes random Groth16 parameters (.params) and their verifying key (.vk) for a built-in\n"
                       "circuit, in bellperson's layout: test parameters for cuzk prove, prove porep and the others\n"
                       "(the official Filecoin parameters come from their ceremony, not from here).\n\n"
                       "examples:\n"
                       "  cuzk setup --circuit cubic --params cubic.params --vk cubic.vk\n"
                       "  cuzk setup --circuit porep:2KiB --params porep-2KiB.params --vk porep-2KiB.vk\n"
                       "  cuzk setup --circuit porep:2KiB --into-cache /var/tmp/filecoin-proof-parameters",
                       opts, (int)(sizeof opts / sizeof opts[0]), &done);
    if (rc || done) return rc;
    if (!circuit) return cli_missing("setup", "circuit");
    if (into && (params || vk)) {
        fprintf(stderr, "cuzk setup: --into-cache names both files; give it or --params and --vk, not both\n");
        return 2;
    }
    if (print_paths && !into) {
        fprintf(stderr, "cuzk setup: --print-paths needs --into-cache DIR\n");
        return 2;
    }
    if (!into && !params) return cli_missing("setup", "params");
    if (!into && !vk) return cli_missing("setup", "vk");
    uint64_t seed = 0;
    if (seed_s && cli_u64("setup", "seed", seed_s, &seed)) return 2;
    if (cli_threads("setup", threads)) return 2;

    /* the circuit is opened first (that is quick), so an unknown name fails before any path is
     * printed or folder made */
    cuzk_circuit *c;
    if (cuzk_circuit_open(&c, circuit)) return cli_error("setup");
    char *cache_params = NULL, *cache_vk = NULL;
    cli_outputs *outs = cli_outputs_new();
    cuzk_status st = outs ? CUZK_OK : cuzk_fail(CUZK_ENOMEM, "out of memory");
    if (into && !st) {
        /* "DIR/" and "DIR" name the same folder; keep the printed paths free of "//" */
        char *dir = strdup(into);
        size_t n = dir ? strlen(dir) : 0;
        while (n > 1 && dir[n - 1] == '/') dir[--n] = 0;
        st = dir ? cli_cache_paths(dir, circuit, &cache_params, &cache_vk) : cuzk_fail(CUZK_ENOMEM, "out of memory");
        if (!st && !print_paths) cli_outputs_folder(outs, "into-cache", dir, 0755);
        free(dir);
        if (st || print_paths) {
            if (!st) printf("%s\n%s\n", cache_params, cache_vk);
            free(cache_params);
            free(cache_vk);
            cli_outputs_free(outs);
            cuzk_circuit_free(c);
            return st ? cli_error("setup") : 0;
        }
        params = cache_params;
        vk = cache_vk;
    }
    /* both files are checked before the work and written together or not at all */
    int out_params = outs ? cli_outputs_add(outs, into ? "into-cache" : "params", params) : -1;
    int out_vk = outs ? cli_outputs_add(outs, into ? "into-cache" : "vk", vk) : -1;
    if (!st) st = cli_outputs_check(outs);
    if (st) {
        free(cache_params);
        free(cache_vk);
        cli_outputs_free(outs);
        cuzk_circuit_free(c);
        return cli_error("setup");
    }
    cuzk_timeline *tl = cuzk_timeline_create("setup");
    cuzk_gpu_device *dev = NULL;
    if (use_gpu) {
        int span = cuzk_span_begin(tl, "open the GPU");
        st = cli_gpu_open(&dev);
        cuzk_span_end(tl, span);
    }
    cuzk_fixed_base_ops gpu_ops = {gpu_g1, gpu_g2, dev};
    const cuzk_progress_sink *progress = cli_progress(quiet, false);
    int span = cuzk_span_begin(tl, "record circuit");
    cuzk_r1cs m = {0};
    if (!st) st = cuzk_circuit_record_progress(c, &m, progress);
    cuzk_span_end(tl, span);
    cuzk_rng rng;
    cuzk_rng_seed(&rng, seed);
    setup_files sf = {.tl = tl};
    const char *tmp = cli_outputs_path(outs, out_params);
    if (!st) st = tmp ? cli_outputs_context(outs, out_params, cuzk_groth16_params_writer_open(&sf.w, tmp)) : CUZK_EIO;
    if (!st)
        st = cuzk_groth16_setup_stream_progress(&m, seed_s ? &rng : NULL, tl, dev ? &gpu_ops : NULL,
                                                &(cuzk_groth16_setup_sink){files_vk, files_section, &sf}, progress);
    if (!st) {
        span = cuzk_span_begin(tl, "write files");
        cuzk_progress *writing = cuzk_progress_start(progress, "writing the parameter files", 0);
        st = cli_outputs_context(outs, out_params, cuzk_groth16_params_writer_commit(sf.w));
        sf.w = NULL;
        if (!st && !(tmp = cli_outputs_path(outs, out_vk))) st = CUZK_EIO;
        if (!st) st = cli_outputs_context(outs, out_vk, cuzk_groth16_vk_write(&sf.vk, tmp));
        if (!st) st = cli_outputs_commit(outs);
        cuzk_progress_finish(writing);
        cuzk_span_end(tl, span);
    }
    cuzk_groth16_params_writer_abort(sf.w);
    if (!st) {
        fprintf(stderr, "%s: %zu constraints, %zu inputs, %zu aux; wrote %s and %s\n", circuit, m.num_constraints,
                m.num_inputs, m.num_aux, params, vk);
        if (!quiet) cuzk_timeline_print(tl, stderr);
    }
    rc = st ? cli_error("setup") : 0;
    cli_outputs_free(outs);
    cuzk_groth16_vk_free(&sf.vk);
    if (!st || m.row_ptr[0]) cuzk_r1cs_free(&m);
    cuzk_timeline_destroy(tl);
    cuzk_gpu_device_close(dev);
    cuzk_circuit_free(c);
    free(cache_params);
    free(cache_vk);
    return rc;
}

/* cuzk bench gpu-place: the placement (cuzk_gpu_place) each circuit's parameters would get on
 * this machine's GPU, or on a card with a given free memory (no GPU needed), with the memory it
 * would use. cuzk bench gpu-hold: holds all but N GiB of this GPU's memory until interrupted,
 * so that another process (cuzk bench, the daemon) sees the driver report N GiB free, as on a
 * smaller card (the measurements of docs/BENCHMARKS.md's small-card rows). */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/settings.h"
#include "cuzk/groth16.h"
#include "cuzk/gpu.h"
#include "cuzk/pce.h"

#define GIB (1024.0 * 1024.0 * 1024.0)

static int parse_gib(const char *me, const char *opt, const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (*end || end == s || !(v > 0 && v < 1e6)) {
        fprintf(stderr, "cuzk %s: --%s must be a number of GiB above 0, not '%s'\n", me, opt, s);
        return 2;
    }
    *out = v;
    return 0;
}

/* one .params file's placement, printed as a row (or a JSON object) */
static int place_one(const char *path, const char *pce_path, uint64_t room, unsigned sms, bool bits, bool json,
                     bool *first)
{
    cuzk_groth16_params_file f;
    if (cuzk_groth16_params_open(&f, path)) {
        fprintf(stderr, "cuzk bench gpu-place: %s\n", cuzk_last_error());
        return 1;
    }
    uint64_t pce_bytes = 0;
    if (pce_path) {
        FILE *pf = fopen(pce_path, "rb");
        if (!pf || fseek(pf, 0, SEEK_END) || ftell(pf) <= 0) {
            fprintf(stderr, "cuzk bench gpu-place: cannot read the size of %s\n", pce_path);
            if (pf) fclose(pf);
            cuzk_groth16_params_close(&f);
            return 1;
        }
        pce_bytes = (uint64_t)ftell(pf);
        fclose(pf);
    }
    const size_t *n = f.count;
    cuzk_gpu_shape sh = {n[CUZK_PARAMS_H],
                         n[CUZK_PARAMS_L],
                         n[CUZK_PARAMS_A],
                         n[CUZK_PARAMS_B_G1],
                         f.vk.ic_len,
                         n[CUZK_PARAMS_L],
                         n[CUZK_PARAMS_H] + 1,
                         pce_bytes,
                         sms,
                         0,
                         bits};
    cuzk_groth16_params_close(&f);
    cuzk_gpu_placement p;
    const cuzk_gpu_config *cfg = &cli_settings_get()->gpu;
    cuzk_status st = cuzk_gpu_place(&sh, room, cfg, &p);
    if (st && st != CUZK_EBUDGET) { /* the [gpu] keys, not the card: the command fails */
        fprintf(stderr, "cuzk bench gpu-place: %s\n", cuzk_last_error());
        return 1;
    }
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    if (json) {
        printf("%s{\"params\":", *first ? "" : ",");
        cuzk_json_string(stdout, base);
        if (st) {
            printf(",\"placement\":\"none\",\"why\":");
            cuzk_json_string(stdout, cuzk_last_error());
        } else {
            printf(",\"placement\":\"%s\",\"params_device_bytes\":%llu,\"pce_device_bytes\":%llu,"
                   "\"workspace_bytes\":%llu,\"pinned_host_bytes\":%llu,\"file_bytes\":%llu,\"chunk_points\":%llu,"
                   "\"window_max\":%u,\"window_max_h\":%u,\"batch_max\":%u,\"lab_beside_h\":%s,\"h_sort_ahead\":%s,"
                   "\"witnesses_before_h\":%u,\"lab_concurrent\":%s,\"lab_chunk_points\":%llu,\"compact_vals\":%llu,"
                   "\"pce\":\"%s\","
                   "\"why\":",
                   cuzk_gpu_placement_name(p.kind), (unsigned long long)p.params_device_bytes,
                   (unsigned long long)p.pce_device_bytes, (unsigned long long)p.workspace_bytes,
                   (unsigned long long)p.pinned_host_bytes, (unsigned long long)p.file_bytes,
                   (unsigned long long)p.chunk_points, p.window_max, p.window_max_h, p.batch_max,
                   p.lab_beside_h ? "true" : "false", p.h_sort_ahead ? "true" : "false", p.witnesses_before_h,
                   p.lab_concurrent ? "true" : "false", (unsigned long long)p.lab_chunk_points,
                   (unsigned long long)p.compact_vals,
                   p.pce_on_device      ? "device"
                       : p.pce_streamed ? "streamed"
                                        : "none");
            cuzk_json_string(stdout, p.why);
        }
        printf("}");
    } else if (st) {
        printf("%-44s %-9s %s\n", base, "none", cuzk_last_error());
    } else {
        printf("%-44s %-9s %9.2f %9.2f %9.2f %9.2f   %s\n", base, cuzk_gpu_placement_name(p.kind),
               (double)p.params_device_bytes / GIB, (double)p.pce_device_bytes / GIB, (double)p.workspace_bytes / GIB,
               (double)p.pinned_host_bytes / GIB, p.why);
    }
    *first = false;
    return 0;
}

/* bytes per second of a 1 GiB copy from page-locked host memory to d (the best of three; 0 when
 * the memory is not there) */
static double upload_rate(cuzk_gpu_device *d)
{
    const size_t bytes = (size_t)1 << 30;
    void *h = NULL, *g = NULL;
    double best = 0;
    if (!cuzk_gpu_host_alloc(&h, bytes) && !cuzk_gpu_malloc(d, &g, bytes)) {
        memset(h, 1, bytes);
        for (int i = 0; i < 3; i++) {
            double t0 = cuzk_now();
            if (cuzk_gpu_upload(g, h, bytes)) break;
            double r = bytes / (cuzk_now() - t0);
            if (r > best) best = r;
        }
    }
    if (g) cuzk_gpu_free(g);
    if (h) cuzk_gpu_host_free(h);
    return best;
}

static bool ends_with(const char *s, const char *tail)
{
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && !strcmp(s + a - b, tail);
}

int cli_bench_gpu_place(int argc, char **argv)
{
    const char *params = NULL, *dir = NULL, *pce = NULL, *mem_s = NULL;
    bool json = false, bits = false, done;
    cli_opt opts[] = {
        {"params", "FILE", "one parameter file (.params)", &params, NULL},
        {"dir", "DIR", "every .params file in DIR", &dir, NULL},
        {"pce", "FILE", "with --params: the circuit's precompiled circuit, counted on the device", &pce, NULL},
        {"memory-gib", "G", "a card with G GiB free instead of this machine's GPU (no GPU needed)", &mem_s, NULL},
        {"witness-bits", NULL,
         "the circuits' witnesses are nearly all 0 and 1 (PoRep, SnapDeals; the engine knows its own): compact "
         "witnesses may be placed",
         NULL, &bits},
        {"json", NULL, "print JSON (default: a table)", NULL, &json},
    };
    const char *usage = "cuzk bench gpu-place (--params FILE [--pce FILE] | --dir DIR) [--memory-gib G] "
                        "[--witness-bits] [--json]\n\n"
                        "Prints the placement each circuit's parameters would get: resident on the GPU, or streamed\n"
                        "from page-locked host memory in chunks, and the memory it would use (GiB: parameters on the\n"
                        "device, precompiled circuit, a proof's workspace, page-locked host). The room is this\n"
                        "machine's GPU's free memory less engine.device_reserve, as the engine places, or a card\n"
                        "with --memory-gib G free; the [gpu] placement keys apply.\n\n"
                        "examples:\n  cuzk bench gpu-place --dir /var/tmp/filecoin-proof-parameters\n"
                        "  cuzk bench gpu-place --params v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-"
                        "8-0-sha256_hasher-82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.params "
                        "--memory-gib 16";
    int rc = cli_parse(argc, argv, usage, opts, sizeof opts / sizeof opts[0], &done);
    if (rc || done) return rc;
    if (!params == !dir) {
        fprintf(stderr, "cuzk bench gpu-place: give --params FILE or --dir DIR\n");
        return 2;
    }
    if (pce && !params) {
        fprintf(stderr, "cuzk bench gpu-place: --pce goes with --params\n");
        return 2;
    }
    uint64_t room;
    unsigned sms = 0;
    char where[512];
    if (mem_s) {
        double g;
        if (parse_gib("bench gpu-place", "memory-gib", mem_s, &g)) return 2;
        room = (uint64_t)(g * GIB);
        snprintf(where, sizeof where, "a card with %.2f GiB free", g);
    } else {
        cuzk_gpu_device *d;
        if (cli_gpu_open(&d)) {
            fprintf(stderr, "cuzk bench gpu-place: %s (--memory-gib G places for a card of G GiB without one)\n",
                    cuzk_last_error());
            return 1;
        }
        size_t fr = 0, tot = 0;
        if (cuzk_gpu_mem_info(d, &fr, &tot)) fr = 0;
        char name[200];
        cuzk_gpu_describe(d, name, sizeof name);
        const double link = upload_rate(d);
        cuzk_gpu_device_close(d);
        const uint64_t reserve = cli_settings_get()->engine.device_reserve;
        room = fr > reserve ? fr - reserve : fr / 2;
        snprintf(where, sizeof where,
                 "%s: %.2f GiB free, %.2f GiB less engine.device_reserve; host to device %.1f GB/s (page-locked, "
                 "1 GiB copies)",
                 name, fr / GIB, room / GIB, link / 1e9);
    }
    bool first = true;
    if (json)
        printf("{\"device\":\"%s\",\"room_bytes\":%llu,\"circuits\":[", mem_s ? "given" : "this GPU",
               (unsigned long long)room);
    else
        printf("placements on %s\n%-44s %-9s %9s %9s %9s %9s   %s\n", where, "parameters", "placement", "params", "pce",
               "workspace", "pinned", "why");
    rc = 0;
    if (params) rc = place_one(params, pce, room, sms, bits, json, &first);
    else {
        DIR *dp = opendir(dir);
        if (!dp) {
            fprintf(stderr, "cuzk bench gpu-place: cannot open %s\n", dir);
            return 1;
        }
        struct dirent *de;
        while ((de = readdir(dp)) && !rc) {
            if (!ends_with(de->d_name, ".params")) continue;
            char path[4096];
            if (cuzk_path_join(path, sizeof path, dir, de->d_name)) {
                fprintf(stderr, "cuzk bench gpu-place: %s\n", cuzk_last_error());
                rc = 1;
                break;
            }
            rc = place_one(path, NULL, room, sms, bits, json, &first);
        }
        closedir(dp);
        if (first && !json) printf("(no .params file in %s)\n", dir);
    }
    if (json) printf("]}\n");
    return rc;
}

static volatile sig_atomic_t stop_hold;
static void on_signal(int sig)
{
    (void)sig;
    stop_hold = 1;
}

int cli_bench_gpu_hold(int argc, char **argv)
{
    const char *free_s = NULL, *secs_s = NULL;
    bool done;
    cli_opt opts[] = {
        {"free-gib", "N", "GiB to leave free (required)", &free_s, NULL},
        {"seconds", "S", "hold for S seconds at most (default: until interrupted)", &secs_s, NULL},
    };
    const char *usage =
        "cuzk bench gpu-hold --free-gib N [--seconds S]\n\n"
        "Holds all but N GiB of the configured GPU's memory until interrupted (SIGINT, SIGTERM) or S\n"
        "seconds pass, so that other processes see the driver report N GiB free: a 16 or 24 GiB card\n"
        "stood in for on a larger one. Prints one line with the free memory once held.\n\n"
        "example:\n  cuzk bench gpu-hold --free-gib 24 & cuzk bench engine --kind porep --synthetic --gpu";
    int rc = cli_parse(argc, argv, usage, opts, sizeof opts / sizeof opts[0], &done);
    if (rc || done) return rc;
    if (!free_s) return cli_missing("bench gpu-hold", "free-gib");
    double leave, secs = 0;
    if (parse_gib("bench gpu-hold", "free-gib", free_s, &leave)) return 2;
    if (secs_s && parse_gib("bench gpu-hold", "seconds", secs_s, &secs)) return 2;
    cuzk_gpu_device *d;
    if (cli_gpu_open(&d)) return cli_error("bench gpu-hold");
    size_t fr = 0, tot = 0;
    if (cuzk_gpu_mem_info(d, &fr, &tot)) return cli_error("bench gpu-hold");
    const uint64_t want = (uint64_t)(leave * GIB);
    /* pieces of 1 GiB, then smaller ones, until the driver reports what is to be left */
    void *held[4096];
    size_t nheld = 0;
    for (uint64_t piece = 1ull << 30; piece >= (1ull << 20) && nheld < 4096; piece >>= 1)
        while (nheld < 4096 && !cuzk_gpu_mem_info(d, &fr, &tot) && fr >= want + piece) {
            if (cuzk_gpu_malloc(d, &held[nheld], piece)) break;
            nheld++;
        }
    if (cuzk_gpu_mem_info(d, &fr, &tot)) return cli_error("bench gpu-hold");
    printf("holding %.2f GiB of %.2f: %.2f GiB free\n", (double)(tot - fr) / GIB, tot / GIB, fr / GIB);
    fflush(stdout);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    for (double waited = 0; !stop_hold && (secs == 0 || waited < secs); waited += 0.1) usleep(100000);
    for (size_t i = 0; i < nheld; i++) cuzk_gpu_free(held[i]);
    cuzk_gpu_device_close(d);
    return 0;
}

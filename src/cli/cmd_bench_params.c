/* cuzk bench params: how fast a .params file is read and decoded, the way the engine loads it
 * (streamed: a reader thread ahead, pieces decoded in parallel), against nothing else: the
 * figure to hold beside the disk's raw read rate. --cold drops the file's pages from the page
 * cache first (posix_fadvise; no privileges needed for a file nobody is writing). */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "cli.h"
#include "cuzk/groth16.h"

static cuzk_status discard(void *ctx, int section, size_t first, size_t n, const void *pts)
{
    (void)ctx, (void)section, (void)first, (void)n, (void)pts;
    return CUZK_OK;
}

int cli_bench_params(int argc, char **argv)
{
    const char *params = NULL, *threads = NULL;
    bool checked = false, cold = false, json = false, done;
    cli_opt opts[] = {
        {"params", "FILE", "the .params file to read (official or made by cuzk setup)", &params, NULL},
        {"checked", NULL, "subgroup-check every point too (by default: on the curve, as for trusted files)", NULL,
         &checked},
        {"cold", NULL, "drop the file's pages from the page cache first (a read from the disk)", NULL, &cold},
        {"threads", "T", "decoding threads (default: all CPUs)", &threads, NULL},
        {"json", NULL, "one JSON object instead of the text", NULL, &json},
    };
    int rc = cli_parse(argc, argv,
                       "cuzk bench params --params FILE [--checked] [--cold] [--threads T] [--json]\n"
                       "  e.g. cuzk bench params --params porep-32GiB.params --cold",
                       opts, (int)(sizeof opts / sizeof opts[0]), &done);
    if (rc || done) return rc;
    const char *me = "bench params";
    if (!params) return cli_missing(me, "params");
    if (cli_threads(me, threads)) return 2;
    double t0 = cuzk_now();
    cuzk_groth16_params_file f;
    if (cuzk_groth16_params_open(&f, params)) return cli_error(me);
    double t_open = cuzk_now() - t0;
    if (cold) (void)posix_fadvise(f.fd, 0, 0, POSIX_FADV_DONTNEED);
    size_t points = 0;
    for (int k = 0; k < CUZK_PARAMS_SECTIONS; k++) points += f.count[k];
    double read_s = 0, t1 = cuzk_now();
    cuzk_status st = cuzk_groth16_params_stream(&f, checked ? CUZK_PARAMS_CHECKED : CUZK_PARAMS_UNCHECKED,
                                                &(cuzk_groth16_points_sink){NULL, discard, NULL}, &read_s);
    double secs = cuzk_now() - t1;
    uint64_t bytes = f.file_bytes;
    size_t count[CUZK_PARAMS_SECTIONS];
    memcpy(count, f.count, sizeof count);
    cuzk_groth16_params_close(&f);
    if (st) return cli_error(me);
    double rate = secs > 0 ? (double)bytes / secs / 1e9 : 0;
    if (json) {
        printf("{\"bench\":\"params\",\"bytes\":%llu,\"points\":%zu,\"checked\":%s,\"cold\":%s,\"threads\":%u,"
               "\"open_s\":%.6f,\"seconds\":%.6f,\"gb_per_s\":%.4f,\"read_s\":%.6f}\n",
               (unsigned long long)bytes, points, checked ? "true" : "false", cold ? "true" : "false", cuzk_threads(),
               t_open, secs, rate, read_s);
        return 0;
    }
    printf("params %s: %llu bytes, %zu points (h %zu, l %zu, a %zu, b_g1 %zu, b_g2 %zu)\n", params,
           (unsigned long long)bytes, points, count[0], count[1], count[2], count[3], count[4]);
    printf("  layout and key        %10.3f s\n", t_open);
    printf("  read and decode       %10.3f s   %.3f GB/s   (%s; %u threads; %s; the reader in pread %.3f s)\n", secs,
           rate, checked ? "on the curve and in the subgroup" : "on the curve", cuzk_threads(),
           cold ? "page cache dropped first" : "page cache as it was", read_s);
    printf("  per point             %10.3f us\n", points ? secs * 1e6 / (double)points : 0);
    return 0;
}

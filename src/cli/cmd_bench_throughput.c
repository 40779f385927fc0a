/* cuzk bench throughput: N Prove calls, C at a time, against a running daemon; each its own
 * request id. Prints per-call latency (median, p90, max), throughput and how each call ended. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/client_request.h"
#include "cuzk/server.h"

typedef struct {
    cuzk_client *c;
    cuzk_rpc_request req;
    unsigned jobs, next;
    pthread_mutex_t mu;
    double *latency, *end; /* per call: its latency, and when it ended */
    int *outcome;          /* cuzk_rpc_status, or -1: the call failed */
    char first_error[2100];
    char prefix[64];
} bench_state;

static void *worker(void *arg)
{
    bench_state *b = arg;
    for (;;) {
        pthread_mutex_lock(&b->mu);
        unsigned i = b->next < b->jobs ? b->next++ : b->jobs;
        pthread_mutex_unlock(&b->mu);
        if (i == b->jobs) return NULL;
        cuzk_rpc_request r = b->req;
        char id[96];
        snprintf(id, sizeof id, "%s-%u", b->prefix, i);
        r.request_id = id;
        cuzk_rpc_result res;
        double t0 = cuzk_now();
        cuzk_status st = cuzk_client_prove(b->c, &r, 0, &res, NULL);
        b->end[i] = cuzk_now();
        b->latency[i] = b->end[i] - t0;
        b->outcome[i] = st ? -1 : (int)res.status;
        pthread_mutex_lock(&b->mu);
        if (!b->first_error[0] && (st || res.status != CUZK_RPC_COMPLETED))
            snprintf(b->first_error, sizeof b->first_error, "%s", st ? cuzk_last_error() : res.error_message);
        pthread_mutex_unlock(&b->mu);
        if (!st) cuzk_rpc_result_free(&res);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int cli_bench_throughput(int argc, char **argv)
{
    client_request_opts o;
    client_request_opts_init(&o);
    const char *addr = NULL, *jobs_s = NULL, *conc_s = NULL;
    bool json = false, done;
    cli_opt opts[48];
    int n = client_request_opt_table(&o, opts, 40);
    opts[n++] = (cli_opt){"addr", "ADDR", "the daemon: unix:///PATH or HOST:PORT (required)", &addr, NULL};
    opts[n++] = (cli_opt){"jobs", "N", "Prove calls in all (default 10)", &jobs_s, NULL};
    opts[n++] = (cli_opt){"concurrency", "C", "calls in flight at once (default 1)", &conc_s, NULL};
    opts[n++] = (cli_opt){"json", NULL, "print one JSON object instead (default: the table)", NULL, &json};
    int rc =
        cli_parse(argc, argv,
                  "cuzk bench throughput --addr ADDR --kind K (--c1 FILE | --circuit NAME ...) [--jobs N] "
                  "[--concurrency C]\n\n"
                  "Sends --jobs Prove calls, --concurrency at a time, to a running cuzk daemon and prints their\n"
                  "latency and the throughput. The request options are cuzk client prove's.\n\n"
                  "examples:\n"
                  "  cuzk bench throughput --addr unix:///run/cuzk/cuzk.sock --kind porep --c1 s/c1.json --jobs 4\n"
                  "  cuzk bench throughput --addr 127.0.0.1:9820 --kind test --circuit random:1024 --jobs 100 "
                  "--concurrency 8",
                  opts, n, &done);
    if (rc || done) return client_request_opts_free(&o), rc;
    if (!addr) return client_request_opts_free(&o), cli_missing("bench throughput", "addr");
    uint64_t jobs = 10, conc = 1;
    if ((jobs_s && cli_u64("bench throughput", "jobs", jobs_s, &jobs)) ||
        (conc_s && cli_u64("bench throughput", "concurrency", conc_s, &conc)))
        return client_request_opts_free(&o), 2;
    if (jobs < 1 || jobs > 1000000 || conc < 1 || conc > 4096) {
        fprintf(stderr, "cuzk bench throughput: --jobs 1..1000000 and --concurrency 1..4096\n");
        return client_request_opts_free(&o), 2;
    }
    bench_state b;
    memset(&b, 0, sizeof b);
    if ((rc = client_request_build("bench throughput", &o, &b.req))) return client_request_opts_free(&o), rc;
    if (o.request_id) {
        fprintf(stderr, "cuzk bench throughput: each call gets its own request id; --request-id is not taken\n");
        return client_request_opts_free(&o), 2;
    }
    snprintf(b.prefix, sizeof b.prefix, "bench-%d-%llx", (int)getpid(), (unsigned long long)(cuzk_now() * 1e6));
    b.jobs = (unsigned)jobs;
    b.latency = calloc(jobs, sizeof *b.latency);
    b.outcome = calloc(jobs, sizeof *b.outcome);
    b.end = calloc(jobs, sizeof *b.end);
    pthread_t *th = calloc(conc, sizeof *th);
    if (!b.latency || !b.outcome || !b.end || !th || cuzk_client_open(&b.c, addr, CLIENT_MAX_MESSAGE_BYTES)) {
        rc = b.latency && b.outcome && th ? cli_error("bench throughput") : 1;
        free(b.latency), free(b.outcome), free(b.end), free(th), client_request_opts_free(&o);
        return rc;
    }
    pthread_mutex_init(&b.mu, NULL);
    double t0 = cuzk_now();
    unsigned started = 0;
    for (; started < conc; started++)
        if (pthread_create(&th[started], NULL, worker, &b)) break;
    for (unsigned i = 0; i < started; i++) pthread_join(th[i], NULL);
    double wall = cuzk_now() - t0;
    unsigned count[5] = {0}, call_failed = 0;
    for (unsigned i = 0; i < jobs; i++)
        if (b.outcome[i] < 0) call_failed++;
        else count[b.outcome[i]]++;
    qsort(b.latency, jobs, sizeof *b.latency, cmp_double);
    /* the steady rate: the median time between two calls ending */
    qsort(b.end, jobs, sizeof *b.end, cmp_double);
    for (unsigned i = 0; i + 1 < jobs; i++) b.end[i] = b.end[i + 1] - b.end[i];
    qsort(b.end, jobs > 1 ? jobs - 1 : 0, sizeof *b.end, cmp_double);
    double interval = jobs > 1 ? b.end[(jobs - 1) / 2] : 0;
    double med = b.latency[jobs / 2], p90 = b.latency[(jobs * 9) / 10 < jobs ? (jobs * 9) / 10 : jobs - 1],
           max = b.latency[jobs - 1];
    if (json)
        printf("{\"jobs\":%llu,\"concurrency\":%llu,\"completed\":%u,\"failed\":%u,\"cancelled\":%u,\"timeout\":%u,"
               "\"call_errors\":%u,\"wall_s\":%.3f,\"proofs_per_min\":%.2f,\"latency_median_s\":%.3f,"
               "\"latency_p90_s\":%.3f,\"latency_max_s\":%.3f,\"interval_median_s\":%.3f}\n",
               (unsigned long long)jobs, (unsigned long long)conc, count[1], count[2], count[3], count[4], call_failed,
               wall, count[1] * 60.0 / wall, med, p90, max, interval);
    else {
        printf("%llu Prove calls, %llu at a time, in %.2f s: %.2f proofs/min\n", (unsigned long long)jobs,
               (unsigned long long)conc, wall, count[1] * 60.0 / wall);
        printf("  completed %u, failed %u, cancelled %u, timeout %u, call errors %u\n", count[1], count[2], count[3],
               count[4], call_failed);
        printf("  latency: median %.3f s, p90 %.3f s, max %.3f s\n", med, p90, max);
        printf("  interval between calls ending: median %.3f s\n", interval);
        if (b.first_error[0]) printf("  first error: %s\n", b.first_error);
    }
    rc = count[1] == jobs ? 0 : 1;
    cuzk_client_close(b.c);
    pthread_mutex_destroy(&b.mu);
    free(b.latency), free(b.outcome), free(b.end), free(th);
    client_request_opts_free(&o);
    return rc;
}

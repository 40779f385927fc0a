/* cuzk client: calls a running daemon over cuzk.v1 (the first tool for checking one). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/client_request.h"
#include "cli/client_views.h"
#include "cli/outputs.h"
#include "cli/settings.h"
#include "cuzk/server.h"

static const char *const VERBS = "prove, submit, await, cancel, status, jobs, top, metrics, preload, evict, trace";

static void print_result(const cuzk_rpc_result *r, FILE *out)
{
    fprintf(out, "job %s: %s", r->job_id, cuzk_rpc_status_name(r->status));
    if (r->status == CUZK_RPC_COMPLETED) fprintf(out, ", %zu proof bytes", r->proof_len);
    if (r->error_message[0]) fprintf(out, ": %s", r->error_message);
    /* the daemon's parts add up to the total but for the verification, the rest */
    uint64_t parts = r->queue_wait_ms + r->srs_load_ms + r->synthesis_ms + r->gpu_compute_ms;
    fprintf(out,
            "\n  total %llu ms = waiting %llu + parameters %llu + witness %llu + proving %llu + verifying and the "
            "rest %llu\n",
            (unsigned long long)r->total_ms, (unsigned long long)r->queue_wait_ms, (unsigned long long)r->srs_load_ms,
            (unsigned long long)r->synthesis_ms, (unsigned long long)r->gpu_compute_ms,
            (unsigned long long)(r->total_ms > parts ? r->total_ms - parts : 0));
}

/* A finished result: the proof written when asked (outs, checked before the call); exit 0 only
 * for COMPLETED. */
static int finish(const char *cmd, const cuzk_rpc_result *r, const char *proof_path, cli_outputs *outs)
{
    print_result(r, stdout);
    if (r->status != CUZK_RPC_COMPLETED) return 1;
    if (proof_path && (cli_outputs_write(outs, 0, r->proof, r->proof_len) || cli_outputs_commit(outs)))
        return cli_error(cmd);
    if (proof_path) printf("proof written to %s\n", proof_path);
    return 0;
}

/* The verbs: what each does, the options it takes beside --addr and --deadline, an example. */
typedef struct {
    const char *verb, *synopsis, *about, *example;
    bool request;        /* the request options (prove, submit) */
    const char *opts[5]; /* of the common ones */
} client_verb;

#define EXAMPLE_ADDR "unix:///run/cuzk/cuzk.sock"
static const client_verb VERB_TABLE[] = {
    {"prove",
     "--kind K (--c1 FILE | --vanilla FILE | --circuit NAME) [request options] [--proof OUT.proof] [--quiet]",
     "Submits a proof request and waits for its result (the Prove call): the job's status and times, the proof\n"
     "written to --proof when it completed. Exit status 0 only for COMPLETED. While it waits, on a terminal,\n"
     "a line on stderr shows the job's stage, partitions proved, time and expected time left (GetStatus each\n"
     "second; without --request-id the client names the job); --quiet, a pipe or a file: no line.",
     "cuzk client prove --addr " EXAMPLE_ADDR " --kind porep --c1 s/c1.json --proof s.proof",
     true,
     {"proof", "quiet"}},
    {"submit",
     "--kind K (--c1 FILE | --vanilla FILE | --circuit NAME) [request options]",
     "Submits a proof request without waiting (SubmitProof) and prints its job id and queue position.",
     "cuzk client submit --addr " EXAMPLE_ADDR " --kind porep --c1 s/c1.json --request-id s1",
     true,
     {NULL}},
    {"await",
     "--job ID [--timeout-ms MS] [--proof OUT.proof] [--quiet]",
     "Waits for a submitted job's result (AwaitProof); the proof written to --proof when it completed. While\n"
     "it waits, on a terminal, a line on stderr shows the job's progress, as with prove (not with --quiet).",
     "cuzk client await --addr " EXAMPLE_ADDR " --job s1 --proof s.proof",
     false,
     {"job", "timeout-ms", "proof", "quiet"}},
    {"cancel",
     "--job ID",
     "Cancels a job (CancelProof) and says whether it was running.",
     "cuzk client cancel --addr " EXAMPLE_ADDR " --job s1",
     false,
     {"job"}},
    {"status",
     "",
     "Prints the daemon's status (GetStatus) as one JSON object.",
     "cuzk client status --addr " EXAMPLE_ADDR,
     false,
     {NULL}},
    {"jobs",
     "[--json]",
     "Lists the daemon's jobs (GetStatus): running, queued (in the order they were submitted) and recently\n"
     "ended, at most 100, each with its request id, kind, state and stage (with the CPU prover's: ntt, msm),\n"
     "partitions proved of all, time since it was submitted and the time left the daemon expects (? while it\n"
     "has measured nothing of the circuit yet). --json: the same as one JSON object.",
     "cuzk client jobs --addr " EXAMPLE_ADDR,
     false,
     {"json"}},
    {"top",
     "[--interval S] [--once]",
     "Shows the daemon live on a terminal, redrawn every --interval seconds: the GPUs and the job each is\n"
     "busy with, the circuits loaded and where, the queues by kind, the jobs with their progress. q or Ctrl-C\n"
     "ends it and gives the terminal back. --once, or output that is no terminal: one frame, then exit.",
     "cuzk client top --addr " EXAMPLE_ADDR " --interval 2",
     false,
     {"interval", "once"}},
    {"metrics",
     "",
     "Prints the daemon's metrics (GetMetrics).",
     "cuzk client metrics --addr " EXAMPLE_ADDR,
     false,
     {NULL}},
    {"preload",
     "--circuit-id ID",
     "Loads a circuit's parameters into the daemon ahead of its jobs (PreloadSRS).",
     "cuzk client preload --addr " EXAMPLE_ADDR " --circuit-id porep-32g",
     false,
     {"circuit-id"}},
    {"evict",
     "--circuit-id ID",
     "Frees a loaded circuit's parameters (EvictSRS) and says how many bytes.",
     "cuzk client evict --addr " EXAMPLE_ADDR " --circuit-id porep-32g",
     false,
     {"circuit-id"}},
    {"trace",
     "JOB_ID -o FILE   (or --job ID --out FILE)",
     "Writes a job's timeline as a trace in the Chrome trace event format (GetTrace): a track per device,\n"
     "witness lane and job; open it in ui.perfetto.dev or chrome://tracing. JOB_ID is the request id the job\n"
     "was submitted with; a job unknown to the daemon (or whose result it dropped) is NOT_FOUND.",
     "cuzk client trace --addr " EXAMPLE_ADDR " s1 -o s1.trace.json",
     false,
     {"job", "out"}},
};
#define NVERBS (sizeof VERB_TABLE / sizeof VERB_TABLE[0])

static void client_help(FILE *out)
{
    fprintf(out,
            "usage: cuzk client VERB [--addr ADDR] [options]   (cuzk client VERB --help for its options)\n\n"
            "Calls a running cuzk daemon over cuzk.v1 (unix:///PATH or HOST:PORT). The verbs:\n");
    for (size_t i = 0; i < NVERBS; i++) {
        const char *about = VERB_TABLE[i].about; /* its first clause */
        fprintf(out, "  %-9s %.*s\n", VERB_TABLE[i].verb, (int)strcspn(about, ".:;\n"), about);
    }
    fprintf(out, "\nexamples:\n  cuzk client status --addr %s\n  %s\n", EXAMPLE_ADDR, VERB_TABLE[0].example);
}

int cli_client(int argc, char **argv)
{
    if (argc < 2 || argv[1][0] == '-') {
        if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
            client_help(stdout);
            return 0;
        }
        fprintf(stderr, "cuzk client: expected one of %s (cuzk client --help)\n", VERBS);
        return 2;
    }
    const char *verb = argv[1];
    const client_verb *cv = NULL;
    for (size_t i = 0; i < NVERBS; i++)
        if (!strcmp(verb, VERB_TABLE[i].verb)) cv = &VERB_TABLE[i];
    if (!cv) {
        fprintf(stderr, "cuzk client: unknown verb '%s' (%s)\n", verb, VERBS);
        return 2;
    }
    char cmd[64];
    snprintf(cmd, sizeof cmd, "client %s", verb);
    client_request_opts o;
    client_request_opts_init(&o);
    const char *addr = NULL, *job = NULL, *timeout_s = NULL, *deadline_s = NULL, *proof = NULL, *circuit_id = NULL,
               *out = NULL, *interval_s = NULL;
    bool done, quiet = false, as_json = false, once = false;
    const cli_opt common[] = {
        {"job", "ID", "the job id: the request id it was submitted with (required)", &job, NULL},
        {"timeout-ms", "MS", "stop waiting after MS milliseconds: TIMEOUT, the job goes on (default: wait)", &timeout_s,
         NULL},
        {"proof", "OUT.proof", "write the proof bytes there (default: not written)", &proof, NULL},
        {"circuit-id", "ID", "the circuit, e.g. porep-32g, wpost-32g, porep-2k (required)", &circuit_id, NULL},
        {"out", "FILE", "where to write the trace (required; -o FILE too; `-`: standard output)", &out, NULL},
        {"quiet", NULL, "no progress line while waiting (only the result)", NULL, &quiet},
        {"json", NULL, "print the jobs as one JSON object", NULL, &as_json},
        {"interval", "S", "seconds between two frames (default 1; fractions allowed, at least 0.1)", &interval_s, NULL},
        {"once", NULL, "print one frame and exit (as when the output is no terminal)", NULL, &once},
    };
    cli_opt opts[64];
    int n = 0;
    opts[n++] = (cli_opt){"addr", "ADDR",
                          "the daemon: unix:///PATH, /PATH or HOST:PORT (default: daemon.listen of the config, "
                          "unix:///run/cuzk/cuzk.sock unless set)",
                          &addr, NULL};
    if (cv->request) n += client_request_opt_table(&o, opts + n, 40);
    for (int j = 0; j < 5 && cv->opts[j]; j++)
        for (size_t i = 0; i < sizeof common / sizeof common[0]; i++)
            if (!strcmp(common[i].name, cv->opts[j])) opts[n++] = common[i];
    opts[n++] = (cli_opt){"deadline", "S", "give up the call after S seconds (default: none)", &deadline_s, NULL};
    /* TLS: a daemon whose TCP listen has daemon.tls_cert (the [client] keys give the defaults) */
    const cli_settings *cs = cli_settings_get();
    const char *tls_ca = cs->client_tls_ca, *tls_cert = cs->client_tls_cert, *tls_key = cs->client_tls_key,
               *tls_name = cs->client_tls_name;
    opts[n++] = (cli_opt){"tls-ca", "FILE",
                          "speak TLS, trusting the daemon's certificate when it chains to this PEM CA "
                          "(default: client.tls_ca; none: plaintext)",
                          &tls_ca, NULL};
    opts[n++] = (cli_opt){"tls-cert", "FILE",
                          "speak TLS, presenting this PEM certificate (a daemon with tls_client_ca asks for one; "
                          "default: client.tls_cert)",
                          &tls_cert, NULL};
    opts[n++] =
        (cli_opt){"tls-key", "FILE", "the PEM private key of --tls-cert (default: client.tls_key)", &tls_key, NULL};
    opts[n++] = (cli_opt){"tls-name", "NAME",
                          "the name the daemon's certificate must carry (default: client.tls_name, else the "
                          "address's host)",
                          &tls_name, NULL};
    char usage[2048];
    snprintf(usage, sizeof usage, "cuzk client %s [--addr ADDR]%s%s\n\n%s\n\nexample:\n  %s", verb,
             cv->synopsis[0] ? " " : "", cv->synopsis, cv->about, cv->example);
    /* trace's short form, `trace JOB_ID -o FILE`: the id as the one argument that is no option or
     * option's value (every option of trace takes a value), -o for --out */
    bool is_trace = !strcmp(verb, "trace");
    char **args = malloc((size_t)argc * sizeof *args);
    if (!args) return client_request_opts_free(&o), cli_error(cmd);
    int nargs = 0;
    for (int i = 0; i < argc; i++) {
        if (is_trace && i >= 2 && argv[i][0] == '-' && strcmp(argv[i], "--help") && i + 1 < argc) {
            args[nargs++] = !strcmp(argv[i], "-o") ? (char *)"--out" : argv[i];
            args[nargs++] = argv[++i];
        } else if (is_trace && i >= 2 && argv[i][0] != '-' && !job) {
            job = argv[i];
        } else {
            args[nargs++] = argv[i];
        }
    }
    char name[64];
    int rc = cli_parse(nargs - 1, cli_subcommand(args, name, sizeof name), usage, opts, n, &done);
    free(args);
    if (rc || done) {
        client_request_opts_free(&o);
        return rc;
    }
    if (!addr) addr = cli_settings_get()->daemon.listen; /* where this machine's daemon listens */
    uint64_t deadline = 0, timeout_ms = 0;
    if ((deadline_s && cli_u64(cmd, "deadline", deadline_s, &deadline)) ||
        (timeout_s && cli_u64(cmd, "timeout-ms", timeout_s, &timeout_ms)))
        return client_request_opts_free(&o), 2;
    bool needs_request = !strcmp(verb, "prove") || !strcmp(verb, "submit");
    bool needs_job = !strcmp(verb, "await") || !strcmp(verb, "cancel") || !strcmp(verb, "trace");
    bool needs_circuit = !strcmp(verb, "preload") || !strcmp(verb, "evict");
    if (needs_job && !job) return client_request_opts_free(&o), cli_missing(cmd, "job");
    double interval = 1;
    if (interval_s) {
        char *end = NULL;
        interval = strtod(interval_s, &end);
        if (!end || *end || end == interval_s || !(interval >= 0.1 && interval <= 3600)) {
            fprintf(stderr, "cuzk %s: --interval: '%s' is not a number of seconds from 0.1 to 3600\n", cmd, interval_s);
            return client_request_opts_free(&o), 2;
        }
    }
    if (needs_circuit && !circuit_id) return client_request_opts_free(&o), cli_missing(cmd, "circuit-id");
    if (!strcmp(verb, "trace") && !out) return client_request_opts_free(&o), cli_missing(cmd, "out");
    cuzk_rpc_request req;
    if (needs_request && (rc = client_request_build(cmd, &o, &req))) return client_request_opts_free(&o), rc;
    /* a prove that draws its progress needs the job's name before the answer: made here, as the
     * daemon would make it ("job-" and 32 hex digits) */
    char made_id[40] = "";
    bool draws = !quiet && isatty(STDERR_FILENO);
    if (!strcmp(verb, "prove") && draws && (!req.request_id || !req.request_id[0])) {
        uint8_t rnd[16];
        if (getrandom(rnd, sizeof rnd, 0) == (ssize_t)sizeof rnd) {
            int k = snprintf(made_id, sizeof made_id, "job-");
            for (int i = 0; i < 16; i++) k += snprintf(made_id + k, sizeof made_id - (size_t)k, "%02x", rnd[i]);
            req.request_id = made_id;
        }
    }

    /* the proof's path is checked before the daemon is asked */
    cli_outputs *outs = NULL;
    bool writes = proof && (!strcmp(verb, "prove") || !strcmp(verb, "await"));
    if (writes || out) {
        if (!(outs = cli_outputs_new())) return client_request_opts_free(&o), cli_error(cmd);
        cli_outputs_input(outs, "c1", o.c1);
        if (writes) cli_outputs_add(outs, "proof", proof);
        else cli_outputs_add(outs, "out", out);
        if (cli_outputs_check(outs)) {
            rc = cli_error(cmd);
            cli_outputs_free(outs);
            client_request_opts_free(&o);
            return rc;
        }
    }
    cuzk_client *c = NULL;
    cuzk_client_tls tls = {tls_ca, tls_cert, tls_key, tls_name};
    cuzk_status st = cuzk_client_open_tls(&c, addr, CLIENT_MAX_MESSAGE_BYTES, &tls);
    rc = 0;
    if (st) rc = cli_error(cmd);
    else if (!strcmp(verb, "prove") || !strcmp(verb, "await")) {
        cuzk_rpc_result r;
        client_wait *w = client_wait_start(c, verb[0] == 'p' ? req.request_id : job, quiet);
        st = verb[0] == 'p' ? cuzk_client_prove(c, &req, (double)deadline, &r, NULL)
                            : cuzk_client_await(c, job, timeout_ms, (double)deadline, &r, NULL);
        client_wait_stop(w);
        rc = st ? cli_error(cmd) : finish(cmd, &r, writes ? proof : NULL, outs);
        if (!st) cuzk_rpc_result_free(&r);
    } else if (!strcmp(verb, "submit")) {
        char id[256];
        unsigned pos = 0;
        if ((st = cuzk_client_submit(c, &req, (double)deadline, id, &pos, NULL))) rc = cli_error(cmd);
        else printf("job %s submitted (queue position %u)\n", id, pos);
    } else if (!strcmp(verb, "cancel")) {
        bool was_running = false;
        if ((st = cuzk_client_cancel(c, job, (double)deadline, &was_running, NULL))) rc = cli_error(cmd);
        else printf("job %s: cancel asked (%s)\n", job, was_running ? "it was running" : "it was not running");
    } else if (!strcmp(verb, "jobs")) {
        rc = client_jobs(c, cmd, (double)deadline, as_json);
    } else if (!strcmp(verb, "top")) {
        rc = client_top(c, cmd, addr, (double)deadline, interval, once);
    } else if (!strcmp(verb, "status") || !strcmp(verb, "metrics")) {
        char *text = NULL;
        st = verb[0] == 's' ? cuzk_client_status(c, (double)deadline, &text, NULL)
                            : cuzk_client_metrics(c, (double)deadline, &text, NULL);
        if (st) rc = cli_error(cmd);
        else fputs(text, stdout), fputs(verb[0] == 's' ? "\n" : "", stdout);
        free(text);
    } else if (!strcmp(verb, "trace")) {
        char *json = NULL;
        if ((st = cuzk_client_trace(c, job, (double)deadline, &json, NULL)) ||
            (st = cli_outputs_write(outs, 0, json, strlen(json))) || (st = cli_outputs_commit(outs)))
            rc = cli_error(cmd);
        else if (strcmp(out, "-")) fprintf(stderr, "trace of job %s written to %s\n", job, out);
        free(json);
    } else if (!strcmp(verb, "preload")) {
        bool already = false;
        uint64_t ms = 0;
        if ((st = cuzk_client_preload(c, circuit_id, (double)deadline, &already, &ms, NULL))) rc = cli_error(cmd);
        else
            printf("%s: %s\n", circuit_id, already ? "already loaded" : "loaded"),
                printf("  %llu ms\n", (unsigned long long)ms);
    } else {
        bool was = false;
        uint64_t freed = 0;
        if ((st = cuzk_client_evict(c, circuit_id, (double)deadline, &was, &freed, NULL))) rc = cli_error(cmd);
        else
            printf("%s: %s, %llu bytes freed\n", circuit_id, was ? "evicted" : "was not loaded",
                   (unsigned long long)freed);
    }
    cuzk_client_close(c);
    cli_outputs_free(outs);
    client_request_opts_free(&o);
    return rc;
}

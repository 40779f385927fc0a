/* cuzk daemon: the engine behind the cuzk.v1 gRPC service, until SIGTERM or SIGINT (drain: no
 * new calls, the jobs in flight get daemon.drain_grace_s to finish, the rest are cancelled,
 * exit 0; a second SIGTERM or SIGINT during the drain ends the grace at once). SIGHUP reopens
 * the job log at any time, during the drain too. Signals are blocked in main before any thread
 * starts and taken by this thread alone (sigwait), so no handler runs inside the engine's
 * threads and no signal kills the process from one of them; the drain runs on a thread of its
 * own so that this one keeps taking them. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/engine_circuits.h"
#include "cli/args.h"
#include "cli/cache_names.h"
#include "cli/cli.h"
#include "cli/settings.h"
#include "cuzk/filecoin.h"
#include "cuzk/filecoin_c1.h"
#include "cuzk/filecoin_circuit.h"
#include "cuzk/server.h"
#include "cuzk/testcircuits.h"

#define MAX_TEST_CIRCUITS 256

/* A test circuit the daemon registered: its name, and for synthetic porep:SIZE the synthetic
 * public data every partition proves (partition 0's shape). */
typedef struct {
    char *name;
    cuzk_c1 *c1;
} test_entry;

typedef struct {
    const cuzk_server_config *cfg;
    test_entry t[MAX_TEST_CIRCUITS];
    unsigned n;
} daemon_ctx;

static cuzk_status open_test(void *ctx, const uint8_t *input, size_t input_len, uint64_t seed, unsigned k,
                             cuzk_circuit **out)
{
    const test_entry *t = ctx;
    if (t->c1) return cuzk_porep_circuit_open(out, t->c1, 0);
    return cli_open_named(t->name, input, input_len, seed, k, out);
}

/* With daemon.test_synthetic: parameters made on the GPU to the circuit's shape, porep:SIZE
 * fed synthetic vanilla data, the precompiled circuit kept in cache_dir when set. */
static cuzk_status register_synthetic(daemon_ctx *d, cuzk_engine *e, test_entry *t)
{
    cuzk_circuit *c = NULL;
    cuzk_status st = !strncmp(t->name, "porep:", 6) ? cuzk_porep_synthetic_open(&c, &t->c1, t->name, 1)
                                                    : cuzk_circuit_open(&c, t->name);
    cuzk_circuit_free(c);
    if (st) return cuzk_fail_context(CUZK_EINVAL, "test circuit '%s'", t->name);
    char pce[700] = "", stem[80];
    snprintf(stem, sizeof stem, "%s", t->name);
    for (char *p = stem; *p; p++) *p = *p == ':' || *p == '/' ? '-' : *p;
    if (d->cfg->cache_dir[0]) snprintf(pce, sizeof pce, "%s/cuzk-test-%s-synthetic.pce", d->cfg->cache_dir, stem);
    cuzk_engine_circuit reg = {t->name, open_test, t, NULL, NULL, pce[0] ? pce : NULL, true, false};
    return cuzk_engine_register_circuit(e, &reg);
}

/* The test kind's circuit: a built-in circuit, its parameters from the parameter folder under
 * the name `cuzk setup --into-cache` gives them. Called under the server's lock. */
static cuzk_status test_circuit(void *ctx, cuzk_engine *e, const char *name)
{
    daemon_ctx *d = ctx;
    for (unsigned i = 0; i < d->n; i++)
        if (!strcmp(d->t[i].name, name)) return CUZK_OK;
    if (d->n == MAX_TEST_CIRCUITS) return cuzk_fail(CUZK_EINVAL, "too many test circuits (%d)", MAX_TEST_CIRCUITS);
    if (d->cfg->test_synthetic) {
        test_entry *t = &d->t[d->n];
        if (!(t->name = strdup(name))) return cuzk_fail(CUZK_ENOMEM, "out of memory");
        cuzk_status st = register_synthetic(d, e, t);
        if (st) {
            free(t->name);
            cuzk_c1_free(t->c1);
            memset(t, 0, sizeof *t);
            return st;
        }
        d->n++;
        return CUZK_OK;
    }
    cuzk_circuit *c;
    if (cuzk_circuit_open(&c, name)) return cuzk_fail_context(CUZK_EINVAL, "test circuit '%s'", name);
    cuzk_circuit_free(c);
    char *params = NULL, *vk = NULL;
    cuzk_status st = cli_cache_paths(d->cfg->param_dir, name, &params, &vk);
    struct stat sb;
    if (!st && (stat(params, &sb) || !S_ISREG(sb.st_mode)))
        st = cuzk_fail(CUZK_EIO,
                       "no parameters for the test circuit %s: %s is missing (make them with `cuzk setup "
                       "--circuit %s --into-cache %s`)",
                       name, params, name, d->cfg->param_dir);
    test_entry *t = &d->t[d->n];
    t->name = st ? NULL : strdup(name);
    if (!st && !t->name) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
    if (!st) {
        bool has_vk = !stat(vk, &sb) && S_ISREG(sb.st_mode);
        cuzk_engine_circuit reg = {t->name, open_test, t, params, has_vk ? vk : NULL, NULL, false, false};
        st = cuzk_engine_register_circuit(e, &reg);
    }
    if (!st) d->n++;
    else {
        free(t->name);
        t->name = NULL;
    }
    free(params);
    free(vk);
    return st;
}

/* daemon.test_params: every built-in circuit's files are the demo's test files
 * (param_dir/cuzk-test-porep-2KiB.params, ...) instead of the official ones; a missing one
 * fails its jobs naming that file. */
static cuzk_status use_test_params(cuzk_engine *e, const char *param_dir)
{
    static const cuzk_job_kind KINDS[] = {CUZK_KIND_POREP, CUZK_KIND_WINDOW_POST, CUZK_KIND_WINNING_POST,
                                          CUZK_KIND_SNAP};
    unsigned set = 0;
    for (size_t k = 0; k < sizeof KINDS / sizeof KINDS[0]; k++)
        for (uint64_t p = 0; p < 64; p++) {
            char id[64], same[64], circuit[64];
            if (cuzk_engine_builtin_id(id, KINDS[k], p)) continue;
            /* as the demo names it ("porep:2KiB"); NI PoRep proves PoRep's circuit */
            const char *plain = !strncmp(id, "ni-", 3) ? id + 3 : id;
            if (!cuzk_filecoin_circuit_spellings(plain, same, circuit) || !circuit[0]) continue;
            char *params = NULL, *vk = NULL;
            cuzk_status st = cli_cache_test_paths(param_dir, circuit, &params, &vk);
            if (!st) st = cuzk_engine_set_files(e, id, params, vk, NULL);
            free(params);
            free(vk);
            if (st) return st;
            set++;
        }
    cuzk_clear_error();
    return set ? CUZK_OK : cuzk_fail(CUZK_EINTERNAL, "daemon.test_params: no built-in circuit found");
}

/* The job log: standard error, or the configured file (line-buffered, appended). */
static FILE *open_log(const char *path)
{
    if (!path[0]) return stderr;
    FILE *f = fopen(path, "a");
    if (!f) {
        fprintf(stderr, "cuzk daemon: cannot open the job log %s: %s\n", path, strerror(errno));
        return NULL;
    }
    setvbuf(f, NULL, _IOLBF, 0);
    return f;
}

/* SIGHUP: the file is opened anew (after a rotation) and put under the same FILE's descriptor,
 * so the engine's writers keep their FILE. */
static void reopen_log(FILE *f, const char *path)
{
    if (f == stderr) return;
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        fprintf(stderr, "cuzk daemon: SIGHUP: cannot reopen %s: %s (logging on to the old file)\n", path,
                strerror(errno));
        return;
    }
    fflush(f);
    dup2(fd, fileno(f));
    close(fd);
    fprintf(stderr, "cuzk daemon: SIGHUP: reopened the job log %s\n", path);
}

/* The folders checked before anything starts (a daemon that looked healthy and then failed
 * every job with "cannot create .../wpost-2k.pce" is what this prevents): cache_dir is made
 * when missing and must be a folder this user can write; param_dir must be a folder it can
 * read, or the operator is told that no official proof kind can be served. */
static int check_folders(const cuzk_server_config *cfg)
{
    const char *cache = cfg->cache_dir;
    if (cache[0]) {
        if (mkdir(cache, 0755) && errno != EEXIST) {
            fprintf(stderr, "cuzk daemon: daemon.cache_dir %s: cannot make it: %s\n", cache, strerror(errno));
            return 1;
        }
        struct stat sb;
        if (stat(cache, &sb) || !S_ISDIR(sb.st_mode) || access(cache, W_OK | X_OK)) {
            fprintf(stderr, "cuzk daemon: daemon.cache_dir %s: %s\n", cache,
                    stat(cache, &sb)           ? strerror(errno)
                        : !S_ISDIR(sb.st_mode) ? "not a folder"
                                               : "this user cannot write there (precompiled circuits are kept there)");
            return 1;
        }
    }
    struct stat sb;
    if (stat(cfg->param_dir, &sb) || !S_ISDIR(sb.st_mode) || access(cfg->param_dir, R_OK | X_OK))
        fprintf(stderr,
                "cuzk daemon: warning: daemon.param_dir %s is not a folder this user can read: no official proof kind "
                "can be served until the parameter files are there (FIL_PROOFS_PARAMETER_CACHE or param_dir sets it)\n",
                cfg->param_dir);
    return 0;
}

/* Every connection and every file the engine reads is a descriptor: the soft limit (often 1024)
 * is raised to the hard one, and the start line says what it is. */
static rlim_t raise_descriptor_limit(void)
{
    struct rlimit r;
    if (getrlimit(RLIMIT_NOFILE, &r)) return 0;
    if (r.rlim_cur < r.rlim_max) {
        rlim_t was = r.rlim_cur;
        r.rlim_cur = r.rlim_max;
        if (!setrlimit(RLIMIT_NOFILE, &r))
            fprintf(stderr, "cuzk daemon: descriptor limit raised from %llu to %llu (the hard limit)\n",
                    (unsigned long long)was, (unsigned long long)r.rlim_max);
        else r.rlim_cur = was;
    }
    return r.rlim_cur;
}

static void daemon_signals(sigset_t *sigs)
{
    sigemptyset(sigs);
    sigaddset(sigs, SIGTERM);
    sigaddset(sigs, SIGINT);
    sigaddset(sigs, SIGHUP);
}

void cli_block_daemon_signals(void)
{
    sigset_t sigs;
    daemon_signals(&sigs);
    pthread_sigmask(SIG_BLOCK, &sigs, NULL);
    signal(SIGPIPE, SIG_IGN);
}

static const char *signal_name(int sig) { return sig == SIGTERM ? "SIGTERM" : sig == SIGINT ? "SIGINT" : "SIGHUP"; }

/* The drain, on its own thread (the signal thread goes on taking HUP and a second TERM/INT). */
typedef struct {
    cuzk_server *s;
    double grace_s;
    atomic_bool cut_short, done;
} drain_run;

static void *drain_main(void *arg)
{
    drain_run *d = arg;
    cuzk_server_drain(d->s, d->grace_s, &d->cut_short);
    atomic_store(&d->done, true);
    return NULL;
}

/* Until the drain that the first SIGTERM/SIGINT starts has ended (the server is freed then). */
static void serve_until_drained(cuzk_server *s, const cuzk_server_config *cfg, FILE *log)
{
    sigset_t sigs;
    daemon_signals(&sigs);
    drain_run d = {.s = s, .grace_s = cfg->drain_grace_s};
    atomic_init(&d.cut_short, false);
    atomic_init(&d.done, false);
    pthread_t thread;
    bool draining = false;
    while (!(draining && atomic_load(&d.done))) {
        struct timespec tick = {0, 100 * 1000 * 1000}; /* while draining: to see its end */
        int sig = draining ? sigtimedwait(&sigs, NULL, &tick) : sigwaitinfo(&sigs, NULL);
        if (sig < 0) continue;
        if (sig == SIGHUP) {
            reopen_log(log, cfg->log_file);
        } else if (draining) {
            fprintf(stderr, "cuzk daemon: %s during the drain: the grace ends now (jobs in flight are cancelled)\n",
                    signal_name(sig));
            atomic_store(&d.cut_short, true);
        } else {
            fprintf(stderr,
                    "cuzk daemon: %s: draining (no new calls; jobs in flight get %u s, then are cancelled; "
                    "a second SIGTERM or SIGINT cancels them now)\n",
                    signal_name(sig), cfg->drain_grace_s);
            draining = true;
            if (pthread_create(&thread, NULL, drain_main, &d)) {
                drain_main(&d); /* no thread: drained here, deaf to signals meanwhile */
                return;
            }
        }
    }
    pthread_join(thread, NULL);
}

int cli_daemon(int argc, char **argv)
{
    const char *config = NULL, *listen = NULL, *http = NULL, *threads = NULL;
    bool test_kinds = false, test_synthetic = false, test_params = false, done;
    cli_opt opts[] = {
        {"config", "FILE", "the config file ([daemon], [engine], [gpu] sections; default: built-in defaults)", &config,
         NULL},
        {"listen", "ADDR",
         "gRPC address: unix:///PATH or HOST:PORT (overrides daemon.listen; default unix:///run/cuzk/cuzk.sock)",
         &listen, NULL},
        {"http", "ADDR",
         "HTTP /metrics, /status and /trace on HOST:PORT or PORT (overrides daemon.http_listen; default: off)", &http,
         NULL},
        {"test-kinds", NULL, "accept the test proof kind 100 (built-in circuits; for tests; default: off)", NULL,
         &test_kinds},
        {"test-synthetic", NULL,
         "... with synthetic parameters made on the GPU (porep:SIZE: synthetic data; timing; default: off)", NULL,
         &test_synthetic},
        {"test-params", NULL,
         "the official proof kinds use the demo's test parameters (cuzk-test-*.params/.vk in param_dir), not the "
         "official files; proofs for tests only (daemon.test_params; default: off)",
         NULL, &test_params},
        {"threads", "T", "worker threads (default: all CPUs)", &threads, NULL},
    };
    int rc = cli_parse(argc, argv,
                       "cuzk daemon [--config FILE] [--listen unix:///PATH | HOST:PORT] [--http ADDR]\n\n"
                       "Serves cuzk.v1.ProvingEngine, the gRPC service Curio's cuzk client calls, over one proving\n"
                       "engine, until SIGTERM or SIGINT (which drain it). Parameters are looked up under their\n"
                       "official names in daemon.param_dir (FIL_PROOFS_PARAMETER_CACHE overrides it), each checked\n"
                       "against Filecoin's published digest at its first load (`cuzk params check` lists them);\n"
                       "--test-params serves the demo's cuzk-test-* files instead.\n\n"
                       "examples:\n"
                       "  cuzk daemon --listen unix:///run/cuzk/cuzk.sock\n"
                       "  cuzk daemon --listen 127.0.0.1:9820 --http 9821",
                       opts, (int)(sizeof opts / sizeof opts[0]), &done);
    if (rc || done) return rc;
    if (config && (rc = cli_settings_load(config))) return rc;
    if (cli_threads("daemon", threads)) return 2;
    cuzk_server_config cfg = cli_settings_get()->daemon;
    size_t nk;
    const cuzk_config_key *keys = cuzk_server_config_table(&nk);
    if ((listen && cuzk_config_set(cuzk_config_find(keys, nk, "daemon", "listen"), &cfg, listen)) ||
        (http && cuzk_config_set(cuzk_config_find(keys, nk, "daemon", "http_listen"), &cfg, http)))
        return cli_error("daemon");
    if (test_kinds) cfg.test_kinds = true;
    if (test_synthetic) cfg.test_kinds = cfg.test_synthetic = true;
    if (test_params) cfg.test_params = true;

    if (check_folders(&cfg)) return 1;
    FILE *log = open_log(cfg.log_file);
    if (!log) return 1;
    rlim_t fds = raise_descriptor_limit();
    cuzk_engine *e = NULL;
    cuzk_status st =
        cli_engine_create_for_daemon(&e, log, cfg.param_dir, cfg.cache_dir[0] ? cfg.cache_dir : NULL, cfg.test_params);
    if (!st && cfg.test_params) st = use_test_params(e, cfg.param_dir);
    static daemon_ctx dctx; /* large; lives for the whole command */
    dctx.cfg = &cfg;
    cuzk_server_hooks hooks = {test_circuit, &dctx};
    cuzk_server *s = NULL;
    if (!st) st = cuzk_server_start(&s, &cfg, e, &hooks);
    if (st) {
        rc = cli_error("daemon");
        cuzk_engine_destroy(e);
        if (log != stderr) fclose(log);
        return rc;
    }
    cuzk_engine_status es;
    cuzk_engine_get_status(e, &es);
    unsigned gpus = 0;
    for (unsigned i = 0; i < es.ndevices; i++) gpus += es.devices[i].ordinal >= 0 && !es.devices[i].context;
    fprintf(stderr, "cuzk daemon: listening on %s", cuzk_server_address(s));
    if (cuzk_server_http_port(s))
        fprintf(stderr, ", HTTP /metrics, /status and /trace on port %u", cuzk_server_http_port(s));
    fprintf(stderr, "; %u GPU(s)%s; parameters from %s; %llu descriptors, %u connections at most%s\n", gpus,
            gpus ? "" : " (proving on the CPU)", cfg.param_dir, (unsigned long long)fds, cfg.max_connections,
            cfg.test_kinds ? "; test kind 100 on" : "");
    /* each GPU as it proves (name, SMs, memory, the kernels it runs), or why it does not */
    for (unsigned i = 0; i < es.ndevices; i++) {
        const cuzk_engine_device_status *d = &es.devices[i];
        if (d->ordinal < 0 || d->context) continue;
        if (d->in_service) fprintf(stderr, "cuzk daemon: GPU %d: %s\n", d->ordinal, d->name);
        else fprintf(stderr, "cuzk daemon: GPU %d not used: %s\n", d->ordinal, d->out_of_service_reason);
    }
    if (cfg.test_params)
        fprintf(stderr,
                "cuzk daemon: TEST PARAMETERS: the official proof kinds are proved with %s/cuzk-test-*.params "
                "(made by `cuzk demo` with random toxic waste): their proofs are for tests and never verify "
                "against Filecoin's keys\n",
                cfg.param_dir);
    if (cuzk_server_warning(s)[0]) fprintf(stderr, "cuzk daemon: warning: %s\n", cuzk_server_warning(s));
    fflush(stderr);

    serve_until_drained(s, &cfg, log);
    cuzk_engine_get_status(e, &es);
    uint64_t done_n = 0, failed = 0, cancelled = 0;
    for (int k = 0; k < CUZK_KINDS; k++) {
        done_n += es.completed[k];
        failed += es.failed[k];
        cancelled += es.cancelled[k];
    }
    cuzk_engine_destroy(e);
    fprintf(stderr, "cuzk daemon: stopped (%llu proofs completed, %llu failed, %llu cancelled)\n",
            (unsigned long long)done_n, (unsigned long long)failed, (unsigned long long)cancelled);
    for (unsigned i = 0; i < dctx.n; i++) {
        free(dctx.t[i].name);
        cuzk_c1_free(dctx.t[i].c1);
    }
    if (log != stderr) fclose(log);
    return 0;
}

/* The CLI's settings (settings.h): one list of keys made of the subsystems' tables and the
 * CLI's own, applied from defaults, a config file, then the environment. */
#include "cli/settings.h"

#include <errno.h>
#include <ini.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static cli_settings settings; /* the process's settings: the CLI is one process, one job */
static cuzk_pool *cli_pool;   /* bound to the main thread */

#define CLI_KEY(name, field, lo, hi, dflt, env, help)                                       \
    {                                                                                       \
        "cuzk", name, CUZK_CFG_UINT, offsetof(cli_settings, field), lo, hi, dflt, env, help \
    }

static const cuzk_config_key cli_keys[] = {
    CLI_KEY("threads", threads, 0, 4096, "0", "CUZK_THREADS",
            "worker threads of the CLI's pool, the caller included (0: one per online CPU)"),
    CLI_KEY("gpu_device", gpu_device, 0, 1023, "0", "CUZK_GPU_DEVICE", "CUDA device ordinal that --gpu work runs on"),
};

/* every key, with the offset of its subsystem's struct inside cli_settings */
typedef struct {
    const cuzk_config_key *keys;
    size_t n, base;
} key_group;

static size_t groups(key_group g[4])
{
    g[0] = (key_group){cli_keys, sizeof cli_keys / sizeof cli_keys[0], 0};
    g[1].keys = cuzk_gpu_config_table(&g[1].n);
    g[1].base = offsetof(cli_settings, gpu);
    g[2].keys = cuzk_engine_config_table(&g[2].n);
    g[2].base = offsetof(cli_settings, engine);
    g[3].keys = cuzk_server_config_table(&g[3].n);
    g[3].base = offsetof(cli_settings, daemon);
    return 4;
}

const cli_settings *cli_settings_get(void) { return &settings; }

/* the first bad key's message; inih returns the line it was on */
typedef struct {
    char why[512];
} ini_ctx;

static int on_ini(void *user, const char *section, const char *name, const char *value)
{
    ini_ctx *c = user;
    key_group g[4];
    size_t ng = groups(g);
    for (size_t i = 0; i < ng; i++) {
        const cuzk_config_key *k = cuzk_config_find(g[i].keys, g[i].n, section, name);
        if (!k) continue;
        if (cuzk_config_set(k, (char *)&settings + g[i].base, value) == CUZK_OK) return 1;
        snprintf(c->why, sizeof c->why, "%s", cuzk_last_error());
        return 0;
    }
    snprintf(c->why, sizeof c->why, "unknown key '%s' in section [%s] (`cuzk config --print-defaults` lists every key)",
             name, section);
    return 0;
}

int cli_settings_load(const char *file)
{
    key_group g[4];
    size_t ng = groups(g);
    for (size_t i = 0; i < ng; i++) cuzk_config_defaults(g[i].keys, g[i].n, (char *)&settings + g[i].base);
    settings.home = getenv("HOME");
    if (!file) file = getenv("CUZK_CONFIG");
    if (file && *file) {
        /* a regular file (a FIFO would be waited on), of a config file's size; a missing one is
         * reported by fopen below */
        struct stat sb;
        if (stat(file, &sb) == 0 && cuzk_check_input_file(file, 1 << 20)) {
            fprintf(stderr, "cuzk: the config file: %s\n", cuzk_last_error());
            return 2;
        }
        FILE *f = fopen(file, "r");
        if (!f) {
            fprintf(stderr, "cuzk: cannot open the config file %s: %s\n", file, strerror(errno));
            return 2;
        }
        ini_ctx c = {""};
        int rc = ini_parse_file(f, on_ini, &c);
        fclose(f);
        if (rc) {
            fprintf(stderr, "cuzk: %s:%d: %s\n", file, rc, c.why[0] ? c.why : "not a valid INI line");
            return 2;
        }
    }
    for (size_t i = 0; i < ng; i++)
        for (size_t j = 0; j < g[i].n; j++) {
            const cuzk_config_key *k = &g[i].keys[j];
            const char *v = k->env ? getenv(k->env) : NULL;
            if (!v) continue;
            if (cuzk_config_set(k, (char *)&settings + g[i].base, v)) {
                fprintf(stderr, "cuzk: environment %s: %s\n", k->env, cuzk_last_error());
                return 2;
            }
        }
    return 0;
}

void cli_settings_print(FILE *out, bool defaults)
{
    key_group g[4];
    size_t ng = groups(g);
    fprintf(out,
            "# cuzk configuration: every key with its %s value.\n"
            "# Read with `cuzk --config FILE <command>` (or CUZK_CONFIG=FILE); environment\n"
            "# overrides (`cuzk --help-env`) and command options take precedence.\n",
            defaults ? "default" : "current");
    for (size_t i = 0; i < ng; i++) {
        fprintf(out, "\n[%s]\n", g[i].keys[0].section);
        for (size_t j = 0; j < g[i].n; j++) {
            const cuzk_config_key *k = &g[i].keys[j];
            char v[1024];
            if (defaults) snprintf(v, sizeof v, "%s", k->dflt);
            else cuzk_config_format(k, (const char *)&settings + g[i].base, v, sizeof v);
            fprintf(out, "# %s", k->help);
            if (k->type == CUZK_CFG_BOOL) fprintf(out, " (true/false)");
            else if (k->type == CUZK_CFG_STR)
                fprintf(out, " (text, at most %llu bytes)", (unsigned long long)k->max - 1);
            else fprintf(out, " (%llu..%llu)", (unsigned long long)k->min, (unsigned long long)k->max);
            if (k->env) fprintf(out, "; env %s", k->env);
            fprintf(out, "\n%s = %s\n", k->name, v);
        }
    }
}

void cli_settings_print_env(FILE *out)
{
    key_group g[4];
    size_t ng = groups(g);
    fprintf(out, "Environment overrides (over the config file, under command options):\n");
    fprintf(out, "  %-28s %s\n", "CUZK_CONFIG", "the config file to read when --config is not given");
    for (size_t i = 0; i < ng; i++)
        for (size_t j = 0; j < g[i].n; j++) {
            const cuzk_config_key *k = &g[i].keys[j];
            if (!k->env) continue;
            char key[96];
            snprintf(key, sizeof key, "%s.%s", k->section, k->name);
            fprintf(out, "  %-28s %s = %s by default: %s\n", k->env, key, k->dflt, k->help);
        }
}

int cli_pool_start(void)
{
    if (cuzk_pool_create(&cli_pool, settings.threads)) {
        fprintf(stderr, "cuzk: %s\n", cuzk_last_error());
        return 1;
    }
    cuzk_pool_bind(cli_pool);
    return 0;
}

int cli_pool_resize(unsigned threads)
{
    cuzk_pool *p;
    if (cuzk_pool_create(&p, threads)) {
        fprintf(stderr, "cuzk: %s\n", cuzk_last_error());
        return 1;
    }
    cuzk_pool_destroy(cli_pool);
    cli_pool = p;
    cuzk_pool_bind(p);
    return 0;
}

void cli_pool_stop(void)
{
    cuzk_pool_bind(NULL);
    cuzk_pool_destroy(cli_pool);
    cli_pool = NULL;
}

cuzk_status cli_gpu_open(cuzk_gpu_device **out)
{
    return cuzk_gpu_device_open(out, (int)settings.gpu_device, &settings.gpu);
}

cuzk_status cli_engine_create(cuzk_engine **out, bool gpu, FILE *job_log)
{
    return cli_engine_create_progress(out, gpu, job_log, NULL);
}

cuzk_status cli_engine_create_progress(cuzk_engine **out, bool gpu, FILE *job_log, const cuzk_progress_sink *progress)
{
    cuzk_engine_config cfg = settings.engine;
    cfg.job_log = job_log;
    cfg.progress = progress;
    if (!gpu) cfg.gpus = 0;
    cfg.pool = cli_pool; /* witnesses and CPU proofs get the CLI's threads (--threads) */
    cfg.threads = cuzk_pool_size(cli_pool);
    return cuzk_engine_create(out, &cfg, &settings.gpu);
}

cuzk_status cli_engine_create_for_daemon(cuzk_engine **out, FILE *job_log, const char *param_dir, const char *cache_dir)
{
    cuzk_engine_config cfg = settings.engine;
    cfg.job_log = job_log;
    cfg.param_dir = param_dir;
    cfg.cache_dir = cache_dir;
    cfg.pool = cli_pool;
    cfg.threads = cuzk_pool_size(cli_pool);
    return cuzk_engine_create(out, &cfg, &settings.gpu);
}

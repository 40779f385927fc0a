/* The CLI's settings (settings.h): one list of keys made of the subsystems' tables and the
 * CLI's own, applied from defaults, a config file, then the environment. */
#include "cli/settings.h"

#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static cli_settings settings; /* the process's settings: the CLI is one process, one job */
static cuzk_pool *cli_pool;   /* bound to the main thread */

#define CLI_KEY(name, field, lo, hi, dflt, env, help)                                       \
    {                                                                                       \
        "cuzk", name, CUZK_CFG_UINT, offsetof(cli_settings, field), lo, hi, dflt, env, help \
    }

#define CLIENT_KEY(name, field, env, help)                                                                           \
    {                                                                                                                \
        "client", name, CUZK_CFG_STR, offsetof(cli_settings, field), 0, sizeof(((cli_settings *)0)->field), "", env, \
            help                                                                                                     \
    }

static const cuzk_config_key cli_keys[] = {
    CLI_KEY("threads", threads, 0, 4096, "0", "CUZK_THREADS",
            "worker threads of the CLI's pool, the caller included (0: one per online CPU)"),
    CLI_KEY("gpu_device", gpu_device, 0, 1023, "0", "CUZK_GPU_DEVICE", "CUDA device ordinal that --gpu work runs on"),
};

/* `cuzk client`'s own keys: a section of their own, [client], since they are the client's side
 * of the daemon's TLS keys */
static const cuzk_config_key client_keys[] = {
    CLIENT_KEY("tls_ca", client_tls_ca, "CUZK_CLIENT_TLS_CA",
               "`cuzk client` over TLS: PEM CA certificate(s) the daemon's certificate must chain to (--tls-ca; "
               "empty: plaintext unless another tls_ key is set)"),
    CLIENT_KEY("tls_cert", client_tls_cert, "CUZK_CLIENT_TLS_CERT",
               "`cuzk client` over TLS: PEM certificate for a daemon that asks for one (--tls-cert; with tls_key)"),
    CLIENT_KEY("tls_key", client_tls_key, "CUZK_CLIENT_TLS_KEY",
               "`cuzk client` over TLS: tls_cert's PEM key (--tls-key)"),
    CLIENT_KEY("tls_name", client_tls_name, "CUZK_CLIENT_TLS_NAME",
               "`cuzk client` over TLS: the name the daemon's certificate must carry (--tls-name; empty: the "
               "address's host)"),
};

/* every key, with the offset of its subsystem's struct inside cli_settings */
typedef struct {
    const cuzk_config_key *keys;
    size_t n, base;
} key_group;
#define KEY_GROUPS 5

static size_t groups(key_group g[KEY_GROUPS])
{
    g[0] = (key_group){cli_keys, sizeof cli_keys / sizeof cli_keys[0], 0};
    g[1].keys = cuzk_gpu_config_table(&g[1].n);
    g[1].base = offsetof(cli_settings, gpu);
    g[2].keys = cuzk_engine_config_table(&g[2].n);
    g[2].base = offsetof(cli_settings, engine);
    g[3].keys = cuzk_server_config_table(&g[3].n);
    g[3].base = offsetof(cli_settings, daemon);
    g[4] = (key_group){client_keys, sizeof client_keys / sizeof client_keys[0], 0};
    return KEY_GROUPS;
}

const cli_settings *cli_settings_get(void) { return &settings; }

/* The config file is read through inih with a reader of our own (ini_parse_stream), which:
 *  - counts lines, so that an error names the line it is on (inih goes on after a bad key and
 *    returns the first bad line's number, while its handler does not know the line);
 *  - takes lines of up to CONFIG_LINE_MAX bytes: inih reads at most INI_MAX_LINE - 1 (199) bytes
 *    of a line and reads the rest as a line of its own, so a long comment could set a key and a
 *    long path failed on the line after it. A longer line is given to inih as its key with a
 *    placeholder value, the real value kept here; a long comment is given as an empty line. */
#define CONFIG_LINE_MAX 4096

typedef struct {
    FILE *f;
    unsigned line;     /* the line inih reads (1-based) */
    unsigned bad_line; /* the first line refused by the handler or the reader (0: none) */
    char why[600];
    char long_value[CONFIG_LINE_MAX]; /* the value of the long line being parsed */
    bool has_long;
} ini_ctx;

static const char LONG_VALUE_MARK[] = "\x01long-value";

static void ini_refuse(ini_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void ini_refuse(ini_ctx *c, const char *fmt, ...)
{
    if (c->bad_line) return; /* the first one is what is reported */
    c->bad_line = c->line;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->why, sizeof c->why, fmt, ap);
    va_end(ap);
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n && strchr(" \t\r\n", s[n - 1])) s[--n] = 0;
    return s;
}

/* A line over inih's length, rewritten into str (num bytes): "KEY = <mark>" with the value
 * kept in c, or "" for a comment; false when it is neither. */
static bool shorten(ini_ctx *c, char *line, char *str, int num)
{
    char *t = trim(line);
    if (!*t || strchr(";#", *t)) {
        snprintf(str, (size_t)num, "\n");
        return true;
    }
    char *eq = strpbrk(t, "=:");
    if (!eq || t[0] == '[') return false;
    *eq = 0;
    char *key = trim(t), *value = eq + 1;
    /* inline comments as inih takes them: ';' after whitespace */
    for (char *p = value; *p; p++)
        if (*p == ';' && p > value && (p[-1] == ' ' || p[-1] == '\t')) {
            *p = 0;
            break;
        }
    if (strlen(key) + sizeof LONG_VALUE_MARK + 4 > (size_t)num) return false;
    snprintf(c->long_value, sizeof c->long_value, "%s", trim(value));
    c->has_long = true;
    snprintf(str, (size_t)num, "%s = %s\n", key, LONG_VALUE_MARK);
    return true;
}

static char *ini_read_line(char *str, int num, void *stream)
{
    ini_ctx *c = stream;
    char line[CONFIG_LINE_MAX + 2];
    if (!fgets(line, sizeof line, c->f)) return NULL;
    c->line++;
    size_t len = strlen(line);
    if (len == sizeof line - 1 && line[len - 1] != '\n') {
        ini_refuse(c, "the line is longer than %d bytes", CONFIG_LINE_MAX);
        return NULL; /* inih ends the parse; the error is ours */
    }
    if (len < (size_t)num) {
        memcpy(str, line, len + 1);
        return str;
    }
    if (!shorten(c, line, str, num)) {
        ini_refuse(c, "not a valid INI line (a key = value, a [section] or a comment)");
        snprintf(str, (size_t)num, "\n");
    }
    return str;
}

static int on_ini(void *user, const char *section, const char *name, const char *value)
{
    ini_ctx *c = user;
    if (c->has_long && !strcmp(value, LONG_VALUE_MARK)) value = c->long_value;
    c->has_long = false;
    key_group g[KEY_GROUPS];
    size_t ng = groups(g);
    for (size_t i = 0; i < ng; i++) {
        const cuzk_config_key *k = cuzk_config_find(g[i].keys, g[i].n, section, name);
        if (!k) continue;
        if (cuzk_config_set(k, (char *)&settings + g[i].base, value) == CUZK_OK) return 1;
        ini_refuse(c, "%s", cuzk_last_error());
        return 0;
    }
    ini_refuse(c, "unknown key '%s' in section [%s] (`cuzk config --print-defaults` lists every key)", name, section);
    return 0;
}

int cli_settings_load(const char *file)
{
    key_group g[KEY_GROUPS];
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
        ini_ctx *c = calloc(1, sizeof *c);
        if (!c) {
            fclose(f);
            fprintf(stderr, "cuzk: out of memory\n");
            return 2;
        }
        c->f = f;
        int rc = ini_parse_stream(ini_read_line, c, on_ini, c);
        fclose(f);
        /* the first bad line: inih's (a line it cannot parse) or ours, whichever comes first */
        bool ours = c->bad_line && (rc <= 0 || (unsigned)rc >= c->bad_line);
        if (rc || c->bad_line) {
            fprintf(stderr, "cuzk: %s:%u: %s\n", file, ours ? c->bad_line : (unsigned)rc,
                    ours ? c->why : "not a valid INI line");
            free(c);
            return 2;
        }
        free(c);
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
    key_group g[KEY_GROUPS];
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
    key_group g[KEY_GROUPS];
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

cuzk_status cli_engine_create_for_daemon(cuzk_engine **out, FILE *job_log, const char *param_dir, const char *cache_dir,
                                         bool test_params)
{
    cuzk_engine_config cfg = settings.engine;
    cfg.check_param_digests = true;
    cfg.test_params = test_params;
    cfg.job_log = job_log;
    cfg.param_dir = param_dir;
    cfg.cache_dir = cache_dir;
    cfg.pool = cli_pool;
    cfg.threads = cuzk_pool_size(cli_pool);
    return cuzk_engine_create(out, &cfg, &settings.gpu);
}

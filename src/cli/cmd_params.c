/* cuzk params check: which official Filecoin parameter and key files a parameter folder holds,
 * each one's size and whether its digest is the published one (cuzk/filecoin_params.h), and so
 * which circuits a daemon reading that folder can serve. Digests are kept in the cache folder
 * (daemon.cache_dir, or --cache) by path, size and mtime, so only new or changed files are
 * hashed again. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/progress_term.h"
#include "cli/settings.h"
#include "cuzk/filecoin_params.h"

#define MAX_EXTRA 16

typedef enum { FILE_OK, FILE_WRONG, FILE_MISSING, FILE_ERROR } file_state;

static const char *const STATE_NAME[] = {"ok", "WRONG", "missing", "ERROR"};

typedef struct {
    cuzk_param_file f;
    file_state state;
    uint64_t size;
    char found[CUZK_PARAM_DIGEST_HEX];
    char error[512];
} checked_file;

typedef struct {
    checked_file *files;
    size_t n;
    unsigned hashed, cached, wrong, missing, errors;
} check_run;

static void check_one(checked_file *c, check_run *r, const char *dir, const char *cache,
                      const cuzk_progress_sink *progress)
{
    size_t n = strlen(dir) + strlen(c->f.name) + 2;
    char *path = malloc(n);
    if (!path) {
        c->state = FILE_ERROR;
        snprintf(c->error, sizeof c->error, "out of memory");
        r->errors++;
        return;
    }
    snprintf(path, n, "%s/%s", dir, c->f.name);
    struct stat sb;
    if (lstat(path, &sb) && errno == ENOENT) {
        c->state = FILE_MISSING;
        r->missing++;
    } else {
        bool hashed = false;
        cuzk_status st = cuzk_param_file_digest(c->found, &hashed, path, cache, progress);
        if (st) {
            c->state = FILE_ERROR;
            snprintf(c->error, sizeof c->error, "%s", cuzk_last_error());
            r->errors++;
        } else {
            c->size = stat(path, &sb) ? 0 : (uint64_t)sb.st_size;
            c->state = strcmp(c->found, c->f.digest) ? FILE_WRONG : FILE_OK;
            r->wrong += c->state == FILE_WRONG;
            r->hashed += hashed;
            r->cached += !hashed;
        }
    }
    free(path);
}

/* A circuit is served when every file of it in the table is present and right. */
static bool circuit_servable(const check_run *r, const char *circuit)
{
    for (size_t i = 0; i < r->n; i++)
        if (!strcmp(r->files[i].f.circuit, circuit) && r->files[i].state != FILE_OK) return false;
    return true;
}

/* The table's circuits that can be served, each once, in table order. */
static size_t servable_list(const check_run *r, const char **out)
{
    size_t k = 0;
    for (size_t i = 0; i < r->n; i++) {
        const char *c = r->files[i].f.circuit;
        if (!r->files[i].f.sector_size) continue; /* an --expect file serves no circuit */
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++) seen = !strcmp(r->files[j].f.circuit, c);
        if (!seen && circuit_servable(r, c)) out[k++] = c;
    }
    return k;
}

static void size_text(char out[32], uint64_t b)
{
    if (b >= (1ull << 30)) snprintf(out, 32, "%.1f GiB", (double)b / (1ull << 30));
    else if (b >= (1ull << 20)) snprintf(out, 32, "%.1f MiB", (double)b / (1ull << 20));
    else if (b >= 1024) snprintf(out, 32, "%.1f KiB", (double)b / 1024);
    else snprintf(out, 32, "%llu B", (unsigned long long)b);
}

static void print_text(const check_run *r, const char *dir, const char *cache, const char **ok, size_t nok)
{
    printf("parameter folder %s (%zu official files)\n", dir, r->n);
    for (size_t i = 0; i < r->n; i++) {
        const checked_file *c = &r->files[i];
        char sz[32] = "";
        if (c->state == FILE_OK || c->state == FILE_WRONG) size_text(sz, c->size);
        printf("%-8s %-10s %s (%s)", STATE_NAME[c->state], sz, c->f.name, c->f.circuit);
        if (c->state == FILE_WRONG) printf(": digest %s, published %s", c->found, c->f.digest);
        if (c->state == FILE_ERROR) printf(": %s", c->error);
        putchar('\n');
    }
    printf("circuits that can be served: ");
    for (size_t i = 0; i < nok; i++) printf("%s%s", i ? ", " : "", ok[i]);
    printf("%s\n", nok ? "" : "none");
    printf("%zu present, %u with the wrong digest, %u unreadable, %u missing; %u hashed, %u from the record in %s\n",
           r->n - r->missing - r->errors, r->wrong, r->errors, r->missing, r->hashed, r->cached,
           cache[0] ? cache : "(none: no cache folder, nothing kept)");
}

static void print_json(const check_run *r, const char *dir, const char *cache, const char **ok, size_t nok)
{
    printf("{\"dir\":");
    cuzk_json_string(stdout, dir);
    printf(",\"cache_dir\":");
    cuzk_json_string(stdout, cache);
    printf(",\"files\":[");
    for (size_t i = 0; i < r->n; i++) {
        const checked_file *c = &r->files[i];
        printf("%s{\"name\":", i ? "," : "");
        cuzk_json_string(stdout, c->f.name);
        printf(",\"circuit\":");
        cuzk_json_string(stdout, c->f.circuit);
        printf(",\"sector_size\":%llu,\"state\":\"%s\",\"expected\":\"%s\"", (unsigned long long)c->f.sector_size,
               c->state == FILE_OK            ? "ok"
                   : c->state == FILE_WRONG   ? "wrong"
                   : c->state == FILE_MISSING ? "missing"
                                              : "error",
               c->f.digest);
        if (c->state == FILE_OK || c->state == FILE_WRONG)
            printf(",\"size\":%llu,\"found\":\"%s\"", (unsigned long long)c->size, c->found);
        if (c->state == FILE_ERROR) {
            printf(",\"error\":");
            cuzk_json_string(stdout, c->error);
        }
        putchar('}');
    }
    printf("],\"servable\":[");
    for (size_t i = 0; i < nok; i++) {
        printf("%s", i ? "," : "");
        cuzk_json_string(stdout, ok[i]);
    }
    printf("],\"wrong\":%u,\"errors\":%u,\"missing\":%u,\"hashed\":%u,\"cached\":%u}\n", r->wrong, r->errors,
           r->missing, r->hashed, r->cached);
}

/* --expect NAME=DIGEST: a file of one's own (the demo's test parameters, or a test's) checked
 * beside the official ones; an official name cannot be given another digest. */
static int parse_expect(const char *spec, cuzk_param_file *out, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s", spec);
    char *eq = strchr(buf, '=');
    if (!eq || eq == buf || strlen(eq + 1) != 32 || strspn(eq + 1, "0123456789abcdef") != 32 || strchr(buf, '/')) {
        fprintf(stderr, "cuzk params check: --expect %s: NAME=DIGEST expected (a file name, 32 lowercase hex)\n", spec);
        return 2;
    }
    *eq = 0;
    if (cuzk_param_file_find(buf)) {
        fprintf(stderr, "cuzk params check: --expect %s: an official file's digest is the published one\n", spec);
        return 2;
    }
    *out = (cuzk_param_file){buf, eq + 1, 0, "not official"};
    return 0;
}

static int params_check(int argc, char **argv)
{
    const char *dir = NULL, *cache = NULL, *expect = NULL;
    bool json = false, all = false, quiet = false, done;
    cli_opt opts[] = {
        {"dir", "DIR", "the parameter folder (default: daemon.param_dir, FIL_PROOFS_PARAMETER_CACHE)", &dir, NULL},
        {"cache", "DIR",
         "where digests are kept by path, size and mtime, as param-digests.txt (default: daemon.cache_dir; "
         "none: every file hashed)",
         &cache, NULL},
        {"expect", "NAME=DIGEST", "also check the file NAME of the folder against DIGEST (not an official name)",
         &expect, NULL},
        {"all", NULL, "a missing official file is an error too (exit 1)", NULL, &all},
        {"json", NULL, "one JSON object on stdout", NULL, &json},
        {"quiet", NULL, "no progress line", NULL, &quiet},
    };
    int rc = cli_parse(argc, argv,
                       "cuzk params check [--dir DIR] [--cache DIR] [--all] [--json]\n\n"
                       "Lists each official Filecoin parameter (.params) and verifying-key (.vk) file of the folder:\n"
                       "present or missing, its size, whether its digest is the one Filecoin publishes (BLAKE2b, as\n"
                       "the parameter fetcher checks it), and the circuit it serves; then the circuits that can be\n"
                       "served. Exit 1 when a present file is wrong or unreadable (with --all: or missing).\n\n"
                       "examples:\n  cuzk params check\n  cuzk params check --dir /var/tmp/filecoin-proof-parameters "
                       "--json",
                       opts, (int)(sizeof opts / sizeof opts[0]), &done);
    if (rc || done) return rc;
    const cuzk_server_config *d = &cli_settings_get()->daemon;
    if (!dir) dir = d->param_dir;
    if (!cache) cache = d->cache_dir;
    struct stat sb;
    if (stat(dir, &sb) || !S_ISDIR(sb.st_mode)) {
        fprintf(stderr, "cuzk params check: the parameter folder %s: %s\n", dir,
                stat(dir, &sb) ? strerror(errno) : "not a folder");
        return 1;
    }
    if (cache[0] && (stat(cache, &sb) || !S_ISDIR(sb.st_mode))) {
        fprintf(stderr, "cuzk params check: the cache folder %s: %s\n", cache,
                stat(cache, &sb) ? strerror(errno) : "not a folder");
        return 1;
    }
    size_t n;
    const cuzk_param_file *table = cuzk_param_files(&n);
    check_run r = {calloc(n + 1, sizeof *r.files), 0, 0, 0, 0, 0, 0};
    const char **ok = calloc(n + 1, sizeof *ok);
    char ebuf[512];
    if (!r.files || !ok) {
        free(r.files);
        free(ok);
        fprintf(stderr, "cuzk params check: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < n; i++) r.files[r.n++].f = table[i];
    if (expect && (rc = parse_expect(expect, &r.files[r.n].f, ebuf, sizeof ebuf))) {
        free(r.files);
        free(ok);
        return rc;
    }
    if (expect) r.n++;
    const cuzk_progress_sink *progress = cli_progress(quiet, json);
    for (size_t i = 0; i < r.n; i++) check_one(&r.files[i], &r, dir, cache, progress);
    size_t nok = servable_list(&r, ok);
    (json ? print_json : print_text)(&r, dir, cache, ok, nok);
    rc = r.wrong || r.errors || (all && r.missing) ? 1 : 0;
    free(r.files);
    free(ok);
    return rc;
}

int cli_params(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "check")) return params_check(argc - 1, argv + 1);
    bool help = argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"));
    fprintf(help ? stdout : stderr,
            "usage: cuzk params check [--dir DIR] [--cache DIR] [--all] [--json]   (cuzk params check --help)\n");
    return help ? 0 : 2;
}

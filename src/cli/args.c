/* Option parsing shared by the subcommands. */
#include "cli/args.h"
#include "cli/settings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/base.h"

static void print_help(FILE *out, const char *usage, const cli_opt *opts, int nopts)
{
    fprintf(out, "usage: %s\n\noptions:\n", usage);
    for (int i = 0; i < nopts; i++) {
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", opts[i].name, opts[i].metavar ? " " : "",
                 opts[i].metavar ? opts[i].metavar : "");
        fprintf(out, "  %-26s %s\n", left, opts[i].help);
    }
    fprintf(out, "  %-26s %s\n", "--help", "show this help");
}

int cli_parse(int argc, char **argv, const char *usage, const cli_opt *opts, int nopts, bool *done)
{
    *done = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            print_help(stdout, usage, opts, nopts);
            *done = true;
            return 0;
        }
        if (strncmp(a, "--", 2) != 0) {
            fprintf(stderr, "cuzk %s: unexpected argument '%s'\n", argv[0], a);
            print_help(stderr, usage, opts, nopts);
            return 2;
        }
        const char *name = a + 2, *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        int k = -1;
        for (int j = 0; j < nopts; j++)
            if (strlen(opts[j].name) == len && !strncmp(opts[j].name, name, len)) k = j;
        if (k < 0) {
            fprintf(stderr, "cuzk %s: unknown option '--%.*s'\n", argv[0], (int)len, name);
            print_help(stderr, usage, opts, nopts);
            return 2;
        }
        if (!opts[k].metavar) {
            if (eq) {
                fprintf(stderr, "cuzk %s: option '--%s' takes no value\n", argv[0], opts[k].name);
                return 2;
            }
            *opts[k].flag = true;
            continue;
        }
        if (eq) *opts[k].value = eq + 1;
        else if (i + 1 < argc) *opts[k].value = argv[++i];
        else {
            fprintf(stderr, "cuzk %s: option '--%s' needs a value (%s)\n", argv[0], opts[k].name, opts[k].metavar);
            return 2;
        }
    }
    return 0;
}

int cli_missing(const char *cmd, const char *opt)
{
    fprintf(stderr, "cuzk %s: missing required option --%s (see cuzk %s --help)\n", cmd, opt, cmd);
    return 2;
}

int cli_u64(const char *cmd, const char *opt, const char *s, uint64_t *out)
{
    uint64_t v;
    if (!strncmp(s, "2^", 2)) {
        if (!cuzk_u64_parse(s + 2, &v) && v < 64) {
            *out = (uint64_t)1 << v;
            return 0;
        }
        fprintf(stderr, "cuzk %s: --%s expects 2^K with K below 64, got '%s'\n", cmd, opt, s);
        return 2;
    }
    if (cuzk_u64_parse(s, &v)) {
        fprintf(stderr, "cuzk %s: --%s expects a non-negative integer: %s\n", cmd, opt, cuzk_last_error());
        return 2;
    }
    *out = v;
    return 0;
}

int cli_threads(const char *cmd, const char *s)
{
    if (!s) return 0;
    uint64_t t;
    if (cli_u64(cmd, "threads", s, &t)) return 2;
    if (t > 4096) {
        fprintf(stderr, "cuzk %s: --threads %s is too many\n", cmd, s);
        return 2;
    }
    return cli_pool_resize((unsigned)t) ? 1 : 0;
}

int cli_error(const char *cmd)
{
    fprintf(stderr, "cuzk %s: %s\n", cmd, cuzk_last_error());
    return 1;
}

/* Option parsing shared by the subcommands. */
#include "cli/args.h"
#include "cli/settings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/base.h"

/* The usage text: its synopsis (up to the first blank line), what the command does, and its
 * examples (from the blank line before "example"), printed around the options. */
static void print_help(FILE *out, const char *usage, const cli_opt *opts, int nopts)
{
    const char *ex = strstr(usage, "\n\nexample");
    int head = ex ? (int)(ex - usage) : (int)strlen(usage);
    fprintf(out, "usage: %.*s\n\noptions:\n", head, usage);
    for (int i = 0; i < nopts; i++) {
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", opts[i].name, opts[i].metavar ? " " : "",
                 opts[i].metavar ? opts[i].metavar : "");
        if (strlen(left) > 26) fprintf(out, "  %s\n  %-26s %s\n", left, "", opts[i].help);
        else fprintf(out, "  %-26s %s\n", left, opts[i].help);
    }
    fprintf(out, "  %-26s %s\n", "-h, --help", "show this help and exit");
    if (ex) fprintf(out, "%s\n", ex + 1);
}

/* After a usage error: the synopsis and where the rest is. */
static void print_usage(FILE *out, const char *cmd, const char *usage)
{
    const char *end = strstr(usage, "\n\n");
    fprintf(out, "usage: %.*s\n(cuzk %s --help: what it does, its options and examples)\n",
            end ? (int)(end - usage) : (int)strlen(usage), usage, cmd);
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
            print_usage(stderr, argv[0], usage);
            return 2;
        }
        const char *name = a + 2, *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        int k = -1;
        for (int j = 0; j < nopts; j++)
            if (strlen(opts[j].name) == len && !strncmp(opts[j].name, name, len)) k = j;
        if (k < 0) {
            fprintf(stderr, "cuzk %s: unknown option '--%.*s'\n", argv[0], (int)len, name);
            print_usage(stderr, argv[0], usage);
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

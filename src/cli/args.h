/* Command-line option parsing for the subcommands: "--name value" and "--flag" options
 * from a table, with --help generated from it. */
#ifndef CUZK_CLI_ARGS_H
#define CUZK_CLI_ARGS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    const char *name;    /* without the leading "--" */
    const char *metavar; /* NULL for a flag */
    const char *help;
    const char **value; /* set for options with a value */
    bool *flag;         /* set for flags */
} cli_opt;

/* Parses argv (argv[0] is the command name). Returns 0 to go on, or an exit status:
 * 0 after printing --help (*done set), 2 after a usage error.
 * usage: the synopsis line(s); then, after a blank line, what the command does; then, after a
 * blank line, "example:" or "examples:" and the command lines. --help prints the synopsis and
 * the description, the options, then the examples; a usage error prints the synopsis only. */
int cli_parse(int argc, char **argv, const char *usage, const cli_opt *opts, int nopts, bool *done);
/* Reports a missing required option; returns 2. */
int cli_missing(const char *cmd, const char *opt);
/* Parses an unsigned number (decimal, or 2^K) exactly into *out; prints an error naming the
 * option and returns 2 when it is not one or does not fit 64 bits, 0 otherwise. */
int cli_u64(const char *cmd, const char *opt, const char *s, uint64_t *out);
/* Applies --threads when given (0 = all CPUs): the CLI pool is remade with that many
 * threads; returns 0, 2 (usage) or 1. */
int cli_threads(const char *cmd, const char *s);
/* Prints "cuzk CMD: <cuzk_last_error()>" and returns 1. */
int cli_error(const char *cmd);

#endif

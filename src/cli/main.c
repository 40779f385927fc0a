/* cuzk: the command-line entry point; dispatches to the subcommands. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static const cli_command COMMANDS[] = {
    {"setup", "make random Groth16 parameters for a built-in circuit", cli_setup},
    {"prove", "prove a built-in circuit; `prove porep`: PoRep C2 for a C1 output", cli_prove},
    {"verify", "verify proofs against a verifying key and public inputs; `verify porep`", cli_verify},
    {"seal", "seal a test sector (2KiB, 8MiB, 512MiB) and write its C1 output", cli_seal},
    {"circuit-info", "count a circuit's constraints, inputs and aux", cli_circuit_info},
    {"bench", "benchmarks: msm, ntt, prove", cli_bench},
    {"demo", "set up, prove and verify a built-in circuit, printing the timeline", cli_demo},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: cuzk <command> [options]   (cuzk <command> --help for its options)\n\ncommands:\n");
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        fprintf(out, "  %-14s %s\n", COMMANDS[i].name, COMMANDS[i].summary);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        if (!strcmp(argv[1], COMMANDS[i].name)) return COMMANDS[i].run(argc - 1, argv + 1);
    fprintf(stderr, "cuzk: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}

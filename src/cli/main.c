/* cuzk: the command-line entry point; dispatches to the subcommands. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/settings.h"
#include "cuzk/hash.h"

static const cli_command COMMANDS[] = {
    {"setup", "make random Groth16 parameters for a built-in circuit", cli_setup},
    {"prove", "prove a built-in circuit; `prove porep`: PoRep C2 for a C1 output", cli_prove},
    {"verify", "verify proofs against a verifying key and public inputs; `verify porep`", cli_verify},
    {"seal", "seal a test sector (2KiB, 8MiB, 512MiB; --sparse: any size to 64GiB) and write its C1 output", cli_seal},
    {"post", "`post vanilla`: the vanilla PoSt proofs (bincode blobs) of sealed test sectors", cli_post},
    {"snap", "SnapDeals: `snap encode` new data into a sealed test sector (replica, vanilla proofs)", cli_snap},
    {"circuit-info", "count a circuit's constraints, inputs and aux", cli_circuit_info},
    {"bench", "benchmarks: msm, ntt, prove, synth, engine, e2e, throughput, gpu-msm, gpu-ntt, gpu-prove, gpu-field",
     cli_bench},
    {"demo", "set up, prove and verify a built-in circuit, printing the timeline", cli_demo},
    {"daemon", "serve the cuzk.v1 gRPC ProvingEngine (what Curio calls) on a socket or TCP port", cli_daemon},
    {"client", "call a daemon: prove, submit, await, cancel, status, metrics, preload, evict", cli_client},
    {"config", "print the configuration file: every key with its default (or current) value", cli_config},
};

char **cli_subcommand(char **argv, char *buf, size_t n)
{
    snprintf(buf, n, "%s %s", argv[0], argv[1]);
    argv[1] = buf;
    return argv + 1;
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: cuzk [--config FILE] <command> [options]   (cuzk <command> --help for its options)\n"
            "       cuzk --help-env   (the environment overrides)\n"
            "       cuzk --version    (the version and the build's features)\n\ncommands:\n");
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        fprintf(out, "  %-14s %s\n", COMMANDS[i].name, COMMANDS[i].summary);
}

/* The version and the build's features, for bug reports and for checking an install. */
static void version(void)
{
#if CUZK_BUILT_WITH_CUDA
    const char *cuda = "yes (sm_90 kernels)";
#else
    const char *cuda = "no (built without nvcc: CPU proving only)";
#endif
    printf("cuzk %s\nCUDA: %s\nSHA-NI on this CPU: %s\nblst: %s\n", CUZK_VERSION, cuda,
           cuzk_sha256_uses_shani() ? "yes" : "no", CUZK_BLST_VERSION);
}

static int run(const cli_command *c, int argc, char **argv)
{
    if (cli_pool_start()) return 1;
    int rc = c->run(argc, argv);
    cli_pool_stop();
    return rc;
}

int main(int argc, char **argv)
{
    const char *config = NULL;
    if (argc >= 2 && !strcmp(argv[1], "--config")) {
        if (argc < 3) {
            fprintf(stderr, "cuzk: --config expects a file\n");
            return 2;
        }
        config = argv[2];
        argv[2] = argv[0];
        argc -= 2;
        argv += 2;
    }
    if (argc >= 2 && !strcmp(argv[1], "--help-env")) {
        cli_settings_print_env(stdout);
        return 0;
    }
    if (argc >= 2 && !strcmp(argv[1], "--version")) {
        version();
        return 0;
    }
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    int rc = cli_settings_load(config);
    if (rc) return rc;
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++)
        if (!strcmp(argv[1], COMMANDS[i].name)) return run(&COMMANDS[i], argc - 1, argv + 1);
    fprintf(stderr, "cuzk: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}

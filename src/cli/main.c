/* cuzk: the command-line entry point; dispatches to the subcommands. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/settings.h"
#include "cuzk/gpu.h"
#include "cuzk/hash.h"
#include "cuzk/version.h"

static const cli_command COMMANDS[] = {
    {"seal", "seal a test sector (2KiB, 8MiB, 512MiB; --sparse: any size to 64GiB): its C1 output and sector.json",
     cli_seal},
    {"setup", "make random Groth16 parameters (.params) and verifying key (.vk) for a built-in circuit", cli_setup},
    {"prove",
     "prove a built-in circuit; prove porep: PoRep C2 of a C1 output; prove window-post, winning-post, "
     "snap: of vanilla proofs",
     cli_prove},
    {"verify",
     "verify proofs against a verifying key; verify porep, window-post, winning-post, snap: public inputs "
     "recomputed",
     cli_verify},
    {"post", "post vanilla: the vanilla WindowPoSt / WinningPoSt proofs (bincode blobs) of sealed test sectors",
     cli_post},
    {"snap", "snap encode: SnapDeals, new data into a sealed test sector (updated replica, vanilla proofs)", cli_snap},
    {"circuit-info", "count a built-in circuit's constraints, inputs and aux; --list: the built-in circuits",
     cli_circuit_info},
    {"bench", "benchmarks, one kind each (below)", cli_bench},
    {"demo", "a 2 KiB sector end to end: seal, PoRep C2, WindowPoSt, WinningPoSt, SnapDeals, each verified", cli_demo},
    {"daemon", "serve the cuzk.v1 gRPC ProvingEngine (what Curio calls) on a socket or TCP port", cli_daemon},
    {"client", "call a daemon: prove, submit, await, cancel, status, metrics, preload, evict", cli_client},
    {"params", "check a parameter folder: each official file present or missing, its size and published digest",
     cli_params},
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
            "usage: cuzk [--config FILE] COMMAND [options]   (cuzk COMMAND --help for its options and examples)\n"
            "       cuzk --help-env   the environment overrides of the config file\n"
            "       cuzk --version    the version and the build's features (CUDA or not)\n\n"
            "Groth16 proving for Filecoin (PoRep C2, WindowPoSt, WinningPoSt, SnapDeals) on the CPU or GPU.\n\n"
            "commands:\n");
    for (size_t i = 0; i < sizeof COMMANDS / sizeof COMMANDS[0]; i++) {
        fprintf(out, "  %-14s %s\n", COMMANDS[i].name, COMMANDS[i].summary);
        if (COMMANDS[i].run == cli_bench)
            for (size_t k = 0; k < CLI_BENCH_NKINDS; k++)
                fprintf(out, "    %-12s %s\n", CLI_BENCH_KINDS[k].name, CLI_BENCH_KINDS[k].summary);
    }
    fprintf(out,
            "\nexamples:\n"
            "  cuzk demo\n"
            "  cuzk seal --sector-size 2KiB --out s\n"
            "  cuzk setup --circuit porep:2KiB --params porep-2KiB.params --vk porep-2KiB.vk\n"
            "  cuzk prove porep --c1 s/c1.json --params porep-2KiB.params --out s.proof\n"
            "  cuzk verify porep --c1 s/c1.json --vk porep-2KiB.vk --proof s.proof\n");
}

/* The version and the build's features, for bug reports and for checking an install. */
static void version(void)
{
#if CUZK_BUILT_WITH_CUDA
    const char *cuda = "yes (kernels for CUDA architectures " CUZK_CUDA_ARCHS_BUILT ")";
#else
    const char *cuda = "no (built without nvcc: CPU proving only)";
#endif
    printf("cuzk %s\nCUDA: %s\nSHA-NI on this CPU: %s\nblst: %s\n", cuzk_version(), cuda,
           cuzk_sha256_uses_shani() ? "yes" : "no", CUZK_BLST_VERSION);
#if CUZK_BUILT_WITH_CUDA
    /* the GPUs here and the kernels each would run (or why it cannot) */
    char why[256];
    if (!cuzk_gpu_available(why, sizeof why)) {
        printf("GPUs: none (%s)\n", why);
        return;
    }
    for (int i = 0; i < cuzk_gpu_device_count(); i++) {
        cuzk_gpu_device *d = NULL;
        char name[256];
        if (cuzk_gpu_device_open(&d, i, NULL)) {
            printf("GPU %d: not usable: %s\n", i, cuzk_last_error());
            continue;
        }
        cuzk_gpu_describe(d, name, sizeof name);
        printf("GPU %d: %s\n", i, name);
        cuzk_gpu_device_close(d);
    }
#endif
}

static int run(const cli_command *c, int argc, char **argv)
{
    /* before the pool's threads exist, so that they inherit the mask and no signal meant for
     * the daemon's sigwait kills the process from one of them */
    if (c->run == cli_daemon) cli_block_daemon_signals();
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
    fprintf(stderr, "cuzk: unknown command '%s' (cuzk --help lists them)\n", argv[1]);
    return 2;
}

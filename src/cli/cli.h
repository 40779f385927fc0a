/* Subcommands of the cuzk binary. Each takes (argc, argv) with argv[0] = its own name and
 * returns the process exit status: 0 success, 1 failure (message on stderr), 2 usage error. */
#ifndef CUZK_CLI_H
#define CUZK_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cuzk/circuits.h"

typedef struct {
    const char *name, *summary;
    int (*run)(int argc, char **argv);
} cli_command;

/* The kinds of cuzk bench, each with its one line (cmd_bench.c). */
typedef struct {
    const char *name, *summary;
} cli_kind;
extern const cli_kind CLI_BENCH_KINDS[];
extern const size_t CLI_BENCH_NKINDS;

int cli_demo(int argc, char **argv);
int cli_setup(int argc, char **argv);
int cli_prove(int argc, char **argv);
int cli_verify(int argc, char **argv);
int cli_bench(int argc, char **argv);
int cli_circuit_info(int argc, char **argv);
int cli_seal(int argc, char **argv);
int cli_post(int argc, char **argv);
int cli_snap(int argc, char **argv);
int cli_config(int argc, char **argv);
int cli_prove_porep(int argc, char **argv);
int cli_verify_porep(int argc, char **argv);
/* what: "window-post", "winning-post" or "snap" */
int cli_prove_vanilla(const char *what, int argc, char **argv);
int cli_verify_vanilla(const char *what, int argc, char **argv);
/* GPU benchmarks: `what` is gpu-msm, gpu-ntt, gpu-prove or gpu-field */
int cli_bench_gpu(const char *what, int argc, char **argv);
/* cuzk bench gpu-place (placements on this GPU or a card of a given memory) and gpu-hold (holds
 * all but N GiB of the GPU, standing in for a smaller card): cmd_bench_gpu_memory.c */
int cli_bench_gpu_place(int argc, char **argv);
int cli_bench_gpu_hold(int argc, char **argv);
/* bench gpu-prove --circuit (cmd_bench_gpu_circuit.c) */
int cli_bench_gpu_prove_circuit(const char *name, const char *pce_path, unsigned partitions, unsigned batch, int reps,
                                int json);
/* bench engine (cmd_bench_engine.c) */
int cli_bench_engine(int argc, char **argv);
/* bench cancel (cmd_bench_cancel.c): cancel latency of running jobs */
int cli_bench_cancel(int argc, char **argv);
/* bench e2e (cmd_bench_e2e.c): C1 files in, verified proofs out, load and per-sector times */
int cli_bench_e2e(int argc, char **argv);
/* bench params (cmd_bench_params.c): a .params file read and decoded as the engine streams it */
int cli_bench_params(int argc, char **argv);
int cli_daemon(int argc, char **argv);
/* Blocks SIGTERM, SIGINT and SIGHUP in the calling thread (and every thread it makes), which the
 * daemon then takes with sigwait; SIGPIPE ignored. */
void cli_block_daemon_signals(void);
int cli_client(int argc, char **argv);
int cli_params(int argc, char **argv);
/* bench throughput (cmd_bench_throughput.c): Prove calls against a daemon */
int cli_bench_throughput(int argc, char **argv);
/* For a subcommand's own option table: argv[1] (its name) becomes "argv[0] argv[1]" in buf, so
 * that its messages name the whole command ("cuzk prove porep: ..."). Returns argv + 1. */
char **cli_subcommand(char **argv, char *buf, size_t n);
/* An engine circuit's open function for a built-in circuit: ctx is its name (cmd_prove.c). */
cuzk_status cli_open_named(void *ctx, const uint8_t *input, size_t input_len, uint64_t seed, unsigned k,
                           cuzk_circuit **out);
/* Prints the timeline JSON of an engine result as an indented tree (timeline_print.c). */
void cli_print_timeline_json(const char *title, const char *json, FILE *out);
/* a field of /proc/self/status in KiB (e.g. "VmHWM:"), -1 if absent */
long cli_rss_kib(const char *key);

#endif

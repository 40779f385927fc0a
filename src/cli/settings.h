/* The CLI's settings: every configuration key of the library's subsystems and of the CLI
 * itself, read from built-in defaults, then a config file (INI: `cuzk --config FILE` or
 * CUZK_CONFIG), then environment overrides (each key's env name, listed by `cuzk --help-env`),
 * then the command's own options. This is the one place that reads the environment. */
#ifndef CUZK_CLI_SETTINGS_H
#define CUZK_CLI_SETTINGS_H

#include <stdio.h>

#include "cuzk/engine.h"
#include "cuzk/gpu.h"
#include "cuzk/server.h"

typedef struct {
    unsigned threads;          /* [cuzk] threads: the CLI's pool (0: one per CPU) */
    unsigned gpu_device;       /* [cuzk] gpu_device: the CUDA ordinal `--gpu` work runs on */
    cuzk_gpu_config gpu;       /* [gpu] ... */
    cuzk_engine_config engine; /* [engine] ... */
    cuzk_server_config daemon; /* [daemon] ... */
    char client_tls_ca[512];   /* [client] tls_ca: `cuzk client` over TLS, trusting this CA file */
    char client_tls_cert[512]; /* [client] tls_cert, tls_key: its certificate for a daemon that asks */
    char client_tls_key[512];
    char client_tls_name[256]; /* [client] tls_name: the name the daemon's certificate carries */
    const char *home;          /* $HOME (NULL when unset): the demo's default cache is under it */
} cli_settings;

/* Defaults, then the file (NULL: CUZK_CONFIG when set, else none), then the environment.
 * Returns 0, or 2 after printing what was wrong (file, line, key). */
int cli_settings_load(const char *file);
const cli_settings *cli_settings_get(void);
/* The commented INI file with every key at its default (`cuzk config --print-defaults`) or at
 * its current value. */
void cli_settings_print(FILE *out, bool defaults);
/* The environment overrides, a line each (`cuzk --help-env`). */
void cli_settings_print_env(FILE *out);

/* The CLI's thread pool: made with the configured thread count and bound to the main thread
 * by main; cli_pool_resize replaces it (--threads). */
int cli_pool_start(void);
int cli_pool_resize(unsigned threads);
void cli_pool_stop(void);

/* The in-process engine every prove command runs through, with the configured [engine] keys,
 * the CLI's pool, and the GPUs only when gpu (else the CPU backend); job_log (may be NULL)
 * gets a JSON line per ended job. */
cuzk_status cli_engine_create(cuzk_engine **out, bool gpu, FILE *job_log) CUZK_WARN_UNUSED;
/* ... reporting its jobs' partitions to progress (cli_progress; NULL: none). */
cuzk_status cli_engine_create_progress(cuzk_engine **out, bool gpu, FILE *job_log,
                                       const cuzk_progress_sink *progress) CUZK_WARN_UNUSED;
/* The daemon's engine: the configured [engine] keys (GPUs as engine.gpus says), the CLI's
 * pool, official parameters from param_dir, each under an official name checked against its
 * published digest at its first load (the result kept in cache_dir), precompiled circuits kept
 * in cache_dir (NULL: in memory); test_params labels its status and job log (daemon.test_params). */
cuzk_status cli_engine_create_for_daemon(cuzk_engine **out, FILE *job_log, const char *param_dir, const char *cache_dir,
                                         bool test_params) CUZK_WARN_UNUSED;
/* Opens the configured GPU with the configured tuning. */
cuzk_status cli_gpu_open(cuzk_gpu_device **out) CUZK_WARN_UNUSED;

#endif

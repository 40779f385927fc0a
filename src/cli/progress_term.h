/* The CLI's progress line (progress_term.c): long work reported through cuzk/progress.h is drawn
 * as one line on stderr, redrawn in place, when stderr is a terminal and the command was given
 * neither --quiet nor --json. Logs, pipes and machine-read output never see it. */
#ifndef CUZK_CLI_PROGRESS_TERM_H
#define CUZK_CLI_PROGRESS_TERM_H

#include <stdbool.h>
#include <stddef.h>

#include "cuzk/progress.h"

/* The terminal's sink, or NULL (no progress) when quiet, json, or stderr is not a terminal. */
const cuzk_progress_sink *cli_progress(bool quiet, bool json);

/* The line drawn for one task (for tests and for the sink itself): label, done/total, percent,
 * elapsed time and, once a second has passed, an estimate of the time left; width 0: no bar. */
void cli_progress_format(char *out, size_t cap, const char *what, uint64_t done, uint64_t total, double elapsed_s,
                         bool finished, unsigned bar);

/* A duration as the progress line shows it: "4.2 s", "42 s", "3m07s", "2h05m". */
void cli_progress_time(char *out, size_t cap, double s);

#endif

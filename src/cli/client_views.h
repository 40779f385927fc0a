/* The client's views of a daemon's jobs (cuzk client jobs, top, and the line that prove and
 * await draw while they wait), all from GetStatus's job fields (cuzk_client_jobs). */
#ifndef CUZK_CLI_CLIENT_VIEWS_H
#define CUZK_CLI_CLIENT_VIEWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cuzk/server.h"

/* One job in a line: "proving (msm), 3/10 partitions, 1m02s, ~2m10s left" (its state when
 * ended: "COMPLETED in 3m12s"). */
void client_job_line(char *out, size_t cap, const cuzk_rpc_job *j);
/* A job's stage with the CPU prover's ("proving (msm)"), or its state once ended. */
void client_job_stage(char *out, size_t cap, const cuzk_rpc_job *j);
/* The jobs as a table (request id, kind, state/stage, partitions proved/total, elapsed, time
 * left), total: how many the daemon has (a line says when fewer are listed). */
void client_jobs_table(FILE *out, const cuzk_rpc_job *jobs, size_t n, size_t total);

/* cuzk client jobs: the table, or with json the jobs as one JSON array. Returns the exit status
 * (1 with the error printed when the call fails). */
int client_jobs(cuzk_client *c, const char *cmd, double deadline_s, bool json);
/* cuzk client top: a frame of the daemon's devices, circuits, queues and jobs every interval_s
 * seconds on a terminal (q or Ctrl-C ends it, the terminal restored); once, or stdout not a
 * terminal: one frame. addr: shown in the frame's title. Returns the exit status. */
int client_top(cuzk_client *c, const char *cmd, const char *addr, double deadline_s, double interval_s, bool once);

/* The line prove and await draw on stderr while they wait (client_wait.c): a thread asks
 * GetStatus for job_id each second and redraws it; nothing when stderr is no terminal or quiet.
 * Returns the waiter (NULL: none drawn). */
typedef struct client_wait client_wait;
client_wait *client_wait_start(cuzk_client *c, const char *job_id, bool quiet);
/* Stops the thread and clears the line. In: w (NULL: nothing is done). */
void client_wait_stop(client_wait *w);

#endif

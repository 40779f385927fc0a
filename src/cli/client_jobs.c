/* cuzk client jobs, and the lines every view of jobs shares (client_views.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/client_views.h"
#include "cli/progress_term.h"

static bool ended(const cuzk_rpc_job *j) { return !strcmp(j->stage, "ended"); }

void client_job_stage(char *out, size_t cap, const cuzk_rpc_job *j)
{
    if (ended(j)) snprintf(out, cap, "%s", j->state);
    else if (j->prove_stage[0]) snprintf(out, cap, "%s (%s)", j->stage, j->prove_stage);
    else snprintf(out, cap, "%s", j->stage);
}

/* The time left as a column shows it: "~2m10s", "?" when the daemon cannot tell yet, "-" once
 * ended. */
static void left_str(char *out, size_t cap, const cuzk_rpc_job *j)
{
    if (ended(j)) snprintf(out, cap, "-");
    else if (j->expected_left_ms < 0) snprintf(out, cap, "?");
    else {
        char t[32];
        cli_progress_time(t, sizeof t, (double)j->expected_left_ms / 1000);
        snprintf(out, cap, "~%s", t);
    }
}

void client_job_line(char *out, size_t cap, const cuzk_rpc_job *j)
{
    char stage[64], el[32], left[40], left_text[56];
    client_job_stage(stage, sizeof stage, j);
    cli_progress_time(el, sizeof el, (double)j->elapsed_ms / 1000);
    if (ended(j)) {
        snprintf(out, cap, "%s in %s", stage, el);
        return;
    }
    left_str(left, sizeof left, j);
    /* no estimate yet: said so rather than guessed */
    if (left[0] == '?') snprintf(left_text, sizeof left_text, "time left unknown");
    else snprintf(left_text, sizeof left_text, "%s left", left);
    if (j->partitions)
        snprintf(out, cap, "%s, %u/%u partition%s proved, %s, %s", stage, j->partitions_proved, j->partitions,
                 j->partitions == 1 ? "" : "s", el, left_text);
    else snprintf(out, cap, "%s, %s", stage, el);
}

void client_jobs_table(FILE *out, const cuzk_rpc_job *jobs, size_t n, size_t total)
{
    fprintf(out, "%-28s %-13s %-10s %-18s %-9s %-8s %s\n", "REQUEST ID", "KIND", "STATE", "STAGE", "PROVED", "ELAPSED",
            "LEFT");
    for (size_t i = 0; i < n; i++) {
        const cuzk_rpc_job *j = &jobs[i];
        char stage[64], parts[32], el[32], left[40], id[32];
        client_job_stage(stage, sizeof stage, j);
        if (ended(j)) snprintf(stage, sizeof stage, "ended");
        snprintf(parts, sizeof parts, "%u/%u", j->partitions_proved, j->partitions);
        cli_progress_time(el, sizeof el, (double)j->elapsed_ms / 1000);
        left_str(left, sizeof left, j);
        /* a long id keeps its end, where ids differ (Curio's end in the sector) */
        size_t len = strlen(j->job_id);
        if (len > 28) snprintf(id, sizeof id, "...%.25s", j->job_id + len - 25);
        else snprintf(id, sizeof id, "%.28s", j->job_id[0] ? j->job_id : "-");
        fprintf(out, "%-28s %-13s %-10s %-18s %-9s %-8s %s\n", id, j->proof_kind, j->state, stage, parts, el, left);
    }
    if (!n) fprintf(out, "(no jobs)\n");
    else if (total > n) fprintf(out, "(%zu of %zu jobs listed)\n", n, total);
}

int client_jobs(cuzk_client *c, const char *cmd, double deadline_s, bool json)
{
    if (json) {
        char *text = NULL;
        if (cuzk_client_jobs_json(c, NULL, deadline_s, &text, NULL)) return cli_error(cmd);
        puts(text);
        free(text);
        return 0;
    }
    cuzk_rpc_job *jobs = NULL;
    size_t n = 0, total = 0;
    if (cuzk_client_jobs(c, NULL, deadline_s, &jobs, &n, &total, NULL)) return cli_error(cmd);
    client_jobs_table(stdout, jobs, n, total);
    free(jobs);
    return 0;
}

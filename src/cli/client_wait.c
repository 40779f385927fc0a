/* The line `cuzk client prove` and `cuzk client await` draw on stderr while the daemon works on
 * their job: a thread of its own asks GetStatus for the job each second (the waiting call stays
 * one Prove or AwaitProof, as without a terminal) and redraws "job ID: proving (msm), 3/10
 * partitions proved, 1m02s, ~2m10s left" in place; the line is cleared when the wait ends, before
 * the result is printed. A job the daemon does not list yet (a Prove's submit still on its way)
 * shows as being submitted. Only on a terminal, and never with --quiet. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cli/client_views.h"

#define POLL_S 1.0 /* between two GetStatus calls */

struct client_wait {
    cuzk_client *c;
    char job_id[256];
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool stop;
    bool drawn;
};

static void draw(client_wait *w, const char *line)
{
    struct winsize ws;
    unsigned width = ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20 ? ws.ws_col : 80;
    fprintf(stderr, "\r%.*s\033[K", (int)width - 1, line);
    fflush(stderr);
    w->drawn = true;
}

static void *wait_main(void *arg)
{
    client_wait *w = arg;
    pthread_mutex_lock(&w->mu);
    while (!w->stop) {
        pthread_mutex_unlock(&w->mu);
        cuzk_rpc_job *jobs = NULL;
        size_t n = 0;
        char line[700], what[400];
        int code = 0;
        if (!cuzk_client_jobs(w->c, w->job_id, POLL_S * 5, &jobs, &n, NULL, &code) && n == 1) {
            client_job_line(what, sizeof what, &jobs[0]);
            snprintf(line, sizeof line, "job %s: %s", w->job_id, what);
        } else {
            snprintf(line, sizeof line, "job %s: %s", w->job_id,
                     code == 5 /* NOT_FOUND */ ? "being submitted" : "no status from the daemon");
        }
        free(jobs);
        pthread_mutex_lock(&w->mu);
        if (w->stop) break;
        draw(w, line);
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += (time_t)POLL_S;
        while (!w->stop && pthread_cond_timedwait(&w->cv, &w->mu, &until) == 0) {}
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

client_wait *client_wait_start(cuzk_client *c, const char *job_id, bool quiet)
{
    if (quiet || !isatty(STDERR_FILENO) || !job_id || !job_id[0]) return NULL;
    client_wait *w = calloc(1, sizeof *w);
    if (!w) return NULL; /* the wait goes on without its line */
    w->c = c;
    snprintf(w->job_id, sizeof w->job_id, "%s", job_id);
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    if (pthread_create(&w->thread, NULL, wait_main, w)) {
        pthread_cond_destroy(&w->cv);
        pthread_mutex_destroy(&w->mu);
        free(w);
        return NULL;
    }
    return w;
}

void client_wait_stop(client_wait *w)
{
    if (!w) return;
    pthread_mutex_lock(&w->mu);
    w->stop = true;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    if (w->drawn) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
    free(w);
}

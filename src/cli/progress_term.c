/* The progress line on a terminal (progress_term.h).
 *
 * Every task that reports is kept in a small table (by its label's address, unique while the
 * task lives); the line shows them all, the newest last, cut to the terminal's width, and is
 * redrawn in place with \r. stdout is flushed before each draw, so a line the command printed
 * is never split by the progress line.
 *
 * At its end a task that ran for a second or more leaves its final line (label, count, time
 * taken) on the terminal, and a shorter one is cleared: the long steps are the ones a user
 * waited for and may want to compare, while a trail of sub-second steps would only push the
 * command's own output off the screen. */
#include "cli/progress_term.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define MAX_TASKS 8
#define KEEP_S 1.0 /* tasks at least this long leave their final line */

typedef struct {
    const char *key;
    char what[CUZK_PROGRESS_WHAT_MAX];
    uint64_t done, total;
    double elapsed;
} term_task;

static pthread_mutex_t term_mu = PTHREAD_MUTEX_INITIALIZER;
static term_task tasks[MAX_TASKS];
static unsigned ntasks;
static bool drawn; /* a live line is on the terminal */

/* 1234 -> "1234", 123456 -> "123.5k", 2687921 -> "2.69M", ... */
static void count_str(char *out, size_t cap, uint64_t n)
{
    if (n < 100000) snprintf(out, cap, "%llu", (unsigned long long)n);
    else if (n < 1000000) snprintf(out, cap, "%.1fk", (double)n / 1e3);
    else if (n < 1000000000) snprintf(out, cap, "%.2fM", (double)n / 1e6);
    else snprintf(out, cap, "%.2fG", (double)n / 1e9);
}

void cli_progress_time(char *out, size_t cap, double s)
{
    if (s < 10) snprintf(out, cap, "%.1f s", s);
    else if (s < 60) snprintf(out, cap, "%.0f s", s);
    else if (s < 3600) snprintf(out, cap, "%um%02us", (unsigned)s / 60, (unsigned)s % 60);
    else snprintf(out, cap, "%uh%02um", (unsigned)(s / 3600), (unsigned)s % 3600 / 60);
}

void cli_progress_format(char *out, size_t cap, const char *what, uint64_t done, uint64_t total, double elapsed_s,
                         bool finished, unsigned bar)
{
    char d[32], t[32], el[32], left[48] = "", pct[16] = "", bars[72] = "";
    count_str(d, sizeof d, done);
    count_str(t, sizeof t, total);
    cli_progress_time(el, sizeof el, elapsed_s);
    if (total) {
        double f = done >= total ? 1.0 : (double)done / (double)total;
        snprintf(pct, sizeof pct, "  %3.0f%%", f * 100);
        if (bar && bar + 3 < sizeof bars) {
            unsigned full = (unsigned)(f * bar + 0.5), k = 0;
            bars[k++] = ' ';
            bars[k++] = '[';
            for (unsigned i = 0; i < bar; i++) bars[k++] = i < full ? '#' : '.';
            bars[k++] = ']';
            bars[k] = 0;
        }
        /* the time left at the rate so far, once it means something */
        if (!finished && done && done < total && elapsed_s >= 1.0) {
            char l[32];
            cli_progress_time(l, sizeof l, elapsed_s * (double)(total - done) / (double)done);
            snprintf(left, sizeof left, ", ~%s left", l);
        }
    }
    if (total) snprintf(out, cap, "%s%s  %s/%s%s  %s%s%s", what, bars, d, t, pct, finished ? "in " : "", el, left);
    else if (done) snprintf(out, cap, "%s  %s  %s%s", what, d, finished ? "in " : "", el);
    else snprintf(out, cap, "%s  %s%s", what, finished ? "in " : "", el);
}

static unsigned term_width(void)
{
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20) return ws.ws_col;
    return 80;
}

/* Redraws the live line from the table, or clears it when no task is left (locked). */
static void redraw(void)
{
    unsigned width = term_width();
    char line[1024] = "";
    size_t n = 0;
    for (unsigned i = 0; i < ntasks && n + 4 < sizeof line; i++) {
        const term_task *t = &tasks[i];
        char one[256];
        cli_progress_format(one, sizeof one, t->what, t->done, t->total, t->elapsed, false, ntasks == 1 ? 20 : 0);
        if (ntasks == 1 && strlen(one) > width - 1) /* the bar gives way first */
            cli_progress_format(one, sizeof one, t->what, t->done, t->total, t->elapsed, false, 0);
        n += (size_t)snprintf(line + n, sizeof line - n, "%s%s", i ? " | " : "", one);
    }
    if (n >= sizeof line) n = sizeof line - 1;
    if (n > width - 1) n = width - 1; /* one line, never wrapped */
    line[n] = 0;
    if (!ntasks && !drawn) return;
    fprintf(stderr, "\r%s\033[K", line);
    drawn = ntasks > 0;
    if (!drawn) fputc('\r', stderr);
    fflush(stderr);
}

static void term_report(void *ctx, const char *what, uint64_t done, uint64_t total, double elapsed_s, bool finished)
{
    (void)ctx;
    pthread_mutex_lock(&term_mu);
    fflush(stdout); /* what the command printed comes first, whole */
    unsigned i = 0;
    while (i < ntasks && tasks[i].key != what) i++;
    if (i == ntasks && !finished) {
        if (ntasks == MAX_TASKS) { /* full: the oldest gives way */
            memmove(&tasks[0], &tasks[1], (MAX_TASKS - 1) * sizeof tasks[0]);
            i = --ntasks;
        }
        ntasks++;
        tasks[i].key = what;
        snprintf(tasks[i].what, sizeof tasks[i].what, "%s", what);
    }
    if (finished) {
        if (i < ntasks) {
            memmove(&tasks[i], &tasks[i + 1], (ntasks - i - 1) * sizeof tasks[0]);
            ntasks--;
        }
        if (elapsed_s >= KEEP_S) {
            char one[256];
            cli_progress_format(one, sizeof one, what, done, total, elapsed_s, true, 0);
            fprintf(stderr, "\r%s\033[K\n", one);
            drawn = false;
        }
    } else {
        tasks[i].done = done;
        tasks[i].total = total;
        tasks[i].elapsed = elapsed_s;
    }
    redraw();
    pthread_mutex_unlock(&term_mu);
}

static const cuzk_progress_sink term_sink = {term_report, NULL};

const cuzk_progress_sink *cli_progress(bool quiet, bool json)
{
    if (quiet || json || !isatty(STDERR_FILENO)) return NULL;
    return &term_sink;
}

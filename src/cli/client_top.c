/* cuzk client top: a live view of a daemon on a terminal, redrawn every --interval seconds
 * from GetStatus (devices and their jobs, circuits and where they are, queues, the jobs'
 * progress). On a terminal it draws on the alternate screen with the cursor hidden and the
 * keyboard read key by key, and gives all three back however it ends (q, Ctrl-C, a failed
 * call); elsewhere (a pipe, a file, --once) it prints one frame and exits. */
#include <errno.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/client_views.h"
#include "cli/progress_term.h"
#include "cuzk/base.h"

static const char *str(json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

static double num(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    return json_is_number(v) ? json_number_value(v) : 0;
}

static double gib(double bytes) { return bytes / (1024.0 * 1024 * 1024); }

/* One frame of the daemon's status (the JSON of cuzk_client_status) and its jobs into f. */
static void frame(FILE *f, json_t *st, const cuzk_rpc_job *jobs, size_t n, size_t total)
{
    json_t *v;
    size_t i;
    fputs("devices\n", f);
    json_t *gpus = json_object_get(st, "gpus");
    json_array_foreach(gpus, i, v)
    {
        char busy[240];
        if (str(v, "current_job_id")[0])
            snprintf(busy, sizeof busy, "busy: %s (%s)", str(v, "current_job_id"), str(v, "current_proof_kind"));
        else snprintf(busy, sizeof busy, "idle");
        fprintf(f, "  GPU %d  %-24.24s  %-40s  memory %.1f GiB free of %.1f GiB\n", (int)num(v, "ordinal"),
                str(v, "name"), busy, gib(num(v, "vram_free_bytes")), gib(num(v, "vram_total_bytes")));
    }
    if (!json_array_size(gpus)) fputs("  no GPU: the CPU backend proves (its jobs below)\n", f);
    fputs("circuits\n", f);
    json_t *srs = json_object_get(st, "loaded_srs");
    json_array_foreach(srs, i, v)
    {
        fprintf(f, "  %-14s %-5s %8.2f GiB  %u job%s", str(v, "circuit_id"), str(v, "tier"), gib(num(v, "size_bytes")),
                (unsigned)num(v, "ref_count"), (unsigned)num(v, "ref_count") == 1 ? " " : "s");
        if (str(v, "placement")[0]) fprintf(f, "  %s", str(v, "placement"));
        fputc('\n', f);
    }
    if (!json_array_size(srs)) fputs("  none loaded\n", f);
    fputs("queues\n", f);
    json_array_foreach(json_object_get(st, "queues"), i, v)
        fprintf(f, "  %-14s %4u queued %4u running\n", str(v, "proof_kind"), (unsigned)num(v, "pending"),
                (unsigned)num(v, "in_progress"));
    fprintf(f, "  completed %.0f, failed %.0f since the daemon started\n", num(st, "total_proofs_completed"),
            num(st, "total_proofs_failed"));
    fputs("jobs\n", f);
    client_jobs_table(f, jobs, n, total);
}

/* The frame's text (malloc'd), or NULL with the error set when a call fails. */
static char *frame_text(cuzk_client *c, const char *addr, double deadline_s, double interval_s, bool live)
{
    char *json = NULL;
    cuzk_rpc_job *jobs = NULL;
    size_t n = 0, total = 0;
    if (cuzk_client_status(c, deadline_s, &json, NULL) ||
        cuzk_client_jobs(c, NULL, deadline_s, &jobs, &n, &total, NULL)) {
        free(json);
        return NULL;
    }
    json_error_t err;
    json_t *st = json_loads(json, 0, &err);
    free(json);
    char *text = NULL;
    size_t len = 0;
    FILE *f = st ? open_memstream(&text, &len) : NULL;
    if (f) {
        char up[32], every[32];
        cli_progress_time(up, sizeof up, num(st, "uptime_seconds"));
        cli_progress_time(every, sizeof every, interval_s);
        fprintf(f, "cuzk daemon %s, up %s", addr, up);
        if (live) fprintf(f, ", every %s (q quits)", every);
        fputc('\n', f);
        frame(f, st, jobs, n, total);
        if (fclose(f)) {
            free(text);
            text = NULL;
        }
    }
    json_decref(st);
    free(jobs);
    if (!text) cuzk_fail(CUZK_ENOMEM, "out of memory for a frame");
    return text;
}

/* Set by SIGINT and SIGTERM while the live view runs: a signal can only reach the loop through
 * process-wide state, and the handler only sets this. */
static volatile sig_atomic_t stop_asked;
static void on_stop(int sig)
{
    (void)sig;
    stop_asked = 1;
}

/* Writes text cut to the terminal's width, each line ending in erase-to-end-of-line. */
static void draw(const char *text)
{
    struct winsize ws;
    unsigned width = ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20 ? ws.ws_col : 80;
    unsigned rows = ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row >= 5 ? ws.ws_row : 1000;
    fputs("\033[H", stdout);
    unsigned row = 0;
    for (const char *p = text; *p && row + 1 < rows; row++) {
        size_t len = strcspn(p, "\n");
        fprintf(stdout, "%.*s\033[K\n", (int)(len < width ? len : width - 1), p);
        p += len + (p[len] == '\n');
    }
    fputs("\033[J", stdout);
    fflush(stdout);
}

int client_top(cuzk_client *c, const char *cmd, const char *addr, double deadline_s, double interval_s, bool once)
{
    bool live = !once && isatty(STDOUT_FILENO);
    if (!live) {
        char *text = frame_text(c, addr, deadline_s, interval_s, false);
        if (!text) return cli_error(cmd);
        fputs(text, stdout);
        free(text);
        return 0;
    }
    /* the keyboard key by key, without echo, where stdin is the terminal */
    struct termios saved;
    bool tty_in = isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &saved) == 0;
    if (tty_in) {
        struct termios raw = saved;
        raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
        raw.c_cc[VMIN] = 0;
        raw.c_cc[VTIME] = 0;
        tcsetattr(STDIN_FILENO, TCSANOW, &raw);
    }
    struct sigaction sa = {0}, old_int, old_term;
    sa.sa_handler = on_stop; /* no SA_RESTART: the wait below returns at once */
    sigemptyset(&sa.sa_mask);
    stop_asked = 0;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    fputs("\033[?1049h\033[?25l\033[2J", stdout); /* the alternate screen, the cursor hidden */
    int rc = 0;
    while (!stop_asked) {
        char *text = frame_text(c, addr, deadline_s, interval_s, true);
        if (!text) {
            rc = 1;
            break;
        }
        draw(text);
        free(text);
        /* wait for the next frame, a key or a signal */
        double end = cuzk_now() + interval_s;
        bool quit = false;
        while (!stop_asked && !quit && cuzk_now() < end) {
            struct pollfd p = {STDIN_FILENO, POLLIN, 0};
            int ms = (int)((end - cuzk_now()) * 1000) + 1;
            int r = poll(&p, tty_in ? 1 : 0, ms);
            if (r > 0 && (p.revents & POLLIN)) {
                char key;
                if (read(STDIN_FILENO, &key, 1) == 1) quit = key == 'q' || key == 'Q' || key == 3 /* ^C */;
                else quit = true; /* end of input */
            } else if (r < 0 && errno != EINTR) break;
        }
        if (quit) break;
    }
    fputs("\033[?25h\033[?1049l", stdout); /* the cursor and the screen given back */
    fflush(stdout);
    if (tty_in) tcsetattr(STDIN_FILENO, TCSANOW, &saved);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (rc) return cli_error(cmd); /* after the screen is back, so that the error stays */
    return 0;
}

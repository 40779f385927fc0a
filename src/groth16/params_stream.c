/* .params files read as a stream: the verifying key and the section layout first (from the
 * counts, each checked against the file's size), then the query points piece by piece. A reader
 * thread keeps up to SLOTS pieces read ahead (pread, so nothing of the file is mapped: a mapped
 * 47 GB file would count twice in the resident set beside its decoded points) while the calling
 * thread decodes one in parallel and hands it to the sink. Decoding is the same as the whole-file
 * parser's: on-curve always, the subgroup unless the file is trusted, never infinity. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/groth16.h"

#define G1_BYTES 96
#define G2_BYTES 192
#define VK_FIXED_BYTES (3 * G1_BYTES + 3 * G2_BYTES) /* alpha, beta, beta2, gamma2, delta, delta2 */
#define PIECE_BYTES (48u << 20)                      /* a multiple of both point sizes */
#define SLOTS 3

static const char *const section_names[CUZK_PARAMS_SECTIONS] = {"h", "l", "a", "b_g1", "b_g2"};

const char *cuzk_groth16_section_name(int section)
{
    return section >= 0 && section < CUZK_PARAMS_SECTIONS ? section_names[section] : "?";
}

/* Reads exactly n bytes at off; a short read means the file shrank after it was opened. */
static cuzk_status read_at(const cuzk_groth16_params_file *f, void *buf, size_t n, uint64_t off, const char *what)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(f->fd, (uint8_t *)buf + got, n - got, (off_t)(off + got));
        if (r < 0 && errno == EINTR) continue;
        if (r < 0)
            return cuzk_fail(CUZK_EIO, "%s: cannot read %s at offset %llu: %s", f->path, what,
                             (unsigned long long)(off + got), strerror(errno));
        if (r == 0)
            return cuzk_fail(CUZK_EFORMAT, "%s: truncated at offset %llu while reading %s (the file shrank?)", f->path,
                             (unsigned long long)(off + got), what);
        got += (size_t)r;
    }
    return CUZK_OK;
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static cuzk_status read_vk(cuzk_groth16_params_file *f, uint64_t *end)
{
    uint8_t head[VK_FIXED_BYTES + 4];
    if (f->file_bytes < sizeof head) {
        /* the whole-buffer parser names the missing element */
        uint8_t small[sizeof head];
        cuzk_status st = read_at(f, small, (size_t)f->file_bytes, 0, "the verifying key");
        if (!st) st = cuzk_groth16_params_parse(&(cuzk_groth16_params){0}, small, (size_t)f->file_bytes, f->path, 0);
        return st ? st : cuzk_fail(CUZK_EFORMAT, "%s: truncated verifying key", f->path);
    }
    cuzk_status st = read_at(f, head, sizeof head, 0, "the verifying key");
    if (st) return st;
    uint64_t n = be32(head + VK_FIXED_BYTES);
    uint64_t vk_bytes = sizeof head + n * G1_BYTES;
    if (vk_bytes > f->file_bytes) vk_bytes = f->file_bytes; /* the parser reports the shortfall */
    uint8_t *buf = malloc((size_t)vk_bytes);
    if (!buf) return CUZK_ENOMEM;
    st = read_at(f, buf, (size_t)vk_bytes, 0, "the verifying key");
    size_t used = 0;
    if (!st) st = cuzk_groth16_vk_parse(&f->vk, buf, (size_t)vk_bytes, &used);
    free(buf);
    if (st) return cuzk_fail_context(st, "%s", f->path);
    *end = used;
    return CUZK_OK;
}

cuzk_status cuzk_groth16_params_open(cuzk_groth16_params_file *f, const char *path)
{
    memset(f, 0, sizeof *f);
    f->fd = -1;
    f->path = strdup(path);
    if (!f->path) return CUZK_ENOMEM;
    cuzk_status st = cuzk_open_input_file(path, &f->fd, &f->file_bytes);
    uint64_t pos = 0;
    if (!st) st = read_vk(f, &pos);
    for (int k = 0; k < CUZK_PARAMS_SECTIONS && !st; k++) {
        uint64_t psize = k == CUZK_PARAMS_B_G2 ? G2_BYTES : G1_BYTES;
        uint8_t cnt[4];
        if (f->file_bytes - pos < 4) {
            st = cuzk_fail(CUZK_EFORMAT, "%s: truncated at offset %llu: missing the %s count (file is %llu bytes)",
                           path, (unsigned long long)pos, section_names[k], (unsigned long long)f->file_bytes);
            break;
        }
        if ((st = read_at(f, cnt, 4, pos, "a section count"))) break;
        uint64_t n = be32(cnt);
        pos += 4;
        if (n > (f->file_bytes - pos) / psize) {
            st = cuzk_fail(CUZK_EFORMAT,
                           "%s: section %s claims %llu points (%llu bytes) at offset %llu but only %llu bytes remain",
                           path, section_names[k], (unsigned long long)n, (unsigned long long)(n * psize),
                           (unsigned long long)pos, (unsigned long long)(f->file_bytes - pos));
            break;
        }
        f->count[k] = (size_t)n;
        f->offset[k] = pos;
        pos += n * psize;
    }
    if (!st && pos != f->file_bytes)
        st = cuzk_fail(CUZK_EFORMAT, "%s: %llu unexpected bytes after b_g2 (which ends at offset %llu)", path,
                       (unsigned long long)(f->file_bytes - pos), (unsigned long long)pos);
    if (!st && f->count[CUZK_PARAMS_B_G1] != f->count[CUZK_PARAMS_B_G2])
        st = cuzk_fail(CUZK_EFORMAT, "%s: b_g1 has %zu points but b_g2 has %zu", path, f->count[CUZK_PARAMS_B_G1],
                       f->count[CUZK_PARAMS_B_G2]);
    if (st) cuzk_groth16_params_close(f);
    else (void)posix_fadvise(f->fd, 0, 0, POSIX_FADV_SEQUENTIAL); /* a larger read-ahead */
    return st;
}

void cuzk_groth16_params_close(cuzk_groth16_params_file *f)
{
    if (f->fd >= 0) close(f->fd);
    cuzk_groth16_vk_free(&f->vk);
    free(f->path);
    memset(f, 0, sizeof *f);
    f->fd = -1;
}

/* ---------------------------------------------------------------- the stream */
typedef struct {
    uint8_t *raw;
    int section;
    size_t first, n; /* points */
    bool full;
} piece;

typedef struct {
    cuzk_groth16_params_file *f;
    piece slot[SLOTS];
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool stop, done;    /* stop: the consumer gave up; done: the reader read everything */
    cuzk_status status; /* the reader's failure, with its message copied */
    char msg[512];
    double read_s;
} stream;

static void *reader_main(void *arg)
{
    stream *s = arg;
    cuzk_groth16_params_file *f = s->f;
    unsigned next = 0;
    cuzk_status st = CUZK_OK;
    for (int k = 0; k < CUZK_PARAMS_SECTIONS && !st; k++) {
        size_t psize = k == CUZK_PARAMS_B_G2 ? G2_BYTES : G1_BYTES, per = PIECE_BYTES / psize;
        for (size_t first = 0; first < f->count[k] && !st; first += per) {
            piece *p = &s->slot[next];
            pthread_mutex_lock(&s->mu);
            while (p->full && !s->stop) pthread_cond_wait(&s->cv, &s->mu);
            bool stop = s->stop;
            pthread_mutex_unlock(&s->mu);
            if (stop) return NULL;
            size_t n = f->count[k] - first < per ? f->count[k] - first : per;
            double t0 = cuzk_now();
            st = read_at(f, p->raw, n * psize, f->offset[k] + first * psize, section_names[k]);
            s->read_s += cuzk_now() - t0;
            pthread_mutex_lock(&s->mu);
            if (st) {
                s->status = st;
                snprintf(s->msg, sizeof s->msg, "%s", cuzk_last_error());
            } else {
                p->section = k;
                p->first = first;
                p->n = n;
                p->full = true;
            }
            pthread_cond_broadcast(&s->cv);
            pthread_mutex_unlock(&s->mu);
            next = (next + 1) % SLOTS;
        }
    }
    pthread_mutex_lock(&s->mu);
    s->done = true;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

typedef struct {
    const uint8_t *src;
    void *dst;
    int g2, flags;
    atomic_size_t first_bad;
} decode_ctx;

static void decode_range(void *vctx, size_t b, size_t e, unsigned tid)
{
    (void)tid;
    decode_ctx *c = vctx;
    for (size_t i = b; i < e; i++) {
        cuzk_status st = c->g2
            ? cuzk_g2_decode((blst_p2_affine *)c->dst + i, c->src + i * G2_BYTES, G2_BYTES, c->flags)
            : cuzk_g1_decode((blst_p1_affine *)c->dst + i, c->src + i * G1_BYTES, G1_BYTES, c->flags);
        if (st) {
            size_t cur = atomic_load(&c->first_bad);
            while (i < cur && !atomic_compare_exchange_weak(&c->first_bad, &cur, i)) {}
            return;
        }
    }
}

/* Decodes piece p into dst; the first bad point is decoded again on this thread for its message. */
static cuzk_status decode_piece(const cuzk_groth16_params_file *f, const piece *p, void *dst, int flags)
{
    int g2 = p->section == CUZK_PARAMS_B_G2;
    size_t psize = g2 ? G2_BYTES : G1_BYTES;
    decode_ctx c = {p->raw, dst, g2, flags, SIZE_MAX};
    cuzk_parallel_for(p->n, 256, decode_range, &c);
    size_t bad = atomic_load(&c.first_bad);
    if (bad == SIZE_MAX) return CUZK_OK;
    uint8_t tmp[sizeof(blst_p2_affine)];
    cuzk_status st = g2 ? cuzk_g2_decode((blst_p2_affine *)tmp, c.src + bad * psize, psize, flags)
                        : cuzk_g1_decode((blst_p1_affine *)tmp, c.src + bad * psize, psize, flags);
    return cuzk_fail_context(st, "%s: %s[%zu] at offset %llu", f->path, section_names[p->section], p->first + bad,
                             (unsigned long long)(f->offset[p->section] + (p->first + bad) * psize));
}

cuzk_status cuzk_groth16_params_stream(cuzk_groth16_params_file *f, int flags, const cuzk_groth16_points_sink *sink,
                                       double *read_s)
{
    int qflags = (flags & CUZK_PARAMS_UNCHECKED ? CUZK_POINT_UNCHECKED : CUZK_POINT_CHECKED) | CUZK_POINT_NO_INFINITY;
    stream s = {.f = f};
    pthread_mutex_init(&s.mu, NULL);
    pthread_cond_init(&s.cv, NULL);
    /* decoded points are the same size as the file's uncompressed ones */
    uint8_t *own = NULL;
    cuzk_status st = CUZK_OK;
    for (int i = 0; i < SLOTS && !st; i++)
        if (!(s.slot[i].raw = malloc(PIECE_BYTES))) st = CUZK_ENOMEM;
    if (!st && !(own = malloc(PIECE_BYTES))) st = CUZK_ENOMEM;
    pthread_t th;
    bool started = !st && pthread_create(&th, NULL, reader_main, &s) == 0;
    if (!st && !started) st = cuzk_fail(CUZK_EINTERNAL, "cannot start a thread to read %s", f->path);
    unsigned next = 0;
    while (!st) {
        piece *p = &s.slot[next];
        pthread_mutex_lock(&s.mu);
        while (!p->full && !s.status && !s.done) pthread_cond_wait(&s.cv, &s.mu);
        bool have = p->full;
        if (!have && s.status) st = cuzk_fail(s.status, "%s", s.msg);
        pthread_mutex_unlock(&s.mu);
        if (!have) break; /* done (or failed) */
        void *dst = sink->dest ? sink->dest(sink->ctx, p->section, p->first, p->n) : NULL;
        if (!dst) dst = own;
        st = decode_piece(f, p, dst, qflags);
        if (!st) st = sink->points(sink->ctx, p->section, p->first, p->n, dst);
        pthread_mutex_lock(&s.mu);
        p->full = false;
        pthread_cond_broadcast(&s.cv);
        pthread_mutex_unlock(&s.mu);
        next = (next + 1) % SLOTS;
    }
    if (started) {
        pthread_mutex_lock(&s.mu);
        s.stop = true;
        pthread_cond_broadcast(&s.cv);
        pthread_mutex_unlock(&s.mu);
        pthread_join(th, NULL);
    }
    if (read_s) *read_s = s.read_s;
    for (int i = 0; i < SLOTS; i++) free(s.slot[i].raw);
    free(own);
    pthread_mutex_destroy(&s.mu);
    pthread_cond_destroy(&s.cv);
    return st;
}

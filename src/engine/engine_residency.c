/* Circuits and where they live. A circuit's parameters and precompiled circuit are in tiers:
 * on disk (nothing loaded), in host memory (what the CPU backend proves with and the GPUs are
 * loaded from), and on each GPU (the prover's resident parameters and the circuit's matrices).
 * Loads run on threads of their own, never under the engine's lock, so a 44 GiB parameter
 * load holds up neither intake nor other jobs' proving; the jobs that need the circuit wait.
 * Room is made under the host and device budgets by evicting idle circuits, least recently
 * used first; what each tier holds is measured from its allocations once loaded. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/filecoin.h"
#include "engine_internal.h"

engine_circuit *res_find(cuzk_engine *e, const char *id)
{
    ENGINE_LOCKED(e);
    for (engine_circuit *c = e->circuits; c; c = c->next)
        if (!strcmp(c->id, id)) return c;
    return NULL;
}

static uint64_t file_bytes(const char *path)
{
    struct stat sb;
    return path && stat(path, &sb) == 0 && S_ISREG(sb.st_mode) ? (uint64_t)sb.st_size : 0;
}

static char *pce_cache_path(const cuzk_engine *e, const char *id)
{
    if (!e->cache_dir) return NULL;
    size_t n = strlen(e->cache_dir) + strlen(id) + 16;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/%s.pce", e->cache_dir, id);
    return p;
}

static engine_circuit *new_circuit(cuzk_engine *e, const char *id)
{
    ENGINE_LOCKED(e);
    engine_circuit *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    snprintf(c->id, sizeof c->id, "%s", id);
    c->last_used = cuzk_now();
    c->next = e->circuits;
    e->circuits = c;
    return c;
}

static char *dup_opt(const char *s) { return s ? strdup(s) : NULL; }

cuzk_status cuzk_engine_register_circuit(cuzk_engine *e, const cuzk_engine_circuit *reg)
{
    if (!reg->id || !reg->id[0] || strlen(reg->id) >= 64)
        return cuzk_fail(CUZK_EINVAL, "a circuit id is 1 to 63 characters");
    if (!reg->open) return cuzk_fail(CUZK_EINVAL, "circuit %s: no open function", reg->id);
    if (!reg->synthetic && !reg->params_path)
        return cuzk_fail(CUZK_EINVAL, "circuit %s: parameters needed (a file, or synthetic)", reg->id);
    engine_mutex_lock(&e->mu);
    cuzk_status st = CUZK_OK;
    engine_circuit *c = NULL;
    if (builtin_reserved(reg->id) || res_find(e, reg->id))
        st = cuzk_fail(CUZK_EINVAL, "circuit id %s is taken", reg->id);
    else if (!(c = new_circuit(e, reg->id))) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
    if (c) {
        c->reg = *reg;
        c->reg.id = c->id;
        c->params_path = dup_opt(reg->params_path);
        c->vk_path = dup_opt(reg->vk_path);
        c->pce_path = reg->pce_path ? strdup(reg->pce_path) : pce_cache_path(e, reg->id);
        c->synthetic = reg->synthetic;
        c->check_params = reg->check_params;
        c->reg.params_path = c->params_path;
        c->reg.vk_path = c->vk_path;
        c->reg.pce_path = c->pce_path;
    }
    engine_mutex_unlock(&e->mu);
    return st;
}

cuzk_status res_get_builtin(cuzk_engine *e, const builtin_family *f, uint64_t proof, engine_circuit **out)
{
    ENGINE_LOCKED(e);
    char id[64];
    f->id(id, proof);
    engine_circuit *c = res_find(e, id);
    if (!c) {
        const char *dir = e->param_dir ? e->param_dir : cuzk_param_dir_default();
        char stem[CUZK_PARAM_STEM_MAX];
        f->stem(stem, proof);
        size_t n = strlen(dir) + strlen(stem) + 16;
        char *params = malloc(n), *vk = malloc(n);
        if (!params || !vk || !(c = new_circuit(e, id))) {
            free(params);
            free(vk);
            return cuzk_fail(CUZK_ENOMEM, "out of memory");
        }
        snprintf(params, n, "%s/%s.params", dir, stem);
        snprintf(vk, n, "%s/%s.vk", dir, stem);
        /* the official files; a missing one fails the load with the file named */
        c->builtin = f;
        c->proof = proof;
        c->params_path = params;
        c->vk_path = vk;
        c->pce_path = pce_cache_path(e, id);
    }
    *out = c;
    return CUZK_OK;
}

engine_circuit *res_by_id(cuzk_engine *e, const char *id)
{
    ENGINE_LOCKED(e);
    engine_circuit *c = res_find(e, id);
    if (c) return c;
    uint64_t p;
    const builtin_family *f = builtin_of_id(id, &p);
    cuzk_clear_error();
    return f && !res_get_builtin(e, f, p, &c) ? c : NULL;
}

static cuzk_status replace(char **dst, const char *v)
{
    if (!v) return CUZK_OK;
    char *n = strdup(v);
    if (!n) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    free(*dst);
    *dst = n;
    return CUZK_OK;
}

cuzk_status cuzk_engine_set_files(cuzk_engine *e, const char *circuit, const char *params_path, const char *vk_path,
                                  const char *pce_path)
{
    cuzk_status st = engine_enter(e);
    if (st) return st;
    uint64_t proof;
    engine_circuit *c = builtin_of_id(circuit, &proof) ? res_by_id(e, circuit) : NULL;
    if (!c) st = cuzk_fail(CUZK_EINVAL, "%s is not a built-in circuit", circuit);
    else if (!st && (c->host_ready || c->host_loading))
        st = cuzk_fail(CUZK_EINVAL, "%s is loaded already: evict it first", circuit);
    if (!st) st = replace(&c->params_path, params_path);
    if (!st && params_path && !vk_path) { /* the parameters' own key */
        free(c->vk_path);
        c->vk_path = NULL;
    }
    if (!st && vk_path) st = replace(&c->vk_path, vk_path);
    if (!st) st = replace(&c->pce_path, pce_path);
    engine_leave(e);
    return st;
}

/* ---------------------------------------------------------------- sizes */
static uint64_t params_host_bytes(const cuzk_groth16_params *p)
{
    return (uint64_t)(p->h_len + p->l_len + p->a_len + p->b_g1_len + p->vk.ic_len) * sizeof(blst_p1_affine) +
        (uint64_t)p->b_g2_len * sizeof(blst_p2_affine);
}

static uint64_t pce_host_bytes(const cuzk_pce *p)
{
    uint64_t b = (uint64_t)p->ncoeffs * sizeof(cuzk_fr);
    for (int k = 0; k < 3; k++) b += (uint64_t)(p->num_constraints + 1) * 4 + (uint64_t)p->nnz[k] * 8;
    b += (p->num_aux * 2 + p->num_inputs) / 8;
    return b;
}

static uint64_t device_resident(const cuzk_engine *e, int di)
{
    ENGINE_LOCKED(e);
    uint64_t b = 0;
    for (const engine_circuit *c = e->circuits; c; c = c->next) b += c->dev[di].bytes;
    return b;
}

/* ---------------------------------------------------------------- eviction */
typedef struct {
    cuzk_groth16_params params;
    bool has_params;
    cuzk_groth16_vk vk;
    bool has_vk;
    cuzk_pce pce;
} host_garbage;

static void free_host_garbage(void *arg)
{
    host_garbage *g = arg;
    if (g->has_params) cuzk_groth16_params_free(&g->params);
    if (g->has_vk) cuzk_groth16_vk_free(&g->vk);
    cuzk_pce_free(&g->pce);
    free(g);
}

typedef struct {
    cuzk_gpu_prover *prover;
    cuzk_gpu_pce *pce;
} device_garbage;

static void free_device_garbage(void *arg)
{
    device_garbage *g = arg;
    cuzk_gpu_pce_destroy(g->pce);
    cuzk_gpu_prover_destroy(g->prover);
    free(g);
}

static uint64_t evict_device(cuzk_engine *e, engine_circuit *c, int di)
{
    ENGINE_LOCKED(e);
    circuit_on_device *cd = &c->dev[di];
    if (!cd->prover) return 0;
    uint64_t b = cd->bytes;
    device_garbage *g = calloc(1, sizeof *g);
    if (g) {
        g->prover = cd->prover;
        g->pce = cd->pce;
        reclaim_push(e, free_device_garbage, g, b, "a circuit's device memory");
    } else {
        free_device_garbage(&(device_garbage){cd->prover, cd->pce});
    }
    cd->prover = NULL;
    cd->pce = NULL;
    cd->bytes = 0;
    return b;
}

uint64_t res_evict_circuit(cuzk_engine *e, engine_circuit *c)
{
    ENGINE_LOCKED(e);
    uint64_t freed = 0;
    for (unsigned i = 0; i < e->ndev; i++) freed += evict_device(e, c, (int)i);
    if (c->host_ready) {
        host_garbage *g = calloc(1, sizeof *g);
        uint64_t hb = c->params_bytes + c->pce_bytes;
        if (g) {
            g->params = c->params;
            g->has_params = c->has_params;
            g->vk = c->vk;
            g->has_vk = c->has_vk;
            g->pce = c->pce;
            reclaim_push(e, free_host_garbage, g, hb, "a circuit's host memory");
        }
        memset(&c->params, 0, sizeof c->params);
        memset(&c->vk, 0, sizeof c->vk);
        memset(&c->pce, 0, sizeof c->pce);
        c->has_params = c->has_vk = false;
        c->host_ready = false;
        host_release(e, hb);
        freed += hb;
        c->params_bytes = c->pce_bytes = 0;
    }
    for (unsigned i = 0; i < e->ndev; i++) c->dev[i].unfit = false;
    return freed;
}

static bool idle(const engine_circuit *c)
{
    if (c->refs || c->host_loading || c->params_loading) return false;
    for (int i = 0; i < CUZK_ENGINE_MAX_DEVICES; i++)
        if (c->dev[i].loading || c->dev[i].busy) return false;
    return true;
}

static engine_circuit *lru_idle(cuzk_engine *e, const engine_circuit *keep, int di)
{
    ENGINE_LOCKED(e);
    engine_circuit *best = NULL;
    for (engine_circuit *c = e->circuits; c; c = c->next) {
        if (c == keep || !idle(c)) continue;
        if (di >= 0 ? !c->dev[di].prover : !c->host_ready) continue;
        if (!best || c->last_used < best->last_used) best = c;
    }
    return best;
}

bool res_make_host_room(cuzk_engine *e, uint64_t need, const engine_circuit *keep)
{
    ENGINE_LOCKED(e);
    while (e->host_used + need > e->host_budget) {
        engine_circuit *c = lru_idle(e, keep, -1);
        if (!c) return false;
        res_evict_circuit(e, c);
    }
    return true;
}

static bool make_device_room(cuzk_engine *e, int di, uint64_t need, const engine_circuit *keep)
{
    ENGINE_LOCKED(e);
    while (device_resident(e, di) + need > e->dev[di].budget) {
        engine_circuit *c = lru_idle(e, keep, di);
        if (!c) return false;
        evict_device(e, c, di);
    }
    return true;
}

/* ---------------------------------------------------------------- loaders */
typedef struct {
    cuzk_engine *e;
    engine_circuit *c;
    engine_job *job;    /* the job whose partition 0 gives the circuit (kept in flight), or NULL */
    cuzk_circuit *circ; /* partition 0, for recording the precompiled circuit */
    void *circ_state;   /* synthetic data behind circ (preload of a built-in circuit) */
    void (*circ_state_free)(void *);
    bool open_builtin; /* circ is a built-in circuit's synthetic data, made on the load thread */
    int dev;           /* -1: the host tier; else this device */
    loader *self;
} load_task;

static cuzk_status record_or_load_pce(load_task *t, cuzk_pce *pce, cuzk_timeline *tl)
{
    engine_circuit *c = t->c;
    if (c->pce_path && access(c->pce_path, F_OK) == 0 && !t->circ) return cuzk_pce_load(pce, c->pce_path);
    if (!t->circ) return cuzk_fail(CUZK_EINVAL, "%s: no precompiled circuit and nothing to record it from", c->id);
    if (c->pce_path) return cuzk_pce_load_or_record_progress(c->pce_path, t->circ, pce, tl, t->e->cfg.progress);
    return cuzk_pce_record_progress(t->circ, pce, tl, t->e->cfg.progress);
}

static void copy_vk(cuzk_groth16_vk *dst, const cuzk_groth16_vk *src)
{
    *dst = *src;
    dst->ic = cuzk_big_alloc(src->ic_len * sizeof *src->ic); /* as the reader allocates: vk_free unmaps it */
    if (dst->ic) memcpy(dst->ic, src->ic, src->ic_len * sizeof *src->ic);
    else dst->ic_len = 0;
}

/* A host load of c refused or failed with st (locked): remembered with its message (a preload
 * returns them) and every job waiting on c fails with msg. */
static void fail_jobs_of(cuzk_engine *e, engine_circuit *c, cuzk_status st, const char *msg)
{
    ENGINE_LOCKED(e);
    c->load_status = st;
    snprintf(c->load_error, sizeof c->load_error, "%s", msg);
    for (engine_job *j = e->jobs; j; j = j->next) {
        if (!engine_job_live(j) || j->circ != c) continue;
        engine_job_fail(e, j, "%s", msg);
        sched_drop_ready_of(e, j);
        sched_maybe_finish(e, j);
    }
}

/* A missing parameter or key file fails the load at once, before minutes of recording the
 * precompiled circuit (a 32 GiB circuit's) are spent. */
static cuzk_status check_files(const engine_circuit *c)
{
    const char *paths[2] = {c->synthetic ? NULL : c->params_path, c->synthetic ? NULL : c->vk_path};
    for (int i = 0; i < 2; i++) {
        struct stat sb;
        if (!paths[i]) continue;
        if (stat(paths[i], &sb) != 0) return cuzk_fail(CUZK_EIO, "cannot open %s: %s", paths[i], strerror(errno));
        if (!S_ISREG(sb.st_mode)) return cuzk_fail(CUZK_EIO, "cannot open %s: not a regular file", paths[i]);
    }
    return CUZK_OK;
}

/* The counts of the parameters (ic_len, l_len) and the key against the circuit's. */
static cuzk_status check_counts(const engine_circuit *c, const char *path, size_t ic_len, size_t l_len,
                                const cuzk_groth16_vk *vk, const cuzk_pce *pce)
{
    if (ic_len != pce->num_inputs)
        return cuzk_fail(CUZK_EINVAL, "%s: parameters for %zu public inputs, but the circuit %s has %zu%s", path,
                         ic_len ? ic_len - 1 : 0, c->id, pce->num_inputs ? pce->num_inputs - 1 : 0,
                         c->builtin ? " (wrong sector size or proof type for these parameters?)" : "");
    if (l_len != pce->num_aux)
        return cuzk_fail(CUZK_EINVAL, "%s: parameters for %zu private values, but the circuit %s has %zu", path, l_len,
                         c->id, pce->num_aux);
    if (vk && vk->ic_len != pce->num_inputs)
        return cuzk_fail(CUZK_EINVAL, "%s: a verifying key for %zu public inputs, but the circuit %s has %zu",
                         c->vk_path, vk->ic_len ? vk->ic_len - 1 : 0, c->id, pce->num_inputs ? pce->num_inputs - 1 : 0);
    return CUZK_OK;
}

static uint64_t layout_points_bytes(const cuzk_groth16_params_file *f)
{
    uint64_t b = 0;
    for (int k = 0; k < CUZK_PARAMS_SECTIONS; k++)
        b += (uint64_t)f->count[k] * (k == CUZK_PARAMS_B_G2 ? sizeof(blst_p2_affine) : sizeof(blst_p1_affine));
    return b;
}

/* The device a host load streams the parameters to (locked): the first in service with room
 * for them, marked loading; -1 when the host keeps the parameters (the configuration, or a CPU
 * backend that proves) or no device has room. */
static int pick_stream_device(cuzk_engine *e, engine_circuit *c, uint64_t need)
{
    ENGINE_LOCKED(e);
    if (e->cfg.keep_host_params || e->cfg.cpu_worker || e->stopping) return -1;
    for (unsigned i = 0; i < e->ndev; i++) {
        engine_device *d = &e->dev[i];
        circuit_on_device *cd = &c->dev[i];
        if (d->ordinal < 0 || !d->in_service || cd->unfit || cd->loading || cd->prover) continue;
        if (need > d->budget || !make_device_room(e, (int)i, need, c)) continue;
        cd->loading = true;
        return (int)i;
    }
    return -1;
}

/* A stream of the parameters to a device beside the host load (its own thread). */
typedef struct {
    cuzk_engine *e;
    engine_circuit *c;
    cuzk_groth16_params_file *f;
    int dev;
    cuzk_gpu_prover *pr;
    cuzk_status st;
    char err[512];
    stream_stats stats;
    double t_begin, t_end;
    pthread_t thread;
} stream_job;

static void *stream_main(void *arg)
{
    stream_job *s = arg;
    engine_device *d = &s->e->dev[s->dev];
    unsigned threads = cuzk_pool_size(s->e->lanes[0].pool);
    s->t_begin = cuzk_now();
    s->st = stream_params_to_device(d->gpu, s->f, s->c->check_params ? CUZK_PARAMS_CHECKED : CUZK_PARAMS_UNCHECKED,
                                    threads, s->e->cfg.progress, &s->pr, &s->stats);
    if (s->st) snprintf(s->err, sizeof s->err, "%s", cuzk_last_error());
    s->t_end = cuzk_now();
    return NULL;
}

/* Makes the circuit ready: its precompiled circuit recorded or loaded, its verifying key, and
 * its parameters either read into host memory or, when a GPU is in service and nothing needs a
 * host copy, streamed from the file to that GPU while the circuit is recorded (so the load
 * takes the longer of the two, not their sum, and host memory never holds the points). */
static void host_load(load_task *t)
{
    cuzk_engine *e = t->e;
    engine_circuit *c = t->c;
    double t0 = cuzk_now();
    cuzk_timeline *tl = cuzk_timeline_create("load");
    char name[128];
    snprintf(name, sizeof name, "load %s (parameters, precompiled circuit)", c->id);
    int top = cuzk_span_begin(tl, name);
    cuzk_pce pce = {0};
    cuzk_groth16_params params = {0};
    cuzk_groth16_params_file pf = {.fd = -1};
    bool has_pf = false;
    cuzk_groth16_vk vk = {0};
    bool has_vk = false;
    stream_job sj = {.e = e, .c = c, .f = &pf, .dev = -1};
    bool streaming = false;
    cuzk_status st = check_files(c);
    if (!st && !c->synthetic) {
        /* the layout and key first: a file of the wrong shape fails here, at once */
        int span = cuzk_span_begin(tl, "parameter file layout and key");
        st = cuzk_groth16_params_open(&pf, c->params_path);
        has_pf = !st;
        cuzk_span_end(tl, span);
    }
    if (has_pf) {
        engine_mutex_lock(&e->mu);
        c->params_points_bytes = layout_points_bytes(&pf);
        sj.dev = pick_stream_device(e, c, c->params_points_bytes + file_bytes(c->pce_path));
        engine_mutex_unlock(&e->mu);
        if (sj.dev >= 0) {
            streaming = pthread_create(&sj.thread, NULL, stream_main, &sj) == 0;
            if (!streaming) {
                engine_mutex_lock(&e->mu);
                c->dev[sj.dev].loading = false;
                engine_mutex_unlock(&e->mu);
                sj.dev = -1;
            }
        }
    }
    /* a built-in circuit's synthetic data for recording can take seconds (a WindowPoSt
     * partition's 2349 sectors): made here, unlocked, once the files are known to be there */
    if (!st && t->open_builtin) {
        int sspan = cuzk_span_begin(tl, "synthetic data to record the circuit from");
        st = c->builtin->synthetic_open(c->proof, &t->circ, &t->circ_state, &t->circ_state_free);
        cuzk_span_end(tl, sspan);
    }
    int span = cuzk_span_begin(tl, "precompiled circuit");
    if (!st) st = record_or_load_pce(t, &pce, tl);
    cuzk_span_end(tl, span);
    if (has_pf && !streaming) {
        span = cuzk_span_begin(tl, "read parameters");
        cuzk_groth16_params_close(&pf);
        has_pf = false;
        if (!st)
            st = cuzk_groth16_params_read(&params, c->params_path,
                                          c->check_params ? CUZK_PARAMS_CHECKED : CUZK_PARAMS_UNCHECKED);
        cuzk_span_end(tl, span);
    }
    if (streaming) {
        pthread_join(sj.thread, NULL);
        char sname[160];
        snprintf(sname, sizeof sname, "parameters streamed to GPU %d (%.1f s, %.2f GB/s; read %.1f s)",
                 e->dev[sj.dev].ordinal, sj.stats.seconds,
                 sj.stats.seconds > 0 ? (double)sj.stats.bytes / sj.stats.seconds / 1e9 : 0, sj.stats.read_s);
        cuzk_span_add_at(tl, top, sname, sj.t_begin, sj.t_end); /* beside the circuit's span, at the same time */
        if (!st && sj.st) st = cuzk_fail(sj.st, "%s", sj.err);
    }
    if (!st && !c->synthetic) {
        const cuzk_groth16_vk *pvk = streaming ? &pf.vk : &params.vk;
        size_t l_len = streaming ? pf.count[CUZK_PARAMS_L] : params.l_len;
        if (c->vk_path) {
            st = cuzk_groth16_vk_read(&vk, c->vk_path);
            has_vk = !st;
        } else {
            copy_vk(&vk, pvk);
            has_vk = vk.ic_len == pvk->ic_len;
            if (!has_vk) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
        }
        if (!st) st = check_counts(c, c->params_path, pvk->ic_len, l_len, c->vk_path ? &vk : NULL, &pce);
    }
    cuzk_gpu_pce *gp = NULL;
    if (!st && streaming && cuzk_gpu_pce_create(e->dev[sj.dev].gpu, &gp, &pce)) gp = NULL;
    if (has_pf) cuzk_groth16_params_close(&pf);
    char err[1024] = "";
    if (st) snprintf(err, sizeof err, "loading circuit %s: %s", c->id, cuzk_last_error());
    cuzk_span_end(tl, top);
    cuzk_circuit_free(t->circ);
    if (t->circ_state_free) t->circ_state_free(t->circ_state);
    if (st && sj.pr) {
        cuzk_gpu_pce_destroy(gp);
        cuzk_gpu_prover_destroy(sj.pr);
        sj.pr = NULL;
        gp = NULL;
    }

    engine_mutex_lock(&e->mu);
    c->host_loading = false;
    c->load_s[0] += cuzk_now() - t0;
    if (st) c->load_failures[0]++;
    else c->loads[0]++;
    if (sj.dev >= 0) {
        circuit_on_device *cd = &c->dev[sj.dev];
        cd->loading = false;
        if (sj.pr) {
            size_t db = 0, hb = 0;
            cuzk_gpu_prover_memory(sj.pr, &db, &hb);
            cd->prover = sj.pr;
            cd->pce = gp;
            cd->bytes = db + (gp ? cuzk_gpu_pce_bytes(gp) : 0);
            c->last_stream = sj.stats;
            c->loads[1]++;
            c->load_s[1] += sj.stats.seconds;
        } else if (sj.st) {
            cd->unfit = true;
            char id[64];
            snprintf(id, sizeof id, "%s", c->id);
            snprintf(cd->why, sizeof cd->why, "streaming the parameters of %s to device %d failed: %.250s", id, sj.dev,
                     sj.err);
            c->load_failures[1]++;
        }
    }
    if (st) {
        cuzk_pce_free(&pce);
        cuzk_groth16_params_free(&params);
        cuzk_groth16_vk_free(&vk);
        host_release(e, c->host_need);
        fail_jobs_of(e, c, st, err);
    } else {
        c->pce = pce;
        c->params = params;
        c->has_params = !c->synthetic && !streaming;
        c->vk = vk;
        c->has_vk = has_vk;
        c->ninputs = pce.num_inputs - 1;
        c->pce_bytes = pce_host_bytes(&pce);
        c->params_bytes = c->has_params ? params_host_bytes(&params) : 0;
        /* the estimate made way for the load; the measured sizes replace it */
        host_release(e, c->host_need);
        host_charge(e, c->pce_bytes + c->params_bytes);
        c->host_ready = true;
        c->load_error[0] = 0;
        c->load_status = CUZK_OK;
        c->last_used = cuzk_now();
    }
    if (t->job) {
        cuzk_timeline_graft(t->job->tl, -1, tl);
        job_unhold(e, t->job);
        t->job->waiting_load = false;
        sched_maybe_finish(e, t->job);
    }
    cuzk_timeline_destroy(tl);
    t->self->done = true;
    pthread_cond_broadcast(&e->work_cv);
    pthread_cond_broadcast(&e->done_cv);
    engine_mutex_unlock(&e->mu);
}

static void device_load(load_task *t)
{
    cuzk_engine *e = t->e;
    engine_circuit *c = t->c;
    engine_device *d = &e->dev[t->dev];
    circuit_on_device *cd = &c->dev[t->dev];
    cuzk_gpu_prover *pr = NULL;
    cuzk_gpu_pce *gp = NULL;
    double t0 = cuzk_now();
    size_t free0 = 0, free1 = 0, total = 0;
    if (cuzk_gpu_mem_info(d->gpu, &free0, &total)) free0 = 0;
    cuzk_status st;
    if (c->synthetic) {
        const cuzk_pce *p = &c->pce;
        size_t ni = p->num_inputs, n = p->num_constraints + ni;
        cuzk_gpu_synthetic_shape sh = {((size_t)1 << cuzk_log2_ceil(n)) - 1,    p->num_aux, ni + p->a_aux.popcount,
                                       p->b_input.popcount + p->b_aux.popcount, ni,         5};
        st = cuzk_gpu_prover_create_synthetic(d->gpu, &pr, &sh);
    } else if (c->has_params) {
        st = cuzk_gpu_prover_create(d->gpu, &pr, &c->params);
    } else {
        /* no host copy: from the file again (its layout checked against the circuit's) */
        cuzk_groth16_params_file f;
        stream_stats ss = {0};
        st = cuzk_groth16_params_open(&f, c->params_path);
        if (!st && (f.vk.ic_len != c->pce.num_inputs || f.count[CUZK_PARAMS_L] != c->pce.num_aux))
            st = cuzk_fail(CUZK_EFORMAT, "%s changed since it was first loaded (its counts differ)", c->params_path);
        if (!st)
            st = stream_params_to_device(d->gpu, &f, c->check_params ? CUZK_PARAMS_CHECKED : CUZK_PARAMS_UNCHECKED,
                                         cuzk_pool_size(e->lanes[0].pool), e->cfg.progress, &pr, &ss);
        cuzk_groth16_params_close(&f);
        if (!st) {
            engine_mutex_lock(&e->mu);
            c->last_stream = ss;
            engine_mutex_unlock(&e->mu);
        }
    }
    char why[384] = "";
    if (st) snprintf(why, sizeof why, "the parameters of %s do not fit on %s: %s", c->id, d->name, cuzk_last_error());
    /* the matrices are optional: without them a, b, c are computed on the CPU */
    if (!st && cuzk_gpu_pce_create(d->gpu, &gp, &c->pce)) gp = NULL;
    uint64_t bytes = 0;
    if (pr) {
        size_t db = 0, hb = 0;
        cuzk_gpu_prover_memory(pr, &db, &hb);
        bytes = db + (gp ? cuzk_gpu_pce_bytes(gp) : 0);
        if (!cuzk_gpu_mem_info(d->gpu, &free1, &total) && free0 > free1 && free0 - free1 > bytes) bytes = free0 - free1;
    }
    engine_mutex_lock(&e->mu);
    cd->loading = false;
    if (st) {
        cd->unfit = true;
        snprintf(cd->why, sizeof cd->why, "%s", why);
    } else if (device_resident(e, t->dev) + bytes > d->budget && !make_device_room(e, t->dev, bytes, c)) {
        cd->unfit = true;
        char id[64];
        snprintf(id, sizeof id, "%s", c->id);
        snprintf(cd->why, sizeof cd->why,
                 "%s takes %llu bytes on %s (measured), more than the %llu left of its budget of %llu "
                 "(engine.device_budget, engine.device_reserve)",
                 id, (unsigned long long)bytes, d->name, (unsigned long long)(d->budget - device_resident(e, t->dev)),
                 (unsigned long long)d->budget);
        device_garbage *g = calloc(1, sizeof *g);
        if (g) {
            g->prover = pr;
            g->pce = gp;
            reclaim_push(e, free_device_garbage, g, bytes, "a circuit over the device budget");
        }
    } else {
        cd->prover = pr;
        cd->pce = gp;
        cd->bytes = bytes;
        c->last_used = cuzk_now();
    }
    c->load_s[1] += cuzk_now() - t0;
    if (cd->unfit) c->load_failures[1]++;
    else c->loads[1]++;
    t->self->done = true;
    pthread_cond_broadcast(&e->work_cv);
    pthread_cond_broadcast(&e->done_cv);
    engine_mutex_unlock(&e->mu);
}

/* A host copy of parameters that were streamed to a device, for the CPU backend (it proves
 * when no GPU is in service, or beside them). */
static void host_params_load(load_task *t)
{
    cuzk_engine *e = t->e;
    engine_circuit *c = t->c;
    cuzk_groth16_params params;
    cuzk_status st = cuzk_groth16_params_read(&params, c->params_path,
                                              c->check_params ? CUZK_PARAMS_CHECKED : CUZK_PARAMS_UNCHECKED);
    if (!st && (params.vk.ic_len != c->pce.num_inputs || params.l_len != c->pce.num_aux)) {
        st = cuzk_fail(CUZK_EFORMAT, "%s changed since it was first loaded (its counts differ)", c->params_path);
        cuzk_groth16_params_free(&params);
    }
    char err[1024] = "";
    if (st) snprintf(err, sizeof err, "loading the parameters of %s for the CPU: %s", c->id, cuzk_last_error());
    engine_mutex_lock(&e->mu);
    c->params_loading = false;
    host_release(e, c->host_need);
    if (st) {
        c->load_failures[0]++;
        fail_jobs_of(e, c, st, err);
    } else if (!c->host_ready) { /* evicted meanwhile */
        host_garbage *g = calloc(1, sizeof *g);
        if (g) {
            g->params = params;
            g->has_params = true;
            reclaim_push(e, free_host_garbage, g, params_host_bytes(&params), "parameters of an evicted circuit");
        } else {
            cuzk_groth16_params_free(&params);
        }
    } else {
        c->params = params;
        c->has_params = true;
        c->params_bytes = params_host_bytes(&params);
        host_charge(e, c->params_bytes);
        c->loads[0]++;
    }
    t->self->done = true;
    pthread_cond_broadcast(&e->work_cv);
    pthread_cond_broadcast(&e->done_cv);
    engine_mutex_unlock(&e->mu);
}

static void *load_main(void *arg)
{
    load_task *t = arg;
    if (t->dev == -2) {
        cuzk_pool_bind(t->e->lanes[0].pool);
        host_params_load(t);
        cuzk_pool_bind(NULL);
    } else if (t->dev < 0) {
        cuzk_pool_bind(t->e->lanes[0].pool);
        host_load(t);
        cuzk_pool_bind(NULL);
    } else {
        device_load(t);
    }
    free(t);
    return NULL;
}

static bool spawn(cuzk_engine *e, load_task *t)
{
    ENGINE_LOCKED(e);
    loader *l = calloc(1, sizeof *l);
    if (!l) return false;
    t->self = l;
    if (pthread_create(&l->thread, NULL, load_main, t)) {
        free(l);
        return false;
    }
    l->next = e->loaders;
    e->loaders = l;
    return true;
}

void res_want_host_params(cuzk_engine *e, engine_circuit *c)
{
    ENGINE_LOCKED(e);
    if (!c->host_ready || c->has_params || c->params_loading || c->synthetic || e->stopping) return;
    uint64_t need = c->params_points_bytes;
    if (!res_make_host_room(e, need, c)) return; /* retried as busy circuits end */
    load_task *t = calloc(1, sizeof *t);
    if (!t) return;
    t->e = e;
    t->c = c;
    t->dev = -2;
    c->params_loading = true;
    c->host_need = need;
    host_charge(e, need);
    if (!spawn(e, t)) {
        c->params_loading = false;
        host_release(e, need);
        free(t);
    }
}

void res_join_loaders(cuzk_engine *e, bool all)
{
    for (;;) {
        engine_mutex_lock(&e->mu);
        loader *pick = NULL;
        for (loader **pp = &e->loaders; *pp; pp = &(*pp)->next)
            if ((*pp)->done || all) {
                pick = *pp;
                *pp = pick->next;
                break;
            }
        engine_mutex_unlock(&e->mu);
        if (!pick) return;
        pthread_join(pick->thread, NULL);
        free(pick);
    }
}

/* The circuit of partition 0 for recording (locked; the plan's open is cheap; a built-in
 * circuit's synthetic data is not, so the load thread makes it). */
static cuzk_status shape_circuit(cuzk_engine *e, engine_circuit *c, engine_job *j, load_task *t)
{
    ENGINE_LOCKED(e);
    (void)e;
    if (c->pce_path && access(c->pce_path, F_OK) == 0) return CUZK_OK; /* loaded, not recorded */
    if (j) return j->plan.open(j, 0, &t->circ);
    if (c->builtin) {
        t->open_builtin = true;
        return CUZK_OK;
    }
    return c->reg.open(c->reg.ctx, NULL, 0, 0, 0, &t->circ);
}

void res_want_host(cuzk_engine *e, engine_circuit *c, engine_job *j)
{
    ENGINE_LOCKED(e);
    if (c->host_ready || c->host_loading) return;
    if (e->stopping) return;
    /* admission: what the load will hold, from the files' sizes (the decoded points are the
     * size of the file's uncompressed ones) */
    uint64_t need = (c->synthetic ? 0 : file_bytes(c->params_path)) + file_bytes(c->pce_path);
    uint64_t fixed = 0; /* buffers and inputs: what eviction cannot free */
    for (unsigned i = 0; i < e->nslots; i++)
        fixed += (uint64_t)(e->slots[i].w.input_cap + e->slots[i].w.aux_cap) * sizeof(cuzk_fr);
    if (need + fixed > e->host_budget) {
        char msg[512];
        snprintf(msg, sizeof msg,
                 "circuit %s needs %llu bytes of host memory (parameters %s), more than the host budget of %llu "
                 "bytes leaves beside the witness buffers (%llu bytes; engine.host_budget)",
                 c->id, (unsigned long long)need, c->params_path ? c->params_path : "synthetic",
                 (unsigned long long)e->host_budget, (unsigned long long)fixed);
        fail_jobs_of(e, c, CUZK_EBUDGET, msg);
        return;
    }
    if (!res_make_host_room(e, need, c)) return; /* busy circuits hold the room: retried as they end */
    load_task *t = calloc(1, sizeof *t);
    if (!t) return;
    t->e = e;
    t->c = c;
    t->dev = -1;
    if (j && !j->failing && !j->cancel_req) t->job = j;
    cuzk_status st = shape_circuit(e, c, t->job, t);
    if (st) {
        char msg[1024];
        snprintf(msg, sizeof msg, "circuit %s: %s", c->id, cuzk_last_error());
        free(t);
        fail_jobs_of(e, c, st, msg);
        return;
    }
    c->host_loading = true;
    c->host_need = need;
    host_charge(e, need);
    if (t->job) {
        job_hold(e, t->job);
        t->job->waiting_load = true;
    }
    if (!spawn(e, t)) {
        c->host_loading = false;
        host_release(e, need);
        if (t->job) job_unhold(e, t->job);
        cuzk_circuit_free(t->circ);
        if (t->circ_state_free) t->circ_state_free(t->circ_state);
        free(t);
        fail_jobs_of(e, c, CUZK_EINTERNAL, "no thread to load the circuit");
    }
}

bool res_device_ready(const engine_circuit *c, const engine_device *d)
{
    const circuit_on_device *cd = &c->dev[d->index];
    return cd->prover && !cd->loading;
}

bool res_cpu_ready(const engine_circuit *c) { return c->host_ready && c->has_params; }

bool res_want_device(cuzk_engine *e, engine_circuit *c, engine_device *d)
{
    ENGINE_LOCKED(e);
    circuit_on_device *cd = &c->dev[d->index];
    if (cd->unfit || !c->host_ready || e->stopping) return false;
    if (cd->loading || cd->prover) return true;
    /* the room the host sizes (or the file's layout, with no host copy) say it takes */
    uint64_t need = (c->has_params ? c->params_bytes : c->params_points_bytes) + c->pce_bytes;
    if (need > d->budget) {
        cd->unfit = true;
        char id[64];
        snprintf(id, sizeof id, "%s", c->id);
        snprintf(cd->why, sizeof cd->why,
                 "%s needs about %llu bytes on %s, more than its budget of %llu (engine.device_budget, "
                 "engine.device_reserve)",
                 id, (unsigned long long)need, d->name, (unsigned long long)d->budget);
        return false;
    }
    if (!make_device_room(e, d->index, need, c)) return true; /* wait for busy circuits to go idle */
    load_task *t = calloc(1, sizeof *t);
    if (!t) return false;
    t->e = e;
    t->c = c;
    t->dev = d->index;
    cd->loading = true;
    if (!spawn(e, t)) {
        cd->loading = false;
        free(t);
        return false;
    }
    return true;
}

cuzk_status res_preload(cuzk_engine *e, engine_circuit *c)
{
    ENGINE_LOCKED(e);
    /* locked on entry and exit; a refusal of this call's load shows in load_status */
    if (!c->host_ready && !c->host_loading) {
        c->load_status = CUZK_OK;
        c->load_error[0] = 0;
    }
    res_want_host(e, c, NULL);
    while (c->host_loading && !e->stopping) engine_mutex_wait(&e->mu, &e->done_cv);
    if (e->stopping) return cuzk_fail(CUZK_ESHUTDOWN, "the load of %s was stopped: the engine is shutting down", c->id);
    if (!c->host_ready && c->load_status) return cuzk_fail(c->load_status, "%s", c->load_error);
    if (!c->host_ready)
        return cuzk_fail(CUZK_EBUSY, "%s: the host budget is held by circuits in use; try again when their jobs end",
                         c->id);
    for (unsigned i = 0; i < e->ndev; i++) {
        engine_device *d = &e->dev[i];
        if (d->ordinal >= 0 && d->in_service) res_want_device(e, c, d);
    }
    for (;;) {
        bool loading = false;
        for (unsigned i = 0; i < e->ndev; i++) loading |= c->dev[i].loading;
        if (!loading || e->stopping) break;
        engine_mutex_wait(&e->mu, &e->done_cv);
    }
    return CUZK_OK;
}

void res_free_all(cuzk_engine *e)
{
    ENGINE_LOCKED(e);
    for (engine_circuit *c = e->circuits, *n; c; c = n) {
        n = c->next;
        for (unsigned i = 0; i < e->ndev; i++) {
            cuzk_gpu_pce_destroy(c->dev[i].pce);
            cuzk_gpu_prover_destroy(c->dev[i].prover);
        }
        if (c->has_params) cuzk_groth16_params_free(&c->params);
        if (c->has_vk) cuzk_groth16_vk_free(&c->vk);
        cuzk_pce_free(&c->pce);
        free(c->params_path);
        free(c->vk_path);
        free(c->pce_path);
        free(c);
    }
    e->circuits = NULL;
}

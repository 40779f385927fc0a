/* Where circuits live. A circuit's parameters and precompiled circuit are in tiers: on disk
 * (nothing loaded), in host memory (the precompiled circuit and key always; the parameters only
 * where the CPU backend proves with them or engine.keep_host_params asks, since a GPU is loaded
 * by streaming them from their file, engine_stream.c) and on each GPU (the prover's resident
 * parameters and the circuit's matrices). Loads run on threads of their own, so a 44 GiB
 * parameter load holds up neither intake nor other jobs' proving; the jobs that need the
 * circuit wait. Under the engine's lock only the quick parts run: the admission (the files'
 * sizes), the shape of the circuit (opening partition 0's circuit object, cheap). Room is made
 * under the host and device budgets by evicting idle circuits, least recently used first; a
 * tier's bytes are computed from its arrays' counts once loaded (host) or taken from the
 * prover's memory figures (device). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/filecoin.h"
#include "cuzk/filecoin_params.h"
#include "engine_internal.h"

/* A host copy of parameters goes to a device in pieces of this many bytes (as the stream from
 * a file does), so that a stopped load ends within one piece. */
#define UPLOAD_PIECE_BYTES (48u << 20)

static uint64_t file_bytes(const char *path)
{
    struct stat sb;
    return path && stat(path, &sb) == 0 && S_ISREG(sb.st_mode) ? (uint64_t)sb.st_size : 0;
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
        reclaim_push_device(e, free_device_garbage, g, b, "a circuit's device memory", di);
    } else {
        free_device_garbage(&(device_garbage){cd->prover, cd->pce});
    }
    cd->prover = NULL;
    cd->pce = NULL;
    cd->bytes = 0;
    host_release(e, cd->host_bytes); /* streamed parameters' host copy: freed by the reclaimer */
    cd->host_bytes = 0;
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
        c->params_bytes = c->pce_bytes = c->pce_stream_bytes = 0;
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

uint64_t res_fixed_bytes(const cuzk_engine *e)
{
    ENGINE_LOCKED(e);
    /* the count, not the buffers' capacities: a lane grows its buffer without the lock */
    return e->buffers_bytes;
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

/* What a retry must change to go differently: 64 MiB less budget (a cut by less would place
 * the same way and fail the same way). */
#define BUDGET_CUT_MIN (64ull << 20)

bool res_device_shrank(cuzk_engine *e, engine_device *d, engine_circuit *c)
{
    ENGINE_LOCKED(e);
    size_t fr = 0, total = 0;
    if (d->ordinal < 0 || cuzk_gpu_mem_info(d->gpu, &fr, &total)) return false;
    /* ours on this GPU: the free memory, the memory pool's (proofs' workspace, kept between
     * proofs), what its contexts' circuits really hold (their parameters and matrices: their
     * budget charges count a workspace too) and what waits for the reclaimer */
    unsigned ctxs = 0;
    uint64_t have = fr + cuzk_gpu_pool_bytes(d->gpu);
    for (unsigned i = 0; i < e->ndev; i++) {
        if (e->dev[i].ordinal != d->ordinal) continue;
        ctxs++;
        have += e->dev[i].reclaim_pending;
        for (const engine_circuit *k = e->circuits; k; k = k->next) {
            const circuit_on_device *kd = &k->dev[i];
            if (kd->prover) have += cuzk_gpu_prover_own_bytes(kd->prover);
            if (kd->pce) have += cuzk_gpu_pce_bytes(kd->pce);
        }
    }
    const uint64_t reserve = e->cfg.device_reserve * ctxs;
    const uint64_t b = have > reserve ? (have - reserve) / ctxs : 0;
    if (b + BUDGET_CUT_MIN > d->budget) return false;
    for (unsigned i = 0; i < e->ndev; i++)
        if (e->dev[i].ordinal == d->ordinal && e->dev[i].budget > b) {
            e->dev[i].budget = b;
            e->dev[i].budget_cuts++;
        }
    if (c) { /* charged with its workspace, as placed */
        circuit_on_device *cd = &c->dev[d->index];
        if (cd->prover && !cd->busy && device_resident(e, d->index) > b) evict_device(e, c, d->index);
    }
    return true;
}

/* Waits (locked) until the device memory evicted from d's GPU is freed, so that a load counts
 * on the room its eviction made. */
static void wait_device_reclaim(cuzk_engine *e, const engine_device *d)
{
    ENGINE_LOCKED(e);
    for (;;) {
        uint64_t pending = 0;
        for (unsigned i = 0; i < e->ndev; i++)
            if (e->dev[i].ordinal == d->ordinal) pending += e->dev[i].reclaim_pending;
        if (!pending || e->stopping) return;
        engine_mutex_wait(&e->mu, &e->done_cv);
    }
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
    bool params_later; /* the host tier's admission left the parameters out: a GPU was to take them */
    loader *self;
    load_watch watch; /* its stop token (self->stop) and the test hook, set when it starts */
} load_task;

static cuzk_status record_or_load_pce(load_task *t, cuzk_pce *pce, cuzk_timeline *tl)
{
    engine_circuit *c = t->c;
    if (c->pce_path && access(c->pce_path, F_OK) == 0 && !t->circ) return cuzk_pce_load(pce, c->pce_path);
    if (!t->circ) return cuzk_fail(CUZK_EINVAL, "%s: no precompiled circuit and nothing to record it from", c->id);
    /* a recording (seconds to minutes for a 32 GiB circuit) stops between parts with the load */
    if (c->pce_path)
        return cuzk_pce_load_or_record_until(c->pce_path, t->circ, pce, tl, t->e->cfg.progress, t->watch.stop);
    return cuzk_pce_record_until(t->circ, pce, tl, t->e->cfg.progress, t->watch.stop);
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
        engine_job_fail(e, j, FAIL_LOAD, "%s", msg);
        sched_drop_ready_of(e, j);
        sched_maybe_finish(e, j);
    }
}

/* A missing parameter or key file fails the load at once, before minutes of recording the
 * precompiled circuit (a 32 GiB circuit's) are spent. */
/* A file under an official name must have the published digest (check_param_digests): once
 * per file, again only when its size or mtime changed; cache_dir keeps the result across
 * restarts. */
static cuzk_status check_digest(const cuzk_engine *e, engine_circuit *c, int i, const char *path, const struct stat *sb)
{
    uint64_t mt = (uint64_t)sb->st_mtim.tv_sec * 1000000000ull + (uint64_t)sb->st_mtim.tv_nsec;
    if (!e->cfg.check_param_digests || (c->digest_ok[i][0] == (uint64_t)sb->st_size && c->digest_ok[i][1] == mt))
        return CUZK_OK;
    cuzk_status st = cuzk_param_file_check(path, e->cache_dir, NULL);
    if (st) return st;
    c->digest_ok[i][0] = (uint64_t)sb->st_size;
    c->digest_ok[i][1] = mt;
    return CUZK_OK;
}

static cuzk_status check_files(const cuzk_engine *e, engine_circuit *c)
{
    const char *paths[2] = {c->synthetic ? NULL : c->params_path, c->synthetic ? NULL : c->vk_path};
    for (int i = 0; i < 2; i++) {
        struct stat sb;
        if (!paths[i]) continue;
        if (stat(paths[i], &sb) != 0) return cuzk_fail(CUZK_EIO, "cannot open %s: %s", paths[i], strerror(errno));
        if (!S_ISREG(sb.st_mode)) return cuzk_fail(CUZK_EIO, "cannot open %s: not a regular file", paths[i]);
        cuzk_status st = check_digest(e, c, i, paths[i], &sb);
        if (st) return st;
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

/* ---------------------------------------------------------------- placement */
/* A circuit as a GPU placement sees it: its parameters' section lengths, its inputs, and its
 * precompiled circuit's device size (estimated by its host size; 0 when not yet recorded) and
 * with its matrices streamed (0: the placement estimates it). */
static cuzk_gpu_shape shape_of(const size_t count[CUZK_PARAMS_SECTIONS], size_t ic_len, uint64_t pce_bytes,
                               uint64_t pce_stream_bytes)
{
    cuzk_gpu_shape sh = {count[CUZK_PARAMS_H],
                         count[CUZK_PARAMS_L],
                         count[CUZK_PARAMS_A],
                         count[CUZK_PARAMS_B_G1],
                         ic_len,
                         count[CUZK_PARAMS_L],
                         count[CUZK_PARAMS_H] + 1,
                         pce_bytes,
                         0,
                         pce_stream_bytes,
                         false};
    return sh;
}

/* the same from the precompiled circuit (the lengths its parameters have) */
static cuzk_gpu_shape shape_of_pce(const cuzk_pce *p, uint64_t pce_bytes, uint64_t pce_stream_bytes)
{
    const size_t ni = p->num_inputs, n = p->num_constraints + ni;
    size_t count[CUZK_PARAMS_SECTIONS];
    count[CUZK_PARAMS_H] = ((size_t)1 << cuzk_log2_ceil(n)) - 1;
    count[CUZK_PARAMS_L] = p->num_aux;
    count[CUZK_PARAMS_A] = ni + p->a_aux.popcount;
    count[CUZK_PARAMS_B_G1] = count[CUZK_PARAMS_B_G2] = p->b_input.popcount + p->b_aux.popcount;
    return shape_of(count, ni, pce_bytes, pce_stream_bytes);
}

static uint64_t placed_bytes(const cuzk_gpu_placement *pl)
{
    return pl->params_device_bytes + pl->pce_device_bytes + pl->workspace_bytes;
}

/* c on d (locked): its placement under d's budget and, streamed, host room for the page-locked
 * parameters (charged to the host budget until the device copy goes); where the host budget has
 * no room for them, mapped: the parameters in a scratch file (gpu.stream_file_dir), charged
 * nothing. false when there is none: d is unfit for c, with the reason. */
static bool place_on(cuzk_engine *e, engine_circuit *c, engine_device *d, const cuzk_gpu_shape *sh)
{
    ENGINE_LOCKED(e);
    circuit_on_device *cd = &c->dev[d->index];
    char id[64]; /* the message goes into c (cd->why): its id is copied out first */
    snprintf(id, sizeof id, "%s", c->id);
    cuzk_gpu_shape shc = *sh;
    shc.mostly_bits = c->builtin && c->builtin->mostly_bits; /* compact witnesses pay (prover.cu) */
    if (cuzk_gpu_place(&shc, d->budget, &e->gpu_cfg, &cd->pl)) {
        cd->unfit = true;
        snprintf(cd->why, sizeof cd->why, "%s on %.100s: %.200s", id, d->name, cuzk_last_error());
        return false;
    }
    uint64_t pinned = cd->pl.pinned_host_bytes;
    if (pinned && (pinned > e->host_budget || !res_make_host_room(e, pinned, c))) {
        const uint64_t room = e->host_budget > e->host_used ? e->host_budget - e->host_used : 0;
        cuzk_gpu_place_mapped(&cd->pl, e->gpu_cfg.stream_file_dir, room);
        pinned = 0;
    }
    host_charge(e, pinned);
    cd->host_bytes = pinned;
    cd->pce_unsized = sh->pce_bytes == 0;
    return true;
}

/* a load of c on d that did not happen gives its host room back (locked) */
static void unplace(cuzk_engine *e, circuit_on_device *cd)
{
    ENGINE_LOCKED(e);
    host_release(e, cd->host_bytes);
    cd->host_bytes = 0;
}

/* whether a GPU may take c's parameters from their file, so that the host keeps no copy
 * (locked): the conditions of pick_stream_device short of the room, which it finds then */
static bool gpu_may_take(const cuzk_engine *e, const engine_circuit *c)
{
    ENGINE_LOCKED(e);
    if (e->cfg.keep_host_params || e->cfg.cpu_worker || e->stopping) return false;
    for (unsigned i = 0; i < e->ndev; i++)
        if (e->dev[i].ordinal >= 0 && e->dev[i].in_service && !c->dev[i].unfit) return true;
    return false;
}

/* Why no GPU takes c's parameters (locked), for a message: "; no GPU takes them (WHY)" with the
 * first unfit device's reason, or "" where none is in service or none was found unfit. */
static void gpus_unfit_words(const cuzk_engine *e, const engine_circuit *c, char *out, size_t size)
{
    ENGINE_LOCKED(e);
    out[0] = 0;
    for (unsigned i = 0; i < e->ndev; i++)
        if (e->dev[i].ordinal >= 0 && e->dev[i].in_service && c->dev[i].unfit) {
            snprintf(out, size, "; no GPU takes them (%s)", c->dev[i].why);
            return;
        }
}

/* The device a host load streams the parameters to (locked): the first in service with room
 * for them, marked loading; -1 when the host keeps the parameters (the configuration, or a CPU
 * backend that proves) or no device has room. */
static int pick_stream_device(cuzk_engine *e, engine_circuit *c, const cuzk_gpu_shape *sh)
{
    ENGINE_LOCKED(e);
    if (e->cfg.keep_host_params || e->cfg.cpu_worker || e->stopping) return -1;
    for (unsigned i = 0; i < e->ndev; i++) {
        engine_device *d = &e->dev[i];
        circuit_on_device *cd = &c->dev[i];
        if (d->ordinal < 0 || !d->in_service || cd->unfit || cd->loading || cd->prover) continue;
        if (!place_on(e, c, d, sh)) continue;
        if (!make_device_room(e, (int)i, placed_bytes(&cd->pl), c)) {
            unplace(e, cd);
            continue;
        }
        cd->loading = true;
        return (int)i;
    }
    return -1;
}

/* whether the precompiled circuit goes to the device, or its matrices stream there (where the
 * placement has room for either; without it a, b, c are made on the CPU); a circuit not yet
 * recorded when the placement was chosen (its size unknown then) goes where the placement is
 * resident */
static bool pce_wanted(const circuit_on_device *cd)
{
    return cd->pl.pce_on_device || cd->pl.pce_streamed || (cd->pl.kind == CUZK_GPU_RESIDENT && cd->pce_unsized);
}

/* The precompiled circuit on gpu for cd's placement: on the device, or with its matrices streamed
 * from p, the circuit's host copy (which outlives it: evicting a circuit queues its device objects
 * on the reclaimer before its host tier, and destroy frees them first). NULL where it is not
 * wanted or cannot be made: a, b, c then come from the CPU. Touches only the device: no lock. */
static cuzk_gpu_pce *device_pce(cuzk_gpu_device *gpu, const circuit_on_device *cd, const cuzk_pce *p)
{
    cuzk_gpu_pce *g = NULL;
    if (!pce_wanted(cd)) return NULL;
    cuzk_status st = cd->pl.pce_streamed ? cuzk_gpu_pce_create_streamed(gpu, &g, p) : cuzk_gpu_pce_create(gpu, &g, p);
    return st ? NULL : g;
}

/* A placement chosen before the circuit's matrices were recorded (their size unknown: a first
 * load streams the parameters while it records them), made again with them at the same room:
 * where the same placement (kind, chunks, windows, batch, H split, where L, A, B run, witnesses
 * before H, full witnesses) has room for the circuit on the device or for its matrices
 * streamed, pl takes those fields and true is returned (the prover, made to pl before, is
 * unchanged by them); else pl stays, a, b, c from the CPU.
 * Reads only the engine's fixed tuning: no lock. */
static bool place_sized(const cuzk_engine *e, cuzk_gpu_placement *pl, const cuzk_pce *p, uint64_t pce_stream_bytes)
{
    cuzk_gpu_placement np;
    const cuzk_gpu_shape sh = shape_of_pce(p, pce_host_bytes(p), pce_stream_bytes);
    /* the prover was made without the circuit, so with full witnesses: the same here */
    cuzk_gpu_config full = e->gpu_cfg;
    full.stream_compact_permille = 0;
    if (cuzk_gpu_place(&sh, pl->room, &full, &np)) return false;
    if (cuzk_gpu_placement_streams(&np) != cuzk_gpu_placement_streams(pl) || np.chunk_points != pl->chunk_points ||
        np.window_max != pl->window_max || np.window_max_h != pl->window_max_h || np.batch_max != pl->batch_max ||
        np.h_glv != pl->h_glv || np.lab_beside_h != pl->lab_beside_h || np.h_sort_ahead != pl->h_sort_ahead ||
        np.witnesses_before_h != pl->witnesses_before_h || np.lab_concurrent != pl->lab_concurrent ||
        np.lab_chunk_points != pl->lab_chunk_points || np.params_device_bytes != pl->params_device_bytes ||
        (!np.pce_on_device && !np.pce_streamed))
        return false;
    pl->pce_on_device = np.pce_on_device;
    pl->pce_streamed = np.pce_streamed;
    pl->pce_device_bytes = np.pce_device_bytes;
    pl->workspace_bytes = np.workspace_bytes;
    if (pl->kind == np.kind) snprintf(pl->why, sizeof pl->why, "%s", np.why);
    return true;
}

/* A stream of the parameters to a device beside the host load (its own thread). */
typedef struct {
    cuzk_engine *e;
    engine_circuit *c;
    cuzk_groth16_params_file *f;
    const load_watch *watch;
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
    s->st = stream_params_to_device(d->gpu, &s->c->dev[s->dev].pl, s->f,
                                    s->c->check_params ? CUZK_PARAMS_CHECKED : CUZK_PARAMS_UNCHECKED, threads,
                                    s->e->cfg.progress, s->watch, &s->pr, &s->stats);
    if (s->st) snprintf(s->err, sizeof s->err, "%s", cuzk_last_error());
    s->t_end = cuzk_now();
    return NULL;
}

/* A host load in progress: what its steps make, in the order they make it (host_load). */
typedef struct {
    load_task *t;
    cuzk_engine *e;
    engine_circuit *c;
    cuzk_timeline *tl;
    int top;   /* the load's span */
    double t0; /* when it began */
    cuzk_status st;
    cuzk_pce pce;
    cuzk_groth16_params params;  /* read when not streamed */
    cuzk_groth16_params_file pf; /* the file's layout and key (open while has_pf) */
    bool has_pf;
    cuzk_groth16_vk vk;
    bool has_vk;
    stream_job sj;    /* the stream to a GPU (sj.dev >= 0) */
    bool streaming;   /* its thread runs */
    cuzk_gpu_pce *gp; /* the circuit's matrices on the streamed-to GPU (or streamed to it) */
    uint64_t pce_stream_bytes;
    bool sized;                  /* the placement was made again with the matrices' size: */
    cuzk_gpu_placement sized_pl; /* this one */
    char err[1024];
} host_load_state;

/* No GPU took the parameters that the admission left to one (locked): the host reads them, so
 * they are charged now, beside the load's estimate, or the load fails as the admission would. */
static void params_to_host(host_load_state *h)
{
    cuzk_engine *e = h->e;
    engine_circuit *c = h->c;
    ENGINE_LOCKED(e);
    const uint64_t pb = file_bytes(c->params_path);
    if (pb + res_fixed_bytes(e) + c->host_need > e->host_budget || !res_make_host_room(e, pb, c)) {
        h->st = cuzk_fail(CUZK_EBUDGET,
                          "no GPU takes its parameters, and the host budget has no room for them (%llu bytes, %s; "
                          "engine.host_budget %llu bytes)",
                          (unsigned long long)pb, c->params_path, (unsigned long long)e->host_budget);
        return;
    }
    host_charge(e, pb);
    c->host_need += pb; /* released with the estimate when the load ends */
}

/* Step 1: the files, then the parameter file's layout and key (a file of the wrong shape fails
 * here, at once); a GPU with room takes the parameters as a stream, started now. */
static void load_open_layout(host_load_state *h)
{
    engine_circuit *c = h->c;
    h->st = check_files(h->e, c);
    if (h->st || c->synthetic) return;
    int span = cuzk_span_begin(h->tl, "parameter file layout and key");
    h->st = cuzk_groth16_params_open(&h->pf, c->params_path);
    h->has_pf = !h->st;
    cuzk_span_end(h->tl, span);
    if (!h->has_pf) return;
    engine_mutex_lock(&h->e->mu);
    c->params_points_bytes = layout_points_bytes(&h->pf);
    const cuzk_gpu_shape sh = shape_of(h->pf.count, h->pf.vk.ic_len, file_bytes(c->pce_path), 0);
    h->sj.dev = pick_stream_device(h->e, c, &sh);
    if (h->sj.dev < 0 && h->t->params_later) params_to_host(h);
    engine_mutex_unlock(&h->e->mu);
    if (h->sj.dev < 0) return;
    h->streaming = pthread_create(&h->sj.thread, NULL, stream_main, &h->sj) == 0;
    if (h->streaming) return;
    engine_mutex_lock(&h->e->mu);
    c->dev[h->sj.dev].loading = false;
    unplace(h->e, &c->dev[h->sj.dev]);
    engine_mutex_unlock(&h->e->mu);
    h->sj.dev = -1;
}

/* Step 2: the precompiled circuit, recorded (from a built-in circuit's synthetic data, which for
 * a WindowPoSt partition's 2349 sectors takes seconds: made here, unlocked) or loaded. */
static void load_circuit(host_load_state *h)
{
    load_task *t = h->t;
    if (!h->st) h->st = load_watch_stop(&t->watch);
    if (!h->st && t->open_builtin) {
        int span = cuzk_span_begin(h->tl, "synthetic data to record the circuit from");
        h->st = h->c->builtin->synthetic_open(h->c->proof, &t->circ, &t->circ_state, &t->circ_state_free);
        cuzk_span_end(h->tl, span);
    }
    int span = cuzk_span_begin(h->tl, "precompiled circuit");
    if (!h->st) h->st = record_or_load_pce(t, &h->pce, h->tl);
    cuzk_span_end(h->tl, span);
}

/* Step 3: the parameters, read into host memory, or their stream to the GPU waited for. */
static void load_params(host_load_state *h)
{
    engine_circuit *c = h->c;
    if (h->has_pf && !h->streaming) {
        int span = cuzk_span_begin(h->tl, "read parameters");
        cuzk_groth16_params_close(&h->pf);
        h->has_pf = false;
        if (!h->st) h->st = load_watch_stop(&h->t->watch);
        if (!h->st)
            h->st = cuzk_groth16_params_read_watched(&h->params, c->params_path,
                                                     c->check_params ? CUZK_PARAMS_CHECKED : CUZK_PARAMS_UNCHECKED,
                                                     load_watch_params_piece, &h->t->watch);
        cuzk_span_end(h->tl, span);
    }
    if (!h->streaming) return;
    stream_job *sj = &h->sj;
    pthread_join(sj->thread, NULL);
    char name[160];
    snprintf(name, sizeof name, "parameters streamed to GPU %d, placement %s (%.1f s, %.2f GB/s; read %.1f s)",
             h->e->dev[sj->dev].ordinal, cuzk_gpu_placement_name(c->dev[sj->dev].pl.kind), sj->stats.seconds,
             sj->stats.seconds > 0 ? (double)sj->stats.bytes / sj->stats.seconds / 1e9 : 0, sj->stats.read_s);
    cuzk_span_add_at(h->tl, h->top, name, sj->t_begin, sj->t_end); /* beside the circuit's span */
    /* a device out of memory fails the device tier only (stream_ended: the circuit is placed
     * again, streamed from the file, where the budget was cut); the host tier stands */
    if (!h->st && sj->st && sj->st != CUZK_ENOMEM) h->st = cuzk_fail(sj->st, "%s", sj->err);
}

/* Step 4: the verifying key (its own file, or the parameters'), every count checked against the
 * circuit, and the circuit's matrices put on the GPU the parameters went to. */
static void load_key(host_load_state *h)
{
    engine_circuit *c = h->c;
    if (!h->st && !c->synthetic) {
        const cuzk_groth16_vk *pvk = h->streaming ? &h->pf.vk : &h->params.vk;
        size_t l_len = h->streaming ? h->pf.count[CUZK_PARAMS_L] : h->params.l_len;
        if (c->vk_path) {
            h->st = cuzk_groth16_vk_read(&h->vk, c->vk_path);
            h->has_vk = !h->st;
        } else {
            copy_vk(&h->vk, pvk);
            h->has_vk = h->vk.ic_len == pvk->ic_len;
            if (!h->has_vk) h->st = cuzk_fail(CUZK_ENOMEM, "out of memory");
        }
        if (!h->st) h->st = check_counts(c, c->params_path, pvk->ic_len, l_len, c->vk_path ? &h->vk : NULL, &h->pce);
    }
    bool gpus = false; /* the devices are fixed at create */
    for (unsigned i = 0; i < h->e->ndev; i++) gpus |= h->e->dev[i].ordinal >= 0;
    /* a scan of the rows (unlocked), for GPU placements only */
    if (!h->st && gpus) h->pce_stream_bytes = cuzk_gpu_pce_stream_bytes(&h->pce);
    if (!h->st && h->streaming && h->sj.pr) {
        /* the placement, set before the load and left alone during it, made again with the
         * matrices' size where it was chosen without */
        const circuit_on_device *now = &h->c->dev[h->sj.dev];
        circuit_on_device cd;
        memset(&cd, 0, sizeof cd);
        cd.pl = now->pl;
        cd.pce_unsized = now->pce_unsized;
        h->sized = cd.pce_unsized && place_sized(h->e, &cd.pl, &h->pce, h->pce_stream_bytes);
        h->sized_pl = cd.pl;
        h->gp = device_pce(h->e->dev[h->sj.dev].gpu, &cd, &h->pce);
    }
}

/* Step 5 (unlocked): what the load no longer needs goes; a failed load's device objects too. */
static void load_cleanup(host_load_state *h)
{
    if (h->has_pf) cuzk_groth16_params_close(&h->pf);
    h->has_pf = false;
    if (h->st) snprintf(h->err, sizeof h->err, "loading circuit %s: %s", h->c->id, cuzk_last_error());
    cuzk_span_end(h->tl, h->top);
    cuzk_circuit_free(h->t->circ);
    if (h->t->circ_state_free) h->t->circ_state_free(h->t->circ_state);
    if (h->st && h->sj.pr) {
        cuzk_gpu_pce_destroy(h->gp);
        cuzk_gpu_prover_destroy(h->sj.pr);
        h->sj.pr = NULL;
        h->gp = NULL;
    }
}

/* The device tier of a host load that streamed (locked): resident, or unfit with the reason. */
static void stream_ended(host_load_state *h)
{
    engine_circuit *c = h->c;
    const stream_job *sj = &h->sj;
    if (sj->dev < 0) return;
    circuit_on_device *cd = &c->dev[sj->dev];
    cd->loading = false;
    if (sj->pr) {
        size_t db = 0, hb = 0;
        cuzk_gpu_prover_memory(sj->pr, &db, &hb);
        if (h->sized) {
            cd->pl = h->sized_pl;
            cd->pce_unsized = false;
        }
        cd->prover = sj->pr;
        cd->pce = h->gp;
        cd->bytes = db + (h->gp ? cuzk_gpu_pce_bytes(h->gp) : 0);
        if (cd->bytes < placed_bytes(&cd->pl)) cd->bytes = placed_bytes(&cd->pl);
        c->last_stream = sj->stats;
        c->loads[1]++;
        c->load_s[1] += sj->stats.seconds;
    } else {
        unplace(h->e, cd);
    }
    if (!sj->pr && sj->st == CUZK_ENOMEM && res_device_shrank(h->e, &h->e->dev[sj->dev], NULL)) {
        c->replaced++; /* placed again under the cut budget on its next use, as device_load_ended says */
        c->load_failures[1]++;
    } else if (!sj->pr && sj->st && sj->st != CUZK_ECANCELLED) { /* a stopped stream says nothing of the device */
        cd->unfit = true;
        char id[64]; /* cd->why is inside c: its id is copied out first */
        snprintf(id, sizeof id, "%s", c->id);
        snprintf(cd->why, sizeof cd->why, "streaming the parameters of %s to device %d failed: %.250s", id, sj->dev,
                 sj->err);
        c->load_failures[1]++;
    }
}

/* The event "host load ended" (locked): the circuit's tiers, the budget's charge and the waiting
 * jobs follow from the load's outcome. */
static void host_load_ended(host_load_state *h)
{
    cuzk_engine *e = h->e;
    engine_circuit *c = h->c;
    ENGINE_LOCKED(e);
    c->host_loading = false;
    c->load_s[0] += cuzk_now() - h->t0;
    if (h->st) c->load_failures[0]++;
    else c->loads[0]++;
    stream_ended(h);
    /* the estimate made way for the load; the measured sizes replace it */
    host_release(e, c->host_need);
    if (h->st) {
        cuzk_pce_free(&h->pce);
        cuzk_groth16_params_free(&h->params);
        cuzk_groth16_vk_free(&h->vk);
        fail_jobs_of(e, c, h->st, h->err);
    } else {
        c->pce = h->pce;
        c->params = h->params;
        c->has_params = !c->synthetic && !h->streaming;
        c->vk = h->vk;
        c->has_vk = h->has_vk;
        c->ninputs = h->pce.num_inputs - 1;
        c->pce_bytes = pce_host_bytes(&h->pce);
        c->pce_stream_bytes = h->pce_stream_bytes;
        c->params_bytes = c->has_params ? params_host_bytes(&h->params) : 0;
        host_charge(e, c->pce_bytes + c->params_bytes);
        c->host_ready = true;
        c->load_error[0] = 0;
        c->load_status = CUZK_OK;
        c->last_used = cuzk_now();
    }
    load_task *t = h->t;
    if (t->job) {
        cuzk_timeline_graft(t->job->tl, -1, h->tl);
        job_unhold(e, t->job);
        t->job->waiting_load = false;
        sched_maybe_finish(e, t->job);
    }
    t->self->done = true;
    pthread_cond_broadcast(&e->work_cv);
    pthread_cond_broadcast(&e->done_cv);
}

/* Makes the circuit ready: its precompiled circuit recorded or loaded, its verifying key, and
 * its parameters either read into host memory or, when a GPU is in service and nothing needs a
 * host copy, streamed from the file to that GPU while the circuit is recorded (so the load
 * takes the longer of the two, not their sum, and host memory never holds the points). The
 * steps run unlocked, each doing nothing once one has failed; the outcome is applied locked. */
static void host_load(load_task *t)
{
    host_load_state *h = calloc(1, sizeof *h);
    if (!h) {
        engine_mutex_lock(&t->e->mu);
        t->c->host_loading = false;
        host_release(t->e, t->c->host_need);
        fail_jobs_of(t->e, t->c, CUZK_ENOMEM, "out of memory for a load");
        if (t->job) {
            job_unhold(t->e, t->job);
            t->job->waiting_load = false;
            sched_maybe_finish(t->e, t->job);
        }
        t->self->done = true;
        pthread_cond_broadcast(&t->e->done_cv);
        engine_mutex_unlock(&t->e->mu);
        return;
    }
    h->t = t;
    h->e = t->e;
    h->c = t->c;
    h->t0 = cuzk_now();
    h->pf.fd = -1;
    h->sj = (stream_job){.e = t->e, .c = t->c, .f = &h->pf, .watch = &t->watch, .dev = -1};
    h->tl = cuzk_timeline_create("load");
    char name[128];
    snprintf(name, sizeof name, "load %s (parameters, precompiled circuit)", t->c->id);
    h->top = cuzk_span_begin(h->tl, name);
    load_open_layout(h);
    load_circuit(h);
    load_params(h);
    load_key(h);
    load_cleanup(h);
    engine_mutex_lock(&h->e->mu);
    host_load_ended(h);
    engine_mutex_unlock(&h->e->mu);
    cuzk_timeline_destroy(h->tl);
    free(h);
}

/* A circuit's load onto a GPU as it went: the prover (its parameters) and the matrices made
 * there, the bytes they take, or why it failed. */
typedef struct {
    cuzk_gpu_prover *pr;
    cuzk_gpu_pce *gp;
    uint64_t bytes;
    cuzk_status st;
    char why[384];
    double t0;
} device_load_run;

/* The circuit's parameters on d, unlocked: made to its shape (synthetic), uploaded from the host
 * copy, or, with none, streamed from the file again (its layout checked against the circuit's). */
static cuzk_status device_params(cuzk_engine *e, engine_circuit *c, engine_device *d, const cuzk_gpu_placement *pl,
                                 const load_watch *watch, cuzk_gpu_prover **pr)
{
    cuzk_status stopped = load_watch_stop(watch);
    if (stopped) return stopped;
    if (c->synthetic) {
        const cuzk_gpu_shape s = shape_of_pce(&c->pce, 0, 0);
        cuzk_gpu_synthetic_shape sh = {s.n_h, s.n_l, s.n_a, s.n_b, s.num_inputs, 5};
        return cuzk_gpu_prover_create_synthetic_placed(d->gpu, pr, &sh, pl);
    }
    if (c->has_params) {
        const cuzk_groth16_params *p = &c->params;
        const size_t count[CUZK_PARAMS_SECTIONS] = {p->h_len, p->l_len, p->a_len, p->b_g1_len, p->b_g2_len};
        const void *pts[CUZK_PARAMS_SECTIONS] = {p->h, p->l, p->a, p->b_g1, p->b_g2};
        cuzk_status st = cuzk_gpu_prover_begin_placed(d->gpu, pr, count, &p->vk, pl);
        /* in pieces of the stream's size, so that a stopped load ends within one */
        for (int k = 0; k < CUZK_PARAMS_SECTIONS && !st; k++) {
            const size_t each = k == CUZK_PARAMS_B_G2 ? sizeof(blst_p2_affine) : sizeof(blst_p1_affine);
            const size_t per = UPLOAD_PIECE_BYTES / each;
            for (size_t first = 0; first < count[k] && !st; first += per) {
                size_t n = count[k] - first < per ? count[k] - first : per;
                st = load_watch_piece(watch, n);
                if (!st) st = cuzk_gpu_prover_put(*pr, k, first, n, (const uint8_t *)pts[k] + first * each);
            }
        }
        if (!st) st = cuzk_gpu_prover_commit(*pr);
        if (st) {
            cuzk_gpu_prover_destroy(*pr);
            *pr = NULL;
        }
        return st;
    }
    cuzk_groth16_params_file f;
    stream_stats ss = {0};
    cuzk_status st = cuzk_groth16_params_open(&f, c->params_path);
    if (!st && (f.vk.ic_len != c->pce.num_inputs || f.count[CUZK_PARAMS_L] != c->pce.num_aux))
        st = cuzk_fail(CUZK_EFORMAT, "%s changed since it was first loaded (its counts differ)", c->params_path);
    if (!st)
        st = stream_params_to_device(d->gpu, pl, &f, c->check_params ? CUZK_PARAMS_CHECKED : CUZK_PARAMS_UNCHECKED,
                                     cuzk_pool_size(e->lanes[0].pool), e->cfg.progress, watch, pr, &ss);
    cuzk_groth16_params_close(&f);
    if (!st) {
        engine_mutex_lock(&e->mu);
        c->last_stream = ss;
        engine_mutex_unlock(&e->mu);
    }
    return st;
}

/* The event "device load ended" (locked): the prover and matrices resident on the device, or
 * the device unfit for the circuit (a failure, or more bytes than its budget has room for even
 * after evicting idle circuits: what was made goes to the reclaimer); the load counted. */
static void device_load_ended(cuzk_engine *e, load_task *t, device_load_run *run)
{
    ENGINE_LOCKED(e);
    engine_circuit *c = t->c;
    engine_device *d = &e->dev[t->dev];
    circuit_on_device *cd = &c->dev[t->dev];
    cd->loading = false;
    if (run->st == CUZK_ECANCELLED) {
        unplace(e, cd); /* stopped: the device may take it later */
    } else if (run->st == CUZK_ENOMEM && res_device_shrank(e, d, NULL)) {
        /* another process took device memory since the budget was measured: the circuit is
         * placed again under the smaller budget on its next use (streamed where resident no
         * longer fits), not given up */
        unplace(e, cd);
        c->replaced++;
    } else if (run->st) {
        unplace(e, cd);
        cd->unfit = true;
        snprintf(cd->why, sizeof cd->why, "%s", run->why);
    } else if (device_resident(e, t->dev) + run->bytes > d->budget && !make_device_room(e, t->dev, run->bytes, c)) {
        cd->unfit = true;
        char id[64]; /* the message goes into c (cd->why): its id is copied out first */
        snprintf(id, sizeof id, "%s", c->id);
        snprintf(cd->why, sizeof cd->why,
                 "%s takes %llu bytes on %s (measured), more than the %llu left of its budget of %llu "
                 "(engine.device_budget, engine.device_reserve)",
                 id, (unsigned long long)run->bytes, d->name,
                 (unsigned long long)(d->budget - device_resident(e, t->dev)), (unsigned long long)d->budget);
        unplace(e, cd);
        device_garbage *g = calloc(1, sizeof *g);
        if (g) {
            g->prover = run->pr;
            g->pce = run->gp;
            reclaim_push_device(e, free_device_garbage, g, run->bytes, "a circuit over the device budget", t->dev);
        }
    } else {
        cd->prover = run->pr;
        cd->pce = run->gp;
        cd->bytes = run->bytes;
        c->last_used = cuzk_now();
    }
    c->load_s[1] += cuzk_now() - run->t0;
    if (cd->unfit || run->st == CUZK_ENOMEM) c->load_failures[1]++;
    else c->loads[1]++;
    t->self->done = true;
    pthread_cond_broadcast(&e->work_cv);
    pthread_cond_broadcast(&e->done_cv);
}

/* Makes the circuit resident on one GPU: its parameters, then its matrices (optional: without
 * them a, b, c are computed on the CPU); the bytes they take measured from the device's free
 * memory where that says more than the objects count. */
static void device_load(load_task *t)
{
    cuzk_engine *e = t->e;
    engine_circuit *c = t->c;
    engine_device *d = &e->dev[t->dev];
    device_load_run run = {.t0 = cuzk_now()};
    engine_mutex_lock(&e->mu);
    wait_device_reclaim(e, d);
    engine_mutex_unlock(&e->mu);
    size_t free0 = 0, free1 = 0, total = 0;
    if (cuzk_gpu_mem_info(d->gpu, &free0, &total)) free0 = 0;
    const cuzk_gpu_placement *pl = &c->dev[t->dev].pl; /* set before the load began, not changed during it */
    run.st = device_params(e, c, d, pl, &t->watch, &run.pr);
    if (run.st)
        snprintf(run.why, sizeof run.why, "the parameters of %s do not fit on %s (%s): %s", c->id, d->name,
                 cuzk_gpu_placement_name(pl->kind), cuzk_last_error());
    if (!run.st) run.gp = device_pce(d->gpu, &c->dev[t->dev], &c->pce);
    if (run.pr) {
        size_t db = 0, hb = 0;
        cuzk_gpu_prover_memory(run.pr, &db, &hb);
        run.bytes = db + (run.gp ? cuzk_gpu_pce_bytes(run.gp) : 0);
        if (!cuzk_gpu_mem_info(d->gpu, &free1, &total) && free0 > free1 && free0 - free1 > run.bytes)
            run.bytes = free0 - free1;
        if (run.bytes < placed_bytes(pl)) run.bytes = placed_bytes(pl);
    }
    engine_mutex_lock(&e->mu);
    device_load_ended(e, t, &run);
    engine_mutex_unlock(&e->mu);
}

/* A host copy of parameters that were streamed to a device, for the CPU backend (it proves
 * when no GPU is in service, or beside them). */
static void host_params_load(load_task *t)
{
    cuzk_engine *e = t->e;
    engine_circuit *c = t->c;
    cuzk_groth16_params params;
    cuzk_status st = cuzk_groth16_params_read_watched(&params, c->params_path,
                                                      c->check_params ? CUZK_PARAMS_CHECKED : CUZK_PARAMS_UNCHECKED,
                                                      load_watch_params_piece, &t->watch);
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
    t->watch = (load_watch){&l->stop, e->load_hook, e->load_hook_ctx, t->c->id};
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

unsigned res_stop_loaders(cuzk_engine *e)
{
    ENGINE_LOCKED(e);
    unsigned n = 0;
    for (loader *l = e->loaders; l; l = l->next) {
        if (l->done) continue;
        cuzk_cancel_set(&l->stop);
        n++;
    }
    return n;
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
     * size of the file's uncompressed ones); parameters a GPU may take from the file are left
     * out (the placement charges its page-locked copy, or maps them from a scratch file), and
     * charged by the load if none does */
    const bool later = !c->synthetic && gpu_may_take(e, c);
    uint64_t need = (c->synthetic || later ? 0 : file_bytes(c->params_path)) + file_bytes(c->pce_path);
    uint64_t fixed = res_fixed_bytes(e);
    if (need + fixed > e->host_budget) {
        char gpus[448], msg[1024];
        gpus_unfit_words(e, c, gpus, sizeof gpus);
        snprintf(msg, sizeof msg,
                 "circuit %s needs %llu bytes of host memory (parameters %s), more than the host budget of %llu "
                 "bytes (engine.host_budget) leaves beside the witness buffers' %llu bytes%s",
                 c->id, (unsigned long long)need, c->params_path ? c->params_path : "synthetic",
                 (unsigned long long)e->host_budget, (unsigned long long)fixed, gpus);
        fail_jobs_of(e, c, CUZK_EBUDGET, msg);
        return;
    }
    if (!res_make_host_room(e, need, c)) return; /* busy circuits hold the room: retried as they end */
    load_task *t = calloc(1, sizeof *t);
    if (!t) return;
    t->e = e;
    t->c = c;
    t->dev = -1;
    t->params_later = later;
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

bool res_abc_on_host(const cuzk_engine *e, const engine_circuit *c)
{
    ENGINE_LOCKED(e);
    bool some = false;
    for (unsigned i = 0; i < e->ndev; i++) {
        const circuit_on_device *cd = &c->dev[i];
        if (e->dev[i].ordinal < 0 || !e->dev[i].in_service || (!cd->prover && !cd->loading)) continue;
        if (cd->pce || (cd->loading && pce_wanted(cd))) return false;
        some = true;
    }
    return some;
}

bool res_want_device(cuzk_engine *e, engine_circuit *c, engine_device *d)
{
    ENGINE_LOCKED(e);
    circuit_on_device *cd = &c->dev[d->index];
    if (cd->unfit || !c->host_ready || e->stopping) return false;
    if (cd->loading || cd->prover) return true;
    /* the placement the circuit's shape and the device's budget give, and the room it takes */
    const cuzk_gpu_shape sh = shape_of_pce(&c->pce, c->pce_bytes, c->pce_stream_bytes);
    if (!place_on(e, c, d, &sh)) return false;
    if (!make_device_room(e, d->index, placed_bytes(&cd->pl), c)) { /* wait for busy circuits to go idle */
        unplace(e, cd);
        return true;
    }
    load_task *t = calloc(1, sizeof *t);
    if (!t) {
        unplace(e, cd);
        return false;
    }
    t->e = e;
    t->c = c;
    t->dev = d->index;
    cd->loading = true;
    if (!spawn(e, t)) {
        cd->loading = false;
        unplace(e, cd);
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
        queue_free(c);
        free(c->params_path);
        free(c->vk_path);
        free(c->pce_path);
        free(c);
    }
    e->circuits = NULL;
}

/* The partition prover on the GPU: parameters resident in device memory, the witness
 * uploaded on a copy stream while the NTTs run, H by the NTT pipeline, L/A/B by the 0/1
 * split and Pippenger, and bellperson's assembly on the host with blst (groth16-internals
 * §2.3-2.4). The same driver runs in host emulation for tests. */
#include "gpu/internal.cuh"
#include "gpu/gpu_emu.h"

extern "C" {
#include "cuzk/ff.h"
}

struct prover_bases {
    const g1_affine *h, *l, *a, *b1;
    const g2_affine *b2;
    size_t n_h, n_l, n_a, n_b, num_inputs;
};

struct prover_vk {
    blst_p1_affine alpha_g1, beta_g1, delta_g1;
    blst_p2_affine beta_g2, delta_g2;
};

static unsigned log2_ceil(size_t n)
{
    unsigned k = 0;
    while (((size_t)1 << k) < n) k++;
    return k;
}

static cuzk_status check_shape(const prover_bases &B, const cuzk_groth16_witness *w)
{
    cuzk_groth16_params p;
    memset(&p, 0, sizeof p);
    p.vk.ic_len = B.num_inputs;
    p.h_len = B.n_h;
    p.l_len = B.n_l;
    p.a_len = B.n_a;
    p.b_g1_len = B.n_b;
    p.b_g2_len = B.n_b;
    return cuzk_groth16_check_shape(&p, w);
}

/* The CPU prover's assembly on the vk points the prover keeps. */
static void assemble(cuzk_groth16_proof *out, const prover_vk &k, const cuzk_fr &r, const cuzk_fr &s,
                     const blst_p1 &h_msm, const blst_p1 &l_msm, const blst_p1 &a_msm, const blst_p1 &b1_msm,
                     const blst_p2 &b2_msm)
{
    cuzk_groth16_vk vk;
    memset(&vk, 0, sizeof vk);
    vk.alpha_g1 = k.alpha_g1;
    vk.beta_g1 = k.beta_g1;
    vk.delta_g1 = k.delta_g1;
    vk.beta_g2 = k.beta_g2;
    vk.delta_g2 = k.delta_g2;
    cuzk_groth16_assemble(out, &vk, &r, &s, &h_msm, &l_msm, &a_msm, &b1_msm, &b2_msm);
}

static size_t words_of(size_t bits) { return (bits + 63) / 64; }

template <class X>
static cuzk_status prove_impl(X &x, const ntt_tables &tb, const prover_bases &B, const prover_vk &vk,
                              const cuzk_groth16_witness *w, const cuzk_fr &r, const cuzk_fr &s, cuzk_groth16_proof *out)
{
    const unsigned lg = log2_ceil(w->n);
    const size_t N = (size_t)1 << lg, n = w->n, ni = w->num_inputs, na = w->num_aux;
    const size_t fb = sizeof(fr_t);
    blst_p1 h_msm, l_msm, a_msm, b1_msm, t1;
    blst_p2 b2_msm, t2;

    /* uploads: a, b, c first (the NTTs wait for each), then the assignment and densities */
    fr_t *da = (fr_t *)x.alloc(N * fb), *db = (fr_t *)x.alloc(N * fb), *dc = (fr_t *)x.alloc(N * fb);
    fr_t *d_aux = (fr_t *)x.alloc((na ? na : 1) * fb), *d_in = (fr_t *)x.alloc(ni * fb);
    uint64_t *d_aw = (uint64_t *)x.alloc(words_of(na) * 8 + 8), *d_biw = (uint64_t *)x.alloc(words_of(ni) * 8 + 8),
             *d_bw = (uint64_t *)x.alloc(words_of(na) * 8 + 8);
    if (!x.ok()) goto fail;
    x.zero(da + n, (N - n) * fb);
    x.zero(db + n, (N - n) * fb);
    x.zero(dc + n, (N - n) * fb);
    {
        int ua = x.upload(da, w->a, n * fb), ub = x.upload(db, w->b, n * fb), uc = x.upload(dc, w->c, n * fb);
        int ux = x.upload(d_aux, w->aux, na * fb);
        int ui = x.upload(d_in, w->input, ni * fb);
        int u1 = x.upload(d_aw, w->a_aux_density->words, words_of(na) * 8);
        int u2 = x.upload(d_biw, w->b_input_density->words, words_of(ni) * 8);
        int u3 = x.upload(d_bw, w->b_aux_density->words, words_of(na) * 8);

        ntt_h_pipeline(x, tb, da, db, dc, lg, ua, ub, uc);
        x.release(db);
        x.release(dc);
        db = dc = NULL;

        x.stage_begin("msm h");
        k_from_mont km = {da, da};
        x.parallel(N - 1, km);
        idx_map hm = {NULL, IDX_BITREV, 0, lg};
        msm_core_g1(x, B.h, da, hm, N - 1, NULL, &h_msm, NULL, NULL);
        x.stage_end();
        x.release(da);
        da = NULL;
        if (!x.ok()) goto fail;

        x.wait_upload(ux);
        x.wait_upload(ui);
        x.wait_upload(u1);
        x.wait_upload(u2);
        x.wait_upload(u3);
        split_scratch sc; /* inputs and aux append to one tail and one ones list */
        split_scratch_alloc(x, sc, na + ni);
        fr_t *tail_s = (fr_t *)x.alloc((na + ni) * fb);
        uint32_t *tail_idx = (uint32_t *)x.alloc((na + ni) * 4);
        density_map none = {NULL, NULL, 0};
        idx_map tm = {tail_idx, IDX_ARRAY, 0, 0};
        size_t cnt, n1, n1b;
        const uint32_t *ones_all = sc.ones_idx;

        /* L: every aux variable */
        x.stage_begin("msm l");
        cnt = msm_classify(x, d_aux, na, none, na, sc, tail_s, tail_idx, 0, 0, &n1);
        msm_ones_g1(x, ones_all, n1, B.l, &l_msm);
        if (cnt) {
            msm_core_g1(x, B.l, tail_s, tm, cnt, NULL, &t1, NULL, NULL);
            blst_p1_add_or_double(&l_msm, &l_msm, &t1);
        }
        x.stage_end();

        /* A: every input, then the aux with A density */
        x.stage_begin("msm a");
        cnt = msm_classify(x, d_in, ni, none, ni, sc, tail_s, tail_idx, 0, 0, &n1);
        {
            density_map dm = {d_aw, NULL, (uint32_t)ni};
            cnt += msm_classify(x, d_aux, na, dm, na, sc, tail_s, tail_idx, cnt, n1, &n1b);
            n1 += n1b;
        }
        msm_ones_g1(x, ones_all, n1, B.a, &a_msm);
        if (cnt) {
            msm_core_g1(x, B.a, tail_s, tm, cnt, NULL, &t1, NULL, NULL);
            blst_p1_add_or_double(&a_msm, &a_msm, &t1);
        }
        x.stage_end();

        /* B (G1 and G2 share the index set): inputs and aux with B density */
        x.stage_begin("msm b ones");
        {
            density_map di = {d_biw, NULL, 0};
            cnt = msm_classify(x, d_in, ni, di, ni, sc, tail_s, tail_idx, 0, 0, &n1);
            density_map da2 = {d_bw, NULL, (uint32_t)w->b_input_density->popcount};
            cnt += msm_classify(x, d_aux, na, da2, na, sc, tail_s, tail_idx, cnt, n1, &n1b);
            n1 += n1b;
            msm_ones_g1(x, ones_all, n1, B.b1, &b1_msm);
            msm_ones_g2(x, ones_all, n1, B.b2, &b2_msm);
        }
        x.stage_end();
        if (cnt) {
            x.stage_begin("msm b_g1 tail");
            msm_core_g1(x, B.b1, tail_s, tm, cnt, NULL, &t1, NULL, NULL);
            blst_p1_add_or_double(&b1_msm, &b1_msm, &t1);
            x.stage_end();
            x.stage_begin("msm b_g2 tail");
            msm_core_g2(x, B.b2, tail_s, tm, cnt, NULL, &t2, NULL, NULL);
            blst_p2_add_or_double(&b2_msm, &b2_msm, &t2);
            x.stage_end();
        }
        split_scratch_free(x, sc);
        x.release(tail_s);
        x.release(tail_idx);
    }
    x.release(d_aux);
    x.release(d_in);
    x.release(d_aw);
    x.release(d_biw);
    x.release(d_bw);
    x.sync();
    if (!x.ok()) return x.err;
    assemble(out, vk, r, s, h_msm, l_msm, a_msm, b1_msm, b2_msm);
    return CUZK_OK;
fail:
    x.release(da);
    x.release(db);
    x.release(dc);
    x.release(d_aux);
    x.release(d_in);
    x.release(d_aw);
    x.release(d_biw);
    x.release(d_bw);
    x.sync();
    return x.err ? x.err : cuzk_fail(CUZK_EINTERNAL, "GPU prover failed");
}

static cuzk_status pick_rs(const cuzk_fr *r_in, const cuzk_fr *s_in, cuzk_fr *r, cuzk_fr *s)
{
    cuzk_status st;
    if (r_in) *r = *r_in;
    else if ((st = cuzk_fr_random_os(r))) return st;
    if (s_in) *s = *s_in;
    else if ((st = cuzk_fr_random_os(s))) return st;
    return CUZK_OK;
}

static prover_vk vk_of(const cuzk_groth16_vk &v)
{
    prover_vk k;
    k.alpha_g1 = v.alpha_g1;
    k.beta_g1 = v.beta_g1;
    k.delta_g1 = v.delta_g1;
    k.beta_g2 = v.beta_g2;
    k.delta_g2 = v.delta_g2;
    return k;
}

/* ---------------------------------------------------------------- host emulation */
extern "C" cuzk_status cuzk_gpu_emu_prove(cuzk_groth16_proof *out, const cuzk_groth16_params *p,
                                          const cuzk_groth16_witness *w, const cuzk_fr *r_in, const cuzk_fr *s_in)
{
    prover_bases B = {(const g1_affine *)p->h, (const g1_affine *)p->l, (const g1_affine *)p->a,
                      (const g1_affine *)p->b_g1, (const g2_affine *)p->b_g2, p->h_len, p->l_len, p->a_len,
                      p->b_g1_len, p->vk.ic_len};
    cuzk_status st = check_shape(B, w);
    if (st) return st;
    cuzk_fr r, s;
    if ((st = pick_rs(r_in, s_in, &r, &s))) return st;
    exec_host x;
    return prove_impl(x, ntt_host_tables_get().view(), B, vk_of(p->vk), w, r, s, out);
}

/* ---------------------------------------------------------------- device prover (gpu.h) */
struct cuzk_gpu_prover {
    prover_vk vk;
    prover_bases B;
    void *mem; /* all five base arrays, one device allocation */
    size_t mem_bytes;
    exec_dev x;
};

static cuzk_status prover_alloc(cuzk_gpu_prover **out, size_t nh, size_t nl, size_t na, size_t nb, size_t ni)
{
    *out = NULL;
    cuzk_status st = gpu_init();
    if (st) return st;
    cuzk_gpu_prover *pr = new (std::nothrow) cuzk_gpu_prover();
    if (!pr) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    size_t g1 = sizeof(g1_affine), g2 = sizeof(g2_affine);
    size_t bytes = (nh + nl + na + nb) * g1 + nb * g2 + 5 * 256;
    cudaError_t e = cudaMalloc(&pr->mem, bytes);
    if (e != cudaSuccess) {
        delete pr;
        return cuzk_fail(CUZK_ENOMEM, "device memory for the parameters (%zu bytes): %s", bytes, cudaGetErrorString(e));
    }
    pr->mem_bytes = bytes;
    uint8_t *m = (uint8_t *)pr->mem;
    auto take = [&](size_t b) {
        uint8_t *p = m;
        m += (b + 255) & ~(size_t)255;
        return (void *)p;
    };
    pr->B.h = (const g1_affine *)take(nh * g1);
    pr->B.l = (const g1_affine *)take(nl * g1);
    pr->B.a = (const g1_affine *)take(na * g1);
    pr->B.b1 = (const g1_affine *)take(nb * g1);
    pr->B.b2 = (const g2_affine *)take(nb * g2);
    pr->B.n_h = nh;
    pr->B.n_l = nl;
    pr->B.n_a = na;
    pr->B.n_b = nb;
    pr->B.num_inputs = ni;
    if (!pr->x.init()) {
        st = pr->x.err;
        cuzk_gpu_prover_destroy(pr);
        return st;
    }
    *out = pr;
    return CUZK_OK;
}

extern "C" cuzk_status cuzk_gpu_prover_create(cuzk_gpu_prover **out, const cuzk_groth16_params *p)
{
    if (p->b_g1_len != p->b_g2_len) return cuzk_fail(CUZK_EINVAL, "b_g1 and b_g2 lengths differ");
    cuzk_status st = prover_alloc(out, p->h_len, p->l_len, p->a_len, p->b_g1_len, p->vk.ic_len);
    if (st) return st;
    cuzk_gpu_prover *pr = *out;
    pr->vk = vk_of(p->vk);
    struct {
        const void *dst, *src;
        size_t bytes;
    } up[5] = {{pr->B.h, p->h, p->h_len * sizeof(g1_affine)},
               {pr->B.l, p->l, p->l_len * sizeof(g1_affine)},
               {pr->B.a, p->a, p->a_len * sizeof(g1_affine)},
               {pr->B.b1, p->b_g1, p->b_g1_len * sizeof(g1_affine)},
               {pr->B.b2, p->b_g2, p->b_g2_len * sizeof(g2_affine)}};
    for (int i = 0; i < 5; i++) {
        cudaError_t e = cudaMemcpy((void *)up[i].dst, up[i].src, up[i].bytes, cudaMemcpyHostToDevice);
        if (e != cudaSuccess) {
            cuzk_gpu_prover_destroy(pr);
            *out = NULL;
            return cuzk_fail(CUZK_EINTERNAL, "uploading parameters: %s", cudaGetErrorString(e));
        }
    }
    return CUZK_OK;
}

extern "C" cuzk_status cuzk_gpu_prover_create_synthetic(cuzk_gpu_prover **out, const cuzk_gpu_synthetic_shape *sh)
{
    cuzk_status st = prover_alloc(out, sh->n_h, sh->n_l, sh->n_a, sh->n_b, sh->num_inputs);
    if (st) return st;
    cuzk_gpu_prover *pr = *out;
    exec_dev &x = pr->x;
    const size_t n1[4] = {sh->n_h, sh->n_l, sh->n_a, sh->n_b};
    const g1_affine *d1[4] = {pr->B.h, pr->B.l, pr->B.a, pr->B.b1};
    for (int i = 0; i < 4; i++) {
        g1_affine A, Q;
        synthetic_ab_g1(&A, &Q, sh->seed * 8 + (uint64_t)i);
        gen_points_g1(x, (g1_affine *)d1[i], n1[i], A, Q);
    }
    g2_affine A2, Q2;
    synthetic_ab_g2(&A2, &Q2, sh->seed * 8 + 5);
    gen_points_g2(x, (g2_affine *)pr->B.b2, sh->n_b, A2, Q2);
    x.sync();
    if (!x.ok()) {
        st = x.err;
        cuzk_gpu_prover_destroy(pr);
        *out = NULL;
        return st;
    }
    /* vk: random multiples of the generators */
    g1_affine a1, b1;
    synthetic_ab_g1(&a1, &b1, sh->seed * 8 + 6);
    memcpy(&pr->vk.alpha_g1, &a1, sizeof a1);
    memcpy(&pr->vk.beta_g1, &b1, sizeof b1);
    synthetic_ab_g1(&a1, &b1, sh->seed * 8 + 7);
    memcpy(&pr->vk.delta_g1, &a1, sizeof a1);
    g2_affine a2, b2;
    synthetic_ab_g2(&a2, &b2, sh->seed * 8 + 6);
    memcpy(&pr->vk.beta_g2, &a2, sizeof a2);
    memcpy(&pr->vk.delta_g2, &b2, sizeof b2);
    return CUZK_OK;
}

extern "C" void cuzk_gpu_prover_destroy(cuzk_gpu_prover *pr)
{
    if (!pr) return;
    pr->x.destroy();
    if (pr->mem) cudaFree(pr->mem);
    delete pr;
}

extern "C" cuzk_status cuzk_gpu_prove(cuzk_gpu_prover *pr, cuzk_groth16_proof *out, const cuzk_groth16_witness *w,
                                      const cuzk_fr *r_in, const cuzk_fr *s_in, cuzk_timeline *tl)
{
    cuzk_status st = check_shape(pr->B, w);
    if (st) return st;
    if (blst_p1_affine_is_inf(&pr->vk.delta_g1) || blst_p2_affine_is_inf(&pr->vk.delta_g2))
        return cuzk_fail(CUZK_EINVAL, "parameters have delta at infinity (a subverted setup)");
    cuzk_fr r, s;
    if ((st = pick_rs(r_in, s_in, &r, &s))) return st;
    ntt_tables tb;
    if ((st = ntt_device_tables(&tb))) return st;
    int span = cuzk_span_begin(tl, "prove (gpu)");
    exec_dev &x = pr->x;
    x.err = CUZK_OK;
    st = prove_impl(x, tb, pr->B, pr->vk, w, r, s, out);
    std::vector<std::pair<const char *, double>> stages;
    x.take_stages(stages);
    for (auto &sg : stages) cuzk_span_add(tl, span, sg.first, sg.second);
    for (auto e : x.upload_events) cudaEventDestroy(e);
    x.upload_events.clear();
    cuzk_span_end(tl, span);
    return st;
}

extern "C" void cuzk_gpu_prover_memory(const cuzk_gpu_prover *pr, size_t *device_bytes, size_t *pinned_host_bytes)
{
    size_t pool = 0;
    int dev = 0;
    cudaGetDevice(&dev);
    cudaMemPool_t mp;
    if (cudaDeviceGetDefaultMemPool(&mp, dev) == cudaSuccess) {
        uint64_t v = 0;
        if (cudaMemPoolGetAttribute(mp, cudaMemPoolAttrReservedMemHigh, &v) == cudaSuccess) pool = (size_t)v;
    }
    if (device_bytes) *device_bytes = pr->mem_bytes + pool;
    if (pinned_host_bytes) *pinned_host_bytes = 0;
}

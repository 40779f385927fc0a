/* The precompiled circuit in device memory (gpu.h): the three CSR matrices, the coefficient
 * table, the density bitmaps and the long-row plan of spmv.cuh in one allocation, uploaded
 * once; a, b, c are then computed on the device from the assignment. Or, streamed, everything
 * but the matrices, which stay page-locked in the host's copy and cross in chunks per proof.
 * Also the host emulation of the same evaluation, for tests without a GPU. */
#include "gpu/gpu_emu.h"
#include "gpu/internal.cuh"

extern "C" {
#include "cuzk/ff.h"
}

static size_t words_bytes(size_t bits) { return (bits + 63) / 64 * sizeof(uint64_t); }

/* Page-locks the host matrices of a streamed circuit in place (portable: every device's copies
 * run from them). A range some other handle (another device's) registered already is used as
 * it is, and left to that handle: once that one is destroyed, this one's copies run from
 * pageable memory, slower but the same bytes. */
static cuzk_status pin_matrices(cuzk_gpu_pce *g, const cuzk_pce *p)
{
    for (int k = 0; k < 3; k++) {
        const struct {
            const void *p;
            size_t bytes;
        } arr[3] = {
            {p->row_ptr[k], (p->num_constraints + 1) * 4}, {p->col[k], p->nnz[k] * 4}, {p->coeff[k], p->nnz[k] * 4}};
        for (const auto &a : arr) {
            if (!a.bytes) continue;
            cudaError_t e = cudaHostRegister((void *)a.p, a.bytes, cudaHostRegisterPortable);
            if (e == cudaErrorHostMemoryAlreadyRegistered) {
                cudaGetLastError();
                continue;
            }
            if (e != cudaSuccess) {
                cudaGetLastError();
                return cuzk_fail(CUZK_EDEVICE, "page-locking the precompiled circuit's matrices (%zu bytes): %s",
                                 a.bytes, cudaGetErrorString(e));
            }
            g->pinned.push_back((void *)a.p);
        }
    }
    return CUZK_OK;
}

static cuzk_status pce_create(cuzk_gpu_device *d, cuzk_gpu_pce **out, const cuzk_pce *p, bool streamed)
{
    *out = NULL;
    cuzk_status st = gpu_use(d);
    if (st) return st;
    cuzk_gpu_pce *g = new (std::nothrow) cuzk_gpu_pce();
    if (!g) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    spmv_plan plan[3];
    for (int k = 0; k < 3; k++) spmv_plan_build(plan[k], p->row_ptr[k], p->num_constraints, SPMV_SEG);
    for (int k = 0; streamed && k < 3; k++)
        if ((st = spmv_chunks_build(g->chunks[k], p->row_ptr[k], p->num_constraints, plan[k], CUZK_GPU_PCE_CHUNK_BYTES,
                                    k))) {
            cuzk_gpu_pce_destroy(g);
            return st;
        }
    if (streamed && (st = pin_matrices(g, p))) {
        cuzk_gpu_pce_destroy(g);
        return st;
    }

    /* every array, with its host source, in one device allocation */
    struct piece {
        const void *src;
        size_t bytes;
        void *dst;
    };
    std::vector<piece> pieces;
    auto add = [&](const void *src, size_t bytes) {
        pieces.push_back({src, bytes, NULL});
        return pieces.size() - 1;
    };
    size_t rp[3] = {0}, col[3] = {0}, cf[3] = {0}, lr[3], sb[3], se[3], gp[3][SPMV_MAX_LEVELS];
    for (int k = 0; k < 3; k++) {
        if (!streamed) {
            rp[k] = add(p->row_ptr[k], (p->num_constraints + 1) * 4);
            col[k] = add(p->col[k], p->nnz[k] * 4);
            cf[k] = add(p->coeff[k], p->nnz[k] * 4);
        }
        lr[k] = add(plan[k].long_row.data(), plan[k].long_row.size() * 4);
        sb[k] = add(plan[k].seg_begin.data(), plan[k].seg_begin.size() * 4);
        se[k] = add(plan[k].seg_end.data(), plan[k].seg_end.size() * 4);
        for (size_t l = 0; l < plan[k].grp_ptr.size(); l++)
            gp[k][l] = add(plan[k].grp_ptr[l].data(), plan[k].grp_ptr[l].size() * 4);
    }
    size_t co = add(p->coeffs, p->ncoeffs * sizeof(cuzk_fr));
    size_t aw = add(p->a_aux.words, words_bytes(p->num_aux));
    size_t biw = add(p->b_input.words, words_bytes(p->num_inputs));
    size_t bw = add(p->b_aux.words, words_bytes(p->num_aux));
    size_t bytes = 0;
    for (auto &pc : pieces) bytes += (pc.bytes + 255) & ~(size_t)255;
    cudaError_t e = cudaMalloc(&g->mem, bytes ? bytes : 1);
    if (e != cudaSuccess) {
        cudaGetLastError(); /* not left for this thread's next launch check */
        g->mem = NULL;
        cuzk_gpu_pce_destroy(g);
        return cuzk_fail(CUZK_ENOMEM, "device memory for the precompiled circuit (%zu bytes): %s", bytes,
                         cudaGetErrorString(e));
    }
    g->mem_bytes = bytes;
    uint8_t *m = (uint8_t *)g->mem;
    for (auto &pc : pieces) {
        pc.dst = m;
        m += (pc.bytes + 255) & ~(size_t)255;
        if (pc.bytes && (e = cudaMemcpy(pc.dst, pc.src, pc.bytes, cudaMemcpyHostToDevice)) != cudaSuccess) {
            cuzk_gpu_pce_destroy(g);
            return cuzk_fail(CUZK_EDEVICE, "uploading the precompiled circuit: %s", cudaGetErrorString(e));
        }
    }
    auto at = [&](size_t i) { return (const uint32_t *)pieces[i].dst; };
    pce_view &v = g->v;
    memset(&v, 0, sizeof v);
    v.nc = p->num_constraints;
    v.ni = p->num_inputs;
    v.na = p->num_aux;
    for (int k = 0; k < 3; k++) {
        const uint32_t *gpd[SPMV_MAX_LEVELS];
        for (size_t l = 0; l < plan[k].grp_ptr.size(); l++) gpd[l] = at(gp[k][l]);
        if (streamed) {
            spmv_matrix_set(v.m[k], plan[k], p->row_ptr[k], p->col[k], p->coeff[k], at(lr[k]), at(sb[k]), at(se[k]),
                            gpd);
            v.chunks[k] = g->chunks[k].data();
            v.nchunks[k] = g->chunks[k].size();
        } else {
            spmv_matrix_set(v.m[k], plan[k], at(rp[k]), at(col[k]), at(cf[k]), at(lr[k]), at(sb[k]), at(se[k]), gpd);
        }
    }
    v.chunk_bytes = streamed ? CUZK_GPU_PCE_CHUNK_BYTES : 0;
    v.coeffs = (const fr_t *)pieces[co].dst;
    v.a_aux_w = (const uint64_t *)pieces[aw].dst;
    v.b_in_w = (const uint64_t *)pieces[biw].dst;
    v.b_aux_w = (const uint64_t *)pieces[bw].dst;
    v.b_input_popcount = p->b_input.popcount;
    /* the shape checks need only the bitmaps' lengths and popcounts */
    const cuzk_density *src[3] = {&p->a_aux, &p->b_input, &p->b_aux};
    cuzk_density *dst[3] = {&g->a_aux, &g->b_input, &g->b_aux};
    for (int k = 0; k < 3; k++) {
        dst[k]->words = NULL;
        dst[k]->bits = src[k]->bits;
        dst[k]->popcount = src[k]->popcount;
    }
    if (!g->x.init(d)) {
        st = g->x.err;
        cuzk_gpu_pce_destroy(g);
        return st;
    }
    *out = g;
    return CUZK_OK;
}

extern "C" cuzk_status cuzk_gpu_pce_create(cuzk_gpu_device *d, cuzk_gpu_pce **out, const cuzk_pce *p)
{
    return pce_create(d, out, p, false);
}

extern "C" cuzk_status cuzk_gpu_pce_create_streamed(cuzk_gpu_device *d, cuzk_gpu_pce **out, const cuzk_pce *p)
{
    return pce_create(d, out, p, true);
}

extern "C" void cuzk_gpu_pce_destroy(cuzk_gpu_pce *g)
{
    if (!g) return;
    g->x.use();
    g->x.destroy();
    if (g->mem) cudaFree(g->mem);
    for (void *h : g->pinned) cudaHostUnregister(h);
    delete g;
}

extern "C" size_t cuzk_gpu_pce_bytes(const cuzk_gpu_pce *g) { return g ? g->mem_bytes : 0; }

/* a, b, c through host buffers with any executor: upload the assignment, evaluate, download */
template <class X>
static cuzk_status evaluate_impl(X &x, const pce_view &v, const cuzk_fr *input, const cuzk_fr *aux, cuzk_fr *a,
                                 cuzk_fr *b, cuzk_fr *c)
{
    const size_t n = v.nc + v.ni, fb = sizeof(fr_t);
    fr_t *d_in = (fr_t *)x.alloc(v.ni * fb), *d_aux = (fr_t *)x.alloc(v.na * fb);
    fr_t *d[3] = {(fr_t *)x.alloc(n * fb), (fr_t *)x.alloc(n * fb), (fr_t *)x.alloc(n * fb)};
    if (x.ok()) {
        x.to_dev(d_in, input, v.ni * fb);
        x.to_dev(d_aux, aux, v.na * fb);
        spmv_run(x, v, d_in, d_aux, d, n);
        cuzk_fr *h[3] = {a, b, c};
        for (int k = 0; k < 3; k++) x.to_host(h[k], d[k], n * fb);
    }
    x.release(d_in);
    x.release(d_aux);
    for (int k = 0; k < 3; k++) x.release(d[k]);
    x.sync();
    return x.err;
}

extern "C" cuzk_status cuzk_gpu_pce_evaluate(cuzk_gpu_pce *g, const cuzk_fr *input, const cuzk_fr *aux, cuzk_fr *a,
                                             cuzk_fr *b, cuzk_fr *c)
{
    g->x.err = CUZK_OK;
    if (!g->x.use()) return g->x.err;
    cudaGetLastError(); /* not this evaluation's: a failure of an earlier call on this thread */
    return evaluate_impl(g->x, g->v, input, aux, a, b, c);
}

extern "C" cuzk_status cuzk_gpu_emu_pce_evaluate(const cuzk_pce *p, unsigned seg, size_t chunk_bytes,
                                                 const cuzk_fr *input, const cuzk_fr *aux, cuzk_fr *a, cuzk_fr *b,
                                                 cuzk_fr *c)
{
    pce_host h;
    cuzk_status st = h.init(p, seg ? seg : SPMV_SEG, chunk_bytes);
    if (st) return st;
    exec_host x;
    return evaluate_impl(x, h.v, input, aux, a, b, c);
}

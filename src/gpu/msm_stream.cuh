/* MSMs over bases that stay in host memory (the streamed placement, for GPUs whose memory cannot
 * hold a circuit's parameters). The bases cross to the device a chunk of `cap` points at a time
 * through two buffers: chunk k + 1 is copied on the copy stream while chunk k is summed, so the
 * transfer hides behind the sums where the link is fast enough. Per chunk, the scalars whose
 * bases fall in it are found in the ascending index lists (a binary search on the device), their
 * one-scalar bases are added directly and the rest goes into the Pippenger buckets, which are
 * completed per chunk and merged (msm_pippenger::accumulate), so the result is the same sum as
 * the resident MSM's. With the scalar split (G1, glv.cuh), phi of each chunk is computed on the
 * device beside it: phi(H) never crosses the link. Where the stream carries a stream_ahead, the
 * MSM starts from the first chunk its predecessor copied ahead, and copies ahead the first chunk
 * of its successor in turn. */
#ifndef CUZK_GPU_MSM_STREAM_CUH
#define CUZK_GPU_MSM_STREAM_CUH

#include "gpu/msm_impl.cuh"

/* out[t] = the first i < n with list[i] >= t * cap (n if none), for t <= K: where each chunk's
 * entries begin in an ascending list of base indices */
struct k_chunk_bounds {
    const uint32_t *list;
    size_t n;
    uint64_t cap;
    uint32_t *out;
    HD void operator()(size_t t) const
    {
        const uint64_t key = (uint64_t)t * cap;
        size_t lo = 0, hi = n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if ((uint64_t)list[mid] < key) lo = mid + 1;
            else hi = mid;
        }
        out[t] = (uint32_t)lo;
    }
};

/* where chunk k's entries of an ascending list begin (K + 1 bounds, host) */
template <class X>
static void chunk_bounds(X &x, const uint32_t *list, size_t n, size_t cap, size_t K, std::vector<uint32_t> &out)
{
    out.assign(K + 1, 0);
    if (n == 0 || !x.ok()) return;
    uint32_t *d = (uint32_t *)x.alloc((K + 1) * 4);
    k_chunk_bounds kb = {list, n, (uint64_t)cap, d};
    x.parallel(K + 1, kb);
    x.to_host(out.data(), d, (K + 1) * 4);
    x.release(d);
}

/* sum_{i < cnt} scalars[i] bases[idx(i)] + sum_{j < n1} bases[ones[j]], idx(i) = tail_idx[i]
 * (or i when tail_idx is NULL); tail_idx and ones ascending, in executor memory; scalars
 * canonical. cfg's window limit applies; its chunk is the stream's cap. */
template <class X, class F, class P>
static cuzk_status msm_streamed(X &x, const base_stream<affine_t<F>> &bs, const fr_t *scalars, const uint32_t *tail_idx,
                                size_t cnt, const uint32_t *ones, size_t n1, const msm_config *cfg, P *out)
{
    typedef affine_t<F> A;
    memset(out, 0, sizeof *out);
    if (!x.ok()) return x.err;
    if (bs.n >= 0x7fffffffu || bs.cap == 0)
        return x.err = cuzk_fail(CUZK_EINTERNAL, "streamed MSM over %zu bases in chunks of %zu", bs.n, bs.cap);
    if (!tail_idx && cnt > bs.n) return x.err = cuzk_fail(CUZK_EINTERNAL, "%zu scalars for %zu bases", cnt, bs.n);
    const size_t K = (bs.n + bs.cap - 1) / bs.cap;
    std::vector<uint32_t> tb, ob;
    if (tail_idx) chunk_bounds(x, tail_idx, cnt, bs.cap, K, tb);
    else {
        tb.resize(K + 1);
        for (size_t k = 0; k <= K; k++) tb[k] = (uint32_t)(k * bs.cap < cnt ? k * bs.cap : cnt);
    }
    chunk_bounds(x, ones, ones ? n1 : 0, bs.cap, K, ob);
    std::vector<size_t> busy; /* the chunks with work, in order */
    for (size_t k = 0; k < K; k++)
        if (tb[k + 1] > tb[k] || ob[k + 1] > ob[k]) busy.push_back(k);
    msm_config mc;
    memset(&mc, 0, sizeof mc);
    if (cfg) mc = *cfg;
    const bool phi = sizeof(F) == sizeof(fp_t) && bs.phi;
    mc.phi_off = phi ? (uint32_t)bs.cap : 0;
    mc.chunk = bs.cap;
    msm_pippenger<X, F> pip;
    const bool tail = cnt > 0;
    if (tail) pip.begin(x, bs.buf[0], cnt, &mc, bs.cap);
    P ones_sum;
    memset(&ones_sum, 0, sizeof ones_sum);
    auto len_of = [&](size_t k) { return bs.n - k * bs.cap < bs.cap ? bs.n - k * bs.cap : bs.cap; };
    int tok[2] = {-1, -1}, stale = -1, p0 = 0; /* p0: busy[0]'s buffer */
    stream_ahead *ah = bs.ahead;
    if (ah && ah->slot >= 0) {
        const A *first = busy.empty() ? NULL : bs.host + busy[0] * bs.cap;
        if (first && ah->src == (const void *)first && ah->bytes == len_of(busy[0]) * sizeof(A)) {
            p0 = ah->slot;
            tok[p0] = ah->tok;
        } else { /* not what this MSM starts with: waited for at the end, its buffer reused after it */
            p0 = ah->slot ^ 1;
            stale = ah->tok;
        }
        ah->slot = -1;
    }
    const void *next = ah ? ah->next_src : NULL;
    const size_t next_bytes = ah ? ah->next_bytes : 0;
    if (ah) ah->next_src = NULL;
    if (!busy.empty() && tok[p0] < 0)
        tok[p0] = x.upload(bs.buf[p0], bs.host + busy[0] * bs.cap, len_of(busy[0]) * sizeof(A));
    for (size_t q = 0; q < busy.size() && x.ok(); q++) {
        const size_t k = busy[q], lo = k * bs.cap, len = len_of(k);
        const int b = (int)((q + p0) & 1);
        A *cur = bs.buf[b];
        x.wait_upload(tok[b]);
        /* ordered after the work issued so far, which includes the last reader of that buffer */
        if (q + 1 < busy.size()) {
            tok[b ^ 1] = x.upload(bs.buf[b ^ 1], bs.host + busy[q + 1] * bs.cap, len_of(busy[q + 1]) * sizeof(A));
        } else if (next) {
            ah->src = next;
            ah->bytes = next_bytes;
            ah->slot = b ^ 1;
            ah->tok = x.upload(bs.buf[b ^ 1], next, next_bytes);
        }
        if constexpr (sizeof(F) == sizeof(fp_t)) {
            if (phi) {
                k_phi_g1 kp = {cur, cur + bs.cap};
                x.parallel(len, kp);
            }
        }
        if (ob[k + 1] > ob[k]) {
            xyzz_t<F> s;
            msm_ones<X, F>(x, ones + ob[k], ob[k + 1] - ob[k], cur, &s, (uint32_t)lo);
            P t;
            to_blst(&t, s);
            blst_add(&ones_sum, &ones_sum, &t);
        }
        for (size_t a = tb[k]; a < tb[k + 1] && x.ok(); a += pip.chunk) {
            const size_t m = tb[k + 1] - a < pip.chunk ? tb[k + 1] - a : pip.chunk;
            idx_map map = {tail_idx, tail_idx ? (uint32_t)IDX_ARRAY : (uint32_t)IDX_IDENTITY, 0, 0, (uint32_t)lo};
            pip.bases = cur;
            pip.add(scalars + a, map, a, m);
        }
        x.mark("streamed chunk");
    }
    /* a copy still in flight (after a failure or a cancel) must land before the buffers go */
    x.wait_upload(tok[0]);
    x.wait_upload(tok[1]);
    x.wait_upload(stale);
    if (ah && ah->slot >= 0 && !x.ok()) {
        x.wait_upload(ah->tok);
        ah->slot = -1;
    }
    P sum;
    memset(&sum, 0, sizeof sum);
    if (tail) {
        static thread_local xyzz_t<F> lv[MSM_MAX_WINDOWS * MSM_MAX_LEVELS];
        unsigned nlev = 0, nw = 0, c = 0;
        if (pip.finish(lv, &nw, &c, &nlev) == CUZK_OK && x.ok())
            windows_to_blst<F, P>(lv, nw, c, nlev, msm_reduce_bits(*x.cfg), &sum);
    }
    x.sync();
    if (!x.ok()) return x.err;
    blst_add(out, &ones_sum, &sum);
    return CUZK_OK;
}

#endif

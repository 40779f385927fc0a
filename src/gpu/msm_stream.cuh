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
 * of its successor in turn. Each MSM is an object issued a chunk at a time (step), so that the
 * prover can run two beside each other on one compute stream, their chunks interleaved. */
#ifndef CUZK_GPU_MSM_STREAM_CUH
#define CUZK_GPU_MSM_STREAM_CUH

#include <memory>

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

/* The chunks of a base stream that have work (busy, ascending), copied in turn through the
 * stream's ring of nbuf buffers. start() issues the copies of the first nbuf (the first may be
 * the one the MSM before copied ahead); take(q) waits for chunk busy[q]; done(q), once chunk q's
 * work is issued, issues the copy of chunk q + nbuf into the buffer q leaves (ordered after the
 * work issued so far, which includes that buffer's last reader), or, where q + nbuf is one past
 * the last, the next MSM's first chunk (the copy ahead). So nbuf - 1 chunks' copies can cross
 * the link while chunk q and whatever else the compute stream runs between this MSM's chunks
 * (another MSM's, beside it) are summed. end() waits for every copy still in flight (after a
 * failure or a cancel), since the buffers go after it. */
template <class X, class A> struct chunk_feed {
    X *x = nullptr;
    const base_stream<A> *bs = nullptr;
    const std::vector<size_t> *busy = nullptr;
    int tok[STREAM_BUFS_MAX] = {-1, -1, -1, -1}, stale = -1;
    unsigned p0 = 0, nb = 2; /* p0: busy[0]'s buffer */
    stream_ahead *ah = nullptr;
    const void *next = NULL;
    size_t next_bytes = 0;

    size_t len_of(size_t k) const { return bs->n - k * bs->cap < bs->cap ? bs->n - k * bs->cap : bs->cap; }
    unsigned buf_of(size_t q) const { return (unsigned)((q + p0) % nb); }
    void copy(size_t q)
    {
        const size_t k = (*busy)[q];
        tok[buf_of(q)] = x->upload(bs->buf[buf_of(q)], bs->host + k * bs->cap, len_of(k) * sizeof(A));
    }
    void copy_ahead(unsigned b)
    {
        if (!next) return;
        ah->src = next;
        ah->bytes = next_bytes;
        ah->slot = (int)b;
        ah->tok = x->upload(bs->buf[b], next, next_bytes);
        next = NULL;
    }

    void start(X &xx, const base_stream<A> &b, const std::vector<size_t> &bz)
    {
        x = &xx;
        bs = &b;
        busy = &bz;
        nb = b.nbuf >= 2 && b.nbuf <= STREAM_BUFS_MAX ? b.nbuf : 2;
        ah = b.ahead;
        if (ah && ah->slot >= 0 && (unsigned)ah->slot < nb) {
            const A *first = bz.empty() ? NULL : b.host + bz[0] * b.cap;
            if (first && ah->src == (const void *)first && ah->bytes == len_of(bz[0]) * sizeof(A)) {
                p0 = (unsigned)ah->slot;
                tok[p0] = ah->tok;
            } else { /* not what this MSM starts with: waited for at the end, its buffer the last one used */
                p0 = ((unsigned)ah->slot + 1) % nb;
                stale = ah->tok;
            }
            ah->slot = -1;
        }
        next = ah ? ah->next_src : NULL;
        next_bytes = ah ? ah->next_bytes : 0;
        if (ah) ah->next_src = NULL;
        if (bz.empty()) {
            next = NULL;
            return;
        }
        for (size_t q = 0; q < nb && q < bz.size(); q++)
            if (q > 0 || tok[p0] < 0) copy(q);
        if (bz.size() < nb) copy_ahead(buf_of(bz.size()));
    }

    A *take(size_t q)
    {
        x->wait_upload(tok[buf_of(q)]);
        return bs->buf[buf_of(q)];
    }

    void done(size_t q)
    {
        if (q + nb < busy->size()) copy(q + nb);
        else if (q + nb == busy->size()) copy_ahead(buf_of(q));
    }

    void end()
    {
        if (!x) return; /* never started */
        for (unsigned b = 0; b < nb; b++) x->wait_upload(tok[b]);
        x->wait_upload(stale);
        if (ah && ah->slot >= 0 && !x->ok()) {
            x->wait_upload(ah->tok);
            ah->slot = -1;
        }
    }
};

/* the Pippenger windows' sum into out (nothing when the MSM had no tail) */
template <class X, class F, class P>
static void reduce_to_blst(X &x, msm_pippenger<X, F> &pip, const xyzz_t<F> *bk, P *out)
{
    static thread_local xyzz_t<F> lv[MSM_MAX_WINDOWS * MSM_MAX_LEVELS];
    unsigned nlev = 0, nw = 0, c = 0;
    if (pip.reduce(bk, lv, &nw, &c, &nlev) == CUZK_OK && x.ok())
        windows_to_blst<F, P>(lv, nw, c, nlev, msm_reduce_bits(*x.cfg), out);
}

/* sum_{i < cnt} scalars[i] bases[idx(i)] + sum_{j < n1} bases[ones[j]], idx(i) = tail_idx[i]
 * (or i when tail_idx is NULL); tail_idx and ones ascending, in executor memory; scalars
 * canonical. cfg's window limit applies; its chunk is the stream's cap. Issued a chunk at a time
 * (step), so that another MSM's chunks can run between this one's (msm_steps). */
template <class X, class F, class P> struct streamed_single {
    X *x = nullptr;
    base_stream<affine_t<F>> bs;
    const fr_t *scalars = nullptr;
    const uint32_t *tail_idx = nullptr, *ones = nullptr;
    size_t cnt = 0, q = 0;
    std::vector<uint32_t> tb, ob;
    std::vector<size_t> busy; /* the chunks with work, in order */
    bool phi = false, tail = false, begun = false;
    bool ahead = false; /* chunk q + 1's digits sorted on the side stream while chunk q is summed */
    int ready = -1;     /* that side work's token */
    msm_pippenger<X, F> pip;
    P ones_sum;
    chunk_feed<X, affine_t<F>> feed;

    cuzk_status begin(X &xx, const base_stream<affine_t<F>> &b, const fr_t *s, const uint32_t *ti, size_t c,
                      const uint32_t *o, size_t n1, const msm_config *cfg)
    {
        x = &xx;
        bs = b;
        scalars = s;
        tail_idx = ti;
        cnt = c;
        ones = o;
        memset(&ones_sum, 0, sizeof ones_sum);
        if (!xx.ok()) return xx.err;
        if (bs.n >= 0x7fffffffu || bs.cap == 0)
            return xx.err = cuzk_fail(CUZK_EINTERNAL, "streamed MSM over %zu bases in chunks of %zu", bs.n, bs.cap);
        if (!tail_idx && cnt > bs.n) return xx.err = cuzk_fail(CUZK_EINTERNAL, "%zu scalars for %zu bases", cnt, bs.n);
        const size_t K = (bs.n + bs.cap - 1) / bs.cap;
        if (tail_idx) chunk_bounds(xx, tail_idx, cnt, bs.cap, K, tb);
        else {
            tb.resize(K + 1);
            for (size_t k = 0; k <= K; k++) tb[k] = (uint32_t)(k * bs.cap < cnt ? k * bs.cap : cnt);
        }
        chunk_bounds(xx, ones, ones ? n1 : 0, bs.cap, K, ob);
        for (size_t k = 0; k < K; k++)
            if (tb[k + 1] > tb[k] || ob[k + 1] > ob[k]) busy.push_back(k);
        msm_config mc;
        memset(&mc, 0, sizeof mc);
        if (cfg) mc = *cfg;
        phi = sizeof(F) == sizeof(fp_t) && bs.phi;
        mc.phi_off = phi ? (uint32_t)bs.cap : 0;
        mc.chunk = bs.cap;
        tail = cnt > 0;
        if (tail) pip.begin(xx, bs.buf[0], cnt, &mc, bs.cap);
        /* ahead only where each chunk's tail is one piece of the pipeline (its two sets of keys
         * and values alternate from chunk to chunk) */
        ahead = tail && mc.sort_ahead && pip.chunk >= bs.cap && busy.size() > 1;
        if (ahead) {
            for (int set = 0; set < 2; set++) {
                if (!pip.keys[set]) pip.keys[set] = (uint32_t *)xx.alloc(pip.M * 4);
                if (!pip.vals[set]) pip.vals[set] = (uint32_t *)xx.alloc(pip.M * 4);
            }
            prepare(0);
        }
        feed.start(xx, bs, busy);
        begun = true;
        return xx.err;
    }

    /* where the tail's scalar i has its base in chunk k's buffer */
    idx_map chunk_map(size_t k) const
    {
        return {tail_idx, tail_idx ? (uint32_t)IDX_ARRAY : (uint32_t)IDX_IDENTITY, 0, 0, (uint32_t)(k * bs.cap)};
    }

    /* the digits of busy chunk qq's tail, sorted into set qq & 1 (ahead: one piece per chunk) */
    void prepare(size_t qq)
    {
        const size_t k = busy[qq];
        if (tb[k + 1] > tb[k]) pip.prepare((int)(qq & 1), scalars + tb[k], chunk_map(k), tb[k], tb[k + 1] - tb[k]);
    }

    /* the fraction of the chunks issued */
    double progress() const { return busy.empty() ? 1.0 : (double)q / (double)busy.size(); }

    /* issues the next chunk's work; false once every chunk is issued or the executor failed */
    bool step()
    {
        if (!begun || q >= busy.size() || !x->ok()) return false;
        const size_t k = busy[q], lo = k * bs.cap, len = feed.len_of(k);
        if (ahead && q + 1 < busy.size()) {
            /* ordered after the work issued so far: after the sums of chunk q - 1, the last to
             * read the set it fills; the sort is memory-bound, the sums multiplication-bound */
            x->side_begin(-1, false);
            prepare(q + 1);
            ready = x->side_end();
        }
        affine_t<F> *cur = feed.take(q);
        if constexpr (sizeof(F) == sizeof(fp_t)) {
            if (phi) {
                k_phi_g1 kp = {cur, cur + bs.cap};
                x->parallel(len, kp);
            }
        }
        if (ob[k + 1] > ob[k]) {
            xyzz_t<F> s;
            msm_ones<X, F>(*x, ones + ob[k], ob[k + 1] - ob[k], cur, &s, (uint32_t)lo);
            P t;
            to_blst(&t, s);
            blst_add(&ones_sum, &ones_sum, &t);
        }
        if (ahead) {
            pip.bases = cur;
            pip.accumulate((int)(q & 1), tb[k + 1] - tb[k]);
            x->wait_upload(ready); /* chunk q + 1's sort, before its sums */
            ready = -1;
        } else {
            for (size_t a = tb[k]; a < tb[k + 1] && x->ok(); a += pip.chunk) {
                const size_t m = tb[k + 1] - a < pip.chunk ? tb[k + 1] - a : pip.chunk;
                pip.bases = cur;
                pip.add(scalars + a, chunk_map(k), a, m);
            }
        }
        feed.done(q);
        x->mark("streamed chunk");
        q++;
        return q < busy.size() && x->ok();
    }

    /* waits for the copies, reduces the buckets: the sum into out */
    cuzk_status finish(P *out)
    {
        memset(out, 0, sizeof *out);
        if (!begun) return x ? x->err : CUZK_OK;
        feed.end();
        P sum;
        memset(&sum, 0, sizeof sum);
        if (tail) {
            pip.release_scratch();
            reduce_to_blst<X, F, P>(*x, pip, pip.buckets, &sum);
            x->release(pip.buckets);
        }
        x->sync();
        if (!x->ok()) return x->err;
        blst_add(out, &ones_sum, &sum);
        return CUZK_OK;
    }
};

/* Where each chunk's variables begin in one segment (K + 1 bounds, host): the variable of rank
 * clamp(t cap - off, 0, pop), through the density's ranks (made in `rank`, nwords + 1 words). */
template <class X>
static void segment_bounds(X &x, const stream_seg &g, size_t cap, size_t K, uint32_t *rank, std::vector<uint32_t> &out)
{
    out.assign(K + 1, 0);
    std::vector<uint32_t> d(K + 1);
    for (size_t t = 0; t <= K; t++) {
        const uint64_t at = (uint64_t)t * cap;
        d[t] = at <= g.off ? 0 : at - g.off >= g.pop ? g.pop : (uint32_t)(at - g.off);
    }
    if (!g.words) {
        out = d;
        return;
    }
    if (!x.ok()) return;
    const size_t nwords = (g.nvars + 63) / 64;
    uint32_t *pc = (uint32_t *)x.alloc(nwords * 4 + 4);
    uint32_t *dd = (uint32_t *)x.alloc((K + 1) * 4), *o = (uint32_t *)x.alloc((K + 1) * 4);
    if (!x.ok() || !rank) {
        x.release(pc);
        x.release(dd);
        x.release(o);
        return;
    }
    k_popc_words kp = {g.words, g.nvars, pc};
    x.parallel(nwords, kp);
    x.exclusive_sum(pc, rank, nwords);
    x.release(pc);
    x.to_dev(dd, d.data(), (K + 1) * 4);
    k_density_select ks = {g.words, rank, nwords, g.nvars, dd, o};
    x.parallel(K + 1, ks);
    x.to_host(out.data(), o, (K + 1) * 4);
    x.release(dd);
    x.release(o);
}

/* nj MSMs over the same streamed bases (the partitions of a batch), each chunk copied once and
 * summed into every MSM's buckets: out[j] = sum over job j's segments of s[v] bases[base(v)].
 * Each chunk's variables are classified (0/1 split) as the chunk comes, V = cap at a time, so no
 * MSM keeps a tail of its whole length (a compact segment's values are expanded first, V at a
 * time, into one scratch); the Pippenger scratch is shared, the buckets are each MSM's. cfg's
 * window limit applies. Issued a chunk at a time, as streamed_single. */
template <class X, class F, class P> struct streamed_batch {
    typedef xyzz_t<F> XP;
    X *x = nullptr;
    base_stream<affine_t<F>> bs;
    std::vector<stream_job> jobs;
    size_t nj = 0, V = 0, most = 0, q = 0;
    std::vector<std::vector<uint32_t>> vb; /* per job and segment: where each chunk's variables begin */
    std::vector<uint32_t *> ranks;
    std::vector<size_t> busy;
    msm_config mc;
    msm_pippenger<X, F> pip;
    std::vector<XP *> bk; /* the first job's buckets are the pipeline's own; the others' are made here */
    std::vector<char> fresh;
    std::vector<P> ones_sum;
    split_scratch sc;
    fr_t *tail_s = nullptr;
    uint32_t *tail_idx = nullptr;
    fr_t *expanded = nullptr; /* a piece of a compact segment's values, in full */
    bool begun = false, started = false;
    chunk_feed<X, affine_t<F>> feed;

    cuzk_status begin(X &xx, const base_stream<affine_t<F>> &b, const stream_job *jb, size_t n, const msm_config *cfg)
    {
        x = &xx;
        bs = b;
        jobs.assign(jb, jb + n);
        nj = n;
        ones_sum.resize(nj);
        for (size_t j = 0; j < nj; j++) memset(&ones_sum[j], 0, sizeof(P));
        memset(&sc, 0, sizeof sc);
        if (!xx.ok()) return xx.err;
        if (bs.n >= 0x7fffffffu || bs.cap == 0)
            return xx.err = cuzk_fail(CUZK_EINTERNAL, "streamed MSM over %zu bases in chunks of %zu", bs.n, bs.cap);
        const size_t K = (bs.n + bs.cap - 1) / bs.cap;
        V = bs.cap;
        vb.resize(nj * 2);
        ranks.assign(nj * 2, (uint32_t *)NULL);
        started = true;
        for (size_t j = 0; j < nj; j++) {
            size_t pop = 0;
            for (unsigned g = 0; g < jobs[j].nseg; g++) {
                const stream_seg &sg = jobs[j].seg[g];
                if ((uint64_t)sg.off + sg.pop > bs.n || sg.nvars >= 0x7fffffffu || (!sg.words && sg.pop > sg.nvars) ||
                    !sg.s == !sg.cw || (sg.cw && sg.cw->nvars != sg.nvars)) {
                    xx.err =
                        cuzk_fail(CUZK_EINTERNAL, "MSM segment of %u bases at %u, %zu variables (%s), over %zu bases",
                                  sg.pop, sg.off, sg.nvars,
                                  sg.cw      ? "compact"
                                      : sg.s ? "full"
                                             : "no values",
                                  bs.n);
                    return xx.err;
                }
                if (sg.words) ranks[j * 2 + g] = (uint32_t *)xx.alloc(((sg.nvars + 63) / 64) * 4 + 4);
                segment_bounds(xx, sg, bs.cap, K, ranks[j * 2 + g], vb[j * 2 + g]);
                pop += sg.pop;
            }
            if (pop > most) most = pop;
            for (unsigned g = 0; g < jobs[j].nseg; g++)
                if (jobs[j].seg[g].cw && !expanded) expanded = (fr_t *)xx.alloc(V * sizeof(fr_t));
        }
        for (size_t k = 0; k < K; k++) {
            bool any = false;
            for (size_t j = 0; j < nj && !any; j++)
                for (unsigned g = 0; g < jobs[j].nseg; g++) any |= vb[j * 2 + g][k + 1] > vb[j * 2 + g][k];
            if (any) busy.push_back(k);
        }
        memset(&mc, 0, sizeof mc);
        if (cfg) mc = *cfg;
        mc.phi_off = 0;
        mc.chunk = V;
        mc.merges = busy.empty() ? 0 : (unsigned)busy.size() - 1;
        bk.assign(nj, (XP *)NULL);
        fresh.assign(nj, 1);
        if (most && !busy.empty()) {
            split_scratch_alloc(xx, sc, V, V);
            tail_s = (fr_t *)xx.alloc(V * sizeof(fr_t));
            tail_idx = (uint32_t *)xx.alloc(V * 4);
        }
        feed.start(xx, bs, busy);
        return xx.err;
    }

    double progress() const { return busy.empty() ? 1.0 : (double)q / (double)busy.size(); }

    bool step()
    {
        if (!started || q >= busy.size() || !x->ok()) return false;
        X &xx = *x;
        const size_t k = busy[q], lo = k * bs.cap;
        affine_t<F> *cur = feed.take(q);
        pip.bases = cur;
        for (size_t j = 0; j < nj && xx.ok(); j++) {
            pip.buckets = bk[j];
            pip.first = fresh[j] != 0;
            for (unsigned g = 0; g < jobs[j].nseg; g++) {
                const stream_seg &sg = jobs[j].seg[g];
                const uint32_t v0 = vb[j * 2 + g][k], v1 = vb[j * 2 + g][k + 1];
                for (uint32_t v = v0; v < v1 && xx.ok(); v += (uint32_t)V) {
                    const size_t len = v1 - v < V ? v1 - v : V;
                    density_map dm = {sg.words, ranks[j * 2 + g], sg.off, v};
                    size_t n1 = 0;
                    /* a compact segment's values in full, for the classification as it is */
                    if (sg.cw) compact_expand(xx, *sg.cw, v, len, expanded);
                    const fr_t *s = sg.cw ? expanded : sg.s + v;
                    const size_t cnt = msm_classify(xx, s, len, dm, sg.nvars, sc, tail_s, tail_idx, 0, 0, &n1);
                    if (n1) {
                        XP s1;
                        msm_ones<X, F>(xx, sc.ones_idx, n1, cur, &s1, (uint32_t)lo);
                        P t;
                        to_blst(&t, s1);
                        blst_add(&ones_sum[j], &ones_sum[j], &t);
                    }
                    if (cnt && !begun) {
                        /* the windows for the tail this first piece predicts for the whole MSM
                         * (the 0/1 scalars, most of some, never reach the buckets), then every
                         * job's buckets: the pipeline's own are job 0's */
                        const size_t est = (size_t)((double)cnt * (double)most / (double)len + 0.5);
                        pip.begin(xx, bs.buf[0], est < cnt ? cnt : est > most ? most : est, &mc, V);
                        pip.bases = cur;
                        bk[0] = pip.buckets;
                        for (size_t i = 1; i < nj; i++) {
                            bk[i] = (XP *)xx.alloc(pip.nb * sizeof(XP));
                            if (xx.ok()) xx.zero(bk[i], pip.nb * sizeof(XP));
                        }
                        pip.buckets = bk[j];
                        pip.first = true;
                        begun = true;
                    }
                    for (size_t a = 0; a < cnt && xx.ok(); a += pip.chunk) {
                        const size_t m = cnt - a < pip.chunk ? cnt - a : pip.chunk;
                        idx_map map = {tail_idx, IDX_ARRAY, 0, 0, (uint32_t)lo};
                        pip.add(tail_s + a, map, a, m);
                    }
                }
            }
            fresh[j] = pip.first;
        }
        feed.done(q);
        xx.mark("streamed chunk (batch)");
        q++;
        return q < busy.size() && xx.ok();
    }

    cuzk_status finish(P *out)
    {
        for (size_t j = 0; j < nj; j++) memset(&out[j], 0, sizeof out[j]);
        if (!started) return x ? x->err : CUZK_OK;
        X &xx = *x;
        feed.end();
        split_scratch_free(xx, sc);
        xx.release(tail_s);
        xx.release(tail_idx);
        xx.release(expanded);
        for (size_t i = 0; i < ranks.size(); i++) xx.release(ranks[i]);
        std::vector<P> sums(nj);
        for (size_t j = 0; j < nj; j++) memset(&sums[j], 0, sizeof(P));
        if (begun) {
            pip.release_scratch();
            for (size_t j = 0; j < nj; j++) {
                if (!fresh[j]) reduce_to_blst<X, F, P>(xx, pip, bk[j], &sums[j]);
                xx.release(bk[j]);
            }
        }
        xx.sync();
        if (!xx.ok()) return xx.err;
        for (size_t j = 0; j < nj; j++) blst_add(&out[j], &ones_sum[j], &sums[j]);
        return CUZK_OK;
    }
};

/* A streamed MSM behind an interface that names no curve, so that the prover can interleave two
 * (the H MSM and the L, A, B MSMs beside it) chunk by chunk. */
template <class M, class P> struct msm_steps_of : msm_steps {
    M m;
    P *out = nullptr;
    bool step() override { return m.step(); }
    double progress() const override { return m.progress(); }
    cuzk_status finish() override { return m.finish(out); }
};

template <class X, class F, class P>
static std::unique_ptr<msm_steps> streamed_steps(X &x, const base_stream<affine_t<F>> &bs, const fr_t *scalars,
                                                 const uint32_t *tail_idx, size_t cnt, const uint32_t *ones, size_t n1,
                                                 const msm_config *cfg, P *out)
{
    std::unique_ptr<msm_steps_of<streamed_single<X, F, P>, P>> s(new msm_steps_of<streamed_single<X, F, P>, P>());
    s->out = out;
    s->m.begin(x, bs, scalars, tail_idx, cnt, ones, n1, cfg);
    return s;
}

template <class X, class F, class P>
static std::unique_ptr<msm_steps> streamed_batch_steps(X &x, const base_stream<affine_t<F>> &bs, const stream_job *jobs,
                                                       size_t nj, const msm_config *cfg, P *out)
{
    std::unique_ptr<msm_steps_of<streamed_batch<X, F, P>, P>> s(new msm_steps_of<streamed_batch<X, F, P>, P>());
    s->out = out;
    s->m.begin(x, bs, jobs, nj, cfg);
    return s;
}

#endif

/* The partition prover on the GPU: parameters resident in device memory, H by the NTT
 * pipeline, L/A/B by the 0/1 split and Pippenger, and bellperson's assembly on the host with
 * blst (cuzk_groth16_assemble, the CPU prover's; src/groth16/prover.c gives the formulas).
 * Two entry points share these stages (prove_core): one uploads a, b, c made on the host with
 * the assignment (on a copy stream, while the NTTs run); the other uploads only the assignment
 * and computes a, b, c on the device from the resident precompiled circuit (spmv.cuh). The
 * same driver runs in host emulation for tests. */
#include <atomic>
#include <mutex>
#include <string>
#include <thread>

#include "gpu/internal.cuh"
#include "gpu/gpu_emu.h"

extern "C" {
#include "cuzk/ff.h"
}

struct prover_bases {
    const g1_affine *h, *l, *a, *b1;
    const g2_affine *b2;
    size_t n_h, n_l, n_a, n_b, num_inputs;
    uint32_t h_phi; /* phi(H) at h + h_phi (the H MSM's scalar split, glv.cuh), or 0 */
    /* streamed placement: the bases above are in host memory, copied `cap` points at a time
     * during each MSM (msm_stream.cuh), and the stages run one after another; 0: resident */
    size_t cap;
    bool phi_stream;  /* streamed: phi of each H chunk made on the device, for the split */
    unsigned c_max;   /* streamed: most window bits of L, A, B (the buckets' memory) */
    unsigned c_max_h; /* streamed: the same for H */
    /* streamed: the L, A and B MSMs run beside the last proof's H MSM, their chunks interleaved
     * with its chunks through buffers of their own (gpu.stream_beside: their copies cross while
     * H's chunks are summed) */
    bool lab_beside_h;
    bool h_sort_ahead; /* streamed: the H MSM sorts its next chunk's digits while it sums one */
    /* streamed, L, A, B after H: how many of a batch's witnesses go to the device for them before
     * the last proof's H MSM (that proof's SpMV copy kept, the others' copies crossing between
     * H's chunks), where the memory holds them beside it (the placement's witnesses_before_h) */
    unsigned wit_before_h;
    /* streamed: a batch's L, A, B MSMs on an executor and thread of their own, beside its proofs,
     * in chunks of cap_lab bases (the placement's lab_concurrent) */
    bool lab_concurrent;
    size_t cap_lab;
    /* streamed, L, A, B not apart: each proof's aux assignment kept on the device in compact form
     * from its SpMV on, for L, A and B, with room for this many values other than 0 and 1 (more:
     * its values read from host memory a piece at a time); with a, b, c from the host, read from
     * host memory that way (compact_witness.cuh). 0: full witnesses, uploaded again for L, A, B */
    size_t compact_vals;
};

/* H followed by phi(H), in host memory, for the emulated prover */
struct h_with_phi {
    std::vector<g1_affine> v;
    /* the H MSM splits its scalars (phi(H) beside H: 96 bytes more per point) unless the
     * tuning's h_glv is off */
    void fill(prover_bases &B, const cuzk_gpu_config &cfg)
    {
        if (!cfg.h_glv || B.n_h == 0 || 2 * B.n_h >= 0x7fffffffu) return;
        v.resize(2 * B.n_h);
        memcpy(v.data(), B.h, B.n_h * sizeof(g1_affine));
        exec_host x;
        k_phi_g1 k = {v.data(), v.data() + B.n_h};
        x.parallel(B.n_h, k);
        B.h = v.data();
        B.h_phi = (uint32_t)B.n_h;
    }
};

struct prover_vk {
    blst_p1_affine alpha_g1, beta_g1, delta_g1;
    blst_p2_affine beta_g2, delta_g2;
};

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

/* What the shared stages work on: a, b, c (N entries each, zero padded, in executor memory;
 * each may still be uploading), the assignment and the density bitmaps. */
struct prove_bufs {
    unsigned lg;
    size_t ni, na;
    fr_t *a, *b, *c;
    int up_a, up_b, up_c; /* upload tokens the NTTs wait for (-1: ready) */
    fr_t *in, *aux;
    int up_in, up_aux;
    const uint64_t *aw, *biw, *bw; /* A aux, B input and B aux density words */
    int up_aw, up_biw, up_bw;
    compact_witness cw; /* the aux for L, A and B where compact (aux NULL) */
    bool compact;
    bool aux_from_host; /* L, A and B read the aux from the host a piece at a time (setup_host_abc) */
    bool told;          /* the caller was told its witness is read (witness_read_notice) */
    bool own_density;   /* allocated for this proof (else resident with the circuit) */
    bool own_witness;   /* in and aux allocated for this proof (else a prefetch slot's) */
    bool host_abc;      /* a, b, c copied from the caller's host memory (abc_read_notice) */
    bool h_made;        /* the setup made H's coefficients in a (setup_pce_h; b held c) */
    size_t b_input_popcount;
    /* streamed placement: the witness to upload for L, A and B, after every proof's NTTs and H
     * MSM so that it never shares the device with a, b, c: from the host's a, b, c entry, the
     * assignment and densities (defer); from the SpMV entry, the assignment (host_in, host_aux),
     * its first copy gone after the SpMV */
    const cuzk_groth16_witness *defer;
    const cuzk_fr *host_in, *host_aux;
};

/* Host-to-device copies held back and issued a piece at a time between an MSM's chunks: issued
 * at once, they would sit on the copy stream ahead of the MSM's next chunks, which would wait
 * for them. Each copy's token is written where add() was told once its last piece is issued
 * (the copy stream runs in order, so that piece's end is the copy's). */
struct paced_uploads {
    struct copy {
        void *d;
        const void *h;
        size_t bytes;
        int *tok;
    };
    std::vector<copy> list;
    size_t next = 0, off = 0; /* the first copy not wholly issued, and how much of it is */
    size_t total = 0, issued = 0;
    void add(void *d, const void *h, size_t bytes, int *tok)
    {
        list.push_back({d, h, bytes, tok});
        total += bytes;
    }
    /* issues pieces until `target` bytes (of total) are issued */
    template <class X> void issue_to(X &x, size_t target)
    {
        while (next < list.size() && issued < target && x.ok()) {
            copy &c = list[next];
            const size_t n = c.bytes - off < target - issued ? c.bytes - off : target - issued;
            const int t = x.upload((uint8_t *)c.d + off, (const uint8_t *)c.h + off, n);
            off += n;
            issued += n;
            if (off == c.bytes) {
                *c.tok = t;
                next++;
                off = 0;
            }
        }
    }
    /* the rest, with copies of no bytes (their tokens too) */
    template <class X> void issue_all(X &x)
    {
        issue_to(x, total);
        for (; next < list.size() && x.ok(); next++, off = 0) *list[next].tok = x.upload(list[next].d, list[next].h, 0);
    }
};

/* a copy to the device: begun now, or added to pu to be paced */
template <class X> static void upload_to(X &x, paced_uploads *pu, void *d, const void *h, size_t bytes, int *tok)
{
    if (pu) pu->add(d, h, bytes, tok);
    else *tok = x.upload(d, h, bytes);
}

/* allocates pb's assignment and starts its upload from the host (or adds it to pu) */
template <class X>
static void upload_assignment(X &x, prove_bufs &pb, const cuzk_fr *in, const cuzk_fr *aux, paced_uploads *pu = NULL)
{
    const size_t fb = sizeof(fr_t);
    pb.aux = (fr_t *)x.alloc((pb.na ? pb.na : 1) * fb);
    pb.in = (fr_t *)x.alloc(pb.ni * fb);
    if (!x.ok()) return;
    upload_to(x, pu, pb.aux, aux, pb.na * fb, &pb.up_aux);
    upload_to(x, pu, pb.in, in, pb.ni * fb, &pb.up_in);
}

/* allocates pb's assignment and density buffers and starts their uploads from w (or adds them to
 * pu); where L, A and B read the aux from the host (pb.aux_from_host), the inputs only */
template <class X>
static void upload_witness(X &x, prove_bufs &pb, const cuzk_groth16_witness *w, paced_uploads *pu = NULL)
{
    const size_t ni = pb.ni, na = pb.na;
    if (pb.aux_from_host) {
        pb.in = (fr_t *)x.alloc((ni ? ni : 1) * sizeof(fr_t));
        if (x.ok()) upload_to(x, pu, pb.in, w->input, ni * sizeof(fr_t), &pb.up_in);
        pb.cw = compact_host((const fr_t *)w->aux, na);
        pb.compact = true;
    } else {
        upload_assignment(x, pb, w->input, w->aux, pu);
    }
    uint64_t *aw = (uint64_t *)x.alloc(words_of(na) * 8 + 8), *biw = (uint64_t *)x.alloc(words_of(ni) * 8 + 8),
             *bw = (uint64_t *)x.alloc(words_of(na) * 8 + 8);
    pb.aw = aw;
    pb.biw = biw;
    pb.bw = bw;
    if (!x.ok()) return;
    upload_to(x, pu, aw, w->a_aux_density->words, words_of(na) * 8, &pb.up_aw);
    upload_to(x, pu, biw, w->b_input_density->words, words_of(ni) * 8, &pb.up_biw);
    upload_to(x, pu, bw, w->b_aux_density->words, words_of(na) * 8, &pb.up_bw);
}

/* a streamed proof's witness for L, A and B, to the device unless it is there (the SpMV's copy
 * kept); false when there was nothing to upload */
template <class X> static bool upload_for_lab(X &x, prove_bufs &pb, paced_uploads *pu = NULL)
{
    if (pb.aux || pb.compact || (!pb.defer && !pb.host_in)) return false;
    if (pb.defer) upload_witness(x, pb, pb.defer, pu);
    else upload_assignment(x, pb, pb.host_in, pb.host_aux, pu);
    return true;
}

template <class X> static void release_bufs(X &x, prove_bufs &pb)
{
    x.release(pb.a);
    x.release(pb.b);
    x.release(pb.c);
    if (pb.own_witness) {
        x.release(pb.in);
        x.release(pb.aux);
    }
    if (pb.own_density) {
        x.release((void *)pb.aw);
        x.release((void *)pb.biw);
        x.release((void *)pb.bw);
    }
    compact_free(x, pb.cw);
    pb.compact = false;
    pb.a = pb.b = pb.c = pb.in = pb.aux = NULL;
    pb.aw = pb.biw = pb.bw = NULL;
}

/* out = the sum of the one-scalar bases (ones[n1]) plus the MSM of the compacted tail */
template <class X>
static void ones_plus_tail_g1(X &x, const uint32_t *ones, size_t n1, const g1_affine *bases, const fr_t *tail_s,
                              idx_map tm, size_t cnt, blst_p1 *out)
{
    msm_ones_g1(x, ones, n1, bases, out);
    if (cnt) {
        blst_p1 t;
        msm_core_g1(x, bases, tail_s, tm, cnt, NULL, &t, NULL, NULL);
        blst_p1_add_or_double(out, out, &t);
    }
}

/* The chunk buffers of the streamed MSMs (room for cap G2 points, or cap G1 points and their phi
 * images; two, or a ring of more), shared by the MSMs that run one after another, and the copy
 * ahead between one MSM and the next. */
struct stream_bufs {
    void *buf[STREAM_BUFS_MAX];
    unsigned n;
    stream_ahead ahead;
    template <class X> void alloc(X &x, size_t cap, unsigned count = 2)
    {
        n = count < 2 ? 2 : count > STREAM_BUFS_MAX ? STREAM_BUFS_MAX : count;
        for (unsigned i = 0; i < n; i++) buf[i] = x.alloc(cap * sizeof(g2_affine));
    }
    template <class X> void release(X &x)
    {
        if (ahead.slot >= 0) x.wait_upload(ahead.tok); /* no MSM took it: it lands before the buffer goes */
        ahead.slot = -1;
        for (unsigned i = 0; i < n; i++) {
            x.release(buf[i]);
            buf[i] = NULL;
        }
        n = 0;
    }
    /* the stream of one MSM; then: the bases of the MSM after it, whose first chunk it copies ahead */
    template <class A, class N = g1_affine>
    base_stream<A> of(const A *host, size_t n_points, size_t cap, bool phi, const N *then = NULL, size_t then_n = 0)
    {
        ahead.next_src = then_n ? then : NULL;
        ahead.next_bytes = (then_n < cap ? then_n : cap) * sizeof(N);
        base_stream<A> b = {host, n_points, cap, phi, {NULL, NULL, NULL, NULL}, n, &ahead};
        for (unsigned i = 0; i < n; i++) b.buf[i] = (A *)buf[i];
        return b;
    }
};

/* pb's buffers back to the pool once nothing reads them: after a failure or a cancel the
 * uploads and kernels already issued are waited for first (the host's witness memory and these
 * buffers must outlive them). The executor's error, or CUZK_OK. */
template <class X> static cuzk_status finish_bufs(X &x, prove_bufs &pb)
{
    if (!x.ok()) x.drain();
    release_bufs(x, pb);
    x.sync();
    return x.err;
}

/* The stages both entry points share with resident bases: H by the NTT pipeline and its MSM,
 * L, A and B by the 0/1 split and Pippenger, then the assembly. Releases pb's buffers. L, A and
 * B run beside the NTTs (on the side stream), the H MSM after them.
 *
 * The cancel token is polled on the host before the NTTs and before each MSM stage
 * (x.poll_cancel): the host waits inside L, A and B for their counts, so those polls see a
 * cancel within one stage of the device's progress; a stage already issued runs to its end (the
 * longest, the H MSM, takes about 0.7 s for a 32 GiB partition on an H200). A cancel fails the
 * executor, so the remaining stages issue nothing and fall through to finish_bufs. */
template <class X>
static cuzk_status prove_core(X &x, const ntt_tables &tb, const prover_bases &B, const prover_vk &vk, prove_bufs &pb,
                              const cuzk_fr &r, const cuzk_fr &s, cuzk_groth16_proof *out)
{
    const unsigned lg = pb.lg;
    const size_t N = (size_t)1 << lg, ni = pb.ni, na = pb.na;
    const size_t fb = sizeof(fr_t);
    blst_p1 h_msm, l_msm, a_msm, b1_msm, t1;
    blst_p2 b2_msm, t2;
    memset(&h_msm, 0, sizeof h_msm);
    if (!x.poll_cancel()) {
        cuzk_status st = finish_bufs(x, pb);
        return st ? st : cuzk_fail(CUZK_EINTERNAL, "GPU prover failed");
    }

    /* L, A and B need only the assignment: they run on the side stream beside the NTTs (which
     * leave multiplier slots free: their passes wait on shared memory), the H MSM after the
     * NTTs. The NTTs are issued first, since the host waits inside L, A and B. */
    const int before_ntt = x.side_mark();
    ntt_h_pipeline(x, tb, pb.a, pb.b, pb.c, lg, pb.up_a, pb.up_b, pb.up_c);
    x.release(pb.b);
    x.release(pb.c);
    pb.b = pb.c = NULL;
    abc_read_notice(x, pb, 0); /* L, A and B wait for the assignment, copied after a, b, c */
    x.side_begin(before_ntt);
    x.wait_upload(pb.up_aux);
    x.wait_upload(pb.up_in);
    x.wait_upload(pb.up_aw);
    x.wait_upload(pb.up_biw);
    x.wait_upload(pb.up_bw);
    const fr_t *d_in = pb.in, *d_aux = pb.aux;
    split_scratch sc; /* inputs and aux append to one tail and one ones list */
    split_scratch_alloc(x, sc, na + ni, na + ni);
    fr_t *tail_s = (fr_t *)x.alloc((na + ni) * fb);
    uint32_t *tail_idx = (uint32_t *)x.alloc((na + ni) * 4);
    density_map none = {NULL, NULL, 0};
    size_t cnt, n1, n1b;
    const uint32_t *ones_all = sc.ones_idx;
    idx_map tm = {tail_idx, IDX_ARRAY, 0, 0};

    /* L: every aux variable */
    x.poll_cancel();
    x.stage_begin("msm l");
    cnt = msm_classify(x, d_aux, na, none, na, sc, tail_s, tail_idx, 0, 0, &n1);
    ones_plus_tail_g1(x, ones_all, n1, B.l, tail_s, tm, cnt, &l_msm);
    x.stage_end();

    /* A: every input, then the aux with A density */
    x.poll_cancel();
    x.stage_begin("msm a");
    cnt = msm_classify(x, d_in, ni, none, ni, sc, tail_s, tail_idx, 0, 0, &n1);
    {
        density_map dm = {pb.aw, NULL, (uint32_t)ni};
        cnt += msm_classify(x, d_aux, na, dm, na, sc, tail_s, tail_idx, cnt, n1, &n1b);
        n1 += n1b;
    }
    ones_plus_tail_g1(x, ones_all, n1, B.a, tail_s, tm, cnt, &a_msm);
    x.stage_end();

    /* B (G1 and G2 share the index set): inputs and aux with B density */
    x.poll_cancel();
    x.stage_begin("msm b ones");
    {
        density_map di = {pb.biw, NULL, 0};
        cnt = msm_classify(x, d_in, ni, di, ni, sc, tail_s, tail_idx, 0, 0, &n1);
        density_map da2 = {pb.bw, NULL, (uint32_t)pb.b_input_popcount};
        cnt += msm_classify(x, d_aux, na, da2, na, sc, tail_s, tail_idx, cnt, n1, &n1b);
        n1 += n1b;
    }
    msm_ones_g1(x, ones_all, n1, B.b1, &b1_msm);
    msm_ones_g2(x, ones_all, n1, B.b2, &b2_msm);
    x.stage_end();
    if (x.poll_cancel() && cnt) {
        x.stage_begin("msm b_g1 tail");
        msm_core_g1(x, B.b1, tail_s, tm, cnt, NULL, &t1, NULL, NULL);
        blst_p1_add_or_double(&b1_msm, &b1_msm, &t1);
        x.stage_end();
        x.poll_cancel();
        x.stage_begin("msm b_g2 tail");
        msm_core_g2(x, B.b2, tail_s, tm, cnt, NULL, &t2, NULL, NULL);
        blst_p2_add_or_double(&b2_msm, &b2_msm, &t2);
        x.stage_end();
    }
    split_scratch_free(x, sc);
    x.release(tail_s);
    x.release(tail_idx);
    const int lab_done = x.side_end();
    x.poll_cancel();
    x.stage_begin("msm h"); /* h's coefficients: canonical from the last NTT */
    idx_map hm = {NULL, IDX_BITREV, 0, lg};
    msm_config hc;
    memset(&hc, 0, sizeof hc);
    hc.phi_off = B.h_phi;
    msm_core_g1(x, B.h, pb.a, hm, N - 1, &hc, &h_msm, NULL, NULL);
    x.stage_end();
    x.wait_upload(lab_done);
    if (finish_bufs(x, pb)) return x.err;
    assemble(out, vk, r, s, h_msm, l_msm, a_msm, b1_msm, b2_msm);
    return CUZK_OK;
}

/* A streamed proof's H MSM over its NTTs' output, begun: its scalars are put back in natural
 * order first, so that each chunk of bases has its scalars in one run. then: the bases of the
 * MSM after this one (its first chunk is copied ahead), or NULL. */
template <class X>
static std::unique_ptr<msm_steps> h_steps(X &x, const prover_bases &B, stream_bufs &sb, prove_bufs &pb, blst_p1 *h_msm,
                                          const g1_affine *then, size_t then_n)
{
    memset(h_msm, 0, sizeof *h_msm);
    ntt_bitrev(x, pb.a, pb.lg); /* the NTT leaves bit-reversed positions */
    msm_config hc;
    memset(&hc, 0, sizeof hc);
    hc.c_max = B.c_max_h;
    hc.sort_ahead = B.h_sort_ahead;
    return msm_streamed_steps_g1(x, sb.of(B.h, B.n_h, B.cap, B.phi_stream, then, then_n), pb.a, NULL,
                                 ((size_t)1 << pb.lg) - 1, NULL, 0, &hc, h_msm);
}

/* A streamed proof's H MSM, alone; its scalars released after it. */
template <class X>
static void streamed_h(X &x, const prover_bases &B, stream_bufs &sb, prove_bufs &pb, blst_p1 *h_msm,
                       const g1_affine *then, size_t then_n)
{
    x.poll_cancel();
    x.stage_begin("msm h (streamed)");
    msm_run_steps(*h_steps(x, B, sb, pb, h_msm, then, then_n));
    x.stage_end();
    x.release(pb.a);
    pb.a = NULL;
}

/* The caller's notice that proof j's host a, b, c are no longer read (setup_host_abc's
 * uploads ended): its buffers may take the next partition's while this proof goes on. */
template <class X> static void abc_read_notice(X &x, const prove_bufs &pb, size_t j)
{
    if (!x.abc_read || !pb.host_abc) return;
    x.host_wait(pb.up_a);
    x.host_wait(pb.up_b);
    x.host_wait(pb.up_c);
    x.abc_read(x.read_ctx, j);
}

/* The caller's notice that proof j's assignment is no longer read: its copy for L, A and B (from
 * the caller's witness, or its assignment for the SpMV entry) has ended, or the SpMV's copy has
 * where L, A and B take the compact form made from it; once per proof. */
template <class X> static void witness_read_notice(X &x, prove_bufs &pb, size_t j)
{
    if (!x.witness_read || pb.told || (!pb.defer && !pb.host_in)) return;
    x.host_wait(pb.up_in);
    x.host_wait(pb.up_aux);
    pb.told = true;
    x.witness_read(x.read_ctx, j);
}

/* whether L, A and B read pb's aux from the caller's host memory (compact_witness.cuh): its
 * notice waits for their end */
static bool lab_reads_host(const prove_bufs &pb) { return pb.compact && pb.cw.host; }

/* no buffers, no uploads in flight */
static void blank_bufs(prove_bufs &pb)
{
    memset(&pb, 0, sizeof pb);
    pb.up_a = pb.up_b = pb.up_c = pb.up_in = pb.up_aux = pb.up_aw = pb.up_biw = pb.up_bw = -1;
}

/* The L, A and B MSMs' jobs for the proofs of a batch: L over every aux variable; A over every
 * input, then the aux with A density; B (G1 and G2 share the index set) over the inputs and aux
 * with B density. */
struct lab_jobs {
    std::vector<stream_job> l, a, b;
    lab_jobs(const prover_bases &B, const std::vector<prove_bufs> &pbs) : l(pbs.size()), a(pbs.size()), b(pbs.size())
    {
        for (size_t j = 0; j < pbs.size(); j++) {
            const prove_bufs &pb = pbs[j];
            const uint32_t bip = (uint32_t)pb.b_input_popcount;
            const compact_witness *cw = pb.compact ? &pb.cw : NULL; /* the aux in compact form, or full */
            memset(&l[j], 0, sizeof l[j]);
            l[j].nseg = 1;
            l[j].seg[0] = {pb.aux, NULL, pb.na, 0, (uint32_t)pb.na, cw};
            a[j].nseg = b[j].nseg = 2;
            a[j].seg[0] = {pb.in, NULL, pb.ni, 0, (uint32_t)pb.ni, NULL};
            a[j].seg[1] = {pb.aux, pb.aw, pb.na, (uint32_t)pb.ni, (uint32_t)(B.n_a - pb.ni), cw};
            b[j].seg[0] = {pb.in, pb.biw, pb.ni, 0, bip, NULL};
            b[j].seg[1] = {pb.aux, pb.bw, pb.na, bip, (uint32_t)(B.n_b - bip), cw};
        }
    }
};

/* Where a batch's L, A and B sums go (nj of each). */
struct lab_out {
    blst_p1 *l, *a, *b1;
    blst_p2 *b2;
};

/* MSM i of a batch's L, A, B_G1, B_G2 (i = 0..3), begun over sb's buffers, copying the first chunk
 * of the next one ahead. */
#define LAB_MSMS 4
static const char *const LAB_STAGES[LAB_MSMS] = {"msm l (streamed)", "msm a (streamed)", "msm b_g1 (streamed)",
                                                 "msm b_g2 (streamed)"};
template <class X>
static std::unique_ptr<msm_steps> lab_steps(X &x, const prover_bases &B, stream_bufs &sb, size_t cap,
                                            const lab_jobs &jb, size_t nj, const msm_config *mc, int i,
                                            const lab_out &o)
{
    if (i == 0)
        return msm_streamed_batch_steps_g1(x, sb.of(B.l, B.n_l, cap, false, B.a, B.n_a), jb.l.data(), nj, mc, o.l);
    if (i == 1)
        return msm_streamed_batch_steps_g1(x, sb.of(B.a, B.n_a, cap, false, B.b1, B.n_b), jb.a.data(), nj, mc, o.a);
    if (i == 2)
        return msm_streamed_batch_steps_g1(x, sb.of(B.b1, B.n_b, cap, false, B.b2, B.n_b), jb.b.data(), nj, mc, o.b1);
    return msm_streamed_batch_steps_g2(x, sb.of(B.b2, B.n_b, cap, false), jb.b.data(), nj, mc, o.b2);
}

/* the L, A, B MSMs' window limit */
static msm_config lab_config(const prover_bases &B)
{
    msm_config mc;
    memset(&mc, 0, sizeof mc);
    mc.c_max = B.c_max;
    return mc;
}

/* The L, A, B MSMs of a batch one after another, in chunks of cap bases. */
template <class X>
static void streamed_lab(X &x, const prover_bases &B, stream_bufs &sb, size_t cap, const lab_jobs &jb, size_t nj,
                         const lab_out &o)
{
    const msm_config mc = lab_config(B);
    for (int i = 0; i < LAB_MSMS; i++) {
        x.poll_cancel();
        x.stage_begin(LAB_STAGES[i]);
        std::unique_ptr<msm_steps> st = lab_steps(x, B, sb, cap, jb, nj, &mc, i, o);
        while (st->step() && x.poll_cancel()) {} /* a cancel (or lab_apart's stop) ends it between chunks */
        st->finish();
        x.stage_end();
    }
}

/* The last proof's H MSM and the batch's L, A, B MSMs beside each other: one chunk of H, then
 * chunks of L, A, B (through their own ring of CUZK_GPU_BESIDE_BUFS buffers, lb) until their share
 * of their bases' bytes has caught up with H's share of its, and so on, so that the copies of
 * theirs cross the link while H's chunks are summed. The L, A, B MSMs are begun one after another
 * (each finishes, its buckets reduced, before the next). Worth it only where they are bound by
 * their copies: on an H100's link they are bound by their sums too (docs/GPU.md). */
template <class X>
static void streamed_h_beside_lab(X &x, const prover_bases &B, stream_bufs &sb, stream_bufs &lb, prove_bufs &pb,
                                  const lab_jobs &jb, size_t nj, blst_p1 *h, const lab_out &o)
{
    x.poll_cancel();
    x.stage_begin("msm h, l, a, b (streamed, beside each other)");
    const msm_config mc = lab_config(B);
    std::unique_ptr<msm_steps> hs = h_steps(x, B, sb, pb, h, NULL, 0);
    /* each of L, A, B_G1, B_G2 weighed by its bases' bytes */
    const double w[LAB_MSMS] = {(double)B.n_l * sizeof(g1_affine), (double)B.n_a * sizeof(g1_affine),
                                (double)B.n_b * sizeof(g1_affine), (double)B.n_b * sizeof(g2_affine)};
    const double total = w[0] + w[1] + w[2] + w[3] > 0 ? w[0] + w[1] + w[2] + w[3] : 1.0;
    int li = 0;
    double done_w = 0;
    std::unique_ptr<msm_steps> ls = lab_steps(x, B, lb, B.cap, jb, nj, &mc, 0, o);
    bool h_more = true;
    while (x.ok() && (h_more || li < LAB_MSMS)) {
        const double lab_share = li < LAB_MSMS ? (done_w + w[li] * ls->progress()) / total : 1.0;
        if (h_more && (li >= LAB_MSMS || hs->progress() <= lab_share)) {
            h_more = hs->step() && x.poll_cancel();
            continue;
        }
        if (ls->step() && x.poll_cancel()) continue;
        ls->finish();
        ls.reset();
        done_w += w[li];
        if (++li < LAB_MSMS && x.ok()) ls = lab_steps(x, B, lb, B.cap, jb, nj, &mc, li, o);
    }
    /* after a failure: what was begun still waits for its copies */
    if (ls) ls->finish();
    hs->finish();
    x.stage_end();
    x.release(pb.a);
    pb.a = NULL;
}

/* The last proof's H MSM (pbs.back()), with n of the batch's witnesses going to the device for
 * L, A and B meanwhile: that proof's SpMV copy, where its setup kept it, and others' copies, cut
 * into pieces issued between H's chunks (by 80 % of its chunks, all of them), so that they
 * cross the link while H's chunks are summed (the link is idle about half of a 32 GiB
 * partition's H MSM on an H100) rather than before L's first chunk. L's first chunk is copied
 * ahead. */
template <class X>
static void streamed_h_uploading(X &x, const prover_bases &B, stream_bufs &sb, std::vector<prove_bufs> &pbs, size_t n,
                                 blst_p1 *h)
{
    prove_bufs &pb = pbs.back();
    paced_uploads pu;
    size_t left = pb.aux ? n - 1 : n;
    for (size_t j = 0; j < pbs.size() && left > 0; j++)
        if (upload_for_lab(x, pbs[j], &pu)) left--;
    x.poll_cancel();
    x.stage_begin("msm h (streamed), witnesses uploaded beside it");
    std::unique_ptr<msm_steps> hs = h_steps(x, B, sb, pb, h, B.l, B.n_l);
    while (hs->step() && x.poll_cancel()) {
        const double f = hs->progress() / 0.8;
        pu.issue_to(x, f >= 1 ? pu.total : (size_t)(f * (double)pu.total));
    }
    pu.issue_all(x);
    hs->finish();
    x.stage_end();
    x.release(pb.a);
    pb.a = NULL;
}

/* A batch's L, A and B MSMs on an executor of their own (xl: its own compute and copy streams)
 * and a thread of their own, from the batch's start, beside the proofs' SpMV, NTTs and H MSMs on
 * the caller's executor (the placement's lab_concurrent). Their bases cross the link while those
 * compute: one after another, L, A and B of a batch of two took 0.76 s after the H MSMs on an
 * H100, bound by their 34.5 GB of copies, while the link idled through the NTTs and half of each
 * H MSM. Each proof's witness is uploaded first (lbs[j]: its host assignment and densities, set
 * by the caller), then copied[j] is set, so that the caller can give its notice. The executors
 * share nothing but the device's memory pool and the cancel token; the thread keeps its error's
 * message (the message is per thread). */
template <class X> struct lab_apart {
    X &xl;
    const prover_bases &B;
    std::vector<prove_bufs> lbs;
    std::unique_ptr<std::atomic<bool>[]> copied;
    lab_out o;
    std::thread th;
    std::string msg;
    cuzk_cancel stop = {0}; /* set by the caller when its proofs fail: xl then ends at its next poll */

    lab_apart(X &x_lab, const prover_bases &b, size_t nj, const lab_out &out)
        : xl(x_lab), B(b), lbs(nj), copied(new std::atomic<bool>[nj]), o(out)
    {
        xl.stop = &stop;
        for (size_t j = 0; j < nj; j++) {
            blank_bufs(lbs[j]);
            copied[j] = false;
        }
    }
    void run()
    {
        xl.use();
        const size_t nj = lbs.size();
        for (size_t j = 0; j < nj && xl.poll_cancel(); j++) upload_for_lab(xl, lbs[j]);
        for (size_t j = 0; j < nj; j++) {
            prove_bufs &pb = lbs[j];
            const int tok[5] = {pb.up_aux, pb.up_in, pb.up_aw, pb.up_biw, pb.up_bw};
            for (int t : tok) {
                xl.host_wait(t);
                xl.wait_upload(t);
            }
            copied[j] = xl.ok();
        }
        const lab_jobs jb(B, lbs);
        stream_bufs sb = {{NULL, NULL, NULL, NULL}, 0, {}};
        sb.alloc(xl, B.cap_lab);
        streamed_lab(xl, B, sb, B.cap_lab, jb, nj, o);
        if (!xl.ok()) xl.drain();
        sb.release(xl);
        for (size_t j = 0; j < nj; j++) release_bufs(xl, lbs[j]);
        xl.sync();
        if (!xl.ok()) msg = cuzk_last_error();
    }
    /* on a thread of its own (or on the caller's, where none can be started: the same sums,
     * one after the other) */
    void start()
    {
        try {
            th = std::thread([this] { run(); });
        } catch (...) {
            run();
        }
    }
    /* waits for the thread (stopped by the caller where its proofs failed); its failure becomes
     * x's where x has none */
    template <class Y> void join(Y &x)
    {
        if (th.joinable()) th.join();
        xl.stop = NULL; /* xl outlives this batch */
        if (!xl.ok() && x.ok()) x.err = cuzk_fail(xl.err, "%s", msg.empty() ? "L, A, B MSMs failed" : msg.c_str());
    }
};

/* prove_streamed with L, A and B apart (lab_apart): per proof, its setup, NTTs and H MSM on x,
 * while xl's thread uploads the batch's witnesses and runs its L, A and B MSMs; proof j's notice
 * that its witness is read once xl has copied it and x's setup has read it (the SpMV entry's
 * copy), given between proofs and at the end. */
template <class X, class Setup, class LabWitness>
static cuzk_status prove_streamed_apart(X &x, X &xl, const ntt_tables &tb, const prover_bases &B, const prover_vk &vk,
                                        size_t nj, Setup setup, LabWitness lab, const cuzk_fr *r, const cuzk_fr *s,
                                        cuzk_groth16_proof *out)
{
    std::vector<prove_bufs> pbs(nj);
    std::vector<blst_p1> h(nj), l(nj), a(nj), b1(nj);
    std::vector<blst_p2> b2(nj);
    for (size_t j = 0; j < nj; j++) blank_bufs(pbs[j]);
    const lab_out lo = {l.data(), a.data(), b1.data(), b2.data()};
    xl.err = CUZK_OK;
    xl.cancel = x.cancel;
    lab_apart<X> la(xl, B, nj, lo);
    for (size_t j = 0; j < nj; j++) lab(j, la.lbs[j]);
    la.start();
    std::vector<char> told(nj, 0);
    size_t set_up = 0; /* the proofs whose setup has read their witness */
    auto notices = [&]() {
        for (size_t j = 0; j < set_up; j++)
            if (!told[j] && la.copied[j]) {
                told[j] = 1;
                witness_read_notice(x, pbs[j], j);
            }
    };
    stream_bufs sb = {{NULL, NULL, NULL, NULL}, 0, {}};
    for (size_t j = 0; j < nj && x.poll_cancel(); j++) {
        prove_bufs &pb = pbs[j];
        setup(j, pb, false);
        set_up = j + 1;
        if (!pb.h_made) ntt_h_pipeline(x, tb, pb.a, pb.b, pb.c, pb.lg, pb.up_a, pb.up_b, pb.up_c);
        x.release(pb.b);
        x.release(pb.c);
        pb.b = pb.c = NULL;
        abc_read_notice(x, pb, j);
        notices();
        sb.alloc(x, B.cap);
        streamed_h(x, B, sb, pb, &h[j], NULL, 0);
        sb.release(x);
        notices();
    }
    if (!x.ok()) {
        cuzk_cancel_set(&la.stop); /* the proofs failed: their L, A and B are not wanted */
        x.drain();
    }
    for (size_t j = 0; j < nj; j++) release_bufs(x, pbs[j]);
    x.sync();
    la.join(x);
    if (x.ok()) notices();
    if (!x.ok()) return x.err;
    for (size_t j = 0; j < nj; j++) assemble(&out[j], vk, r[j], s[j], h[j], l[j], a[j], b1[j], b2[j]);
    return CUZK_OK;
}

/* The streamed placement's proofs of nj witnesses of one circuit (a batch: the partitions of a
 * job that are ready together): per proof, setup(j, pb) makes its a, b, c, then its NTTs and H
 * MSM run (streamed_h); then every proof's witness is uploaded and the L, A, B_G1 and B_G2 MSMs
 * run once for the whole batch, each chunk of their bases crossing the link once and summed
 * into every proof's buckets (streamed_batch), and each proof is assembled with its own
 * r[j], s[j]. Only L, A and B hold the witnesses together (placement.c's batch peak). Where
 * the placement says so (B.lab_beside_h), the witnesses are uploaded before the last proof's H
 * MSM instead, and L, A and B run beside it (streamed_h_beside_lab); or (B.wit_before_h) some
 * of them go to the device during that H MSM (streamed_h_uploading); or (B.lab_concurrent, with
 * an executor xl for them) they run on their own from the start (lab_apart), lab(j, pb) giving
 * proof j's witness for them. Releases every buffer. */
template <class X, class Setup, class LabWitness>
static cuzk_status prove_streamed(X &x, X *xl, const ntt_tables &tb, const prover_bases &B, const prover_vk &vk,
                                  size_t nj, Setup setup, LabWitness lab, const cuzk_fr *r, const cuzk_fr *s,
                                  cuzk_groth16_proof *out)
{
    if (B.lab_concurrent && xl) return prove_streamed_apart(x, *xl, tb, B, vk, nj, setup, lab, r, s, out);
    std::vector<prove_bufs> pbs(nj);
    std::vector<blst_p1> h(nj), l(nj), a(nj), b1(nj);
    std::vector<blst_p2> b2(nj);
    for (size_t j = 0; j < nj; j++) blank_bufs(pbs[j]);
    const lab_out lo = {l.data(), a.data(), b1.data(), b2.data()};
    stream_bufs sb = {{NULL, NULL, NULL, NULL}, 0, {}}, lb = {{NULL, NULL, NULL, NULL}, 0, {}};
    /* L, A, B after H: the witnesses that go before the last H MSM (none to go where compact) */
    const size_t before_h = B.lab_beside_h || B.compact_vals ? 0 : B.wit_before_h < nj ? B.wit_before_h : nj;
    for (size_t j = 0; j < nj && x.poll_cancel(); j++) {
        prove_bufs &pb = pbs[j];
        const bool last = j + 1 == nj;
        setup(j, pb, last && before_h > 0);
        /* kept in compact form on the device: the caller's witness is read (the notices in order) */
        if (pb.compact && !lab_reads_host(pb) && x.ok() && (j == 0 || pbs[j - 1].told)) witness_read_notice(x, pb, j);
        if (!pb.h_made) ntt_h_pipeline(x, tb, pb.a, pb.b, pb.c, pb.lg, pb.up_a, pb.up_b, pb.up_c);
        x.release(pb.b);
        x.release(pb.c);
        pb.b = pb.c = NULL;
        abc_read_notice(x, pb, j); /* the NTTs wait for the same copies */
        /* the chunk buffers never beside a, b, c (the NTTs' peak): made after them, and given
         * back before the next proof's; the last proof's H MSM copies L's first chunk ahead,
         * or runs beside L, A and B */
        sb.alloc(x, B.cap);
        if (last && B.lab_beside_h) break;
        if (last && before_h) streamed_h_uploading(x, B, sb, pbs, before_h, &h[j]);
        else streamed_h(x, B, sb, pb, &h[j], last ? B.l : NULL, last ? B.n_l : 0);
        if (!last) sb.release(x);
    }
    for (size_t j = 0; j < nj && x.ok(); j++) upload_for_lab(x, pbs[j]);
    for (size_t j = 0; j < nj; j++) {
        prove_bufs &pb = pbs[j];
        x.wait_upload(pb.up_aux);
        x.wait_upload(pb.up_in);
        x.wait_upload(pb.up_aw);
        x.wait_upload(pb.up_biw);
        x.wait_upload(pb.up_bw);
    }
    /* L's first chunk is on its way; in order, up to the first whose aux L, A and B read from the host */
    for (size_t j = 0; j < nj && x.ok() && !lab_reads_host(pbs[j]); j++) witness_read_notice(x, pbs[j], j);
    const lab_jobs jb(B, pbs);
    if (B.lab_beside_h && x.ok()) {
        lb.alloc(x, B.cap, CUZK_GPU_BESIDE_BUFS);
        streamed_h_beside_lab(x, B, sb, lb, pbs[nj - 1], jb, nj, &h[nj - 1], lo);
    } else {
        streamed_lab(x, B, sb, B.cap, jb, nj, lo);
    }

    if (!x.ok()) x.drain();
    sb.release(x);
    lb.release(x);
    for (size_t j = 0; j < nj; j++) release_bufs(x, pbs[j]);
    x.sync();
    if (!x.ok()) return x.err;
    for (size_t j = 0; j < nj; j++)
        witness_read_notice(x, pbs[j], j); /* from the first L, A and B read from the host */
    for (size_t j = 0; j < nj; j++) assemble(&out[j], vk, r[j], s[j], h[j], l[j], a[j], b1[j], b2[j]);
    return CUZK_OK;
}

/* Entry 1's buffers: a, b, c computed on the host (w->a, w->b, w->c), uploaded with the
 * assignment and densities (the NTT of a starts as soon as a has arrived); with streamed bases
 * the assignment's upload is deferred until after the H MSM, and where the placement counts
 * compact witnesses (aux_from_host) L, A and B read the aux from w a piece at a time. */
template <class X>
static void setup_host_abc(X &x, prove_bufs &pb, const cuzk_groth16_witness *w, bool streamed,
                           bool aux_from_host = false)
{
    const size_t n = w->n, fb = sizeof(fr_t);
    memset(&pb, 0, sizeof pb);
    pb.lg = cuzk_log2_ceil(n);
    pb.ni = w->num_inputs;
    pb.na = w->num_aux;
    pb.own_density = true;
    pb.own_witness = true;
    pb.host_abc = true;
    pb.b_input_popcount = w->b_input_density->popcount;
    const size_t N = (size_t)1 << pb.lg;
    /* uploads: a, b, c first (the NTTs wait for each), then the assignment and densities */
    pb.up_a = pb.up_b = pb.up_c = pb.up_aux = pb.up_in = pb.up_aw = pb.up_biw = pb.up_bw = -1;
    pb.a = (fr_t *)x.alloc(N * fb);
    pb.b = (fr_t *)x.alloc(N * fb);
    pb.c = (fr_t *)x.alloc(N * fb);
    if (x.ok()) {
        x.zero(pb.a + n, (N - n) * fb);
        x.zero(pb.b + n, (N - n) * fb);
        x.zero(pb.c + n, (N - n) * fb);
        pb.up_a = x.upload(pb.a, w->a, n * fb);
        pb.up_b = x.upload(pb.b, w->b, n * fb);
        pb.up_c = x.upload(pb.c, w->c, n * fb);
    }
    pb.aux_from_host = streamed && aux_from_host;
    if (streamed) pb.defer = w; /* after the NTTs and the H MSM */
    else upload_witness(x, pb, w);
}

/* Entry 1's witness for L, A and B on their own (lab_apart): the assignment and densities of w */
static void host_lab_witness(prove_bufs &pb, const cuzk_groth16_witness *w)
{
    blank_bufs(pb);
    pb.ni = w->num_inputs;
    pb.na = w->num_aux;
    pb.own_density = true;
    pb.own_witness = true;
    pb.b_input_popcount = w->b_input_density->popcount;
    pb.defer = w;
}

/* Entry 1: one proof, or with streamed bases a batch of nw (out[j], w[j], r[j], s[j]); xl: an
 * executor for L, A and B on their own (B.lab_concurrent), or NULL. */
template <class X>
static cuzk_status prove_impl(X &x, X *xl, const ntt_tables &tb, const prover_bases &B, const prover_vk &vk, size_t nw,
                              const cuzk_groth16_witness *const *w, const cuzk_fr *r, const cuzk_fr *s,
                              cuzk_groth16_proof *out)
{
    if (B.cap)
        return prove_streamed(
            x, xl, tb, B, vk, nw,
            [&](size_t j, prove_bufs &pb, bool) {
                setup_host_abc(x, pb, w[j], true, B.compact_vals && !B.lab_concurrent);
            },
            [&](size_t j, prove_bufs &pb) { host_lab_witness(pb, w[j]); }, r, s, out);
    if (nw != 1) return cuzk_fail(CUZK_EINTERNAL, "a batch of %zu proofs with resident parameters", nw);
    prove_bufs pb;
    setup_host_abc(x, pb, w[0], false);
    return prove_core(x, tb, B, vk, pb, r[0], s[0], out);
}

/* Entry 2's witness on the host: pb's sizes and the circuit's densities (on the device with it),
 * the assignment still in host memory; so L, A and B on their own (lab_apart) take it */
static void pce_lab_witness(prove_bufs &pb, const pce_view &v, const cuzk_fr *input, const cuzk_fr *aux)
{
    blank_bufs(pb);
    pb.ni = v.ni;
    pb.na = v.na;
    pb.aw = v.a_aux_w;
    pb.biw = v.b_in_w;
    pb.bw = v.b_aux_w;
    pb.b_input_popcount = v.b_input_popcount;
    pb.own_witness = true;
    pb.host_in = input;
    pb.host_aux = aux;
}

/* Entry 2's witness: pce_lab_witness's, with the assignment in device memory (staged: input and
 * aux already there, a prefetch, not ours to free; or NULL to upload them and wait: the SpMV
 * needs all of it) */
template <class X>
static void pce_witness(X &x, prove_bufs &pb, const pce_view &v, const cuzk_fr *input, const cuzk_fr *aux,
                        fr_t *const staged[2])
{
    const size_t ni = v.ni, na = v.na, fb = sizeof(fr_t);
    pce_lab_witness(pb, v, input, aux);
    pb.lg = cuzk_log2_ceil(v.nc + v.ni);
    pb.own_witness = !staged;
    if (staged) {
        pb.in = staged[0];
        pb.aux = staged[1];
        return;
    }
    pb.in = (fr_t *)x.alloc(ni * fb);
    pb.aux = (fr_t *)x.alloc((na ? na : 1) * fb);
    if (!x.poll_cancel()) return;
    pb.up_in = x.upload(pb.in, input, ni * fb);
    pb.up_aux = x.upload(pb.aux, aux, na * fb);
    x.wait_upload(pb.up_in);
    x.wait_upload(pb.up_aux);
}

/* Entry 2's buffers: a, b, c computed here from the circuit on the device (or its matrices
 * streamed); only the assignment is uploaded (pce_witness). */
template <class X>
static void setup_pce(X &x, prove_bufs &pb, const pce_view &v, const cuzk_fr *input, const cuzk_fr *aux,
                      fr_t *const staged[2])
{
    pce_witness(x, pb, v, input, aux, staged);
    const size_t n = v.nc + v.ni, N = (size_t)1 << pb.lg, fb = sizeof(fr_t);
    pb.a = (fr_t *)x.alloc(N * fb);
    pb.b = (fr_t *)x.alloc(N * fb);
    pb.c = (fr_t *)x.alloc(N * fb);
    if (!x.poll_cancel()) return;
    x.stage_begin(v.chunk_bytes ? "a, b, c (spmv, matrices streamed)" : "a, b, c (spmv)");
    fr_t *abc[3] = {pb.a, pb.b, pb.c};
    spmv_run(x, v, pb.in, pb.aux, abc, N);
    for (int k = 0; k < 3; k++) x.zero(abc[k] + n, (N - n) * fb);
    x.stage_end();
}

/* Entry 2's buffers with streamed bases, and H's coefficients made (pb.h_made): a and b made by
 * the SpMV and taken to the coset, their product into a, then c made in b's place, so that only
 * two of a, b, c share the device with the witness (placement.c's NTT peak: a 16 GiB card holds
 * a 32 GiB PoRep's witness and two, not three). The witness's copy is gone at the end, kept for
 * L, A and B (keep), or kept in compact form for them where compact_room is not 0 (the aux; the
 * inputs stay as they are). */
template <class X>
static void setup_pce_h(X &x, const ntt_tables &tb, prove_bufs &pb, const pce_view &v, const cuzk_fr *input,
                        const cuzk_fr *aux, bool keep, size_t compact_room)
{
    pce_witness(x, pb, v, input, aux, NULL);
    const size_t n = v.nc + v.ni, N = (size_t)1 << pb.lg, fb = sizeof(fr_t);
    pb.h_made = true;
    pb.a = (fr_t *)x.alloc(N * fb);
    pb.b = (fr_t *)x.alloc(N * fb);
    if (!x.poll_cancel()) return;
    const bool streamed = v.chunk_bytes != 0;
    spmv_pass<X> sp(x, v, pb.in, pb.aux);
    x.stage_begin(streamed ? "a, b (spmv, matrices streamed)" : "a, b (spmv)");
    sp.matrix(0, pb.a, pb.b, N); /* A's partial sums in b's memory */
    sp.matrix(1, pb.b);
    x.zero(pb.a + n, (N - n) * fb);
    x.zero(pb.b + n, (N - n) * fb);
    x.stage_end();
    ntt_h_coset(x, tb, pb.a, pb.lg, 0);
    ntt_h_coset(x, tb, pb.b, pb.lg, 1);
    ntt_h_product(x, pb.a, pb.b, pb.lg);
    fr_t *c = pb.b;
    x.stage_begin(streamed ? "c (spmv, matrices streamed)" : "c (spmv)");
    sp.matrix(2, c);
    sp.end();
    x.zero(c + n, (N - n) * fb);
    x.stage_end();
    if (compact_room && x.ok()) {
        x.stage_begin("witness made compact");
        compact_make(x, pb.aux, pb.na, compact_room, (const fr_t *)aux, pb.cw);
        pb.compact = x.ok();
        x.release(pb.aux);
        pb.aux = NULL;
        x.stage_end();
    } else if (!keep) {
        x.release(pb.in); /* read by the SpMV only: L, A and B bring it back */
        x.release(pb.aux);
        pb.in = pb.aux = NULL;
    }
    ntt_h_coset(x, tb, c, pb.lg, 2);
    ntt_h_finish_product(x, tb, pb.a, c, pb.lg);
}

/* Entry 2: one proof (staged as setup_pce says), or with streamed bases a batch of nw (xl as
 * prove_impl's). */
template <class X>
static cuzk_status prove_pce_impl(X &x, X *xl, const ntt_tables &tb, const prover_bases &B, const prover_vk &vk,
                                  const pce_view &v, size_t nw, const cuzk_fr *const *input, const cuzk_fr *const *aux,
                                  const cuzk_fr *r, const cuzk_fr *s, cuzk_groth16_proof *out,
                                  fr_t *const staged[2] = NULL)
{
    if (B.cap)
        return prove_streamed(
            x, xl, tb, B, vk, nw,
            [&](size_t j, prove_bufs &pb, bool keep) {
                setup_pce_h(x, tb, pb, v, input[j], aux[j], keep, B.lab_concurrent ? 0 : B.compact_vals);
            },
            [&](size_t j, prove_bufs &pb) { pce_lab_witness(pb, v, input[j], aux[j]); }, r, s, out);
    if (nw != 1) return cuzk_fail(CUZK_EINTERNAL, "a batch of %zu proofs with resident parameters", nw);
    prove_bufs pb;
    setup_pce(x, pb, v, input[0], aux[0], staged);
    return prove_core(x, tb, B, vk, pb, r[0], s[0], out);
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

/* n randomizer pairs: the caller's (r_in, s_in: n each) or fresh ones */
static cuzk_status pick_rs_n(size_t n, const cuzk_fr *r_in, const cuzk_fr *s_in, std::vector<cuzk_fr> &r,
                             std::vector<cuzk_fr> &s)
{
    r.resize(n);
    s.resize(n);
    for (size_t j = 0; j < n; j++) {
        cuzk_status st = pick_rs(r_in ? &r_in[j] : NULL, s_in ? &s_in[j] : NULL, &r[j], &s[j]);
        if (st) return st;
    }
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
/* the parameters' bases where they are, in host memory (no phi(H)) */
static prover_bases host_bases(const cuzk_groth16_params *p)
{
    return {(const g1_affine *)p->h,
            (const g1_affine *)p->l,
            (const g1_affine *)p->a,
            (const g1_affine *)p->b_g1,
            (const g2_affine *)p->b_g2,
            p->h_len,
            p->l_len,
            p->a_len,
            p->b_g1_len,
            p->vk.ic_len,
            0};
}

extern "C" cuzk_status cuzk_gpu_emu_prove_with(cuzk_groth16_proof *out, const cuzk_groth16_params *p,
                                               const cuzk_groth16_witness *w, const cuzk_groth16_prove_opts *o)
{
    prover_bases B = host_bases(p);
    cuzk_status st = check_shape(B, w);
    if (st) return st;
    h_with_phi hp;
    hp.fill(B, *gpu_config_defaults());
    cuzk_fr r, s;
    if ((st = pick_rs(o->r, o->s, &r, &s))) return st;
    exec_host x;
    x.cancel = o->cancel;
    x.abc_read = o->abc_read;
    x.witness_read = o->witness_read;
    x.read_ctx = o->read_ctx;
    return prove_impl(x, (exec_host *)NULL, ntt_host_tables_get().view(*x.cfg), B, vk_of(p->vk), 1, &w, &r, &s, out);
}

extern "C" cuzk_status cuzk_gpu_emu_prove(cuzk_groth16_proof *out, const cuzk_groth16_params *p,
                                          const cuzk_groth16_witness *w, const cuzk_fr *r_in, const cuzk_fr *s_in)
{
    cuzk_groth16_prove_opts o = {r_in, s_in, NULL, NULL};
    return cuzk_gpu_emu_prove_with(out, p, w, &o);
}

/* the shape a PCE proof has, for the parameter checks */
static cuzk_status check_pce_shape(const prover_bases &B, size_t nc, size_t pni, size_t pna, const cuzk_density *a_aux,
                                   const cuzk_density *b_input, const cuzk_density *b_aux, size_t ni, size_t na)
{
    if (ni != pni || na != pna)
        return cuzk_fail(CUZK_EINVAL, "the precompiled circuit has %zu inputs and %zu aux, the assignment %zu and %zu",
                         pni, pna, ni, na);
    cuzk_groth16_witness w;
    memset(&w, 0, sizeof w);
    w.n = nc + ni;
    w.num_inputs = ni;
    w.num_aux = na;
    w.a_aux_density = a_aux;
    w.b_input_density = b_input;
    w.b_aux_density = b_aux;
    return check_shape(B, &w);
}

extern "C" cuzk_status cuzk_gpu_emu_prove_pce(cuzk_groth16_proof *out, const cuzk_groth16_params *p,
                                              const cuzk_pce *pce, unsigned seg, const cuzk_fr *input, size_t ni,
                                              const cuzk_fr *aux, size_t na, const cuzk_fr *r_in, const cuzk_fr *s_in)
{
    prover_bases B = host_bases(p);
    cuzk_status st = check_pce_shape(B, pce->num_constraints, pce->num_inputs, pce->num_aux, &pce->a_aux, &pce->b_input,
                                     &pce->b_aux, ni, na);
    if (st) return st;
    cuzk_fr r, s;
    if ((st = pick_rs(r_in, s_in, &r, &s))) return st;
    pce_host h;
    if ((st = h.init(pce, seg ? seg : SPMV_SEG))) return st;
    h_with_phi hp;
    hp.fill(B, *gpu_config_defaults());
    exec_host x;
    return prove_pce_impl(x, (exec_host *)NULL, ntt_host_tables_get().view(*x.cfg), B, vk_of(p->vk), h.v, 1, &input,
                          &aux, &r, &s, out);
}

/* the streamed placement's settings on host-emulation bases */
static cuzk_status stream_settings(prover_bases &B, const cuzk_gpu_emu_stream *sm)
{
    if (!sm || sm->chunk == 0) return cuzk_fail(CUZK_EINVAL, "a streamed emulation needs a chunk of at least one base");
    B.cap = sm->chunk;
    B.phi_stream = sm->phi && B.n_h > 0 && 2 * B.n_h < 0x7fffffffu;
    B.c_max = B.c_max_h = sm->window_max;
    B.lab_beside_h = sm->beside;
    B.h_sort_ahead = sm->sort_ahead;
    B.wit_before_h = sm->witnesses_before_h;
    B.lab_concurrent = sm->lab_concurrent;
    B.cap_lab = sm->lab_chunk ? sm->lab_chunk : sm->chunk;
    B.compact_vals = sm->compact_vals;
    return CUZK_OK;
}

extern "C" cuzk_status cuzk_gpu_emu_prove_streamed(cuzk_groth16_proof *out, const cuzk_groth16_params *p, size_t n,
                                                   const cuzk_groth16_witness *const *w, const cuzk_fr *r_in,
                                                   const cuzk_fr *s_in, const cuzk_gpu_emu_stream *sm)
{
    prover_bases B = host_bases(p);
    cuzk_status st = n ? CUZK_OK : cuzk_fail(CUZK_EINVAL, "a batch of no proofs");
    for (size_t j = 0; j < n && !st; j++) st = check_shape(B, w[j]);
    if (st || (st = stream_settings(B, sm))) return st;
    std::vector<cuzk_fr> r, s;
    if ((st = pick_rs_n(n, r_in, s_in, r, s))) return st;
    exec_host x, xl;
    x.abc_read = sm->abc_read;
    x.witness_read = sm->witness_read;
    x.read_ctx = sm->read_ctx;
    return prove_impl(x, &xl, ntt_host_tables_get().view(*x.cfg), B, vk_of(p->vk), n, w, r.data(), s.data(), out);
}

extern "C" cuzk_status cuzk_gpu_emu_prove_pce_streamed(cuzk_groth16_proof *out, const cuzk_groth16_params *p,
                                                       const cuzk_pce *pce, size_t n, const cuzk_fr *const *input,
                                                       size_t ni, const cuzk_fr *const *aux, size_t na,
                                                       const cuzk_fr *r_in, const cuzk_fr *s_in,
                                                       const cuzk_gpu_emu_stream *sm)
{
    prover_bases B = host_bases(p);
    cuzk_status st = n ? check_pce_shape(B, pce->num_constraints, pce->num_inputs, pce->num_aux, &pce->a_aux,
                                         &pce->b_input, &pce->b_aux, ni, na)
                       : cuzk_fail(CUZK_EINVAL, "a batch of no proofs");
    if (st || (st = stream_settings(B, sm))) return st;
    std::vector<cuzk_fr> r, s;
    if ((st = pick_rs_n(n, r_in, s_in, r, s))) return st;
    pce_host h;
    if ((st = h.init(pce, SPMV_SEG, sm->pce_chunk_bytes))) return st;
    exec_host x, xl;
    x.abc_read = sm->abc_read;
    x.witness_read = sm->witness_read;
    x.read_ctx = sm->read_ctx;
    return prove_pce_impl(x, &xl, ntt_host_tables_get().view(*x.cfg), B, vk_of(p->vk), h.v, n, input, aux, r.data(),
                          s.data(), out);
}

/* ---------------------------------------------------------------- device prover (gpu.h) */
/* A witness copied to the device ahead of its proof (cuzk_gpu_prefetch_witness). */
struct prefetch_slot {
    fr_t *in, *aux; /* device memory, grown as needed */
    size_t cap_in, cap_aux;
    const cuzk_fr *h_in, *h_aux; /* what it holds: host pointers and counts */
    size_t ni, na;
    bool valid;
    cudaEvent_t copied, used; /* copy finished; the last proof reading it finished */
};

struct cuzk_gpu_prover {
    cuzk_gpu_device *dev; /* the context it was made on (its tables and tuning) */
    prover_vk vk;
    prover_bases B;
    cuzk_gpu_placement pl;
    void *mem; /* resident: all five base arrays, one device allocation */
    size_t mem_bytes;
    void *host_mem; /* streamed: the same arrays (no phi(H)), page-locked host memory */
    size_t host_bytes;
    cuzk_scratch_mapping file; /* mapped: the same arrays in a scratch file (host_mem points into it) */
    exec_dev x;
    /* streamed, lab_concurrent: L, A and B on their own, their compute stream at high priority
     * (their kernels are short and each one's end lets the next chunk's copy start, so that the
     * link stays busy; the H MSM's sums fill the device between them) */
    exec_dev xl;
    std::mutex pf_mu;
    cudaStream_t pf_stream;
    prefetch_slot pf[2];
    int pf_next;
    size_t pf_hits;    /* proofs that used a prefetched witness */
    uint64_t uploaded; /* bytes its proofs copied from host memory (parameters, witnesses, a, b, c) */
};

/* log2 of the evaluation domain of a circuit with nh H bases (N - 1 of them) */
static unsigned domain_log(size_t nh) { return cuzk_log2_ceil((uint64_t)nh + 1); }

/* The placement of a prover of these lengths by the device's free memory now (no device PCE). */
static cuzk_status place_by_free(cuzk_gpu_device *d, size_t nh, size_t nl, size_t na, size_t nb, size_t ni,
                                 cuzk_gpu_placement *pl)
{
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
        cudaGetLastError();
        free_b = 0;
    }
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, cuzk_gpu_device_ordinal(d));
    /* the shape as the prover's lengths give it: aux = L's, the domain from H's */
    cuzk_gpu_shape sh = {nh, nl, na, nb, ni, nl, nh + 1, 0, (unsigned)sms};
    /* 1 GiB left to the caller's own buffers (a benchmark's) and the runtime, as the engine's
     * default device_reserve leaves */
    const size_t margin = (size_t)1 << 30;
    return cuzk_gpu_place(&sh, free_b > 2 * margin ? free_b - margin : free_b / 2, cuzk_gpu_device_config(d), pl);
}

/* the section arrays one after another at m, 256-byte aligned (phi(H) beside H with glv) */
static void lay_out(prover_bases &B, uint8_t *m, size_t nh, size_t nl, size_t na, size_t nb, bool glv)
{
    auto take = [&](size_t b) {
        uint8_t *p = m;
        m += (b + 255) & ~(size_t)255;
        return (void *)p;
    };
    B.h = (const g1_affine *)take((glv ? 2 * nh : nh) * sizeof(g1_affine));
    B.l = (const g1_affine *)take(nl * sizeof(g1_affine));
    B.a = (const g1_affine *)take(na * sizeof(g1_affine));
    B.b1 = (const g1_affine *)take(nb * sizeof(g1_affine));
    B.b2 = (const g2_affine *)take(nb * sizeof(g2_affine));
}

static size_t laid_out_bytes(size_t nh, size_t nl, size_t na, size_t nb, bool glv)
{
    return ((glv ? 2 * nh : nh) + nl + na + nb) * sizeof(g1_affine) + nb * sizeof(g2_affine) + 5 * 256;
}

/* The bases' memory as pl places them: on the device (phi(H) beside H where pl says and the
 * allocation succeeds), page-locked host memory for the streamed MSMs, or a mapped scratch file
 * in the tuning's stream_file_dir for the mapped placement (its chunks copied from pageable
 * memory: the driver stages them). */
static cuzk_status prover_mem(cuzk_gpu_prover *pr, size_t nh, size_t nl, size_t na, size_t nb)
{
    cuzk_gpu_placement &pl = pr->pl;
    if (pl.kind == CUZK_GPU_MAPPED) {
        const char *dir = cuzk_gpu_device_config(pr->dev)->stream_file_dir;
        cuzk_status st = cuzk_scratch_map(&pr->file, dir[0] ? dir : "/var/tmp", laid_out_bytes(nh, nl, na, nb, false));
        if (st) return st;
        pr->host_mem = pr->file.data;
    } else if (pl.kind == CUZK_GPU_STREAMED) {
        const size_t bytes = laid_out_bytes(nh, nl, na, nb, false);
        cudaError_t e = cudaHostAlloc(&pr->host_mem, bytes, cudaHostAllocPortable);
        if (e != cudaSuccess) {
            cudaGetLastError();
            pr->host_mem = NULL;
            return cuzk_fail(CUZK_ENOMEM, "page-locked host memory for the streamed parameters (%zu bytes): %s", bytes,
                             cudaGetErrorString(e));
        }
        pr->host_bytes = bytes;
    }
    if (pl.kind != CUZK_GPU_RESIDENT) {
        lay_out(pr->B, (uint8_t *)pr->host_mem, nh, nl, na, nb, false);
        pr->B.h_phi = 0;
        pr->B.cap = pl.chunk_points;
        pr->B.phi_stream = pl.h_glv;
        pr->B.c_max = pl.window_max;
        pr->B.c_max_h = pl.window_max_h;
        pr->B.lab_beside_h = pl.lab_beside_h;
        pr->B.h_sort_ahead = pl.h_sort_ahead;
        pr->B.wit_before_h = pl.witnesses_before_h;
        pr->B.lab_concurrent = pl.lab_concurrent;
        pr->B.cap_lab = pl.lab_chunk_points ? pl.lab_chunk_points : pl.chunk_points;
        pr->B.compact_vals = pl.compact_vals;
        return CUZK_OK;
    }
    bool glv = pl.h_glv;
    size_t bytes = laid_out_bytes(nh, nl, na, nb, glv);
    cudaError_t e = cudaMalloc(&pr->mem, bytes);
    if (e != cudaSuccess && glv) { /* no room for phi(H) after all: the H MSM goes without */
        cudaGetLastError();
        glv = pl.h_glv = false;
        bytes = laid_out_bytes(nh, nl, na, nb, false);
        e = cudaMalloc(&pr->mem, bytes);
    }
    if (e != cudaSuccess) {
        cudaGetLastError();
        pr->mem = NULL;
        return cuzk_fail(CUZK_ENOMEM, "device memory for the parameters (%zu bytes): %s", bytes, cudaGetErrorString(e));
    }
    pr->mem_bytes = bytes;
    lay_out(pr->B, (uint8_t *)pr->mem, nh, nl, na, nb, glv);
    pr->B.h_phi = glv ? (uint32_t)nh : 0;
    return CUZK_OK;
}

static cuzk_status prover_alloc(cuzk_gpu_device *d, cuzk_gpu_prover **out, size_t nh, size_t nl, size_t na, size_t nb,
                                size_t ni, const cuzk_gpu_placement *pl)
{
    *out = NULL;
    cuzk_status st = gpu_use(d);
    if (st) return st;
    cuzk_gpu_prover *pr = new (std::nothrow) cuzk_gpu_prover();
    if (!pr) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    pr->dev = d;
    if (pl) pr->pl = *pl;
    else if ((st = place_by_free(d, nh, nl, na, nb, ni, &pr->pl))) {
        delete pr;
        return st;
    }
    if (!(nh > 0 && 2 * nh < 0x7fffffffu)) pr->pl.h_glv = false;
    if ((st = prover_mem(pr, nh, nl, na, nb))) {
        cuzk_gpu_prover_destroy(pr);
        return st;
    }
    pr->B.n_h = nh;
    pr->B.n_l = nl;
    pr->B.n_a = na;
    pr->B.n_b = nb;
    pr->B.num_inputs = ni;
    if (!pr->x.init(d) || (pr->B.lab_concurrent && !pr->xl.init(d, true))) {
        st = pr->x.ok() ? pr->xl.err : pr->x.err;
        cuzk_gpu_prover_destroy(pr);
        return st;
    }
    /* the NTTs' full twiddle table (32 bytes per domain element), where it leaves the proofs
     * their working memory (283 bytes per H point measured with the split, see placement.c;
     * streamed: the placement's workspace) and the precompiled circuit the placement puts on
     * the device after the prover (without it, a streamed SnapDeals partition at 24 GiB took the
     * table and then ran out of memory in its H MSM) */
    const size_t keep = (cuzk_gpu_placement_streams(&pr->pl) ? (size_t)pr->pl.workspace_bytes : 300 * nh) +
        (size_t)pr->pl.pce_device_bytes; /* 0 where a, b, c come from the CPU */
    ntt_tables tb;
    if ((st = ntt_device_tables(d, &tb, domain_log(nh), keep))) {
        cuzk_gpu_prover_destroy(pr);
        return st;
    }
    *out = pr;
    return CUZK_OK;
}

/* phi(H) beside H, once H is in place */
static cuzk_status prover_fill_phi(cuzk_gpu_prover *pr)
{
    if (!pr->B.h_phi) return CUZK_OK;
    k_phi_g1 k = {pr->B.h, (g1_affine *)pr->B.h + pr->B.h_phi};
    pr->x.parallel(pr->B.n_h, k);
    pr->x.mark("phi(H)");
    pr->x.sync();
    return pr->x.err;
}

extern "C" cuzk_status cuzk_gpu_prover_begin_placed(cuzk_gpu_device *d, cuzk_gpu_prover **out,
                                                    const size_t count[CUZK_PARAMS_SECTIONS], const cuzk_groth16_vk *vk,
                                                    const cuzk_gpu_placement *pl)
{
    *out = NULL;
    if (count[CUZK_PARAMS_B_G1] != count[CUZK_PARAMS_B_G2])
        return cuzk_fail(CUZK_EINVAL, "b_g1 and b_g2 lengths differ");
    cuzk_status st = prover_alloc(d, out, count[CUZK_PARAMS_H], count[CUZK_PARAMS_L], count[CUZK_PARAMS_A],
                                  count[CUZK_PARAMS_B_G1], vk->ic_len, pl);
    if (!st) (*out)->vk = vk_of(*vk);
    return st;
}

extern "C" cuzk_status cuzk_gpu_prover_begin(cuzk_gpu_device *d, cuzk_gpu_prover **out,
                                             const size_t count[CUZK_PARAMS_SECTIONS], const cuzk_groth16_vk *vk)
{
    return cuzk_gpu_prover_begin_placed(d, out, count, vk, NULL);
}

extern "C" const cuzk_gpu_placement *cuzk_gpu_prover_placement(const cuzk_gpu_prover *pr)
{
    return pr ? &pr->pl : NULL;
}

extern "C" cuzk_status cuzk_gpu_prover_put(cuzk_gpu_prover *pr, int section, size_t first, size_t n, const void *points)
{
    const prover_bases &B = pr->B;
    const void *base[CUZK_PARAMS_SECTIONS] = {B.h, B.l, B.a, B.b1, B.b2};
    const size_t len[CUZK_PARAMS_SECTIONS] = {B.n_h, B.n_l, B.n_a, B.n_b, B.n_b};
    if (section < 0 || section >= CUZK_PARAMS_SECTIONS || first > len[section] || n > len[section] - first)
        return cuzk_fail(CUZK_EINVAL, "parameter points %zu..%zu of section %d are outside the prover's", first,
                         first + n, section);
    size_t each = section == CUZK_PARAMS_B_G2 ? sizeof(g2_affine) : sizeof(g1_affine);
    if (pr->host_mem) { /* streamed: the prover's host copy */
        memcpy((uint8_t *)base[section] + first * each, points, n * each);
        return CUZK_OK;
    }
    pr->x.use();
    cudaError_t e = cudaMemcpy((uint8_t *)base[section] + first * each, points, n * each, cudaMemcpyHostToDevice);
    if (e != cudaSuccess) return cuzk_fail(CUZK_EDEVICE, "uploading parameters: %s", cudaGetErrorString(e));
    return CUZK_OK;
}

extern "C" cuzk_status cuzk_gpu_prover_commit(cuzk_gpu_prover *pr) { return prover_fill_phi(pr); }

extern "C" cuzk_status cuzk_gpu_prover_create(cuzk_gpu_device *d, cuzk_gpu_prover **out, const cuzk_groth16_params *p)
{
    const size_t count[CUZK_PARAMS_SECTIONS] = {p->h_len, p->l_len, p->a_len, p->b_g1_len, p->b_g2_len};
    const void *pts[CUZK_PARAMS_SECTIONS] = {p->h, p->l, p->a, p->b_g1, p->b_g2};
    cuzk_status st = cuzk_gpu_prover_begin(d, out, count, &p->vk);
    for (int k = 0; k < CUZK_PARAMS_SECTIONS && !st; k++) st = cuzk_gpu_prover_put(*out, k, 0, count[k], pts[k]);
    if (!st) st = cuzk_gpu_prover_commit(*out);
    if (st && *out) {
        cuzk_gpu_prover_destroy(*out);
        *out = NULL;
    }
    return st;
}

extern "C" cuzk_status cuzk_gpu_prover_create_synthetic(cuzk_gpu_device *d, cuzk_gpu_prover **out,
                                                        const cuzk_gpu_synthetic_shape *sh)
{
    return cuzk_gpu_prover_create_synthetic_placed(d, out, sh, NULL);
}

extern "C" cuzk_status cuzk_gpu_prover_create_synthetic_placed(cuzk_gpu_device *d, cuzk_gpu_prover **out,
                                                               const cuzk_gpu_synthetic_shape *sh,
                                                               const cuzk_gpu_placement *pl)
{
    cuzk_status st = prover_alloc(d, out, sh->n_h, sh->n_l, sh->n_a, sh->n_b, sh->num_inputs, pl);
    if (st) return st;
    cuzk_gpu_prover *pr = *out;
    exec_dev &x = pr->x;
    const size_t n1[4] = {sh->n_h, sh->n_l, sh->n_a, sh->n_b};
    const g1_affine *d1[4] = {pr->B.h, pr->B.l, pr->B.a, pr->B.b1};
    /* streamed: made on the device a piece at a time and copied to the host arrays */
    const size_t piece = (size_t)1 << 22;
    void *tmp = pr->host_mem ? x.alloc(piece * sizeof(g2_affine)) : NULL;
    for (int i = 0; i < 5; i++) {
        g1_affine A, Q;
        g2_affine A2, Q2;
        if (i < 4) synthetic_ab_g1(&A, &Q, sh->seed * 8 + (uint64_t)i);
        else synthetic_ab_g2(&A2, &Q2, sh->seed * 8 + 5);
        const size_t n = i < 4 ? n1[i] : sh->n_b, each = i < 4 ? sizeof(g1_affine) : sizeof(g2_affine);
        uint8_t *dst = i < 4 ? (uint8_t *)d1[i] : (uint8_t *)pr->B.b2;
        for (size_t from = 0; from < n && x.ok(); from += tmp ? piece : n) {
            const size_t to = tmp && n - from > piece ? from + piece : n;
            void *o = tmp ? tmp : dst;
            if (i < 4) gen_points_g1(x, (g1_affine *)o, to, A, Q, from);
            else gen_points_g2(x, (g2_affine *)o, to, A2, Q2, from);
            if (tmp) x.to_host(dst + from * each, tmp, (to - from) * each);
        }
    }
    x.release(tmp);
    x.sync();
    if (!x.ok() || (st = prover_fill_phi(pr))) {
        st = st ? st : x.err;
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
    pr->x.use();
    if (pr->pf_stream) cudaStreamSynchronize(pr->pf_stream);
    for (prefetch_slot &sl : pr->pf) {
        if (sl.in) cudaFree(sl.in);
        if (sl.aux) cudaFree(sl.aux);
        if (sl.copied) cudaEventDestroy(sl.copied);
        if (sl.used) cudaEventDestroy(sl.used);
    }
    if (pr->pf_stream) cudaStreamDestroy(pr->pf_stream);
    pr->x.destroy();
    pr->xl.destroy();
    if (pr->mem) cudaFree(pr->mem);
    if (pr->file.data) cuzk_scratch_unmap(&pr->file);
    else if (pr->host_mem) cudaFreeHost(pr->host_mem);
    /* The memory pool keeps what the proofs freed (glue.cu: its release threshold), so the
     * driver would go on counting this prover's workspace as used: a prover or engine placed
     * next in this process would see that much less free memory (a bench's engine after its
     * single proofs at 48 GiB free got a budget of 20.6 GB). Only what no one uses goes back. */
    cudaMemPool_t pool;
    if (cudaDeviceGetDefaultMemPool(&pool, cuzk_gpu_device_ordinal(pr->dev)) == cudaSuccess) cudaMemPoolTrimTo(pool, 0);
    cudaGetLastError();
    delete pr;
}

static const cuzk_groth16_prove_opts NO_OPTS = {NULL, NULL, NULL, NULL};

/* Runs n proofs (one unless the prover streams and batches) on the prover's executor (prove:
 * the entry's body, given n randomizer pairs) with o's randomizers (n each, where set) and
 * cancel token, and puts the stage times on o->tl. */
template <class F>
static cuzk_status run_device(cuzk_gpu_prover *pr, size_t n, const cuzk_groth16_prove_opts *o, F prove)
{
    if (blst_p1_affine_is_inf(&pr->vk.delta_g1) || blst_p2_affine_is_inf(&pr->vk.delta_g2))
        return cuzk_fail(CUZK_EINVAL, "parameters have delta at infinity (a subverted setup)");
    std::vector<cuzk_fr> r, s;
    cuzk_status st;
    if ((st = pick_rs_n(n, o->r, o->s, r, s))) return st;
    ntt_tables tb;
    if ((st = ntt_device_tables(pr->dev, &tb, domain_log(pr->B.n_h)))) return st; /* built at creation */
    char name[80] = "prove (gpu)";
    const char *where = pr->file.data ? "mapped from a file" : "streamed";
    if (n > 1) snprintf(name, sizeof name, "prove (gpu, parameters %s, %zu proofs)", where, n);
    else if (pr->host_mem) snprintf(name, sizeof name, "prove (gpu, parameters %s)", where);
    int span = cuzk_span_begin(o->tl, name);
    exec_dev &x = pr->x;
    x.err = CUZK_OK;
    x.cancel = o->cancel;
    x.abc_read = o->abc_read;
    x.witness_read = o->witness_read;
    x.read_ctx = o->read_ctx;
    x.use();
    cudaGetLastError(); /* not this proof's: a failure of an earlier call on this thread */
    x.uploaded = 0;
    pr->xl.uploaded = 0; /* (its error and cancel token are set where it runs) */
    st = prove(x, tb, r.data(), s.data());
    pr->xl.cancel = NULL;
    __atomic_add_fetch(&pr->uploaded, x.uploaded + pr->xl.uploaded, __ATOMIC_RELAXED);
    x.cancel = NULL; /* the token and the notice are the caller's: not kept past the call */
    x.abc_read = NULL;
    x.witness_read = NULL;
    x.read_ctx = NULL;
    std::vector<std::pair<const char *, double>> stages;
    x.take_stages(stages);
    pr->xl.take_stages(stages); /* L, A and B on their own streams, where they ran there */
    for (auto &sg : stages) cuzk_span_add(o->tl, span, sg.first, sg.second);
    x.drop_events();
    pr->xl.drop_events();
    cuzk_span_end(o->tl, span);
    return st;
}

extern "C" unsigned cuzk_gpu_prover_batch_max(const cuzk_gpu_prover *pr)
{
    return pr->host_mem && pr->pl.batch_max > 1 ? pr->pl.batch_max : 1;
}

/* before anything reads the n witnesses */
static cuzk_status check_batch(const cuzk_gpu_prover *pr, size_t n)
{
    if (n == 0 || n > cuzk_gpu_prover_batch_max(pr))
        return cuzk_fail(CUZK_EINVAL, "a batch of %zu proofs: this prover takes 1 to %u at once", n,
                         cuzk_gpu_prover_batch_max(pr));
    return CUZK_OK;
}

extern "C" cuzk_status cuzk_gpu_prove_batch_with(cuzk_gpu_prover *pr, size_t n, cuzk_groth16_proof *out,
                                                 const cuzk_groth16_witness *const *w,
                                                 const cuzk_groth16_prove_opts *opts)
{
    if (check_batch(pr, n)) return CUZK_EINVAL;
    for (size_t j = 0; j < n; j++) {
        cuzk_status st = check_shape(pr->B, w[j]);
        if (st) return st;
    }
    return run_device(pr, n, opts ? opts : &NO_OPTS,
                      [&](exec_dev &x, const ntt_tables &tb, const cuzk_fr *r, const cuzk_fr *s) {
                          return prove_impl(x, &pr->xl, tb, pr->B, pr->vk, n, w, r, s, out);
                      });
}

extern "C" cuzk_status cuzk_gpu_prove_with(cuzk_gpu_prover *pr, cuzk_groth16_proof *out, const cuzk_groth16_witness *w,
                                           const cuzk_groth16_prove_opts *opts)
{
    return cuzk_gpu_prove_batch_with(pr, 1, out, &w, opts);
}

extern "C" cuzk_status cuzk_gpu_prove(cuzk_gpu_prover *pr, cuzk_groth16_proof *out, const cuzk_groth16_witness *w,
                                      const cuzk_fr *r_in, const cuzk_fr *s_in, cuzk_timeline *tl)
{
    cuzk_groth16_prove_opts o = {r_in, s_in, tl, NULL};
    return cuzk_gpu_prove_with(pr, out, w, &o);
}

/* Grows a slot's device buffer; false when the device has no room */
static bool slot_reserve(fr_t **buf, size_t *cap, size_t n)
{
    if (*cap >= n) return true;
    if (*buf) cudaFree(*buf);
    *buf = NULL;
    *cap = 0;
    if (cudaMalloc((void **)buf, (n ? n : 1) * sizeof(fr_t)) != cudaSuccess) {
        cudaGetLastError();
        *buf = NULL;
        return false;
    }
    *cap = n;
    return true;
}

extern "C" cuzk_status cuzk_gpu_prefetch_witness(cuzk_gpu_prover *pr, const cuzk_fr *input, size_t ni,
                                                 const cuzk_fr *aux, size_t na)
{
    if (pr->host_mem) /* streamed: the device's memory is the proof's (placement.c counts no slots) */
        return cuzk_fail(CUZK_EBUSY, "no witness prefetch with the parameters streamed");
    cuzk_status ust = gpu_use(pr->dev);
    if (ust) return ust;
    prefetch_slot *slp;
    {
        std::lock_guard<std::mutex> lk(pr->pf_mu);
        if (!pr->pf_stream && cudaStreamCreateWithFlags(&pr->pf_stream, cudaStreamNonBlocking) != cudaSuccess) {
            pr->pf_stream = 0;
            return cuzk_fail(CUZK_EDEVICE, "prefetch: cannot create a stream");
        }
        slp = &pr->pf[pr->pf_next];
        pr->pf_next ^= 1;
        slp->valid = false;
        if (!slp->copied &&
            (cudaEventCreateWithFlags(&slp->copied, cudaEventDisableTiming) != cudaSuccess ||
             cudaEventCreateWithFlags(&slp->used, cudaEventDisableTiming) != cudaSuccess))
            return cuzk_fail(CUZK_EDEVICE, "prefetch: cannot create events");
    }
    prefetch_slot &sl = *slp;
    /* the last proof that read this slot must be done with it (and so must its copy); waited
     * for without the lock, which a proof's lookup and a drop take (the slot is not valid, so
     * nothing matches it meanwhile) */
    cudaStreamWaitEvent(pr->pf_stream, sl.used, 0);
    cudaEventSynchronize(sl.used); /* before freeing a buffer it may read */
    std::lock_guard<std::mutex> lk(pr->pf_mu);
    if (!slot_reserve(&sl.in, &sl.cap_in, ni) || !slot_reserve(&sl.aux, &sl.cap_aux, na))
        return cuzk_fail(CUZK_ENOMEM, "prefetch: no device memory for %zu + %zu assignment values", ni, na);
    cudaError_t e = cudaMemcpyAsync(sl.in, input, ni * sizeof(fr_t), cudaMemcpyHostToDevice, pr->pf_stream);
    if (e == cudaSuccess) e = cudaMemcpyAsync(sl.aux, aux, na * sizeof(fr_t), cudaMemcpyHostToDevice, pr->pf_stream);
    if (e == cudaSuccess) e = cudaEventRecord(sl.copied, pr->pf_stream);
    if (e != cudaSuccess) return cuzk_fail(CUZK_EDEVICE, "prefetch: %s", cudaGetErrorString(e));
    sl.h_in = input;
    sl.h_aux = aux;
    sl.ni = ni;
    sl.na = na;
    sl.valid = true;
    return CUZK_OK;
}

extern "C" cuzk_status cuzk_gpu_prove_pce_with(cuzk_gpu_prover *pr, const cuzk_gpu_pce *pce, cuzk_groth16_proof *out,
                                               const cuzk_fr *input, size_t ni, const cuzk_fr *aux, size_t na,
                                               const cuzk_groth16_prove_opts *opts)
{
    return cuzk_gpu_prove_pce_batch_with(pr, pce, 1, out, &input, ni, &aux, na, opts);
}

extern "C" cuzk_status cuzk_gpu_prove_pce_batch_with(cuzk_gpu_prover *pr, const cuzk_gpu_pce *pce, size_t n,
                                                     cuzk_groth16_proof *out, const cuzk_fr *const *input, size_t ni,
                                                     const cuzk_fr *const *aux, size_t na,
                                                     const cuzk_groth16_prove_opts *opts)
{
    if (check_batch(pr, n)) return CUZK_EINVAL;
    cuzk_status st =
        check_pce_shape(pr->B, pce->v.nc, pce->v.ni, pce->v.na, &pce->a_aux, &pce->b_input, &pce->b_aux, ni, na);
    if (st) return st;
    /* a prefetched copy of this very witness (one proof): the proof's stream waits for it
     * instead of uploading (the slot stays claimed until the proof's work is done) */
    prefetch_slot *use = NULL;
    if (n == 1) {
        std::lock_guard<std::mutex> lk(pr->pf_mu);
        for (prefetch_slot &sl : pr->pf)
            if (sl.valid && sl.h_in == input[0] && sl.h_aux == aux[0] && sl.ni == ni && sl.na == na) use = &sl;
        if (use) {
            use->valid = false;
            pr->pf_hits++;
            cudaStreamWaitEvent(pr->x.stream, use->copied, 0);
        }
    }
    fr_t *staged[2] = {use ? use->in : NULL, use ? use->aux : NULL};
    st = run_device(
        pr, n, opts ? opts : &NO_OPTS, [&](exec_dev &x, const ntt_tables &tb, const cuzk_fr *r, const cuzk_fr *s) {
            return prove_pce_impl(x, &pr->xl, tb, pr->B, pr->vk, pce->v, n, input, aux, r, s, out, use ? staged : NULL);
        });
    if (use) cudaEventRecord(use->used, pr->x.stream);
    return st;
}

extern "C" cuzk_status cuzk_gpu_prove_pce(cuzk_gpu_prover *pr, const cuzk_gpu_pce *pce, cuzk_groth16_proof *out,
                                          const cuzk_fr *input, size_t ni, const cuzk_fr *aux, size_t na,
                                          const cuzk_fr *r_in, const cuzk_fr *s_in, cuzk_timeline *tl)
{
    cuzk_groth16_prove_opts o = {r_in, s_in, tl, NULL};
    return cuzk_gpu_prove_pce_with(pr, pce, out, input, ni, aux, na, &o);
}

extern "C" cuzk_gpu_device *cuzk_gpu_prover_device(const cuzk_gpu_prover *pr) { return pr ? pr->dev : NULL; }

extern "C" void cuzk_gpu_prefetch_drop(cuzk_gpu_prover *pr, const cuzk_fr *input, const cuzk_fr *aux)
{
    std::lock_guard<std::mutex> lk(pr->pf_mu);
    for (prefetch_slot &sl : pr->pf)
        if (sl.valid && (sl.h_in == input || sl.h_aux == aux)) sl.valid = false;
}

extern "C" size_t cuzk_gpu_prefetch_hits(cuzk_gpu_prover *pr)
{
    std::lock_guard<std::mutex> lk(pr->pf_mu);
    return pr->pf_hits;
}

extern "C" size_t cuzk_gpu_prover_own_bytes(const cuzk_gpu_prover *pr) { return pr->mem_bytes; }

extern "C" uint64_t cuzk_gpu_prover_uploaded_bytes(const cuzk_gpu_prover *pr)
{
    return __atomic_load_n(&pr->uploaded, __ATOMIC_RELAXED);
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
    if (pinned_host_bytes) *pinned_host_bytes = pr->host_bytes;
}

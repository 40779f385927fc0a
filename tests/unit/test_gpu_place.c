/* The GPU placement (cuzk_gpu_place): resident where the device holds the parameters and a
 * proof's workspace, streamed from host memory below that with the largest chunk that fits,
 * refused with the sizes named when not even the streamed workspace fits; the tuning's
 * placement, chunk and batch keys; the estimate never above the room it was given; streamed
 * partitions batched as the room allows; the device size of a circuit whose matrices stream.
 * Plain C: no GPU. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/gpu.h"
#include "cuzk/pce.h"
#include "harness.h"

#define GIB (1ull << 30)

/* a 32 GiB PoRep partition as the precompiled circuit gives it */
static cuzk_gpu_shape porep_32g(uint64_t pce_bytes)
{
    const size_t ni = 328, na = 130169893, nc = 130278869;
    cuzk_gpu_shape sh = {
        ((size_t)1 << 27) - 1, na, ni + 129753292, 1 + 33112281, ni, na, nc + ni, pce_bytes, 132, 0, true};
    return sh;
}

/* the default tuning but the placement, the chunks and full witnesses (test_compact has the
 * compact ones, on by default) */
static cuzk_gpu_config cfg_with(const char *placement, unsigned chunk_log)
{
    cuzk_gpu_config c;
    cuzk_gpu_config_default(&c);
    snprintf(c.placement, sizeof c.placement, "%s", placement);
    c.stream_chunk_log = chunk_log;
    c.stream_compact_permille = 0;
    return c;
}

static uint64_t device_total(const cuzk_gpu_placement *p)
{
    return p->params_device_bytes + p->pce_device_bytes + p->workspace_bytes;
}

static void test_porep_32g(void)
{
    const cuzk_gpu_shape sh = porep_32g(7000000000ull);
    const cuzk_gpu_config full = cfg_with("auto", 0);
    cuzk_gpu_placement p;
    /* an H200's free memory: resident, phi(H) beside H, the circuit on the device */
    CHECK_OK(cuzk_gpu_place(&sh, 139 * GIB, &full, &p));
    CHECK(p.kind == CUZK_GPU_RESIDENT && p.h_glv && p.pce_on_device && p.batch_max == 1);
    CHECK(p.params_device_bytes > 55 * GIB && p.pinned_host_bytes == 0);
    CHECK(device_total(&p) <= 139 * GIB);
    CHECK(strstr(p.why, "resident") != NULL);
    /* 24 and 16 GiB cards: streamed, every base in host memory, chunks of at least 2^20 */
    const uint64_t rooms[2] = {24 * GIB, 16 * GIB};
    for (int i = 0; i < 2; i++) {
        CHECK_OK(cuzk_gpu_place(&sh, rooms[i], &full, &p));
        CHECK(p.kind == CUZK_GPU_STREAMED);
        CHECK(p.params_device_bytes == 0);
        CHECK(p.pinned_host_bytes > 44 * GIB && p.pinned_host_bytes < 48 * GIB);
        CHECK(p.chunk_points >= (1u << 20) && (p.chunk_points & (p.chunk_points - 1)) == 0);
        CHECK(p.window_max >= 12 && p.window_max <= 21);
        /* the H MSM (split scalars, no split arrays beside it) gets windows at least as wide */
        CHECK(p.window_max_h >= p.window_max && p.window_max_h <= 22);
        CHECK(device_total(&p) <= rooms[i]);
        CHECK(strstr(p.why, "streamed") != NULL && strstr(p.why, "host memory") != NULL);
        /* two partitions per pass over the bases (their witnesses, 4.2 GB each, fit beside the
         * rest once the 0/1 split is made a chunk at a time), in chunks of at least 2^22; L, A and
         * B after the H MSM (beside it they would need narrower windows) */
        CHECK(p.batch_max >= 2 && p.chunk_points >= (1u << 22) && !p.lab_beside_h);
        CHECK(strstr(p.why, "proofs per pass") != NULL && strstr(p.why, "beside") == NULL);
        /* the H MSM's second set of keys and values (0.4 to 0.8 GiB) fits beside its widest windows */
        CHECK(p.h_sort_ahead && strstr(p.why, "H sorting a chunk ahead") != NULL);
        /* a, b, c from the SpMV, the circuit's matrices streamed: its witness and two of a, b, c
         * fit (c made in b's place once a b is) */
        CHECK(!p.pce_on_device && p.pce_streamed && p.pce_device_bytes > 0 && p.pce_device_bytes < GIB / 4);
    }
    /* a 16 GB card as the engine sees it (an H100 with all but 16 GiB held: 14.49 GiB less the
     * reserve): the matrices still stream, two proofs per pass */
    CHECK_OK(cuzk_gpu_place(&sh, 14 * GIB + GIB / 2, &full, &p));
    CHECK(p.kind == CUZK_GPU_STREAMED && p.pce_streamed && p.batch_max >= 2 && p.chunk_points >= (1u << 22));
    CHECK(device_total(&p) <= 14 * GIB + GIB / 2);
    /* the circuit (7 GB) fits beside two of a, b, c at 24 GiB, but only with smaller chunks and
     * narrower windows than its matrices streamed: so they stream; at 32 GiB it costs nothing */
    CHECK_OK(cuzk_gpu_place(&sh, 24 * GIB, &full, &p));
    CHECK(p.pce_streamed && !p.pce_on_device && p.chunk_points == (1u << 23) && p.window_max == 21);
    CHECK_OK(cuzk_gpu_place(&sh, 32 * GIB, &full, &p));
    CHECK(p.kind == CUZK_GPU_STREAMED && p.pce_on_device && p.chunk_points == (1u << 23) && p.window_max == 21);
    CHECK(device_total(&p) <= 32 * GIB);
    /* 22 GiB (a 24 GiB card less the reserve and the driver's share): the circuit's matrices
     * stream for the SpMV (its plan, coefficients and bitmaps on the device) */
    CHECK_OK(cuzk_gpu_place(&sh, 22 * GIB, &full, &p));
    CHECK(p.kind == CUZK_GPU_STREAMED && !p.pce_on_device && p.pce_streamed && p.batch_max >= 2);
    CHECK(p.pce_device_bytes > 0 && p.pce_device_bytes < GIB / 4 && device_total(&p) <= 22 * GIB);
    CHECK(strstr(p.why, "matrices streamed for the SpMV") != NULL);
    CHECK_OK(cuzk_gpu_place(&sh, 16 * GIB, &full, &p));
    /* at 16 GiB the H MSM still has the widest windows (buckets of 22 bits: 4.5 GiB) */
    CHECK(p.window_max_h == 22);
    /* at 16 GiB the precompiled circuit (7 GB) cannot sit beside the witness and two of a, b, c */
    CHECK(!p.pce_on_device && p.pce_streamed);
    /* too small even for the streamed workspace: refused, the sizes named */
    CHECK_FAILS(cuzk_gpu_place(&sh, 6 * GIB, &full, &p), CUZK_EBUDGET);
    CHECK(strstr(cuzk_last_error(), "6.00 GiB") != NULL && strstr(cuzk_last_error(), "2^27") != NULL);
    /* every room from 10 to 150 GiB: what is placed fits it, more room never streams what less
     * room kept resident, streamed from 16 GiB up at least two proofs share a pass, and, asked
     * for, L, A and B run beside the H MSM only with the windows they would have after it */
    bool was_resident = false;
    uint64_t beside_from = 0;
    cuzk_gpu_config bc = cfg_with("auto", 0);
    bc.stream_beside = true;
    for (uint64_t g = 10; g <= 150; g++) {
        cuzk_gpu_placement pd;
        if (cuzk_gpu_place(&sh, g * GIB, &full, &pd) == CUZK_OK) {
            CHECK(!pd.lab_beside_h); /* off by default */
            /* witnesses uploaded during the last H MSM: none resident, at most the batch's */
            CHECK(pd.witnesses_before_h <= (pd.kind == CUZK_GPU_RESIDENT ? 0 : pd.batch_max));
            CHECK(device_total(&pd) <= g * GIB);
        }
        if (cuzk_gpu_place(&sh, g * GIB, &bc, &p)) continue;
        if (p.lab_beside_h) CHECK(p.witnesses_before_h == 0); /* all are on the device before it */
        CHECK(device_total(&p) <= g * GIB);
        if (was_resident) CHECK(p.kind == CUZK_GPU_RESIDENT);
        was_resident |= p.kind == CUZK_GPU_RESIDENT;
        CHECK(p.batch_max >= 1 && p.batch_max <= 10);
        if (p.kind == CUZK_GPU_STREAMED && g >= 16) CHECK(p.batch_max >= 2);
        if (p.lab_beside_h) CHECK(p.kind == CUZK_GPU_STREAMED && p.window_max_h == 22 && p.window_max >= 19);
        beside_from = p.lab_beside_h && !beside_from ? g : beside_from;
        if (p.kind == CUZK_GPU_RESIDENT) CHECK(p.batch_max == 1 && !p.h_sort_ahead);
    }
    /* chunks of 2^25 (the H MSM's peak the largest): from 27 to 32 GiB, the sort ahead only where
     * its keys fit beside the widest windows that fit without it, and what is placed fits */
    const cuzk_gpu_config big = cfg_with("auto", 25);
    unsigned some_ahead = 0, some_not = 0;
    for (uint64_t m = 27 * 8; m <= 32 * 8; m++) {
        if (cuzk_gpu_place(&sh, m * (GIB / 8), &big, &p)) continue;
        CHECK(device_total(&p) <= m * (GIB / 8));
        if (p.h_sort_ahead) some_ahead++;
        else some_not++;
        if (some_ahead) CHECK(p.h_sort_ahead); /* more room never takes it away */
    }
    CHECK(some_ahead > 0 && some_not > 0);
    CHECK(was_resident);
    /* beside from some room between 24 and 48 GiB (the H MSM's buckets, its chunks and the L, A,
     * B stage's witnesses and four buffers together) */
    CHECK(beside_from > 24 && beside_from <= 48);
    /* at 48 GiB asked for: beside, two proofs per pass; by default, more proofs per pass instead */
    CHECK_OK(cuzk_gpu_place(&sh, 48 * GIB, &bc, &p));
    CHECK(p.lab_beside_h && p.batch_max >= 2 && strstr(p.why, "L, A, B beside the H MSM") != NULL);
    CHECK(device_total(&p) <= 48 * GIB);
    CHECK_OK(cuzk_gpu_place(&sh, 48 * GIB, &full, &p));
    CHECK(!p.lab_beside_h && p.batch_max > 2 && strstr(p.why, "beside") == NULL);
    /* L, A, B after H: at 48 and 24 GiB every witness of the batch goes to the device during the
     * last H MSM (4.2 GB each beside H's 22-bit buckets); at 22 GiB one; a 16 GB card has no room
     * for one */
    CHECK(p.witnesses_before_h == p.batch_max && strstr(p.why, "the witnesses uploaded during the last H MSM") != NULL);
    CHECK_OK(cuzk_gpu_place(&sh, 24 * GIB, &full, &p));
    CHECK(p.witnesses_before_h == p.batch_max && p.batch_max == 2 && device_total(&p) <= 24 * GIB);
    CHECK_OK(cuzk_gpu_place(&sh, 22 * GIB, &full, &p));
    CHECK(p.witnesses_before_h == 1 && strstr(p.why, "a witness uploaded during the last H MSM") != NULL);
    CHECK_OK(cuzk_gpu_place(&sh, 14 * GIB + GIB / 2, &full, &p));
    CHECK(p.witnesses_before_h == 0 && strstr(p.why, "uploaded during") == NULL);
    /* switched off ([gpu] stream_witnesses_during_h): none, and nothing else changes */
    cuzk_gpu_config off = cfg_with("auto", 0);
    off.stream_witnesses_during_h = false;
    cuzk_gpu_placement q;
    CHECK_OK(cuzk_gpu_place(&sh, 48 * GIB, &full, &p));
    CHECK_OK(cuzk_gpu_place(&sh, 48 * GIB, &off, &q));
    CHECK(q.witnesses_before_h == 0 && strstr(q.why, "uploaded during") == NULL);
    CHECK(q.chunk_points == p.chunk_points && q.window_max == p.window_max && q.batch_max == p.batch_max);
    CHECK(q.workspace_bytes <= p.workspace_bytes);
    /* asked for ([gpu] stream_lab_concurrent; off by default): L, A, B on their own streams
     * beside the batch wherever their workspace fits beside the NTTs' and the H MSM's (its
     * windows kept), never with a 16 GB card's room, with one proof per pass at 22 GiB and more
     * at 48; what is placed fits */
    cuzk_gpu_config cc = cfg_with("auto", 0);
    cc.stream_lab_concurrent = true;
    uint64_t apart_from = 0;
    for (uint64_t g = 10; g <= 150; g++) {
        cuzk_gpu_placement pd;
        if (cuzk_gpu_place(&sh, g * GIB, &full, &pd) == CUZK_OK) CHECK(!pd.lab_concurrent && pd.lab_chunk_points == 0);
        if (cuzk_gpu_place(&sh, g * GIB, &cc, &p)) continue;
        CHECK(device_total(&p) <= g * GIB);
        if (!p.lab_concurrent) continue;
        apart_from = apart_from ? apart_from : g;
        CHECK(p.kind == CUZK_GPU_STREAMED && !p.lab_beside_h && p.witnesses_before_h == 0);
        CHECK(p.lab_chunk_points <= p.chunk_points);
        CHECK(p.lab_chunk_points >= (1u << 22) || p.lab_chunk_points == p.chunk_points);
        CHECK(p.window_max >= 12 && p.window_max_h == 22 && p.batch_max >= 1);
        CHECK(strstr(p.why, "L, A, B on their own streams beside the batch") != NULL);
    }
    CHECK(apart_from > 16 && apart_from <= 22);
    CHECK_OK(cuzk_gpu_place(&sh, 14 * GIB + GIB / 2, &cc, &p));
    CHECK(!p.lab_concurrent);
    CHECK_OK(cuzk_gpu_place(&sh, 22 * GIB + GIB / 2, &cc, &p));
    CHECK(p.lab_concurrent && p.batch_max == 1);
    CHECK_OK(cuzk_gpu_place(&sh, 48 * GIB, &cc, &p));
    CHECK(p.lab_concurrent && p.batch_max >= 2);
}

/* Compact witnesses for L, A and B ([gpu] stream_compact_permille 40; 0 by default, for circuits
 * whose values are mostly 0 and 1): with batches as the engine's default witness buffers fill
 * them (two), a 16 GB card's room gets L, A, B windows of 20 bits where full witnesses have 18,
 * and a 24 GB card's chunks of 2^24 where they have 2^23; where full witnesses lose nothing (48
 * GiB), full ones; never without the precompiled circuit (nothing to make them from), never with
 * L, A, B apart, and what is placed fits every room. */
static void test_compact(void)
{
    const cuzk_gpu_shape sh = porep_32g(7000000000ull);
    cuzk_gpu_config dflt, full;
    cuzk_gpu_config_default(&dflt);
    CHECK(dflt.stream_compact_permille == 0); /* off until measured on a GPU */
    dflt.stream_compact_permille = 40;
    dflt.stream_batch = 2;
    full = dflt;
    full.stream_compact_permille = 0;
    cuzk_gpu_placement p, q;
    CHECK_OK(cuzk_gpu_place(&sh, 14 * GIB + GIB / 2, &dflt, &p));
    CHECK_OK(cuzk_gpu_place(&sh, 14 * GIB + GIB / 2, &full, &q));
    CHECK(p.kind == CUZK_GPU_STREAMED && p.pce_streamed && p.batch_max == 2);
    CHECK(p.compact_vals == (sh.num_aux * 40 + 999) / 1000 && q.compact_vals == 0);
    CHECK(p.chunk_points == (1u << 22) && q.chunk_points == (1u << 22));
    CHECK(p.window_max == 20 && q.window_max == 18 && p.window_max_h == 22 && q.window_max_h == 22);
    CHECK(p.witnesses_before_h == 0 && device_total(&p) <= 14 * GIB + GIB / 2);
    CHECK(strstr(p.why, "compact form") != NULL && strstr(q.why, "compact") == NULL);
    const uint64_t rooms[2] = {22 * GIB, 24 * GIB};
    for (int i = 0; i < 2; i++) {
        CHECK_OK(cuzk_gpu_place(&sh, rooms[i], &dflt, &p));
        CHECK_OK(cuzk_gpu_place(&sh, rooms[i], &full, &q));
        CHECK(p.compact_vals > 0 && p.chunk_points == (1u << 24) && q.chunk_points == (1u << 23));
        CHECK(p.batch_max == 2 && p.window_max == 21 && p.window_max_h == 22 && device_total(&p) <= rooms[i]);
    }
    CHECK_OK(cuzk_gpu_place(&sh, 48 * GIB, &dflt, &p));
    CHECK(p.kind == CUZK_GPU_STREAMED && p.compact_vals == 0 && p.witnesses_before_h == 2);
    /* a, b, c from the CPU: no SpMV copy to make them from; a circuit whose values are not
     * mostly 0 and 1 (PoSt): none either */
    const cuzk_gpu_shape nopce = porep_32g(0);
    cuzk_gpu_shape notbits = sh;
    notbits.mostly_bits = false;
    cuzk_gpu_config apart = dflt;
    apart.stream_lab_concurrent = true;
    for (uint64_t g = 10; g <= 150; g++) {
        if (cuzk_gpu_place(&sh, g * GIB, &dflt, &p) == CUZK_OK) {
            CHECK(device_total(&p) <= g * GIB);
            if (p.compact_vals)
                CHECK(p.kind == CUZK_GPU_STREAMED && (p.pce_on_device || p.pce_streamed) && p.witnesses_before_h == 0 &&
                      !p.lab_concurrent && !p.lab_beside_h);
        }
        if (cuzk_gpu_place(&nopce, g * GIB, &dflt, &p) == CUZK_OK) CHECK(p.compact_vals == 0);
        if (cuzk_gpu_place(&notbits, g * GIB, &dflt, &p) == CUZK_OK) CHECK(p.compact_vals == 0);
        if (cuzk_gpu_place(&sh, g * GIB, &apart, &p) == CUZK_OK && p.lab_concurrent) CHECK(p.compact_vals == 0);
    }
}

static void test_keys(void)
{
    const cuzk_gpu_shape sh = porep_32g(0);
    cuzk_gpu_placement p;
    cuzk_gpu_config c = cfg_with("streamed", 0);
    CHECK_OK(cuzk_gpu_place(&sh, 139 * GIB, &c, &p));
    CHECK(p.kind == CUZK_GPU_STREAMED && strstr(p.why, "gpu.placement") != NULL);
    c = cfg_with("streamed", 12);
    CHECK_OK(cuzk_gpu_place(&sh, 139 * GIB, &c, &p));
    CHECK(p.chunk_points == 4096);
    /* the batch key caps the proofs per pass (1: one at a time) */
    c = cfg_with("auto", 0);
    CHECK_OK(cuzk_gpu_place(&sh, 48 * GIB, &c, &p));
    CHECK(p.kind == CUZK_GPU_STREAMED && !p.lab_beside_h && p.batch_max > 3);
    c.stream_batch = 3;
    CHECK_OK(cuzk_gpu_place(&sh, 48 * GIB, &c, &p));
    CHECK(p.batch_max == 3);
    c.stream_batch = 1;
    CHECK_OK(cuzk_gpu_place(&sh, 24 * GIB, &c, &p));
    CHECK(p.batch_max == 1 && strstr(p.why, "up to 1 proof per pass") != NULL);
    c = cfg_with("resident", 0);
    CHECK_FAILS(cuzk_gpu_place(&sh, 24 * GIB, &c, &p), CUZK_EINVAL);
    CHECK(strstr(cuzk_last_error(), "gpu.placement is resident") != NULL);
    c = cfg_with("sideways", 0);
    CHECK_FAILS(cuzk_gpu_place(&sh, 139 * GIB, &c, &p), CUZK_EINVAL);
    CHECK(strstr(cuzk_last_error(), "\"sideways\"") != NULL);
    /* no H split when the tuning turns it off */
    c = cfg_with("auto", 0);
    c.h_glv = false;
    CHECK_OK(cuzk_gpu_place(&sh, 139 * GIB, &c, &p));
    CHECK(p.kind == CUZK_GPU_RESIDENT && !p.h_glv);
    /* the precompiled circuit's matrices kept off the device: streamed for the SpMV, the chunk
     * buffers in the workspace, its measured device size where the shape has it */
    cuzk_gpu_shape shp = porep_32g(7000000000ull);
    c = cfg_with("auto", 0);
    c.pce_on_device = false;
    cuzk_gpu_placement q;
    CHECK_OK(cuzk_gpu_place(&shp, 139 * GIB, &c, &p));
    CHECK(p.kind == CUZK_GPU_RESIDENT && !p.pce_on_device && p.pce_streamed);
    CHECK(p.pce_device_bytes > 0 && p.pce_device_bytes < GIB / 4);
    shp.pce_stream_bytes = 12345678;
    CHECK_OK(cuzk_gpu_place(&shp, 139 * GIB, &c, &q));
    CHECK(q.pce_streamed && q.pce_device_bytes == 12345678 && q.workspace_bytes == p.workspace_bytes);
    CHECK(strstr(q.why, "matrices streamed for the SpMV") != NULL);
    /* ... and not streamed either: a, b, c come from the CPU, resident or not */
    c.pce_stream = false;
    CHECK_OK(cuzk_gpu_place(&shp, 139 * GIB, &c, &q));
    CHECK(q.kind == CUZK_GPU_RESIDENT && !q.pce_on_device && !q.pce_streamed && q.pce_device_bytes == 0);
    CHECK(q.workspace_bytes + 2 * CUZK_GPU_PCE_CHUNK_BYTES == p.workspace_bytes);
    CHECK_OK(cuzk_gpu_place(&shp, 24 * GIB, &c, &p));
    CHECK(p.kind == CUZK_GPU_STREAMED && !p.pce_on_device && !p.pce_streamed && p.pce_device_bytes == 0 &&
          p.batch_max >= 2);
    c.pce_on_device = true;
    CHECK_OK(cuzk_gpu_place(&shp, 139 * GIB, &c, &p));
    CHECK(p.pce_on_device);
    CHECK(!strcmp(cuzk_gpu_placement_name(CUZK_GPU_STREAMED), "streamed"));
    CHECK(!strcmp(cuzk_gpu_placement_name(CUZK_GPU_RESIDENT), "resident"));
    CHECK(!strcmp(cuzk_gpu_placement_name(CUZK_GPU_MAPPED), "mapped"));
}

/* The mapped placement: the streamed one with its bases in a scratch file, forced by the key or
 * made by the engine where the host budget has no room for the page-locked parameters. */
static void test_mapped(void)
{
    const cuzk_gpu_shape sh = porep_32g(0);
    cuzk_gpu_placement s, m;
    cuzk_gpu_config c = cfg_with("auto", 0);
    CHECK_OK(cuzk_gpu_place(&sh, 24 * GIB, &c, &s));
    CHECK(s.kind == CUZK_GPU_STREAMED && cuzk_gpu_placement_streams(&s) && s.pinned_host_bytes > 40 * GIB);
    CHECK(s.room == 24 * GIB && s.file_bytes == 0);
    /* the engine's fallback: the same device sizes, no page-locked bytes, the reason said */
    m = s;
    cuzk_gpu_place_mapped(&m, "/srv/cuzk-cache", 20 * GIB);
    CHECK(m.kind == CUZK_GPU_MAPPED && cuzk_gpu_placement_streams(&m));
    CHECK(m.pinned_host_bytes == 0 && m.file_bytes == s.pinned_host_bytes);
    CHECK(m.chunk_points == s.chunk_points && m.window_max == s.window_max && m.batch_max == s.batch_max);
    CHECK(m.workspace_bytes == s.workspace_bytes && m.pce_on_device == s.pce_on_device);
    CHECK(strstr(m.why, "mapped: the host budget has room for 20.00 GiB, not the parameters' ") != NULL);
    CHECK(strstr(m.why, "in a scratch file in /srv/cuzk-cache") != NULL);
    CHECK(strstr(m.why, "of the 24.00 GiB the device may use") != NULL);
    /* made mapped twice: the same sizes */
    cuzk_gpu_placement m2 = m;
    cuzk_gpu_place_mapped(&m2, NULL, 20 * GIB);
    CHECK(m2.file_bytes == m.file_bytes && strstr(m2.why, "in a scratch file in /var/tmp") != NULL);
    /* a resident placement is left as it is */
    cuzk_gpu_placement r;
    CHECK_OK(cuzk_gpu_place(&sh, 139 * GIB, &c, &r));
    cuzk_gpu_placement r2 = r;
    cuzk_gpu_place_mapped(&r2, "/x", 0);
    CHECK(r2.kind == CUZK_GPU_RESIDENT && !cuzk_gpu_placement_streams(&r2) && !strcmp(r2.why, r.why));
    /* forced by the key, on any card, in the key's folder */
    c = cfg_with("mapped", 0);
    snprintf(c.stream_file_dir, sizeof c.stream_file_dir, "/data/scratch");
    CHECK_OK(cuzk_gpu_place(&sh, 139 * GIB, &c, &m));
    CHECK(m.kind == CUZK_GPU_MAPPED && m.pinned_host_bytes == 0 && m.file_bytes > 40 * GIB);
    CHECK(strstr(m.why, "mapped (gpu.placement)") != NULL && strstr(m.why, "/data/scratch") != NULL);
    CHECK(m.workspace_bytes + m.pce_device_bytes <= 139 * GIB);
    /* too small even so: refused with the sizes, as streamed */
    CHECK_FAILS(cuzk_gpu_place(&sh, 2 * GIB, &c, &m), CUZK_EBUDGET);
    CHECK(strstr(cuzk_last_error(), "needs at least") != NULL);
}

static void test_small(void)
{
    /* a 2 KiB sector's partition and a tiny circuit: resident on any card, no chunk larger than
     * the largest section when forced to stream */
    cuzk_gpu_shape tiny = {1023, 700, 400, 300, 3, 700, 900, 0, 0, 0, false};
    cuzk_gpu_placement p;
    CHECK_OK(cuzk_gpu_place(&tiny, 2 * GIB, NULL, &p));
    CHECK(p.kind == CUZK_GPU_RESIDENT);
    cuzk_gpu_config c = cfg_with("streamed", 0);
    CHECK_OK(cuzk_gpu_place(&tiny, 2 * GIB, &c, &p));
    CHECK(p.kind == CUZK_GPU_STREAMED && p.chunk_points == 1024);
}

/* the streamed circuit's device bytes (cuzk_gpu_pce_stream_bytes) of nc rows (one matrix's row
 * offsets given, the other two empty, of 1 input and 300 aux): what its long-row plan adds */
static uint64_t stream_bytes_with(int k, const uint32_t *row_ptr, size_t nc)
{
    uint32_t *empty = calloc(nc + 1, sizeof *empty);
    cuzk_pce p;
    memset(&p, 0, sizeof p);
    p.num_constraints = nc;
    p.num_inputs = 1;
    p.num_aux = 300;
    p.ncoeffs = 2;
    for (int m = 0; m < 3; m++) p.row_ptr[m] = m == k ? (uint32_t *)row_ptr : empty;
    const uint64_t b = empty ? cuzk_gpu_pce_stream_bytes(&p) : 0;
    free(empty);
    return b;
}

static void check_bytes(uint64_t got, uint64_t want, const char *what)
{
    CHECK(got == want);
    if (got != want)
        fprintf(stderr, "  %s: %llu bytes, want %llu\n", what, (unsigned long long)got, (unsigned long long)want);
}

static void test_stream_bytes(void)
{
    /* rows of 273 terms (18 segments of 16: two levels of sums), 1, 17 (2 segments) and none:
     * 20 segments' sums and 2 of the first level's groups, 23 partial sums; 2 long rows, 5
     * groups */
    uint32_t rows[41] = {0, 273, 274, 291};
    for (int r = 4; r <= 40; r++) rows[r] = 291;
    const uint64_t none = stream_bytes_with(-1, rows, 4);
    const uint64_t plan = 4 * (2 + 2 * 20) + 4 * 5; /* long rows, segments' begin and end, groups */
    /* 4 constraints and the input: a domain of 8, smaller than A's 23 sums, so they are
     * counted for A as for B and C */
    for (int k = 0; k < 3; k++)
        check_bytes(stream_bytes_with(k, rows, 4), none + plan + 23 * 32, "long rows, domain 8");
    /* 40 constraints: a domain of 64, and A's sums go into b's memory, not yet made: only B's
     * and C's count */
    const uint64_t none40 = stream_bytes_with(-1, rows, 40);
    check_bytes(stream_bytes_with(0, rows, 40), none40 + plan, "A's long rows, domain 64");
    check_bytes(stream_bytes_with(1, rows, 40), none40 + plan + 23 * 32, "B's long rows, domain 64");
    check_bytes(stream_bytes_with(2, rows, 40), none40 + plan + 23 * 32, "C's long rows, domain 64");
}

int main(void)
{
    test_porep_32g();
    test_compact();
    test_keys();
    test_mapped();
    test_small();
    test_stream_bytes();
    return harness_finish("gpu_place");
}

/* A proof's aux assignment in compact form, for the streamed L, A and B MSMs of a batch: in a
 * 32 GiB PoRep or SnapDeals partition about 98.7 % of the aux values are 0 or 1 (docs/GPU.md), so
 * two bits a value and the few others in order (about 0.1 GB, where the full assignment is 4.2
 * GB) can stay on the device from the proof's SpMV to its L, A and B, which then need no second
 * copy of the witness and leave the device's memory to chunks, windows, batches and the
 * precompiled circuit. Made on the device from the SpMV's copy (compact_make); each piece of
 * values an MSM classifies is expanded back into a scratch of full values (compact_expand).
 * Where a witness has more other values than the placement gave room for (PoSt circuits: 99 %),
 * its values stay in host memory instead and each piece is copied from there (compact_expand). */
#ifndef CUZK_GPU_COMPACT_WITNESS_CUH
#define CUZK_GPU_COMPACT_WITNESS_CUH

#include "gpu/field.cuh"
#include "gpu/msm.cuh"

struct compact_witness {
    size_t nvars;     /* aux values */
    uint64_t *nz;     /* per 64 values: not zero (executor memory; NULL: host only) */
    uint64_t *oth;    /* per 64 values: neither 0 nor 1 */
    uint32_t *rank;   /* per 64 values: the other values before them (nwords + 1 entries) */
    fr_t *vals;       /* the other values in order, Montgomery form */
    size_t nothers;   /* how many */
    const fr_t *host; /* NULL, or (nz NULL) every value is read from here, the caller's host memory */
};

/* per word of 64 values: which are not zero, which are neither 0 nor 1, and how many of those */
struct k_compact_bits {
    const fr_t *s;
    size_t n;
    uint64_t *nz, *oth;
    uint32_t *count;
    HD void operator()(size_t w) const
    {
        const size_t lo = w * 64, hi = lo + 64 < n ? lo + 64 : n;
        uint64_t z = 0, o = 0;
        for (size_t i = lo; i < hi; i++) {
            const fr_t &v = s[i];
            if (is_zero(v)) continue;
            z |= (uint64_t)1 << (i - lo);
            if (!fr_is_one(v)) o |= (uint64_t)1 << (i - lo);
        }
        nz[w] = z;
        oth[w] = o;
        count[w] = (uint32_t)popc64(o);
    }
};

/* the other values of word w to their places in vals */
struct k_compact_gather {
    const fr_t *s;
    const uint64_t *oth;
    const uint32_t *rank;
    fr_t *vals;
    HD void operator()(size_t w) const
    {
        uint64_t o = oth[w];
        uint32_t at = rank[w];
        while (o) {
            const unsigned b = popc64((o & (~o + 1)) - 1); /* the lowest set bit's place */
            vals[at++] = s[w * 64 + b];
            o &= o - 1;
        }
    }
};

/* out[i] = value v0 + i, Montgomery form */
struct k_compact_expand {
    compact_witness cw;
    size_t v0;
    fr_t *out;
    HD void operator()(size_t i) const
    {
        const size_t v = v0 + i, w = v >> 6;
        const uint64_t bit = (uint64_t)1 << (v & 63);
        fr_t r;
        if (!(cw.nz[w] & bit)) set_zero(r);
        else if (!(cw.oth[w] & bit)) set_one(r);
        else r = cw.vals[cw.rank[w] + popc64(cw.oth[w] & (bit - 1))];
        out[i] = r;
    }
};

/* the device arrays of cw freed (its counts stay) */
template <class X> static void compact_free(X &x, compact_witness &cw)
{
    x.release(cw.nz);
    x.release(cw.oth);
    x.release(cw.rank);
    x.release(cw.vals);
    cw.nz = cw.oth = NULL;
    cw.rank = NULL;
    cw.vals = NULL;
}

/* The compact form of the n values s (executor memory, Montgomery form) into cw, its other values
 * on the device where there are at most room of them; else cw reads every value from host (the
 * same values in the caller's host memory, which must then outlive the MSMs). Waits for the
 * count of the other values. */
template <class X>
static void compact_make(X &x, const fr_t *s, size_t n, size_t room, const fr_t *host, compact_witness &cw)
{
    memset(&cw, 0, sizeof cw);
    cw.nvars = n;
    const size_t nwords = (n + 63) / 64;
    uint32_t *count = (uint32_t *)x.alloc((nwords + 1) * 4);
    cw.nz = (uint64_t *)x.alloc((nwords ? nwords : 1) * 8);
    cw.oth = (uint64_t *)x.alloc((nwords ? nwords : 1) * 8);
    cw.rank = (uint32_t *)x.alloc((nwords + 1) * 4);
    if (!x.ok()) {
        x.release(count);
        return;
    }
    k_compact_bits kb = {s, n, cw.nz, cw.oth, count};
    x.parallel(nwords, kb);
    x.zero(count + nwords, 4);
    x.exclusive_sum(count, cw.rank, nwords + 1);
    uint32_t total = 0;
    x.to_host(&total, cw.rank + nwords, 4);
    x.release(count);
    cw.nothers = total;
    if (x.ok() && total <= room) {
        cw.vals = (fr_t *)x.alloc((total ? total : 1) * sizeof(fr_t));
        if (x.ok()) {
            k_compact_gather kg = {s, cw.oth, cw.rank, cw.vals};
            x.parallel(nwords, kg);
        }
        return;
    }
    /* more than the room: the values stay where they are on the host */
    compact_free(x, cw);
    cw.host = host;
}

/* a compact witness of n values read from host memory alone (no SpMV copy to make it from) */
static inline compact_witness compact_host(const fr_t *host, size_t n)
{
    compact_witness cw;
    memset(&cw, 0, sizeof cw);
    cw.nvars = n;
    cw.host = host;
    return cw;
}

/* values [v0, v0 + len) of cw, in full, into out (executor memory, len entries): expanded on the
 * device, or copied from host memory (ordered after the work issued before, which read out last) */
template <class X> static void compact_expand(X &x, const compact_witness &cw, size_t v0, size_t len, fr_t *out)
{
    if (len == 0 || !x.ok()) return;
    if (cw.nz) {
        k_compact_expand ke = {cw, v0, out};
        x.parallel(len, ke);
        return;
    }
    x.wait_upload(x.upload(out, cw.host + v0, len * sizeof(fr_t)));
}

#endif

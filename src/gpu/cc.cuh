/* Carry-chain primitives for multi-precision arithmetic on 32-bit limbs.
 *
 * On the device each primitive is one PTX instruction that reads and/or writes the carry flag
 * (add.cc, addc, sub.cc, subc, mad.lo/hi.cc, madc). The instructions are emitted as separate
 * `asm volatile` statements, so their order is kept and ptxas sees one carry chain; nothing
 * between two links of a chain may touch the flag (plain C arithmetic never does).
 *
 * On the host (the same source compiled by the host compiler) a file-local flag emulates the
 * carry exactly as PTX defines it, so the device schedules run unchanged on the CPU for the
 * emulation tests (the flag is per thread). */
#ifndef CUZK_GPU_CC_CUH
#define CUZK_GPU_CC_CUH

#include <stdint.h>

/* HD: small functions, always inlined on the device. HDM: field and point operations, inlined
 * on the device (registers) but kept out of line in the host emulation, where inlining every
 * carry-chain step into every caller would only cost compile time. HDN: rare paths, out of
 * line everywhere (templates only). */
#if defined(__CUDA_ARCH__)
#define HD __host__ __device__ __forceinline__
#define HDM __host__ __device__ __forceinline__
#define HDN __host__ __device__ __noinline__
#else
#define HD __host__ __device__ inline
#define HDM __host__ __device__ inline __attribute__((noinline))
#define HDN __host__ __device__ inline __attribute__((noinline))
#endif

#if defined(__CUDA_ARCH__)

HD uint32_t add_cc(uint32_t a, uint32_t b)
{
    uint32_t r;
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
HD uint32_t addc_cc(uint32_t a, uint32_t b)
{
    uint32_t r;
    asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
HD uint32_t addc(uint32_t a, uint32_t b)
{
    uint32_t r;
    asm volatile("addc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
HD uint32_t sub_cc(uint32_t a, uint32_t b)
{
    uint32_t r;
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
HD uint32_t subc_cc(uint32_t a, uint32_t b)
{
    uint32_t r;
    asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
HD uint32_t subc(uint32_t a, uint32_t b)
{
    uint32_t r;
    asm volatile("subc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
}
HD uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t r;
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}
HD uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t r;
    asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}
HD uint32_t madc_lo(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t r;
    asm volatile("madc.lo.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}
HD uint32_t mad_hi_cc(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t r;
    asm volatile("mad.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}
HD uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t r;
    asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}
HD uint32_t madc_hi(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t r;
    asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}

HD uint32_t mul_hi(uint32_t a, uint32_t b) { return __umulhi(a, b); }
HD uint32_t popc64(uint64_t x) { return (uint32_t)__popcll(x); }
HD uint32_t brev32(uint32_t x) { return __brev(x); }

#else /* host emulation */

namespace {
/* PTX CC.CF, one per thread: the prover's L, A and B can run on a thread of their own beside the
 * proofs' stages (prover.cu's lab_apart), and a shared flag would carry one's chains into the other */
thread_local uint32_t cc_flag;
} // namespace
HD uint32_t add_cc(uint32_t a, uint32_t b)
{
    uint64_t s = (uint64_t)a + b;
    cc_flag = (uint32_t)(s >> 32);
    return (uint32_t)s;
}
HD uint32_t addc_cc(uint32_t a, uint32_t b)
{
    uint64_t s = (uint64_t)a + b + cc_flag;
    cc_flag = (uint32_t)(s >> 32);
    return (uint32_t)s;
}
HD uint32_t addc(uint32_t a, uint32_t b) { return a + b + cc_flag; }
HD uint32_t sub_cc(uint32_t a, uint32_t b)
{
    cc_flag = a < b;
    return a - b;
}
HD uint32_t subc_cc(uint32_t a, uint32_t b)
{
    uint64_t bb = (uint64_t)b + cc_flag;
    cc_flag = (uint64_t)a < bb;
    return (uint32_t)((uint64_t)a - bb);
}
HD uint32_t subc(uint32_t a, uint32_t b) { return a - b - cc_flag; }
HD uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c)
{
    uint64_t s = (uint64_t)(uint32_t)(a * b) + c;
    cc_flag = (uint32_t)(s >> 32);
    return (uint32_t)s;
}
HD uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c)
{
    uint64_t s = (uint64_t)(uint32_t)(a * b) + c + cc_flag;
    cc_flag = (uint32_t)(s >> 32);
    return (uint32_t)s;
}
HD uint32_t madc_lo(uint32_t a, uint32_t b, uint32_t c) { return a * b + c + cc_flag; }
HD uint32_t mad_hi_cc(uint32_t a, uint32_t b, uint32_t c)
{
    uint64_t s = (((uint64_t)a * b) >> 32) + c;
    cc_flag = (uint32_t)(s >> 32);
    return (uint32_t)s;
}
HD uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c)
{
    uint64_t s = (((uint64_t)a * b) >> 32) + c + cc_flag;
    cc_flag = (uint32_t)(s >> 32);
    return (uint32_t)s;
}
HD uint32_t madc_hi(uint32_t a, uint32_t b, uint32_t c) { return (uint32_t)(((uint64_t)a * b) >> 32) + c + cc_flag; }

HD uint32_t mul_hi(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * b) >> 32); }
HD uint32_t popc64(uint64_t x) { return (uint32_t)__builtin_popcountll(x); }
HD uint32_t brev32(uint32_t x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
    return (x >> 16) | (x << 16);
}

#endif

/* The low `bits` bits of x in reverse order. */
HD uint32_t bitrev(uint32_t x, unsigned bits) { return bits ? brev32(x) >> (32 - bits) : 0; }

#endif

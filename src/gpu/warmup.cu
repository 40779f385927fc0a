/* The device's local memory reserved at open (gpu_reserve_local_memory). A kernel whose threads
 * spill registers or keep arrays on their stack needs local memory for every thread the GPU
 * can hold at once (on an H100 up to hundreds of MiB); the driver reserves it at the first
 * launch of such a kernel and by default may give it back afterwards. A proof that starts
 * after another process took the device's free memory then fails at a kernel launch ("out of
 * memory") although its own buffers fit. So the context keeps its local memory at the largest
 * size reached (cudaDeviceLmemResizeToMax), and the open runs the heaviest kernels once, small
 * (the Pippenger kernels of G1 and G2, an NTT), so that the reservation is made before the
 * engine measures the device's free memory for its budget. */
#include <vector>

#include "gpu/internal.cuh"

#include "cuzk/ff.h"

/* n distinct points of each group: multiples of the generators */
static void multiples(std::vector<blst_p1_affine> &g1, std::vector<blst_p2_affine> &g2, size_t n)
{
    std::vector<blst_p1> p1(n);
    std::vector<blst_p2> p2(n);
    p1[0] = *blst_p1_generator();
    p2[0] = *blst_p2_generator();
    for (size_t i = 1; i < n; i++) {
        blst_p1_add_or_double(&p1[i], &p1[i - 1], blst_p1_generator());
        blst_p2_add_or_double(&p2[i], &p2[i - 1], blst_p2_generator());
    }
    g1.resize(n);
    g2.resize(n);
    for (size_t i = 0; i < n; i++) {
        blst_p1_to_affine(&g1[i], &p1[i]);
        blst_p2_to_affine(&g2[i], &p2[i]);
    }
}

cuzk_status gpu_reserve_local_memory(cuzk_gpu_device *d)
{
    /* takes effect on the device's primary context, active or not; an older driver that
     * refuses it leaves the default (the reservation below may then be given back) */
    if (cudaSetDeviceFlags(cudaDeviceLmemResizeToMax) != cudaSuccess) cudaGetLastError();
    enum { N = 2048, LOG_N = 11 };
    std::vector<blst_p1_affine> g1;
    std::vector<blst_p2_affine> g2;
    multiples(g1, g2, N);
    std::vector<cuzk_fr> s(N);
    cuzk_rng rng;
    cuzk_rng_seed(&rng, 1);
    for (cuzk_fr &v : s) cuzk_fr_random(&v, &rng);
    cuzk_gpu_msm *m = NULL;
    blst_p1 r1;
    blst_p2 r2;
    cuzk_status st = cuzk_gpu_msm_create_g1(d, &m, g1.data(), N);
    if (!st) st = cuzk_gpu_msm_g1(m, &r1, s.data(), N, CUZK_GPU_MSM_NO_SPLIT);
    cuzk_gpu_msm_destroy(m);
    m = NULL;
    if (!st) st = cuzk_gpu_msm_create_g2(d, &m, g2.data(), N);
    if (!st) st = cuzk_gpu_msm_g2(m, &r2, s.data(), N, CUZK_GPU_MSM_NO_SPLIT);
    cuzk_gpu_msm_destroy(m);
    if (!st) st = cuzk_gpu_ntt(d, s.data(), LOG_N, 1, CUZK_GPU_NTT_FORWARD, false);
    return st;
}

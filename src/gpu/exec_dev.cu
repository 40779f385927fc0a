/* The device executor: stream-ordered allocation from the CUDA memory pool (kept, never
 * returned to the driver, so repeated proofs reuse their workspace), CUB radix sort and scan,
 * uploads on a second stream, and stage timings with events. */
#include <stdlib.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include "gpu/exec.cuh"

bool exec_dev::check(cudaError_t e, const char *what)
{
    if (e == cudaSuccess) return true;
    /* the runtime keeps a failed call's error for this thread's next cudaGetLastError: left
     * there, a failed allocation of one proof read as "kernel launch: out of memory" at the
     * first launch of the next proof on the thread (the engine's retry after a device shrank) */
    cudaGetLastError();
    /* the stage it happened in, where one is open (an out-of-memory launch says which kernels
     * could not have their local memory) */
    const char *in = open_stage >= 0 && (size_t)open_stage < stages.size() ? stages[(size_t)open_stage].name : NULL;
    if (err == CUZK_OK)
        err = cuzk_fail(e == cudaErrorMemoryAllocation ? CUZK_ENOMEM : CUZK_EDEVICE, "CUDA %s%s%s%s: %s", what,
                        in ? " (stage \"" : "", in ? in : "", in ? "\")" : "", cudaGetErrorString(e));
    return false;
}

bool exec_dev::init(const cuzk_gpu_device *d, bool urgent)
{
    if (d) {
        cfg = cuzk_gpu_device_config(d);
        ordinal = cuzk_gpu_device_ordinal(d);
    }
    if (!use()) return false;
    cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, ordinal);
    int lo = 0, hi = 0;
    cudaDeviceGetStreamPriorityRange(&lo, &hi);
    if (!check(cudaStreamCreateWithPriority(&stream, cudaStreamNonBlocking, urgent ? hi : lo), "stream")) return false;
    if (!check(cudaStreamCreateWithFlags(&copy_stream, cudaStreamNonBlocking), "stream")) return false;
    return true;
}

bool exec_dev::use() { return check(cudaSetDevice(ordinal), "set device"); }

void exec_dev::destroy()
{
    if (stream || copy_stream || side_stream || side_stream_lo) use();
    if (stream) cudaStreamSynchronize(stream);
    if (copy_stream) cudaStreamSynchronize(copy_stream);
    for (auto &s : stages) {
        cudaEventDestroy(s.a);
        cudaEventDestroy(s.b);
    }
    stages.clear();
    if (side_stream) cudaStreamSynchronize(side_stream);
    if (side_stream_lo) cudaStreamSynchronize(side_stream_lo);
    drop_events();
    if (stream) cudaStreamDestroy(stream);
    if (copy_stream) cudaStreamDestroy(copy_stream);
    if (side_stream) cudaStreamDestroy(side_stream);
    if (side_stream_lo) cudaStreamDestroy(side_stream_lo);
    stream = copy_stream = side_stream = side_stream_lo = 0;
}

void exec_dev::drain()
{
    if (copy_stream) cudaStreamSynchronize(copy_stream);
    if (side_stream) cudaStreamSynchronize(side_stream);
    if (side_stream_lo) cudaStreamSynchronize(side_stream_lo);
    if (main_stream) cudaStreamSynchronize(main_stream); /* inside side work: the compute stream */
    if (stream) cudaStreamSynchronize(stream);
}

void exec_dev::drop_events()
{
    for (auto e : upload_events) cudaEventDestroy(e);
    upload_events.clear();
}

void *exec_dev::alloc(size_t bytes)
{
    if (!ok()) return NULL;
    void *p = NULL;
    cudaError_t e = cudaMallocAsync(&p, bytes ? bytes : 1, stream);
    if (e != cudaSuccess) {
        size_t fr = 0, tot = 0;
        cudaMemGetInfo(&fr, &tot);
        check(e, "allocation");
        cuzk_fail_context(err, "device allocation of %zu bytes (%zu of %zu free)", bytes, fr, tot);
        return NULL;
    }
    return p;
}

void *exec_dev::try_alloc(size_t bytes)
{
    if (!ok()) return NULL;
    void *p = NULL;
    if (cudaMallocAsync(&p, bytes ? bytes : 1, stream) != cudaSuccess) {
        cudaGetLastError();
        return NULL;
    }
    return p;
}

void exec_dev::release(void *p)
{
    if (p) cudaFreeAsync(p, stream);
}

void exec_dev::zero(void *p, size_t bytes)
{
    if (ok() && bytes) check(cudaMemsetAsync(p, 0, bytes, stream), "memset");
}

void exec_dev::to_host(void *h, const void *d, size_t bytes)
{
    if (!ok()) return;
    if (check(cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, stream), "download"))
        check(cudaStreamSynchronize(stream), "kernel execution");
}

void exec_dev::to_dev(void *d, const void *h, size_t bytes)
{
    if (ok() && bytes && check(cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, stream), "upload"))
        uploaded += bytes;
}

void exec_dev::copy(void *d, const void *s, size_t bytes)
{
    if (ok() && bytes) check(cudaMemcpyAsync(d, s, bytes, cudaMemcpyDeviceToDevice, stream), "copy");
}

void exec_dev::sync()
{
    if (ok()) check(cudaStreamSynchronize(stream), "kernel execution");
}

int exec_dev::upload(void *d, const void *h, size_t bytes)
{
    if (!ok()) return -1;
    /* the destination was allocated on the compute stream: order the copy after that */
    cudaEvent_t ready, done;
    if (!check(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming), "event")) return -1;
    upload_events.push_back(ready);
    if (!check(cudaEventCreateWithFlags(&done, cudaEventDisableTiming), "event")) return -1;
    upload_events.push_back(done);
    check(cudaEventRecord(ready, stream), "event record");
    check(cudaStreamWaitEvent(copy_stream, ready, 0), "stream wait");
    if (bytes && check(cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, copy_stream), "upload")) uploaded += bytes;
    check(cudaEventRecord(done, copy_stream), "event record");
    return (int)upload_events.size() - 1;
}

int exec_dev::side_mark()
{
    if (!ok()) return -1;
    cudaEvent_t ev;
    if (!check(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming), "event")) return -1;
    upload_events.push_back(ev);
    check(cudaEventRecord(ev, stream), "event record");
    return (int)upload_events.size() - 1;
}

void exec_dev::side_begin(int after, bool urgent)
{
    if (side_depth++ > 0 || !ok()) return; /* nested: stays on the side stream */
    cudaStream_t &side = urgent ? side_stream : side_stream_lo;
    if (!side) {
        /* urgent: high priority unless the tuning turns it off (for measurement) */
        int lo = 0, hi = 0;
        cudaDeviceGetStreamPriorityRange(&lo, &hi);
        int pri = urgent && cfg->side_high_priority ? hi : lo;
        if (!check(cudaStreamCreateWithPriority(&side, cudaStreamNonBlocking, pri), "stream")) return;
    }
    if (after < 0) after = side_mark();
    if (after < 0 || (size_t)after >= upload_events.size()) return;
    check(cudaStreamWaitEvent(side, upload_events[(size_t)after], 0), "stream wait");
    main_stream = stream;
    stream = side_cur = side;
}

int exec_dev::side_end()
{
    if (side_depth == 0 || --side_depth > 0 || !main_stream) return -1;
    stream = main_stream;
    main_stream = 0;
    cudaStream_t side = side_cur;
    /* also after an error: the caller frees what the side work may still be reading only
     * once the compute stream has waited for it */
    cudaEvent_t done;
    if (cudaEventCreateWithFlags(&done, cudaEventDisableTiming) != cudaSuccess) {
        cudaStreamSynchronize(side);
        return -1;
    }
    upload_events.push_back(done);
    cudaEventRecord(done, side);
    return (int)upload_events.size() - 1;
}

void exec_dev::host_wait(int token)
{
    if (token >= 0 && (size_t)token < upload_events.size()) cudaEventSynchronize(upload_events[(size_t)token]);
}

void exec_dev::wait_upload(int token)
{
    if (token < 0 || (size_t)token >= upload_events.size()) return;
    if (!ok()) { /* no more work follows: just make sure nothing is still reading */
        cudaEventSynchronize(upload_events[(size_t)token]);
        return;
    }
    check(cudaStreamWaitEvent(stream, upload_events[(size_t)token], 0), "stream wait");
}

void exec_dev::sort_pairs(uint32_t *keys, uint32_t *keys_alt, uint32_t *vals, uint32_t *vals_alt, size_t n, int end_bit)
{
    if (!ok() || n == 0) return;
    cub::DoubleBuffer<uint32_t> k(keys, keys_alt), v(vals, vals_alt);
    size_t tmp_bytes = 0;
    if (!check(cub::DeviceRadixSort::SortPairs(NULL, tmp_bytes, k, v, (int)n, 0, end_bit, stream), "sort sizing"))
        return;
    void *tmp = alloc(tmp_bytes);
    if (!tmp) return;
    check(cub::DeviceRadixSort::SortPairs(tmp, tmp_bytes, k, v, (int)n, 0, end_bit, stream), "sort");
    release(tmp);
    /* the result is in whichever buffer CUB ended on: move it to (keys, vals) */
    if (k.Current() != keys) copy(keys, k.Current(), n * 4);
    if (v.Current() != vals) copy(vals, v.Current(), n * 4);
}

void exec_dev::exclusive_sum(const uint32_t *in, uint32_t *out, size_t n)
{
    if (!ok() || n == 0) return;
    size_t tmp_bytes = 0;
    if (!check(cub::DeviceScan::ExclusiveSum(NULL, tmp_bytes, in, out, (int)n, stream), "scan sizing")) return;
    void *tmp = alloc(tmp_bytes);
    if (!tmp) return;
    check(cub::DeviceScan::ExclusiveSum(tmp, tmp_bytes, in, out, (int)n, stream), "scan");
    release(tmp);
}

void exec_dev::mark(const char *label)
{
    if (!cfg->profile) return;
    if (prof_t < 0) prof_t = cuzk_now();
    cudaStreamSynchronize(stream);
    double t = cuzk_now();
    fprintf(stderr, "[gpu] %-28s %9.3f ms\n", label, (t - prof_t) * 1e3);
    prof_t = t;
}

void exec_dev::stage_begin(const char *name)
{
    if (!ok()) return;
    stage s;
    s.name = name;
    cudaEventCreate(&s.a);
    cudaEventCreate(&s.b);
    cudaEventRecord(s.a, stream);
    stages.push_back(s);
    open_stage = (int)stages.size() - 1;
}

void exec_dev::stage_end()
{
    if (open_stage < 0) return;
    cudaEventRecord(stages[(size_t)open_stage].b, stream);
    open_stage = -1;
}

void exec_dev::take_stages(std::vector<std::pair<const char *, double>> &out)
{
    for (auto &s : stages) {
        float ms = 0;
        if (cudaEventElapsedTime(&ms, s.a, s.b) == cudaSuccess) out.push_back({s.name, ms / 1e3});
        cudaEventDestroy(s.a);
        cudaEventDestroy(s.b);
    }
    stages.clear();
}

/* `cuzk bench gpu-field` in a build without CUDA: every call reports that. */
#include "field_bench.h"

cuzk_status cuzk_gpu_field_bench(double muls_per_s[CUZK_GPU_FIELD_FORMS])
{
    return cuzk_fail(CUZK_EUNSUPPORTED, "built without CUDA support");
}
cuzk_status cuzk_gpu_pipe_bench(double ops_per_s[CUZK_GPU_PIPE_FORMS])
{
    return cuzk_fail(CUZK_EUNSUPPORTED, "built without CUDA support");
}
const char *cuzk_gpu_field_bench_name(int i)
{
    (void)i;
    return NULL;
}

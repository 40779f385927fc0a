/* Test support for engine and GPU tests (support_named.h). */
#include "support_named.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuzk/gpu.h"
#include "cuzk/testcircuits.h"
#include "harness.h"

cuzk_status named_circuit_open(void *ctx, const uint8_t *input, size_t input_len, uint64_t seed, unsigned partition,
                               cuzk_circuit **out)
{
    (void)input, (void)input_len, (void)seed, (void)partition;
    return cuzk_circuit_open(out, ctx);
}

void params_to_tempfile(const cuzk_groth16_params *p, char *path_template)
{
    int fd = mkstemp(path_template);
    CHECK(fd >= 0);
    if (fd >= 0) close(fd);
    CHECK_OK(cuzk_groth16_params_write(p, path_template));
}

void circuit_placement(cuzk_engine *e, const char *id, char *out, size_t n)
{
    out[0] = 0;
    cuzk_engine_status *st = calloc(1, sizeof *st);
    if (!st) return;
    cuzk_engine_get_status(e, st);
    for (unsigned i = 0; i < st->ncircuits; i++)
        if (!strcmp(st->circuits[i].id, id)) snprintf(out, n, "%s", st->circuits[i].placement);
    free(st);
}

void skip_without_gpu(void)
{
    char why[256];
    if (cuzk_gpu_available(why, sizeof why)) return;
    printf("SKIPPED: %s\n", why);
    exit(TEST_SKIP_CODE);
}

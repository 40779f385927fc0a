#include "harness.h"

_Atomic int harness_checks = 0, harness_failures = 0;

void harness_fail(const char *file, int line, const char *expr)
{
    harness_failures++;
    fprintf(stderr, "FAIL %s:%d: %s\n", file, line, expr);
}

int harness_finish(const char *name)
{
    int failed = harness_failures;
    printf("%s: %d checks, %d failed\n", name, (int)harness_checks, failed);
    return failed > 100 ? 100 : failed;
}

/* Every test program's main thread gets a pool of one thread per CPU, as the CLI's does, so
 * the library's parallel paths (parts of a witness in parallel, tiled MSMs) are the ones
 * tested. */
static cuzk_pool *harness_pool;
__attribute__((constructor)) static void harness_pool_start(void)
{
    if (cuzk_pool_create(&harness_pool, 0) == CUZK_OK) cuzk_pool_bind(harness_pool);
}
__attribute__((destructor)) static void harness_pool_stop(void) { cuzk_pool_destroy(harness_pool); }

#include "harness.h"

int harness_checks = 0, harness_failures = 0;

void harness_fail(const char *file, int line, const char *expr)
{
    harness_failures++;
    fprintf(stderr, "FAIL %s:%d: %s\n", file, line, expr);
}

int harness_finish(const char *name)
{
    printf("%s: %d checks, %d failed\n", name, harness_checks, harness_failures);
    return harness_failures > 100 ? 100 : harness_failures;
}

/* A minimal test harness: CHECK records a failure with file and line and carries on;
 * the program's exit status is the number of failed checks (capped), and it ends with a
 * summary line. Tests may skip with TEST_SKIP(reason), which ctest reports as skipped. */
#ifndef CUZK_TEST_HARNESS_H
#define CUZK_TEST_HARNESS_H

#include <stdio.h>
#include <stdlib.h>

#include "cuzk/base.h"

/* Atomic: checks run on several threads at once (pools, engine workers, server handlers). */
extern _Atomic int harness_checks, harness_failures;
int harness_finish(const char *name);
void harness_fail(const char *file, int line, const char *expr);

#define CHECK(cond)                                           \
    do {                                                      \
        harness_checks++;                                     \
        if (!(cond)) harness_fail(__FILE__, __LINE__, #cond); \
    } while (0)
/* Checks that a cuzk call succeeded, printing cuzk_last_error() when it did not. */
#define CHECK_OK(call)                                                           \
    do {                                                                         \
        harness_checks++;                                                        \
        cuzk_status st_ = (call);                                                \
        if (st_ != CUZK_OK) {                                                    \
            harness_fail(__FILE__, __LINE__, #call);                             \
            fprintf(stderr, "    status %d: %s\n", (int)st_, cuzk_last_error()); \
        }                                                                        \
    } while (0)
/* Checks that a cuzk call failed with the given status. */
#define CHECK_FAILS(call, status)                                                                                 \
    do {                                                                                                          \
        harness_checks++;                                                                                         \
        cuzk_status st_ = (call);                                                                                 \
        if (st_ != (status)) {                                                                                    \
            harness_fail(__FILE__, __LINE__, #call);                                                              \
            fprintf(stderr, "    expected status %d, got %d (%s)\n", (int)(status), (int)st_, cuzk_last_error()); \
        }                                                                                                         \
    } while (0)
#define TEST_SKIP_CODE 77
#define TEST_SKIP(reason)                \
    do {                                 \
        printf("SKIPPED: %s\n", reason); \
        exit(TEST_SKIP_CODE);            \
    } while (0)

#endif

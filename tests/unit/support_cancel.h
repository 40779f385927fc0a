/* Test support: a cancel token set later, from a thread of its own (the cancel tests of the
 * CPU prover, the GPU prover's emulation and the recording). */
#ifndef CUZK_TEST_SUPPORT_CANCEL_H
#define CUZK_TEST_SUPPORT_CANCEL_H

#include "cuzk/base.h"

typedef struct {
    cuzk_cancel *token;
    double delay_s, set_t; /* set_t: when it was set (cuzk_now) */
} canceller;

/* pthread start routine: sleeps delay_s, notes the time, sets the token. */
void *cancel_later(void *arg);

#endif

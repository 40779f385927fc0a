/* Test support: a cancel token set later (support_cancel.h). */
#include <time.h>

#include "support_cancel.h"

void *cancel_later(void *arg)
{
    canceller *c = arg;
    struct timespec ts = {(time_t)c->delay_s, (long)((c->delay_s - (double)(time_t)c->delay_s) * 1e9)};
    nanosleep(&ts, NULL);
    c->set_t = cuzk_now();
    cuzk_cancel_set(c->token);
    return NULL;
}

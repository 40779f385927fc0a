/* The counts that several events change, changed only here and only under the engine lock: a
 * job's partitions in flight (made, waiting, on a device or being verified; a job cannot end
 * while any is), the host bytes charged against engine.host_budget and, among them, the bytes of
 * the live jobs' inputs and of the witness buffers (the submit's admission counts them). A count that would go
 * below zero is a bug: it stops the process naming the count rather than wrapping around. */
#include <stdio.h>
#include <stdlib.h>

#include "engine_internal.h"

static void underflow(const char *what, unsigned long long have, unsigned long long take)
{
    fprintf(stderr, "cuzk: internal error: %s would go below zero (%llu - %llu)\n", what, have, take);
    abort();
}

void job_hold(cuzk_engine *e, engine_job *j)
{
    ENGINE_LOCKED(e);
    j->in_flight++;
}

void job_unhold(cuzk_engine *e, engine_job *j)
{
    ENGINE_LOCKED(e);
    if (!j->in_flight) underflow("a job's partitions in flight", 0, 1);
    j->in_flight--;
}

void host_charge(cuzk_engine *e, uint64_t bytes)
{
    ENGINE_LOCKED(e);
    e->host_used += bytes;
}

void host_release(cuzk_engine *e, uint64_t bytes)
{
    ENGINE_LOCKED(e);
    if (bytes > e->host_used) underflow("the host bytes in use", e->host_used, bytes);
    e->host_used -= bytes;
}

void buffers_charge(cuzk_engine *e, uint64_t bytes)
{
    host_charge(e, bytes);
    e->buffers_bytes += bytes;
}

void input_charge(cuzk_engine *e, uint64_t bytes)
{
    host_charge(e, bytes);
    e->inputs_bytes += bytes;
}

void input_release(cuzk_engine *e, uint64_t bytes)
{
    host_release(e, bytes);
    if (bytes > e->inputs_bytes) underflow("the live jobs' input bytes", e->inputs_bytes, bytes);
    e->inputs_bytes -= bytes;
}

/* cuzk engine: the hooks its tests drive it through. Part of no installed header: a program
 * that proves has no use for them, and an engine none is set on behaves as if this file did
 * not exist. */
#ifndef CUZK_ENGINE_TESTING_H
#define CUZK_ENGINE_TESTING_H

#include "cuzk/engine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Called on the device's worker before each partition is proved; a nonzero status fails the
 * partition with the hook's message (CUZK_EDEVICE is a device error, as from a GPU: the device
 * is taken out of service too, a CPU worker only while another device stays in service; any
 * other status fails the partition's job alone). device: the device's place in the engine's
 * list (the GPUs by ordinal, each GPU's contexts in order, then the CPU workers), which is
 * cuzk_engine_status's order when it shows every device. */
typedef cuzk_status (*cuzk_engine_partition_hook)(void *ctx, uint64_t job, unsigned partition, int device);

/* Sets the hook (NULL: none) and its context. Before the first submit: a partition already
 * taken by a device may run with the previous one. */
void cuzk_engine_set_test_hook(cuzk_engine *e, cuzk_engine_partition_hook hook, void *ctx);

/* One pick of a witness lane timed, for measurements: the engine's lock taken, the scheduler
 * asked which partition the lane (the bulk one, or the urgent one when urgent) would make next,
 * the lock given back. Nothing is taken; what a pick applies on the way (a load started, a job
 * no device can prove failed) is applied as by a lane's pick. Returns: the seconds the pick
 * held the lock, or -1 once the engine is shutting down. Thread: any. */
double cuzk_engine_time_pick(cuzk_engine *e, bool urgent);

/* Called by a circuit's load on its thread after each piece of parameter points it reads,
 * streams or uploads (circuit: the circuit's id; points: in the piece); a nonzero status fails
 * the load with the hook's message. Tests slow a load down with it, a piece at a time. */
typedef cuzk_status (*cuzk_engine_load_hook)(void *ctx, const char *circuit, uint64_t points);

/* Sets the load hook (NULL: none) and its context; the loads that start from then on call it.
 * Thread: any. */
void cuzk_engine_set_load_hook(cuzk_engine *e, cuzk_engine_load_hook hook, void *ctx);

#ifdef __cplusplus
}
#endif
#endif

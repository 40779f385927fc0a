/* How the engine keeps a PoSt or SnapDeals job's vanilla proofs (cuzk_job_request.blobs): one
 * buffer, a u32 count, then per blob a u64 length and its bytes, all little-endian, so that a
 * job's input is copied once and freed once like a C1's. Internal: not an installed header. */
#ifndef CUZK_BLOBS_H
#define CUZK_BLOBS_H

#include <stddef.h>
#include <stdint.h>

#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The packed size of n blobs; SIZE_MAX when it does not fit a size_t or n a u32. */
size_t cuzk_blobs_packed_size(const size_t *lens, size_t n);
/* Packs n blobs into out, which holds cuzk_blobs_packed_size(lens, n) bytes. */
void cuzk_blobs_pack_into(uint8_t *out, const uint8_t *const *blobs, const size_t *lens, size_t n);
/* The same into a malloc'd buffer (*out_len its size); NULL when out of memory or too large. */
uint8_t *cuzk_blobs_pack(const uint8_t *const *blobs, const size_t *lens, size_t n, size_t *out_len);
/* The inverse, without copying: blobs[i] point into in. At most max blobs; every length is
 * checked against the bytes left before anything is allocated (CUZK_EFORMAT naming the blob). */
cuzk_status cuzk_blobs_unpack(const uint8_t *in, size_t len, size_t max, const uint8_t ***blobs, size_t **lens,
                              size_t *n) CUZK_WARN_UNUSED;

#ifdef __cplusplus
}
#endif
#endif

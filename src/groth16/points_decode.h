/* The groth16 layer's point decoding, shared by the whole-buffer parser (params_io.c) and the
 * streamed reader (params_stream.c). */
#ifndef CUZK_GROTH16_POINTS_DECODE_H
#define CUZK_GROTH16_POINTS_DECODE_H

#include "cuzk/groth16.h"

#define G1_BYTES 96 /* uncompressed, as bellperson writes them */
#define G2_BYTES 192

/* Decodes n uncompressed points (G2 when g2) from src into dst (blst affine) in parallel on the
 * current pool. On a bad point: the first one's index in *bad and its decoder's status, the
 * message set by decoding it again on this thread. */
cuzk_status groth16_decode_points(const uint8_t *src, void *dst, size_t n, int g2, int flags, size_t *bad);

#endif

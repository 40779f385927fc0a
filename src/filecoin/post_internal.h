/* The PoSt partition's layout, shared by its parser (post_partition.c), the circuit
 * (post_circuit.c) and the built-in and synthetic witnesses. Internal to src/filecoin. */
#ifndef CUZK_POST_INTERNAL_H
#define CUZK_POST_INTERNAL_H

#include "cuzk/filecoin_post.h"

/* What the circuit and the public inputs need, per sector given (blob) and per inclusion proof
 * of it, as field elements ready for synthesis. Slots past the sectors given repeat the last. */
struct cuzk_post_partition {
    cuzk_post_proof proof;
    const cuzk_post_proof_info *info;
    uint8_t randomness[32];
    uint32_t k;
    size_t nblobs, nsib;                    /* sectors given; siblings of one inclusion proof */
    uint64_t *sector_id;                    /* [nblobs] */
    cuzk_fr *comm_r, *comm_c, *comm_r_last; /* [nblobs] */
    cuzk_fr *leaf;                          /* [nblobs * proofs_per_blob] */
    uint64_t *index;                        /* [nblobs * proofs_per_blob] */
    cuzk_fr *siblings;                      /* [nblobs * proofs_per_blob * nsib], level by level */
};

/* An empty partition for nblobs sectors (arrays zeroed). */
cuzk_status post_partition_alloc(cuzk_post_partition **out, cuzk_post_proof p, const uint8_t randomness[32], uint32_t k,
                                 size_t nblobs) CUZK_WARN_UNUSED;
/* Copies a parsed sector proof into blob slot b (no checks). */
void post_partition_set(cuzk_post_partition *pp, size_t b, const cuzk_post_sector_proof *sp);
/* The built-in witness of window-post:SIZE / winning-post:SIZE: a CC test sector sealed from
 * the seed (its id, ticket and the PoSt randomness derived from it), its vanilla proofs made and
 * parsed as a prover's would be (Window: that one sector, padded). */
cuzk_status post_builtin_partition(cuzk_post_partition **out, cuzk_post_proof p, uint64_t seed) CUZK_WARN_UNUSED;
/* Circuit slot s, challenge n -> the blob and the inclusion proof that fill it. */
static inline void post_slot(const cuzk_post_partition *pp, size_t s, unsigned n, size_t *b, size_t *j)
{
    if (pp->info->kind == CUZK_POST_WINNING) {
        *b = 0;
        *j = s;
    } else {
        *b = s < pp->nblobs ? s : pp->nblobs - 1;
        *j = n;
    }
}

#endif

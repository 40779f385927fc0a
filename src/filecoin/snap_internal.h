/* SnapDeals internals shared by the encoder, the bincode parser and writer, the checks and the
 * circuit adapter. Internal to src/filecoin. */
#ifndef CUZK_SNAP_INTERNAL_H
#define CUZK_SNAP_INTERNAL_H

#include "c1_internal.h"
#include "cuzk/filecoin_snap.h"

/* A request's (or an encoding's) vanilla proofs; memory in the arena. */
struct cuzk_snap_proofs {
    cuzk_update_proof proof;
    const cuzk_update_proof_info *info;
    cuzk_snap_shape shape;
    uint8_t comm_r_old[32], comm_r_new[32], comm_d_new[32];
    unsigned nparts;
    cuzk_snap_partition_proof *parts; /* [nparts] */
    cuzk_c1_arena *arena;
};

/* An empty object for proof type p with room for nparts partition proofs (each zeroed). */
cuzk_status snap_proofs_create(cuzk_snap_proofs **out, cuzk_update_proof p, unsigned nparts) CUZK_WARN_UNUSED;

/* The Merkle proof shapes of a snap shape: TreeR (r_old, r_new) and the binary TreeD. */
void snap_shape_tree_r(c1_tree_shape *out, const cuzk_snap_shape *s);
void snap_shape_tree_d(c1_tree_shape *out, const cuzk_snap_shape *s);
/* Allocates pp's apex leaves and challenge proofs (paths included) in the arena. */
cuzk_status snap_alloc_partition(cuzk_c1_arena *a, cuzk_snap_partition_proof *pp,
                                 const cuzk_snap_shape *s) CUZK_WARN_UNUSED;

/* Parses blob `index` into sp->parts[index] (allocated here for sp's shape). */
cuzk_status snap_parse_into(cuzk_snap_proofs *sp, unsigned index, const uint8_t *blob, size_t len) CUZK_WARN_UNUSED;

/* The natural checks of cuzk_snap_parse on partition k (blob index k in messages). */
cuzk_status snap_check_partition(const cuzk_snap_proofs *sp, unsigned k) CUZK_WARN_UNUSED;

/* Poseidon-2 with the SnapDeals custom domain tag. */
cuzk_status snap_hash_custom(cuzk_fr *out, const cuzk_fr *a, const cuzk_fr *b) CUZK_WARN_UNUSED;

/* A node as a field element (0 for a non-canonical one, which the parser rejects first). */
cuzk_fr snap_node_fr(const cuzk_node *n);

/* The registered proofs' circuit witness: seal a CC sector for the seed, encode seed-derived
 * data, and keep the vanilla proofs (for "snap:SIZE"). */
cuzk_status snap_witness_for_seed(cuzk_snap_proofs **out, cuzk_update_proof p, uint64_t seed) CUZK_WARN_UNUSED;

#endif

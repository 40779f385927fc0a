/* The public inputs of one StackedDRG partition circuit, in the order the circuit allocates
 * them (StackedCompound::generate_public_inputs). Every Merkle path input is the packed index
 * bits of a private-root PoR, i.e. the node index itself, so each challenge contributes its
 * own index four times and each parent's index once. */
#include <string.h>

#include "cuzk/filecoin.h"

static cuzk_status fr_input(cuzk_fr *out, const uint8_t bytes[32], const char *what)
{
    if (cuzk_fr_from_bytes_le(out, bytes) != CUZK_OK)
        return cuzk_fail(CUZK_EINVAL, "%s is not a canonical field element", what);
    return CUZK_OK;
}

cuzk_status cuzk_porep_public_inputs(cuzk_fr *out, size_t cap, cuzk_seal_proof p, const uint8_t replica_id[32],
                                     const uint8_t comm_d[32], const uint8_t comm_r[32], const uint8_t seed[32],
                                     unsigned k)
{
    const cuzk_seal_proof_info *pi = cuzk_seal_proof_info_get(p);
    if (!pi) return CUZK_EUNSUPPORTED;
    size_t need = cuzk_seal_proof_num_inputs(p);
    if (cap < need)
        return cuzk_fail(CUZK_EINVAL, "public inputs of %s need %zu elements, got room for %zu", pi->name, need, cap);
    cuzk_status st;
    if ((st = fr_input(&out[0], replica_id, "replica_id")) != CUZK_OK) return st;
    if ((st = fr_input(&out[1], comm_d, "comm_d")) != CUZK_OK) return st;
    if ((st = fr_input(&out[2], comm_r, "comm_r")) != CUZK_OK) return st;

    cuzk_porep_graph g;
    if ((st = cuzk_porep_graph_for_proof(&g, p)) != CUZK_OK) return st;
    uint64_t ch[32];
    if (pi->challenges_per_partition > 32) return cuzk_fail(CUZK_EINTERNAL, "too many challenges per partition");
    if ((st = cuzk_porep_challenges(ch, p, replica_id, comm_r, seed, k)) != CUZK_OK) return st;

    size_t o = 3;
    for (unsigned i = 0; i < pi->challenges_per_partition; i++) {
        uint32_t drg[CUZK_POREP_DRG_PARENTS], exp[CUZK_POREP_EXP_PARENTS];
        cuzk_porep_drg_parents(&g, (uint32_t)ch[i], drg);
        cuzk_porep_exp_parents(&g, (uint32_t)ch[i], exp);
        cuzk_fr_from_u64(&out[o++], ch[i]); /* tree D path */
        for (int j = 0; j < CUZK_POREP_DRG_PARENTS; j++) cuzk_fr_from_u64(&out[o++], drg[j]);
        for (int j = 0; j < CUZK_POREP_EXP_PARENTS; j++) cuzk_fr_from_u64(&out[o++], exp[j]);
        cuzk_fr_from_u64(&out[o++], ch[i]); /* challenge as UInt64 */
        cuzk_fr_from_u64(&out[o++], ch[i]); /* tree R path */
        cuzk_fr_from_u64(&out[o++], ch[i]); /* tree C path */
    }
    return CUZK_OK;
}

cuzk_status cuzk_porep_public_inputs_for_sector(cuzk_fr *out, size_t cap, cuzk_seal_proof p,
                                                const uint8_t prover_id[32], uint64_t sector_id,
                                                const uint8_t ticket[32], const uint8_t seed[32],
                                                const uint8_t comm_d[32], const uint8_t comm_r[32], unsigned k)
{
    if (!cuzk_seal_proof_info_get(p)) return CUZK_EUNSUPPORTED;
    uint8_t porep_id[32], replica_id[32];
    cuzk_seal_proof_porep_id(porep_id, p);
    cuzk_porep_replica_id(replica_id, prover_id, sector_id, ticket, comm_d, porep_id);
    return cuzk_porep_public_inputs(out, cap, p, replica_id, comm_d, comm_r, seed, k);
}

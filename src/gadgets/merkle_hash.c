/* The in-circuit Merkle node hash of filecoin-hashers (hash_multi_leaf_circuit) for the
 * Poseidon and SHA-256 hashers. */
#include "cuzk/gadgets/bits.h"
#include "cuzk/gadgets/merkle.h"
#include "cuzk/gadgets/multipack.h"
#include "cuzk/gadgets/poseidon.h"
#include "cuzk/gadgets/sha256.h"

#define MAX_ARITY 8

/* SHA-256 node: the children's little-endian bytes with bits MSB first (reverse_bit_numbering
 * of each 255-bit decomposition, padded with a constant 0), hashed; the digest read back
 * little-endian (reversed within each byte) and cut to 254 bits. Only bit positions move, so
 * this costs the decompositions, the SHA-256 and one packing constraint. */
static cuzk_num sha256_node(cuzk_cs *cs, unsigned arity, const cuzk_num *children)
{
    cuzk_bool in[MAX_ARITY * 256], le[255], digest[256], out[256];
    for (unsigned c = 0; c < arity; c++) {
        cuzk_cs_push(cs, "%u_num_into_bits", c);
        cuzk_num_to_bits_le(cs, children[c], le);
        cuzk_cs_pop(cs);
        cuzk_reverse_bit_numbering(le, 255, &in[c * 256]);
    }
    cuzk_cs_push(cs, "hash");
    cuzk_sha256_gadget(cs, in, (size_t)arity * 256, digest);
    cuzk_cs_pop(cs);
    cuzk_reverse_bit_numbering(digest, 256, out);
    cuzk_cs_push(cs, "pack_le");
    cuzk_num r = cuzk_multipack_pack_bits(cs, out, CUZK_MULTIPACK_CAPACITY);
    cuzk_cs_pop(cs);
    return r;
}

cuzk_num cuzk_merkle_hash_node(cuzk_cs *cs, cuzk_hasher h, unsigned arity, const cuzk_num *children)
{
    if (h == CUZK_HASHER_POSEIDON) return cuzk_poseidon_circuit(cs, arity, children);
    if (arity < 2 || arity > MAX_ARITY) {
        cuzk_cs_fail(cs, cuzk_fail(CUZK_EINVAL, "sha256 node hash: arity %u is not 2..%u", arity, MAX_ARITY));
        cuzk_num z = {CUZK_VAR_AUX, CUZK_FR_ZERO};
        return z;
    }
    return sha256_node(cs, arity, children);
}

/* sha256-compress: bellperson's test_full_block as a circuit. 512 allocated input bits (64
 * bytes, each most significant bit first) and one SHA-256 compression from the constant IV:
 * 512 bit constraints + 25,840. Like the upstream test it has no public input besides ONE.
 * Witness: the 64 bytes are cuzk_rng_bytes of cuzk_rng seeded with the seed. */
#include "builtin.h"
#include "cuzk/gadgets/bits.h"
#include "cuzk/gadgets/sha256.h"

static cuzk_status compress_open(cuzk_circuit *c, const char *args) { return CUZK_OK; }

static void compress_synthesize(const cuzk_circuit *c, cuzk_cs *cs, uint64_t seed)
{
    uint8_t block[64] = {0};
    if (cs->values) {
        cuzk_rng rng;
        cuzk_rng_seed(&rng, seed);
        cuzk_rng_bytes(&rng, block, sizeof block);
    }
    cuzk_bool in[512], out[256];
    cuzk_cs_push(cs, "input");
    cuzk_bits_alloc_bytes_be(cs, block, sizeof block, in);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "sha256");
    cuzk_sha256_block_no_padding_gadget(cs, in, out);
    cuzk_cs_pop(cs);
}

const cuzk_circuit_def cuzk_circuit_sha256_compress = {
    .prefix = "sha256-compress",
    .help = "sha256-compress one SHA-256 compression of 512 allocated bits from the IV (bellperson test_full_block: "
            "512 + 25,840 constraints); no public input but ONE",
    .example = "sha256-compress",
    .open = compress_open,
    .synthesize = compress_synthesize,
    .free_state = NULL,
};

/* sha256:BYTES: the full SHA-256 (bellperson's sha256 gadget, constant padding) of BYTES
 * allocated input bytes, each most significant bit first, with the 256 digest bits (digest
 * bytes in order, each most significant bit first) exposed by multipack::pack_into_inputs:
 * two public inputs, bits 0..253 and 254..255 read little-endian.
 * Witness: the bytes are cuzk_rng_bytes of cuzk_rng seeded with the seed. */
#include <errno.h>
#include <stdlib.h>

#include "builtin.h"
#include "cuzk/gadgets/bits.h"
#include "cuzk/gadgets/multipack.h"
#include "cuzk/gadgets/sha256.h"

#define SHA256_BYTES_MAX ((size_t)1 << 20) /* 16,385 blocks, about 440M constraints */

static cuzk_status bytes_open(cuzk_circuit *c, const char *args)
{
    char *end = NULL;
    errno = 0;
    unsigned long long n = args[0] >= '0' && args[0] <= '9' ? strtoull(args, &end, 10) : 0;
    if (!end || *end || errno || n > SHA256_BYTES_MAX)
        return cuzk_fail(CUZK_EINVAL, "sha256:BYTES wants a byte count from 0 to %zu, not '%s'", SHA256_BYTES_MAX,
                         args);
    size_t *state = malloc(sizeof *state);
    if (!state) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    *state = (size_t)n;
    c->state = state;
    return CUZK_OK;
}

static void bytes_synthesize(const cuzk_circuit *c, cuzk_cs *cs, uint64_t seed)
{
    size_t n = *(const size_t *)c->state;
    uint8_t *msg = NULL;
    cuzk_bool *in = malloc((8 * n + 1) * sizeof *in);
    if (cs->values) msg = malloc(n + 1);
    if (!in || (cs->values && !msg)) {
        cuzk_cs_fail(cs, cuzk_fail(CUZK_ENOMEM, "out of memory for a %zu-byte SHA-256 input", n));
        free(in);
        free(msg);
        return;
    }
    if (msg) {
        cuzk_rng rng;
        cuzk_rng_seed(&rng, seed);
        cuzk_rng_bytes(&rng, msg, n);
    }
    cuzk_bool digest[256];
    cuzk_cs_push(cs, "input");
    cuzk_bits_alloc_bytes_be(cs, msg, n, in);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "sha256");
    cuzk_sha256_gadget(cs, in, 8 * n, digest);
    cuzk_cs_pop(cs);
    cuzk_cs_push(cs, "digest");
    cuzk_multipack_pack_into_inputs(cs, digest, 256);
    cuzk_cs_pop(cs);
    free(in);
    free(msg);
}

const cuzk_circuit_def cuzk_circuit_sha256_bytes = {
    .prefix = "sha256:",
    .help = "sha256:BYTES   SHA-256 of BYTES allocated random bytes (0 to 1048576); public inputs: the 256 digest "
            "bits (MSB first) packed 254 + 2",
    .example = "sha256:64",
    .open = bytes_open,
    .synthesize = bytes_synthesize,
    .free_state = free,
};

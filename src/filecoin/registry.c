/* The registry of seal proof types: every RegisteredSealProof of rust-filecoin-proofs-api with
 * the PoRep configuration it maps to in filecoin-proofs (constants.rs, parameters.rs).
 *
 * Where the numbers come from:
 *   - partitions: POREP_PARTITIONS (1 for test sizes, 10 for 32/64 GiB); non-interactive
 *     proofs use get_porep_non_interactive_partitions (13 / 126).
 *   - challenges per partition: ceil(minimum challenges / partitions), minimum = 2 / 176
 *     interactive (synthetic too) and 26 / 2253 non-interactive; that gives 2 / 18 for all.
 *   - layers: LAYERS (2 / 11). Tree shapes: 8-0-0 for 2 KiB, 8 MiB, 512 MiB; 8-8-0 for 32 GiB;
 *     8-8-2 for 64 GiB.
 *   - api version: V1 = 1.0.0, V1_1 = 1.1.0, synthetic and NI = 1.2.0. */
#include <string.h>

#include "cuzk/filecoin.h"

#define KIB2 2048ULL
#define MIB8 (8ULL << 20)
#define MIB512 (512ULL << 20)
#define GIB32 (32ULL << 30)
#define GIB64 (64ULL << 30)

#define ENTRY(ID, NAME, VNAME, SIZE, LAYERS, PARTS, CPP, SUB, TOP, BASELEN, DDEPTH, API, CH)          \
    {                                                                                                 \
        ID, NAME, VNAME, SIZE, (SIZE) / 32, LAYERS, PARTS, CPP, 8, SUB, TOP, BASELEN, DDEPTH, API, CH \
    }

/* base_path_len = log8(nodes / (sub * top)): 2 KiB 64 nodes -> 2; 8 MiB 2^18 -> 6;
 * 512 MiB 2^24 -> 8; 32 GiB 2^30 / 8 -> 9; 64 GiB 2^31 / 16 -> 9. */
#define SIZES_2K(ID, NAME, PARTS, API, CH) ENTRY(ID, NAME, "StackedDrg2KiBV1", KIB2, 2, PARTS, 2, 0, 0, 2, 6, API, CH)
#define SIZES_8M(ID, NAME, PARTS, API, CH) ENTRY(ID, NAME, "StackedDrg8MiBV1", MIB8, 2, PARTS, 2, 0, 0, 6, 18, API, CH)
#define SIZES_512M(ID, NAME, PARTS, API, CH) \
    ENTRY(ID, NAME, "StackedDrg512MiBV1", MIB512, 2, PARTS, 2, 0, 0, 8, 24, API, CH)
#define SIZES_32G(ID, NAME, PARTS, API, CH) \
    ENTRY(ID, NAME, "StackedDrg32GiBV1", GIB32, 11, PARTS, 18, 8, 0, 9, 30, API, CH)
#define SIZES_64G(ID, NAME, PARTS, API, CH) \
    ENTRY(ID, NAME, "StackedDrg64GiBV1", GIB64, 11, PARTS, 18, 8, 2, 9, 31, API, CH)

static const cuzk_seal_proof_info REGISTRY[CUZK_SEAL_PROOF_COUNT] = {
    SIZES_2K(CUZK_SEAL_2KIB_V1, "StackedDrg2KiBV1", 1, CUZK_API_V1_0_0, CUZK_CHALLENGES_INTERACTIVE),
    SIZES_8M(CUZK_SEAL_8MIB_V1, "StackedDrg8MiBV1", 1, CUZK_API_V1_0_0, CUZK_CHALLENGES_INTERACTIVE),
    SIZES_512M(CUZK_SEAL_512MIB_V1, "StackedDrg512MiBV1", 1, CUZK_API_V1_0_0, CUZK_CHALLENGES_INTERACTIVE),
    SIZES_32G(CUZK_SEAL_32GIB_V1, "StackedDrg32GiBV1", 10, CUZK_API_V1_0_0, CUZK_CHALLENGES_INTERACTIVE),
    SIZES_64G(CUZK_SEAL_64GIB_V1, "StackedDrg64GiBV1", 10, CUZK_API_V1_0_0, CUZK_CHALLENGES_INTERACTIVE),

    SIZES_2K(CUZK_SEAL_2KIB_V1_1, "StackedDrg2KiBV1_1", 1, CUZK_API_V1_1_0, CUZK_CHALLENGES_INTERACTIVE),
    SIZES_8M(CUZK_SEAL_8MIB_V1_1, "StackedDrg8MiBV1_1", 1, CUZK_API_V1_1_0, CUZK_CHALLENGES_INTERACTIVE),
    SIZES_512M(CUZK_SEAL_512MIB_V1_1, "StackedDrg512MiBV1_1", 1, CUZK_API_V1_1_0, CUZK_CHALLENGES_INTERACTIVE),
    SIZES_32G(CUZK_SEAL_32GIB_V1_1, "StackedDrg32GiBV1_1", 10, CUZK_API_V1_1_0, CUZK_CHALLENGES_INTERACTIVE),
    SIZES_64G(CUZK_SEAL_64GIB_V1_1, "StackedDrg64GiBV1_1", 10, CUZK_API_V1_1_0, CUZK_CHALLENGES_INTERACTIVE),

    SIZES_2K(CUZK_SEAL_2KIB_V1_1_SYNTH, "StackedDrg2KiBV1_1_Feat_SyntheticPoRep", 1, CUZK_API_V1_2_0,
             CUZK_CHALLENGES_SYNTHETIC),
    SIZES_8M(CUZK_SEAL_8MIB_V1_1_SYNTH, "StackedDrg8MiBV1_1_Feat_SyntheticPoRep", 1, CUZK_API_V1_2_0,
             CUZK_CHALLENGES_SYNTHETIC),
    SIZES_512M(CUZK_SEAL_512MIB_V1_1_SYNTH, "StackedDrg512MiBV1_1_Feat_SyntheticPoRep", 1, CUZK_API_V1_2_0,
               CUZK_CHALLENGES_SYNTHETIC),
    SIZES_32G(CUZK_SEAL_32GIB_V1_1_SYNTH, "StackedDrg32GiBV1_1_Feat_SyntheticPoRep", 10, CUZK_API_V1_2_0,
              CUZK_CHALLENGES_SYNTHETIC),
    SIZES_64G(CUZK_SEAL_64GIB_V1_1_SYNTH, "StackedDrg64GiBV1_1_Feat_SyntheticPoRep", 10, CUZK_API_V1_2_0,
              CUZK_CHALLENGES_SYNTHETIC),

    SIZES_2K(CUZK_SEAL_2KIB_V1_2_NI, "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep", 13, CUZK_API_V1_2_0,
             CUZK_CHALLENGES_NI),
    SIZES_8M(CUZK_SEAL_8MIB_V1_2_NI, "StackedDrg8MiBV1_2_Feat_NonInteractivePoRep", 13, CUZK_API_V1_2_0,
             CUZK_CHALLENGES_NI),
    SIZES_512M(CUZK_SEAL_512MIB_V1_2_NI, "StackedDrg512MiBV1_2_Feat_NonInteractivePoRep", 13, CUZK_API_V1_2_0,
               CUZK_CHALLENGES_NI),
    SIZES_32G(CUZK_SEAL_32GIB_V1_2_NI, "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep", 126, CUZK_API_V1_2_0,
              CUZK_CHALLENGES_NI),
    SIZES_64G(CUZK_SEAL_64GIB_V1_2_NI, "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep", 126, CUZK_API_V1_2_0,
              CUZK_CHALLENGES_NI),
};

const cuzk_seal_proof_info *cuzk_seal_proof_info_get(cuzk_seal_proof p)
{
    if ((unsigned)p >= CUZK_SEAL_PROOF_COUNT) {
        cuzk_fail(CUZK_EUNSUPPORTED, "unknown registered seal proof id %d", (int)p);
        return NULL;
    }
    return &REGISTRY[p];
}

cuzk_status cuzk_seal_proof_from_name(cuzk_seal_proof *out, const char *name, size_t len)
{
    for (unsigned i = 0; i < CUZK_SEAL_PROOF_COUNT; i++) {
        if (strlen(REGISTRY[i].name) == len && memcmp(REGISTRY[i].name, name, len) == 0) {
            *out = REGISTRY[i].id;
            return CUZK_OK;
        }
    }
    /* print at most 80 bytes of what we were given, non-printables escaped */
    char shown[4 * 80 + 1];
    size_t o = 0;
    for (size_t i = 0; i < len && i < 80; i++) {
        unsigned char c = (unsigned char)name[i];
        if (c >= 0x20 && c < 0x7f && c != '\\') shown[o++] = (char)c;
        else o += (size_t)snprintf(shown + o, sizeof shown - o, "\\x%02x", c);
    }
    shown[o] = 0;
    return cuzk_fail(CUZK_EUNSUPPORTED, "unknown or unsupported registered seal proof \"%s%s\"", shown,
                     len > 80 ? "..." : "");
}

void cuzk_seal_proof_porep_id(uint8_t out[32], cuzk_seal_proof p)
{
    memset(out, 0, 32);
    uint64_t id = (uint64_t)p, nonce = 0; /* RegisteredSealProof::nonce() is 0 for every proof */
    for (int i = 0; i < 8; i++) {
        out[i] = (uint8_t)(id >> (8 * i));
        out[8 + i] = (uint8_t)(nonce >> (8 * i));
    }
}

size_t cuzk_seal_proof_num_inputs(cuzk_seal_proof p)
{
    const cuzk_seal_proof_info *pi = cuzk_seal_proof_info_get(p);
    if (!pi) return 0;
    return 3 + (size_t)(1 + CUZK_POREP_PARENTS + 3) * pi->challenges_per_partition;
}

/* Curio's golden 32 GiB WindowPoSt vanilla proof (tests/vectors/curio-golden, made by
 * filecoin-ffi): the bincode blob, as Curio sends it, read by our parser and written back byte
 * for byte; checked against its public data (postpub.json: randomness, PoStProof 8, sector 1,
 * the sealed CID's comm_r) as `cuzk verify --vanilla` checks a folder; the same values
 * recomputed here from the hash layer (each challenged leaf from SHA-256, each path and comm_r
 * from Poseidon); and refused under another randomness, partition, sector id, comm_r or path
 * hash, each message naming the sector and the inclusion proof. Skips when the vectors are not
 * found. */
#include <jansson.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cuzk/filecoin.h"
#include "cuzk/filecoin_post.h"
#include "cuzk/hash.h"
#include "harness.h"

#define VECTORS "tests/vectors/curio-golden"

/* The vector's public data and blob. */
typedef struct {
    uint64_t post_proof, seal_proof, sector_id;
    uint8_t randomness[32], comm_r[32];
    uint8_t *blob;
    size_t len;
} golden;

/* ---------------------------------------------------------------- reading postpub.json */
/* RFC 4648 text in an alphabet of 2^bits characters, '=' padding ignored: the bytes written,
 * or SIZE_MAX for a character outside the alphabet or more than cap bytes. */
static size_t rfc4648_decode(const char *in, const char *alphabet, unsigned bits, uint8_t *out, size_t cap)
{
    uint32_t acc = 0;
    unsigned nacc = 0;
    size_t n = 0;
    for (; *in && *in != '='; in++) {
        const char *c = strchr(alphabet, *in);
        if (!c) return SIZE_MAX;
        acc = acc << bits | (uint32_t)(c - alphabet);
        nacc += bits;
        if (nacc < 8) continue;
        nacc -= 8;
        if (n == cap) return SIZE_MAX;
        out[n++] = (uint8_t)(acc >> nacc);
    }
    return n;
}

/* A multiformats unsigned varint. */
static bool varint(const uint8_t **p, const uint8_t *end, uint64_t *out)
{
    *out = 0;
    for (unsigned shift = 0; *p < end && shift < 63; shift += 7) {
        uint8_t b = *(*p)++;
        *out |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) return true;
    }
    return false;
}

/* The sealed CID's digest, comm_r: multibase 'b' (base32, lower case, no padding), CIDv1,
 * codec fil-commitment-sealed (0xf102), multihash poseidon-bls12_381-a2-fc1 (0xb401) of 32
 * bytes (go-fil-commcid's ReplicaCommitmentV1). */
static bool cid_comm_r(const char *cid, uint8_t comm_r[32])
{
    uint8_t bytes[64];
    if (!cid || cid[0] != 'b') return false;
    size_t n = rfc4648_decode(cid + 1, "abcdefghijklmnopqrstuvwxyz234567", 5, bytes, sizeof bytes);
    if (n == SIZE_MAX) return false;
    const uint8_t *p = bytes, *end = bytes + n;
    uint64_t version, codec, hash, len;
    if (!varint(&p, end, &version) || !varint(&p, end, &codec) || !varint(&p, end, &hash) || !varint(&p, end, &len))
        return false;
    if (version != 1 || codec != 0xf102 || hash != 0xb401 || len != 32 || end - p != 32) return false;
    memcpy(comm_r, p, 32);
    return true;
}

static bool json_u64(json_t *v, uint64_t *out)
{
    if (!json_is_integer(v) || json_integer_value(v) < 0) return false;
    *out = (uint64_t)json_integer_value(v);
    return true;
}

/* postpub.json: Go's proof.WindowPoStVerifyInfo (one proof, one challenged sector). */
static bool read_public(const char *path, golden *g)
{
    json_error_t err;
    json_t *top = json_load_file(path, JSON_REJECT_DUPLICATES, &err);
    if (!top) return false;
    json_t *proof = json_array_get(json_object_get(top, "Proofs"), 0);
    json_t *sector = json_array_get(json_object_get(top, "ChallengedSectors"), 0);
    const char *rnd = json_string_value(json_object_get(top, "Randomness"));
    const char *cid = json_string_value(json_object_get(json_object_get(sector, "SealedCID"), "/"));
    static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    bool ok = json_array_size(json_object_get(top, "Proofs")) == 1 &&
        json_array_size(json_object_get(top, "ChallengedSectors")) == 1 &&
        json_u64(json_object_get(proof, "PoStProof"), &g->post_proof) &&
        json_u64(json_object_get(sector, "SealProof"), &g->seal_proof) &&
        json_u64(json_object_get(sector, "SectorNumber"), &g->sector_id) && rnd &&
        rfc4648_decode(rnd, B64, 6, g->randomness, 32) == 32 && cid_comm_r(cid, g->comm_r);
    json_decref(top);
    return ok;
}

/* false only when the files are not there (a copy of the tree without them); once there, they
 * must read, or the checks fail. */
static bool load(golden *g)
{
    const char *src = getenv("CUZK_SOURCE_DIR") ? getenv("CUZK_SOURCE_DIR") : "..";
    char path[4096];
    memset(g, 0, sizeof *g);
    snprintf(path, sizeof path, "%s/" VECTORS "/postpub.json", src);
    if (access(path, R_OK) != 0) return false;
    CHECK(read_public(path, g));
    snprintf(path, sizeof path, "%s/" VECTORS "/post.vproof", src);
    CHECK_OK(cuzk_read_file_max(path, 1 << 20, &g->blob, &g->len));
    return true;
}

/* ---------------------------------------------------------------- the checks */
/* Go's PoStProof 8 is StackedDrgWindow32GiBV1 (API 1.0.0), not the V1_2 of value 13; its
 * sector size is the seal proof's. */
static void test_mapping(const golden *g)
{
    CHECK(g->post_proof == CUZK_POST_WINDOW_32GIB_V1);
    const cuzk_post_proof_info *pi = cuzk_post_proof_info_get((cuzk_post_proof)g->post_proof);
    CHECK(pi && !strcmp(pi->name, "StackedDrgWindow32GiBV1") && !strcmp(pi->go_name, "StackedDrgWindow32GiBV1"));
    if (!pi) return;
    CHECK(pi->kind == CUZK_POST_WINDOW && pi->sector_size == 32ULL << 30 && pi->api_version == CUZK_API_V1_0_0);
    CHECK(pi->tree.base_arity == 8 && pi->tree.base_levels == 9 && pi->tree.sub_arity == 8 && pi->tree.top_arity == 0);
    cuzk_post_proof q;
    CHECK_OK(cuzk_post_proof_from_name(&q, "StackedDrgWindow32GiBV1", strlen("StackedDrgWindow32GiBV1")));
    CHECK(q == CUZK_POST_WINDOW_32GIB_V1);
    const cuzk_seal_proof_info *si = cuzk_seal_proof_info_get((cuzk_seal_proof)g->seal_proof);
    CHECK(g->seal_proof == CUZK_SEAL_32GIB_V1_1 && si && si->sector_size == pi->sector_size);
    CHECK(g->len == cuzk_post_sector_proof_bytes(CUZK_POST_WINDOW_32GIB_V1) && g->len == 24960);
    CHECK_OK(cuzk_post_check_randomness(g->randomness));
}

/* The blob parses as Curio's bytes say (sector 1, the CID's comm_r, 10 Sub proofs of 9 + 1
 * levels into comm_r_last) and is written back byte for byte. */
static void test_parse(const golden *g, cuzk_post_sector_proof **out)
{
    cuzk_post_sector_proof *sp = NULL;
    CHECK_OK(cuzk_post_sector_proof_parse(&sp, CUZK_POST_WINDOW_32GIB_V1, 0, g->blob, g->len));
    *out = sp;
    if (!sp) return;
    CHECK(sp->sector_id == g->sector_id && sp->sector_id == 1);
    CHECK(!memcmp(sp->comm_r.b, g->comm_r, 32));
    CHECK(sp->nproofs == 10);
    for (uint32_t j = 0; j < sp->nproofs; j++) {
        const cuzk_merkle_proof *mp = &sp->proofs[j];
        CHECK(mp->kind == CUZK_MERKLE_SUB && mp->nbase == 9 && mp->nsub == 1 && mp->ntop == 0);
        CHECK(!memcmp(mp->root.b, sp->comm_r_last.b, 32));
    }
    uint8_t *again = NULL;
    size_t len = 0;
    CHECK_OK(cuzk_post_sector_proof_write(sp, CUZK_POST_WINDOW_32GIB_V1, &again, &len));
    CHECK(len == g->len && again && !memcmp(again, g->blob, len));
    free(again);
}

/* The partition check of the one blob (its length is the vector's), as proof type p. */
static cuzk_status check(const golden *g, cuzk_post_proof p, const uint8_t rnd[32], uint32_t k,
                         const cuzk_post_public_sector *pub, const uint8_t *blob, cuzk_post_partition **out)
{
    const uint8_t *blobs[1] = {blob};
    cuzk_post_partition *pp = NULL;
    cuzk_status st = cuzk_post_partition_parse(&pp, p, rnd, k, pub, blobs, &g->len, 1);
    if (out) *out = pp;
    else cuzk_post_partition_free(pp);
    return st;
}

/* Challenge j of sector id under the randomness, computed here: u64 LE of
 * Sha256(randomness || id u64 LE || j u64 LE)[0..8] mod 2^30 leaves (API 1.0.0, sector index
 * 0 of partition 0: the challenge index is j). */
static uint64_t challenge(const uint8_t rnd[32], uint64_t id, uint64_t j)
{
    uint8_t in[48], h[32];
    memcpy(in, rnd, 32);
    for (int i = 0; i < 8; i++) {
        in[32 + i] = (uint8_t)(id >> (8 * i));
        in[40 + i] = (uint8_t)(j >> (8 * i));
    }
    cuzk_sha256(h, in, sizeof in);
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | h[i];
    return v % (32ULL << 30 >> 5);
}

/* The check `cuzk verify --vanilla` makes, against postpub.json's sector and comm_r; the
 * public inputs are the CID's comm_r and the challenged leaves. */
static void test_check(const golden *g)
{
    cuzk_post_public_sector pub = {g->sector_id, {0}};
    memcpy(pub.comm_r, g->comm_r, 32);
    cuzk_post_partition *pp = NULL;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    CHECK_OK(check(g, CUZK_POST_WINDOW_32GIB_V1, g->randomness, 0, &pub, g->blob, &pp));
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("golden 32 GiB WindowPoSt vanilla proof checked in %.1f ms (10 paths of 10 levels)\n", 1e3 * s);
    CHECK(s < 5.0);
    if (!pp) return;
    size_t n = cuzk_post_partition_num_inputs(pp);
    CHECK(n == 2349 * 11);
    cuzk_fr *in = calloc(n, sizeof *in);
    cuzk_fr want;
    CHECK_OK(cuzk_post_partition_public_inputs(pp, in, n));
    CHECK_OK(cuzk_fr_from_bytes_le(&want, g->comm_r));
    CHECK(cuzk_fr_eq(&in[0], &want));
    for (unsigned j = 0; j < 10; j++) {
        cuzk_fr_from_u64(&want, challenge(g->randomness, g->sector_id, j));
        CHECK(cuzk_fr_eq(&in[1 + j], &want));
    }
    free(in);
    cuzk_post_partition_free(pp);
}

static cuzk_fr fr_of(const cuzk_node *n)
{
    cuzk_fr f = CUZK_FR_ZERO;
    CHECK_OK(cuzk_fr_from_bytes_le(&f, n->b));
    return f;
}

/* The same facts from the hash layer alone: each path's digits spell the leaf the randomness
 * challenges, the leaf and siblings hash (Poseidon, arity 8, the node inserted at its digit)
 * to comm_r_last, and comm_r = Poseidon2(comm_c, comm_r_last). */
static void test_recompute(const golden *g, const cuzk_post_sector_proof *sp)
{
    for (uint32_t j = 0; j < sp->nproofs; j++) {
        const cuzk_merkle_proof *mp = &sp->proofs[j];
        uint64_t index = 0;
        cuzk_fr cur = fr_of(&mp->leaf), kids[8];
        for (uint32_t l = 0; l < mp->nbase + mp->nsub; l++) {
            const cuzk_path_elem *e = &mp->path[l];
            index |= (uint64_t)e->index << (3 * l);
            for (unsigned c = 0, h = 0; c < 8; c++) kids[c] = c == e->index ? cur : fr_of(&e->hashes[h++]);
            CHECK_OK(cuzk_poseidon_hash(&cur, 8, kids));
        }
        uint64_t want = challenge(g->randomness, sp->sector_id, j);
        CHECK(index == want);
        CHECK(want == cuzk_post_leaf_challenge(32ULL << 30 >> 5, g->randomness, sp->sector_id, j));
        cuzk_fr root = fr_of(&sp->comm_r_last);
        CHECK(cuzk_fr_eq(&cur, &root));
        if (j == 0) printf("inclusion proof 0 opens leaf %llu\n", (unsigned long long)index);
    }
    cuzk_fr pair[2] = {fr_of(&sp->comm_c), fr_of(&sp->comm_r_last)}, h, comm_r = fr_of(&sp->comm_r);
    CHECK_OK(cuzk_poseidon_hash(&h, 2, pair));
    CHECK(cuzk_fr_eq(&h, &comm_r));
}

/* Under another randomness, inclusion proof 0 opens a leaf the verifier does not challenge:
 * the message names the sector, the proof and both leaves. */
static void test_other_randomness(const golden *g, const cuzk_post_sector_proof *sp)
{
    uint8_t rnd[32];
    memcpy(rnd, g->randomness, 32);
    rnd[0] = 1;
    cuzk_post_public_sector pub = {g->sector_id, {0}};
    memcpy(pub.comm_r, g->comm_r, 32);
    CHECK_FAILS(check(g, CUZK_POST_WINDOW_32GIB_V1, rnd, 0, &pub, g->blob, NULL), CUZK_EVERIFY);
    uint64_t opened = 0;
    for (uint32_t l = 0; l < 10; l++) opened |= (uint64_t)sp->proofs[0].path[l].index << (3 * l);
    char want[256];
    snprintf(want, sizeof want,
             "vanilla proof blob 0 (sector 1): vanilla_proof.sectors[0].inclusion_proofs[0] opens leaf %llu, but the "
             "challenge for this randomness, sector and partition 0 is leaf %llu",
             (unsigned long long)opened, (unsigned long long)challenge(rnd, 1, 0));
    CHECK(strstr(cuzk_last_error(), want) != NULL);
    printf("another randomness: %s\n", cuzk_last_error());
    /* API 1.0.0 numbers challenges across the partition's sectors: as partition 1 the sector
     * has other challenges; V1_2 (value 13) numbers them per sector, so there it passes */
    CHECK_FAILS(check(g, CUZK_POST_WINDOW_32GIB_V1, g->randomness, 1, &pub, g->blob, NULL), CUZK_EVERIFY);
    CHECK(strstr(cuzk_last_error(), "inclusion_proofs[0] opens leaf") != NULL);
    CHECK_OK(check(g, CUZK_POST_WINDOW_32GIB_V1_1, g->randomness, 1, &pub, g->blob, NULL));
}

/* Another public sector or comm_r, a changed path hash, a comm_r not made of comm_c and
 * comm_r_last: each refused naming what differs. */
static void test_other_data(const golden *g, cuzk_post_sector_proof *sp)
{
    cuzk_post_public_sector pub = {2, {0}};
    memcpy(pub.comm_r, g->comm_r, 32);
    CHECK_FAILS(check(g, CUZK_POST_WINDOW_32GIB_V1, g->randomness, 0, &pub, g->blob, NULL), CUZK_EVERIFY);
    CHECK(strstr(cuzk_last_error(), "sector_id is 1, but public sectors[0].sector_id is 2") != NULL);
    pub.sector_id = 1;
    memset(pub.comm_r, 0, 32);
    CHECK_FAILS(check(g, CUZK_POST_WINDOW_32GIB_V1, g->randomness, 0, &pub, g->blob, NULL), CUZK_EVERIFY);
    CHECK(strstr(cuzk_last_error(),
                 "(sector 1): comm_r is df691086e3c673c95a45908713d4c5938e5ced43f21b888bd9bc6e181c9f326b, "
                 "but public sectors[0].comm_r is 00000000") != NULL);
    memcpy(pub.comm_r, g->comm_r, 32);

    uint8_t *blob = NULL;
    size_t len = 0;
    sp->proofs[3].path[4].hashes[2].b[0] ^= 1; /* the low byte: the value stays canonical */
    CHECK_OK(cuzk_post_sector_proof_write(sp, CUZK_POST_WINDOW_32GIB_V1, &blob, &len));
    sp->proofs[3].path[4].hashes[2].b[0] ^= 1;
    CHECK_FAILS(check(g, CUZK_POST_WINDOW_32GIB_V1, g->randomness, 0, &pub, blob, NULL), CUZK_EVERIFY);
    CHECK(strstr(cuzk_last_error(),
                 "(sector 1): vanilla_proof.sectors[0].inclusion_proofs[3]: the leaf and path hash "
                 "to another root") != NULL);
    free(blob);
    sp->comm_c.b[0] ^= 1;
    CHECK_OK(cuzk_post_sector_proof_write(sp, CUZK_POST_WINDOW_32GIB_V1, &blob, &len));
    sp->comm_c.b[0] ^= 1;
    CHECK_FAILS(check(g, CUZK_POST_WINDOW_32GIB_V1, g->randomness, 0, &pub, blob, NULL), CUZK_EVERIFY);
    CHECK(strstr(cuzk_last_error(), "(sector 1): comm_r is not Poseidon2") != NULL);
    free(blob);
}

int main(void)
{
    golden g;
    if (!load(&g)) TEST_SKIP("the golden vectors were not found (" VECTORS " under CUZK_SOURCE_DIR)");
    cuzk_post_sector_proof *sp = NULL;
    if (g.blob) {
        test_mapping(&g);
        test_parse(&g, &sp);
        test_check(&g);
    }
    if (sp) {
        test_recompute(&g, sp);
        test_other_randomness(&g, sp);
        test_other_data(&g, sp);
    }
    cuzk_post_sector_proof_free(sp);
    free(g.blob);
    return harness_finish("test_post_golden");
}

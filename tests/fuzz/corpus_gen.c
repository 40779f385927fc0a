/* Writes the seed corpus of every fuzz target into OUT/<target>/ (tests/fuzz/README.md): the
 * fixed circuit's proof, key, parameters and inputs (support.c), precompiled circuits of two
 * small circuits, a sealed 2 KiB test sector's C1 (raw and wrapped) and sector.json, its PoSt
 * and SnapDeals vanilla proofs, daemon requests carrying them, and parameter digest records. Everything is deterministic
 * (seeded), so the corpus is made at build time and nothing of it is committed.
 * Usage: fuzz_corpus_gen OUT */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/sector_json.h"
#include "cuzk/engine.h"
#include "cuzk/prove_path.h"
#include "cuzk/filecoin_c1.h"
#include "cuzk/filecoin_post.h"
#include "cuzk/filecoin_seal.h"
#include "cuzk/filecoin_snap.h"
#include "cuzk/pce.h"
#include "cuzk/testcircuits.h"
#include "cuzk/v1/proving.pb-c.h"
#include "support.h"

static const char *out_dir;
static int failures;

#define TRY(call)                                                                   \
    do {                                                                            \
        if ((call) != CUZK_OK) {                                                    \
            fprintf(stderr, "fuzz_corpus_gen: %s: %s\n", #call, cuzk_last_error()); \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

/* OUT/target/name, from up to three pieces back to back. */
static void seed3(const char *target, const char *name, const void *a, size_t na, const void *b, size_t nb,
                  const void *c, size_t nc)
{
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s/%s/%s", out_dir, target, name) >= sizeof path) {
        fprintf(stderr, "fuzz_corpus_gen: the path %s/%s/%s is longer than %zu bytes\n", out_dir, target, name,
                sizeof path - 1);
        exit(1);
    }
    snprintf(path, sizeof path, "%s/%s", out_dir, target);
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "fuzz_corpus_gen: cannot create %s: %s\n", path, strerror(errno));
        exit(1);
    }
    snprintf(path, sizeof path, "%s/%s/%s", out_dir, target, name);
    FILE *f = fopen(path, "wb");
    if (!f || (na && fwrite(a, 1, na, f) != na) || (nb && fwrite(b, 1, nb, f) != nb) ||
        (nc && fwrite(c, 1, nc, f) != nc) || fclose(f)) {
        fprintf(stderr, "fuzz_corpus_gen: cannot write %s\n", path);
        failures++;
    }
}

static void seed(const char *target, const char *name, const void *data, size_t n)
{
    seed3(target, name, data, n, NULL, 0, NULL, 0);
}

static void seed_text(const char *target, const char *name, const char *text)
{
    seed(target, name, text, strlen(text));
}

static void groth16_seeds(void)
{
    const fuzz_fixture *f = fuzz_fixture_get();
    seed("fuzz_proof", "true", f->proof_bytes, sizeof f->proof_bytes);
    seed("fuzz_proof", "negated", f->neg_bytes, sizeof f->neg_bytes);
    cuzk_groth16_proof swapped = f->proof;
    swapped.a = f->proof.c;
    swapped.c = f->proof.a;
    uint8_t b[CUZK_GROTH16_PROOF_BYTES];
    cuzk_groth16_proof_encode(b, &swapped);
    seed("fuzz_proof", "swapped", b, sizeof b);

    size_t vn = cuzk_groth16_vk_size(&f->params.vk);
    uint8_t *vk = malloc(vn);
    cuzk_groth16_vk_encode(vk, &f->params.vk);
    seed("fuzz_vk", "cubic.vk", vk, vn);
    free(vk);

    char path[4096];
    snprintf(path, sizeof path, "%s/.cubic.params", out_dir);
    TRY(cuzk_groth16_params_write(&f->params, path));
    uint8_t *data;
    size_t n;
    TRY(cuzk_read_file(path, &data, &n));
    remove(path);
    seed("fuzz_params", "cubic.params", data, n);
    seed("fuzz_vk", "cubic.params", data, n);
    free(data);

    char *t;
    size_t tl;
    TRY(cuzk_inputs_json_format(&t, &tl, &f->input, 1, 1, false));
    seed("fuzz_inputs_json", "cubic.json", t, tl);
    free(t);
    cuzk_fr v[6];
    for (int i = 0; i < 6; i++) cuzk_fr_from_u64(&v[i], (uint64_t)i * 977 + 1);
    cuzk_fr_neg(&v[5], &v[5]); /* r - x: the longest decimals */
    TRY(cuzk_inputs_json_format(&t, &tl, v, 2, 3, true));
    seed("fuzz_inputs_json", "nested.json", t, tl);
    free(t);
    seed_text("fuzz_inputs_json", "empty.json", "[]");
    seed_text("fuzz_inputs_json", "empty-rows.json", "[[],[]]");
    seed_text("fuzz_inputs_json", "ragged.json", "[[\"1\",\"2\"],[],[\"3\"]]");
}

static void pce_seed(const char *circuit, const char *name)
{
    cuzk_circuit *c;
    cuzk_pce p;
    TRY(cuzk_circuit_open(&c, circuit));
    TRY(cuzk_pce_record(c, &p, NULL));
    uint8_t *data;
    size_t n;
    TRY(cuzk_pce_encode(&p, &data, &n));
    seed("fuzz_pce", name, data, n);
    free(data);
    cuzk_pce_free(&p);
    cuzk_circuit_free(c);
}

static void request_seed(const char *name, int flags, Cuzk__V1__SubmitProofRequest *q)
{
    uint8_t flag = (uint8_t)flags;
    size_t n;
    uint8_t *buf;
    if (flags & 2) {
        Cuzk__V1__ProveRequest pr = CUZK__V1__PROVE_REQUEST__INIT;
        pr.submit = q;
        n = cuzk__v1__prove_request__get_packed_size(&pr);
        buf = malloc(n + 1);
        cuzk__v1__prove_request__pack(&pr, buf);
    } else {
        n = cuzk__v1__submit_proof_request__get_packed_size(q);
        buf = malloc(n + 1);
        cuzk__v1__submit_proof_request__pack(q, buf);
    }
    seed3("fuzz_daemon_request", name, &flag, 1, buf, n, NULL, 0);
    free(buf);
}

/* fuzz_daemon_request's GetStatusRequest mode (flag bit 2): without a job, with one, with a
 * NUL inside one */
static void status_seeds(void)
{
    static const struct {
        const char *name, *job;
        size_t len;
    } S[] = {{"status-all", "", 0}, {"status-job", "sector-42", 9}, {"status-nul-job", "a\0b", 3}};
    for (size_t i = 0; i < sizeof S / sizeof S[0]; i++) {
        uint8_t flag = 4, buf[32];
        size_t n = 0;
        if (S[i].len) { /* field 100, length-delimited: tag (100 << 3 | 2) as a varint */
            buf[n++] = 0xa2;
            buf[n++] = 0x06;
            buf[n++] = (uint8_t)S[i].len;
            memcpy(buf + n, S[i].job, S[i].len);
            n += S[i].len;
        }
        seed3("fuzz_daemon_request", S[i].name, &flag, 1, buf, n, NULL, 0);
    }
}

static void sector_seeds(void)
{
    /* a 2 KiB sector of zeros, sealed */
    cuzk_seal_params sp;
    memset(&sp, 0, sizeof sp);
    sp.proof = CUZK_SEAL_2KIB_V1_1;
    cuzk_prover_id_from_actor(sp.prover_id, 1002);
    sp.sector_id = 7;
    for (int i = 0; i < 32; i++) sp.ticket[i] = (uint8_t)(i + 1);
    sp.ticket[31] &= 0x3f;
    uint8_t seed_v[32];
    for (int i = 0; i < 32; i++) seed_v[i] = (uint8_t)(0x80 + i);
    seed_v[31] &= 0x3f;
    cuzk_sealed_sector *s;
    TRY(cuzk_seal_precommit(&s, &sp, NULL));
    cuzk_c1 *c1;
    TRY(cuzk_seal_commit1(&c1, s, seed_v, NULL));
    uint8_t *c1_json, *wrapped;
    size_t c1_len, wrapped_len;
    TRY(cuzk_c1_write(c1, &c1_json, &c1_len));
    TRY(cuzk_c1_wrap(&wrapped, &wrapped_len, c1_json, c1_len, (int64_t)sp.sector_id, 2048));
    seed("fuzz_c1", "2KiB.json", c1_json, c1_len);
    seed("fuzz_c1", "2KiB-wrapped.json", wrapped, wrapped_len);
    free(wrapped);

    const cuzk_seal_commitments *cm = cuzk_sealed_commitments(s);
    sector_public pub;
    memset(&pub, 0, sizeof pub);
    pub.proof = sp.proof;
    memcpy(pub.prover_id, sp.prover_id, 32);
    pub.sector_id = sp.sector_id;
    memcpy(pub.ticket, sp.ticket, 32);
    memcpy(pub.seed, seed_v, 32);
    memcpy(pub.comm_d, cm->comm_d, 32);
    memcpy(pub.comm_r, cm->comm_r, 32);
    memcpy(pub.replica_id, cm->replica_id, 32);
    char *text;
    size_t tl;
    TRY(sector_public_format(&pub, &text, &tl));
    seed("fuzz_sector_json", "sector.json", text, tl);
    free(text);
    pub.sector_id = UINT64_MAX; /* written as a string */
    uint8_t porep_id[32];
    cuzk_seal_proof_porep_id(porep_id, pub.proof);
    cuzk_porep_replica_id(pub.replica_id, pub.prover_id, pub.sector_id, pub.ticket, pub.comm_d, porep_id);
    TRY(sector_public_format(&pub, &text, &tl));
    seed("fuzz_sector_json", "sector-max-id.json", text, tl);
    free(text);

    /* PoSt: Window and Winning blobs of the sector */
    uint8_t *replica = malloc(2048);
    cuzk_sealed_replica_nodes(s, 0, 64, replica);
    cuzk_post_replica rep;
    memset(&rep, 0, sizeof rep);
    rep.sector_id = sp.sector_id;
    memcpy(rep.comm_r, cm->comm_r, 32);
    rep.replica = replica;
    rep.replica_len = 2048;
    cuzk_sealed_p_aux(s, rep.p_aux);
    uint8_t rnd[32] = {0};
    for (int i = 0; i < 32; i++) rnd[i] = (uint8_t)(3 * i + 1);
    rnd[31] &= 0x3f;
    static const cuzk_post_proof kinds[2] = {CUZK_POST_WINDOW_2KIB_V1_1, CUZK_POST_WINNING_2KIB_V1};
    uint8_t *post_blob[2];
    size_t post_len[2];
    for (int k = 0; k < 2; k++) {
        TRY(cuzk_post_vanilla_prove(kinds[k], rnd, 0, &rep, 1, &post_blob[k], &post_len[k]));
        uint8_t t = (uint8_t)kinds[k];
        seed3("fuzz_post_blob", k ? "winning-2KiB" : "window-2KiB", &t, 1, rnd, 32, post_blob[k], post_len[k]);
    }

    /* SnapDeals: zeros encoded into the replica; partition 0 */
    uint8_t *zeros = calloc(1, 2048), p_aux[CUZK_P_AUX_BYTES];
    cuzk_sealed_p_aux(s, p_aux);
    cuzk_snap_encoded *enc;
    TRY(cuzk_snap_encode(&enc, CUZK_UPDATE_2KIB_V1, replica, zeros, p_aux, NULL));
    cuzk_snap_encoded_view v;
    cuzk_snap_encoded_get(enc, &v);
    uint8_t *snap_blob;
    size_t snap_len;
    TRY(cuzk_snap_partition_write(&v.proofs[0], &snap_blob, &snap_len));
    uint8_t comms[97];
    comms[0] = (uint8_t)CUZK_UPDATE_2KIB_V1;
    memcpy(comms + 1, v.comm_r_old, 32);
    memcpy(comms + 33, v.comm_r_new, 32);
    memcpy(comms + 65, v.comm_d_new, 32);
    seed3("fuzz_snap_blob", "2KiB", comms, sizeof comms, snap_blob, snap_len, NULL, 0);

    /* daemon requests carrying them */
    Cuzk__V1__SubmitProofRequest q = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    q.request_id = "fuzz-porep";
    q.proof_kind = (Cuzk__V1__ProofKind)CUZK_KIND_POREP;
    q.registered_proof = sp.proof;
    q.sector_size = 2048;
    q.sector_number = sp.sector_id;
    q.vanilla_proof.data = c1_json;
    q.vanilla_proof.len = c1_len;
    request_seed("porep", 0, &q);

    ProtobufCBinaryData blobs[2] = {{post_len[0], post_blob[0]}, {snap_len, snap_blob}};
    Cuzk__V1__SubmitProofRequest w = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    w.request_id = "fuzz-window";
    w.proof_kind = (Cuzk__V1__ProofKind)CUZK_KIND_WINDOW_POST;
    w.registered_proof = CUZK_POST_WINDOW_2KIB_V1_1;
    w.priority = (Cuzk__V1__Priority)3;
    w.randomness.data = rnd;
    w.randomness.len = 32;
    w.n_vanilla_proofs = 1;
    w.vanilla_proofs = &blobs[0];
    request_seed("window", 0, &w);
    request_seed("prove-window", 2, &w);

    Cuzk__V1__SubmitProofRequest u = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    u.proof_kind = (Cuzk__V1__ProofKind)CUZK_KIND_SNAP;
    u.registered_proof = CUZK_UPDATE_2KIB_V1;
    u.comm_r_old.data = (uint8_t *)v.comm_r_old;
    u.comm_r_old.len = 32;
    u.comm_r_new.data = (uint8_t *)v.comm_r_new;
    u.comm_r_new.len = 32;
    u.comm_d_new.data = (uint8_t *)v.comm_d_new;
    u.comm_d_new.len = 32;
    u.n_vanilla_proofs = 1;
    u.vanilla_proofs = &blobs[1];
    request_seed("snap", 0, &u);

    Cuzk__V1__SubmitProofRequest t = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
    t.request_id = "fuzz-test";
    t.proof_kind = (Cuzk__V1__ProofKind)100;
    t.vanilla_proof.data = (uint8_t *)"cubic";
    t.vanilla_proof.len = 5;
    t.partition_index = 2;
    request_seed("test-kind", 1, &t);

    free(snap_blob);
    cuzk_snap_encoded_free(enc);
    free(zeros);
    for (int k = 0; k < 2; k++) free(post_blob[k]);
    free(replica);
    free(c1_json);
    cuzk_c1_free(c1);
    cuzk_sealed_sector_free(s);
}

/* fuzz_http_route: method NUL path [NUL job], as the daemon's HTTP front is asked */
static void http_seeds(void)
{
    static const struct {
        const char *name;
        const char *bytes;
        size_t n;
    } S[] = {
        {"metrics", "GET\0/metrics", 12},
        {"status", "HEAD\0/status", 12},
        {"trace", "GET\0/trace\0job-1", 16},
        {"trace-no-job", "GET\0/trace", 10},
        {"trace-empty-job", "GET\0/trace\0", 11},
        {"trace-nul-in-job", "GET\0/trace\0a\0b", 14},
        {"trace-not-utf8", "GET\0/trace\0\xff\xfe", 13},
        {"status-job", "GET\0/status\0job-1", 17},
        {"status-empty-job", "GET\0/status\0", 12},
        {"post", "POST\0/metrics", 13},
        {"unknown-path", "GET\0/metrics/../status?x=\x01", 26},
    };
    for (size_t i = 0; i < sizeof S / sizeof S[0]; i++) seed("fuzz_http_route", S[i].name, S[i].bytes, S[i].n);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: fuzz_corpus_gen OUT\n");
        return 2;
    }
    out_dir = argv[1];
    if (mkdir(out_dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "fuzz_corpus_gen: cannot create %s: %s\n", out_dir, strerror(errno));
        return 1;
    }
    groth16_seeds();
    pce_seed("cubic", "cubic.pce");
    pce_seed("random-parts:2:12", "random-parts.pce");
    sector_seeds();
    /* the digest record: a line for fuzz_param_record's key among others, a stale one, noise */
    seed_text("fuzz_param_record", "record.txt",
              "0123456789abcdef0123456789abcdef 47 1700000000123456789 "
              "/var/tmp/filecoin-proof-parameters/v28-test.params\n"
              "fedcba9876543210fedcba9876543210 48 1 /var/tmp/filecoin-proof-parameters/v28-other.vk\n");
    seed_text("fuzz_param_record", "stale.txt",
              "0123456789abcdef0123456789abcdef 46 1700000000123456789 "
              "/var/tmp/filecoin-proof-parameters/v28-test.params\nnot a record line\n");
    http_seeds();
    status_seeds();
    /* the circuit names: each spelling, and one of neither */
    seed_text("fuzz_circuit_name", "id.txt", "porep-32g");
    seed_text("fuzz_circuit_name", "family.txt", "window-post:512MiB");
    seed_text("fuzz_circuit_name", "ni.txt", "ni-porep-64g");
    seed_text("fuzz_circuit_name", "neither.txt", "random:1024");
    return failures ? 1 : 0;
}

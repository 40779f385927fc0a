/* Thread pools as objects: every item of a loop runs once, nested loops run inline, a thread
 * with no pool runs loops alone, pools of several sizes start and stop, and two independent
 * prover contexts (a pool each, on two threads) prove at the same time and give the same
 * proofs as one after the other. */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "cuzk/groth16.h"
#include "harness.h"
#include "support_job.h"

typedef struct {
    atomic_int *hits;
    atomic_uint max_tid;
    int nested;
} loop_ctx;

static void count_items(void *vctx, size_t b, size_t e, unsigned tid)
{
    loop_ctx *c = vctx;
    unsigned m = atomic_load(&c->max_tid);
    while (tid > m && !atomic_compare_exchange_weak(&c->max_tid, &m, tid)) {}
    for (size_t i = b; i < e; i++) atomic_fetch_add(&c->hits[i], 1);
}

static void nested_loop(void *vctx, size_t b, size_t e, unsigned tid)
{
    loop_ctx *c = vctx;
    for (size_t i = b; i < e; i++) {
        loop_ctx inner = {c->hits + i * 16, 0, 0};
        cuzk_parallel_for(16, 1, count_items, &inner); /* inline on this worker */
        if (atomic_load(&inner.max_tid) != tid && tid != 0) c->nested = -1;
    }
}

static int all_once(atomic_int *hits, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (atomic_load(&hits[i]) != 1) return 0;
    return 1;
}

static void test_loops(void)
{
    enum { N = 10007 };
    static atomic_int hits[N * 16];
    cuzk_pool *saved = cuzk_pool_bind(NULL);
    /* no pool: the caller alone */
    CHECK(cuzk_threads() == 1);
    memset(hits, 0, sizeof hits);
    loop_ctx c = {hits, 0, 0};
    cuzk_parallel_for(N, 1, count_items, &c);
    CHECK(all_once(hits, N) && atomic_load(&c.max_tid) == 0);
    static const unsigned sizes[] = {1, 2, 3, 8};
    for (size_t k = 0; k < 4; k++) {
        cuzk_pool *p;
        CHECK_OK(cuzk_pool_create(&p, sizes[k]));
        CHECK(cuzk_pool_size(p) == sizes[k]);
        cuzk_pool_bind(p);
        CHECK(cuzk_threads() == sizes[k]);
        for (int rep = 0; rep < 20; rep++) {
            memset(hits, 0, sizeof hits);
            loop_ctx lc = {hits, 0, 0};
            cuzk_parallel_for(N, 7, count_items, &lc);
            CHECK(all_once(hits, N) && atomic_load(&lc.max_tid) < sizes[k]);
        }
        memset(hits, 0, sizeof hits);
        loop_ctx tc = {hits, 0, 0};
        cuzk_parallel_tasks(N, count_items, &tc);
        CHECK(all_once(hits, N));
        memset(hits, 0, sizeof hits);
        loop_ctx nc = {hits, 0, 0};
        cuzk_parallel_for(N, 1, nested_loop, &nc);
        CHECK(all_once(hits, (size_t)N * 16) && nc.nested == 0);
        CHECK(cuzk_pool_current() == p);
        cuzk_pool_destroy(p);
        CHECK(cuzk_pool_current() == NULL);
    }
    cuzk_pool_bind(saved);
}

/* ---------------------------------------------------------------- two prover contexts */
typedef struct {
    const char *circuit;
    uint64_t seed;
    unsigned threads;
    cuzk_groth16_proof proof;
    int verified;
    cuzk_status st;
} prover_ctx;

static void prove_once(prover_ctx *c)
{
    job j;
    job_open(&j, c->circuit, c->seed);
    cuzk_rng rng;
    cuzk_rng_seed(&rng, c->seed);
    cuzk_groth16_params p;
    c->st = cuzk_groth16_setup(&p, j.m, &rng, NULL);
    cuzk_fr r, s;
    cuzk_fr_from_u64(&r, c->seed * 3 + 1);
    cuzk_fr_from_u64(&s, c->seed * 5 + 2);
    if (!c->st) c->st = cuzk_groth16_prove(&c->proof, &p, &j.w, &r, &s, NULL);
    if (!c->st) c->verified = cuzk_groth16_verify(&p.vk, &c->proof, &j.input[1], p.vk.ic_len - 1) == CUZK_OK;
    if (!c->st) cuzk_groth16_params_free(&p);
    job_close(&j);
}

static void *prover_thread(void *arg)
{
    prover_ctx *c = arg;
    cuzk_pool *p;
    c->st = cuzk_pool_create(&p, c->threads);
    if (c->st) return NULL;
    cuzk_pool_bind(p);
    prove_once(c);
    cuzk_pool_destroy(p);
    return NULL;
}

static void test_two_contexts(void)
{
    prover_ctx seq[2];
    memset(seq, 0, sizeof seq);
    seq[0] = (prover_ctx){.circuit = "random:3000", .seed = 7, .threads = 2};
    seq[1] = (prover_ctx){.circuit = "sha256:64", .seed = 9, .threads = 2};
    prover_ctx par[2];
    memcpy(par, seq, sizeof par);
    for (int i = 0; i < 2; i++) prover_thread(&seq[i]); /* one after the other */
    pthread_t th[2];
    for (int i = 0; i < 2; i++) CHECK(pthread_create(&th[i], NULL, prover_thread, &par[i]) == 0);
    for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < 2; i++) {
        CHECK(seq[i].st == CUZK_OK && par[i].st == CUZK_OK);
        CHECK(seq[i].verified && par[i].verified);
        CHECK(proofs_same_bytes(&seq[i].proof, &par[i].proof));
    }
}

int main(void)
{
    test_loops();
    test_two_contexts();
    return harness_finish("pool");
}

/* The layout cache (include/cuzk/circuits.h): two shapes count at the same time, and one shape
 * counts once however many threads ask for it. The circuits here are defined in the test: a
 * shape's synthesis waits until the other shape's synthesis has started too, which a cache
 * counting under one global lock would never let happen. */
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "cuzk/circuits.h"
#include "harness.h"

static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cond = PTHREAD_COND_INITIALIZER;
static int started;      /* COUNT passes begun */
static int met;          /* a pass saw the other shape's pass running */
static int passes_of[2]; /* COUNT passes per shape */

/* One constraint x * x = x per unit of the shape (1 or 2): waits up to 10 s for the other
 * shape's pass to begin. */
static void gated_synthesize(const cuzk_circuit *c, cuzk_cs *cs, uint64_t seed)
{
    int shape = c->name[0] == 'b';
    pthread_mutex_lock(&gate_lock);
    passes_of[shape]++;
    started++;
    pthread_cond_broadcast(&gate_cond);
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 10;
    while (started < 2 && pthread_cond_timedwait(&gate_cond, &gate_lock, &deadline) == 0) {}
    if (started >= 2) met++;
    pthread_mutex_unlock(&gate_lock);
    for (int i = 0; i <= shape; i++) {
        cuzk_var x = cuzk_cs_alloc(cs, cs->values ? &CUZK_FR_ONE : NULL);
        cuzk_lc_add_one(cs, &cs->lc[0], x);
        cuzk_lc_add_one(cs, &cs->lc[1], x);
        cuzk_lc_add_one(cs, &cs->lc[2], x);
        cuzk_cs_enforce(cs, "square");
    }
}

static const cuzk_circuit_def GATED = {
    .prefix = "gated",
    .help = "gated  (test only)",
    .synthesize = gated_synthesize,
};

typedef struct {
    cuzk_circuit c;
    const cuzk_circuit_layout *layout;
    cuzk_status st;
} opener;

static void *open_layout(void *arg)
{
    opener *o = arg;
    o->st = cuzk_circuit_layout_get(&o->c, &o->layout);
    return NULL;
}

static void opener_init(opener *o, const char *shape)
{
    memset(o, 0, sizeof *o);
    snprintf(o->c.name, sizeof o->c.name, "%s", shape);
    snprintf(o->c.shape_key, sizeof o->c.shape_key, "%s", shape);
    o->c.def = &GATED;
}

int main(void)
{
    /* two shapes from two threads: both passes run at once */
    opener o[2];
    opener_init(&o[0], "a");
    opener_init(&o[1], "b");
    pthread_t t[2];
    for (int i = 0; i < 2; i++) CHECK(pthread_create(&t[i], NULL, open_layout, &o[i]) == 0);
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
    for (int i = 0; i < 2; i++) {
        CHECK_OK(o[i].st);
        CHECK(o[i].layout && o[i].layout->constraints == (size_t)i + 1 && o[i].layout->aux == (size_t)i + 1);
    }
    CHECK(met == 2); /* each pass saw the other one started */

    /* the same shape twice (a new shape, so the pass happens now): one pass, one layout */
    opener s[2];
    opener_init(&s[0], "b2");
    opener_init(&s[1], "b2");
    int before = passes_of[1];
    for (int i = 0; i < 2; i++) CHECK(pthread_create(&t[i], NULL, open_layout, &s[i]) == 0);
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
    CHECK_OK(s[0].st);
    CHECK_OK(s[1].st);
    CHECK(s[0].layout && s[0].layout == s[1].layout && s[0].layout->constraints == 2);
    CHECK(passes_of[1] == before + 1);
    /* and again from this thread: cached */
    const cuzk_circuit_layout *again;
    CHECK_OK(cuzk_circuit_layout_get(&o[0].c, &again));
    CHECK(again == o[0].layout);
    return harness_finish("test_circuit_layout");
}

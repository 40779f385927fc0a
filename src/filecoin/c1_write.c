/* serde_json::to_vec of SealCommitPhase1Output: compact (no whitespace), struct fields in
 * declaration order, byte arrays as arrays of decimal integers, PhantomData as null,
 * externally tagged enums as {"Variant":value}, integers in plain decimal. */
#include <stdlib.h>
#include <string.h>

#include "c1_internal.h"

typedef struct {
    uint8_t *buf;
    size_t len, cap;
    bool oom;
} wbuf;

static void wb_reserve(wbuf *w, size_t more)
{
    if (w->oom || w->len + more <= w->cap) return;
    size_t cap = w->cap ? w->cap : 4096;
    while (cap < w->len + more) cap *= 2;
    uint8_t *b = realloc(w->buf, cap);
    if (!b) {
        w->oom = true;
        return;
    }
    w->buf = b;
    w->cap = cap;
}

static void wb_put(wbuf *w, const char *s, size_t n)
{
    wb_reserve(w, n);
    if (w->oom) return;
    memcpy(w->buf + w->len, s, n);
    w->len += n;
}
#define PUTS(w, lit) wb_put(w, lit, sizeof(lit) - 1)

static void wb_u64(wbuf *w, uint64_t v)
{
    char tmp[24];
    int n = 0;
    do {
        tmp[sizeof tmp - 1 - n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    wb_put(w, tmp + sizeof tmp - n, (size_t)n);
}

/* [b0,b1,...,b31]: the hot path, ~1.8 million times for a 32 GiB C1 */
static void wb_node(wbuf *w, const uint8_t b[32])
{
    wb_reserve(w, 32 * 4 + 1);
    if (w->oom) return;
    char *o = (char *)w->buf + w->len, *s = o;
    *o++ = '[';
    for (int i = 0; i < 32; i++) {
        unsigned v = b[i];
        if (v >= 100) {
            *o++ = (char)('0' + v / 100);
            *o++ = (char)('0' + v / 10 % 10);
        } else if (v >= 10) {
            *o++ = (char)('0' + v / 10);
        }
        *o++ = (char)('0' + v % 10);
        *o++ = i < 31 ? ',' : ']';
    }
    w->len += (size_t)(o - s);
}

static const char *const KIND[3] = {"Single", "Sub", "Top"};

static void wb_path(wbuf *w, const cuzk_path_elem *e, uint32_t n)
{
    PUTS(w, "{\"path\":[");
    for (uint32_t l = 0; l < n; l++) {
        if (l) PUTS(w, ",");
        PUTS(w, "{\"hashes\":[");
        for (uint32_t h = 0; h < e[l].nhashes; h++) {
            if (h) PUTS(w, ",");
            wb_node(w, e[l].hashes[h].b);
        }
        PUTS(w, "],\"index\":");
        wb_u64(w, e[l].index);
        PUTS(w, "}");
    }
    PUTS(w, "]}");
}

static void wb_merkle(wbuf *w, const cuzk_merkle_proof *mp)
{
    PUTS(w, "{\"data\":{\"");
    wb_put(w, KIND[mp->kind], strlen(KIND[mp->kind]));
    PUTS(w, "\":{");
    if (mp->kind == CUZK_MERKLE_SINGLE) {
        PUTS(w, "\"root\":");
        wb_node(w, mp->root.b);
        PUTS(w, ",\"leaf\":");
        wb_node(w, mp->leaf.b);
        PUTS(w, ",\"path\":");
        wb_path(w, mp->path, mp->nbase);
    } else {
        PUTS(w, "\"base_proof\":");
        wb_path(w, mp->path, mp->nbase);
        PUTS(w, ",\"sub_proof\":");
        wb_path(w, mp->path + mp->nbase, mp->nsub);
        if (mp->kind == CUZK_MERKLE_TOP) {
            PUTS(w, ",\"top_proof\":");
            wb_path(w, mp->path + mp->nbase + mp->nsub, mp->ntop);
        }
        PUTS(w, ",\"root\":");
        wb_node(w, mp->root.b);
        PUTS(w, ",\"leaf\":");
        wb_node(w, mp->leaf.b);
    }
    PUTS(w, "}}}");
}

static void wb_column(wbuf *w, const cuzk_column_proof *c)
{
    PUTS(w, "{\"column\":{\"index\":");
    wb_u64(w, c->index);
    PUTS(w, ",\"rows\":[");
    for (uint32_t r = 0; r < c->nrows; r++) {
        if (r) PUTS(w, ",");
        wb_node(w, c->rows[r].b);
    }
    PUTS(w, "],\"_h\":null},\"inclusion_proof\":");
    wb_merkle(w, &c->inclusion);
    PUTS(w, "}");
}

static void wb_labeling(wbuf *w, const cuzk_labeling_proof *lp)
{
    PUTS(w, "{\"parents\":[");
    for (uint32_t i = 0; i < lp->nparents; i++) {
        if (i) PUTS(w, ",");
        wb_node(w, lp->parents[i].b);
    }
    PUTS(w, "],\"layer_index\":");
    wb_u64(w, lp->layer_index);
    PUTS(w, ",\"node\":");
    wb_u64(w, lp->node);
    PUTS(w, "}");
}

static void wb_challenge(wbuf *w, const cuzk_challenge_proof *cp)
{
    PUTS(w, "{\"comm_d_proofs\":");
    wb_merkle(w, &cp->comm_d_proof);
    PUTS(w, ",\"comm_r_last_proof\":");
    wb_merkle(w, &cp->comm_r_last_proof);
    PUTS(w, ",\"replica_column_proofs\":{\"c_x\":");
    wb_column(w, &cp->c_x);
    PUTS(w, ",\"drg_parents\":[");
    for (int i = 0; i < CUZK_POREP_DRG_PARENTS; i++) {
        if (i) PUTS(w, ",");
        wb_column(w, &cp->drg_parents[i]);
    }
    PUTS(w, "],\"exp_parents\":[");
    for (int i = 0; i < CUZK_POREP_EXP_PARENTS; i++) {
        if (i) PUTS(w, ",");
        wb_column(w, &cp->exp_parents[i]);
    }
    PUTS(w, "]},\"labeling_proofs\":[");
    for (uint32_t l = 0; l < cp->nlabeling; l++) {
        if (l) PUTS(w, ",");
        wb_labeling(w, &cp->labeling[l]);
    }
    PUTS(w, "],\"encoding_proof\":");
    wb_labeling(w, &cp->encoding);
    PUTS(w, "}");
}

cuzk_status cuzk_c1_write(const cuzk_c1 *c1, uint8_t **json, size_t *len)
{
    *json = NULL;
    *len = 0;
    const cuzk_seal_proof_info *pi = cuzk_seal_proof_info_get(c1->proof);
    if (!pi) return CUZK_EUNSUPPORTED;
    wbuf w = {0};
    /* a 32 GiB C1 is ~50 MB; start near the final size to avoid most reallocations */
    wb_reserve(&w, (size_t)c1->partitions * c1->challenges_per_partition * (pi->layers > 2 ? 260000 : 60000) + 4096);
    PUTS(&w, "{\"registered_proof\":\"");
    wb_put(&w, pi->name, strlen(pi->name));
    PUTS(&w, "\",\"vanilla_proofs\":{\"");
    wb_put(&w, pi->vanilla_name, strlen(pi->vanilla_name));
    PUTS(&w, "\":[");
    for (uint32_t k = 0; k < c1->partitions; k++) {
        if (k) PUTS(&w, ",");
        PUTS(&w, "[");
        for (uint32_t i = 0; i < c1->challenges_per_partition; i++) {
            if (i) PUTS(&w, ",");
            wb_challenge(&w, cuzk_c1_challenge(c1, k, i));
        }
        PUTS(&w, "]");
    }
    PUTS(&w, "]},\"comm_r\":");
    wb_node(&w, c1->comm_r);
    PUTS(&w, ",\"comm_d\":");
    wb_node(&w, c1->comm_d);
    PUTS(&w, ",\"replica_id\":");
    wb_node(&w, c1->replica_id);
    PUTS(&w, ",\"seed\":");
    wb_node(&w, c1->seed);
    PUTS(&w, ",\"ticket\":");
    wb_node(&w, c1->ticket);
    PUTS(&w, "}");
    if (w.oom) {
        free(w.buf);
        return cuzk_fail(CUZK_ENOMEM, "out of memory writing the C1 JSON");
    }
    *json = w.buf;
    *len = w.len;
    return CUZK_OK;
}

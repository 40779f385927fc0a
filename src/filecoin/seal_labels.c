/* SDR labeling (storage-proofs-porep stacked/vanilla/create_label/single.rs).
 *
 * label(layer, v) = Sha256(replica_id || layer u32 BE || v u64 BE || 20 zero bytes ||
 *                          37 parent labels) with the top two bits of byte 31 cleared; node 0
 * hashes only the first 64 bytes. Layer 1 parents are the 6 DRG parents on layer 1 (repeated);
 * later layers add the 8 expander parents from the previous layer.
 *
 * Within a layer, node v needs node v - 1 (its DRG predecessor), so labeling is sequential.
 * What is parallel is generating the parents (ChaCha8 for the DRG, 24+ Blake2b calls for the
 * Feistel expander): a chunk of nodes gets its parents on the pool, then is labeled in order. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/hash.h"
#include "seal_internal.h"

void seal_label_hash(cuzk_node *out, const uint8_t replica_id[32], unsigned layer, uint64_t v,
                     const cuzk_node parents[CUZK_POREP_LABEL_PARENTS])
{
    uint32_t st[8];
    memcpy(st, CUZK_SHA256_IV, sizeof st);
    uint8_t blk[64] = {0};
    memcpy(blk, replica_id, 32);
    for (int i = 0; i < 4; i++) blk[32 + i] = (uint8_t)(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; i++) blk[36 + i] = (uint8_t)(v >> (56 - 8 * i));
    cuzk_sha256_compress(st, blk);
    uint64_t bits;
    memset(blk, 0, sizeof blk);
    if (v == 0) {
        bits = 64 * 8;
        blk[0] = 0x80;
    } else {
        /* 36 parents fill 18 blocks; the 37th shares the padding block */
        const uint8_t *p = (const uint8_t *)parents;
        for (int i = 0; i < 18; i++) cuzk_sha256_compress(st, p + 64 * i);
        memcpy(blk, p + 64 * 18, 32);
        blk[32] = 0x80;
        bits = (64 + CUZK_POREP_LABEL_PARENTS * 32) * 8;
    }
    for (int i = 0; i < 8; i++) blk[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
    cuzk_sha256_compress(st, blk);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 4; j++) out->b[4 * i + j] = (uint8_t)(st[i] >> (24 - 8 * j));
    out->b[31] &= 0x3f;
}

void seal_label_expand(cuzk_node out[CUZK_POREP_LABEL_PARENTS], unsigned layer, const cuzk_node p[CUZK_POREP_PARENTS])
{
    const int n = layer == 1 ? CUZK_POREP_DRG_PARENTS : CUZK_POREP_PARENTS;
    for (int i = 0; i < CUZK_POREP_LABEL_PARENTS; i++) out[i] = p[i % n];
}

void seal_label_parents(cuzk_node out[CUZK_POREP_LABEL_PARENTS], const cuzk_node *labels, uint64_t nodes,
                        unsigned layer, const uint32_t drg[CUZK_POREP_DRG_PARENTS],
                        const uint32_t exp[CUZK_POREP_EXP_PARENTS])
{
    const cuzk_node *cur = labels + (size_t)(layer - 1) * nodes;
    cuzk_node p[CUZK_POREP_PARENTS];
    for (int i = 0; i < CUZK_POREP_DRG_PARENTS; i++) p[i] = cur[drg[i]];
    if (layer > 1) {
        const cuzk_node *prev = cur - nodes;
        for (int i = 0; i < CUZK_POREP_EXP_PARENTS; i++) p[CUZK_POREP_DRG_PARENTS + i] = prev[exp[i]];
    }
    seal_label_expand(out, layer, p);
}

#define CHUNK 8192

typedef struct {
    const cuzk_porep_graph *g;
    uint64_t first;
    bool exp;
    uint32_t (*parents)[CUZK_POREP_PARENTS];
} parents_ctx;

static void gen_parents(void *vctx, size_t begin, size_t end, unsigned tid)
{
    parents_ctx *c = vctx;
    for (size_t i = begin; i < end; i++) {
        uint32_t v = (uint32_t)(c->first + i);
        cuzk_porep_drg_parents(c->g, v, c->parents[i]);
        if (c->exp) cuzk_porep_exp_parents(c->g, v, c->parents[i] + CUZK_POREP_DRG_PARENTS);
    }
}

cuzk_status seal_labels(cuzk_node *labels, const cuzk_porep_graph *g, unsigned layers, const uint8_t replica_id[32],
                        cuzk_timeline *tl, cuzk_progress *progress)
{
    uint32_t(*parents)[CUZK_POREP_PARENTS] = cuzk_malloc(CHUNK * sizeof *parents);
    if (!parents) return CUZK_ENOMEM;
    const uint64_t n = g->nodes;
    for (unsigned layer = 1; layer <= layers; layer++) {
        int span = cuzk_span_begin(tl, layer == 1 ? "label layer 1" : "label layer");
        cuzk_node *cur = labels + (size_t)(layer - 1) * n;
        for (uint64_t first = 0; first < n; first += CHUNK) {
            uint64_t cnt = n - first < CHUNK ? n - first : CHUNK;
            parents_ctx pc = {.g = g, .first = first, .exp = layer > 1, .parents = parents};
            cuzk_parallel_for(cnt, 256, gen_parents, &pc);
            for (uint64_t i = 0; i < cnt; i++) {
                uint64_t v = first + i;
                if (v == 0) {
                    seal_label_hash(&cur[0], replica_id, layer, 0, NULL);
                    continue;
                }
                cuzk_node lp[CUZK_POREP_LABEL_PARENTS];
                seal_label_parents(lp, labels, n, layer, parents[i], parents[i] + CUZK_POREP_DRG_PARENTS);
                seal_label_hash(&cur[v], replica_id, layer, v, lp);
            }
            cuzk_progress_add(progress, cnt);
        }
        cuzk_span_end(tl, span);
    }
    free(parents);
    return CUZK_OK;
}

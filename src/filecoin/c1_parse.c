/* Strict parser for SealCommitPhase1Output JSON (rust-filecoin-proofs-api seal.rs; vanilla
 * types in storage-proofs-porep stacked/vanilla/{params,column,column_proof,labeling_proof,
 * encoding_proof}.rs and storage-proofs-core merkle/proof.rs).
 *
 * The shape of every Merkle proof is fixed by the sector size, which the VanillaSealProof
 * variant name gives ("StackedDrg32GiBV1" for every 32 GiB proof type), so shapes are checked
 * while reading. Counts that depend on the registered proof type (partitions, challenges) and
 * cross-field consistency are checked afterwards, because serde accepts the keys in any order. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "c1_internal.h"
#include "fil_json.h"

#define TRY(x)                          \
    do {                                \
        cuzk_status st_ = (x);          \
        if (st_ != CUZK_OK) return st_; \
    } while (0)

typedef struct {
    fj_reader r;
    cuzk_c1 *c1;
    const cuzk_seal_proof_info *shape; /* a registry entry of the variant's sector size */
    const char *vname;
    c1_tree_shape td, trc;
    cuzk_challenge_proof *list; /* malloc'd while the counts are unknown */
    size_t n, cap;
    uint32_t nparts, cpp;
} parser;

/* ---------------------------------------------------------------- object fields */
static cuzk_status next_field(parser *P, const char *const *names, int n, unsigned *seen, int *field)
{
    bool has;
    const char *k;
    size_t kl;
    TRY(fj_obj_next(&P->r, &has, &k, &kl));
    if (!has) {
        *field = -1;
        return CUZK_OK;
    }
    for (int i = 0; i < n; i++) {
        if (strlen(names[i]) == kl && memcmp(names[i], k, kl) == 0) {
            if (*seen & (1u << i)) return fj_error(&P->r, "duplicate field");
            *seen |= 1u << i;
            *field = i;
            return CUZK_OK;
        }
    }
    char list[256];
    size_t o = 0;
    for (int i = 0; i < n && o < sizeof list; i++)
        o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", i ? ", " : "", names[i]);
    return fj_error(&P->r, "unknown field (expected one of: %s)", list);
}

static cuzk_status check_fields(parser *P, const char *const *names, int n, unsigned seen)
{
    for (int i = 0; i < n; i++)
        if (!(seen & (1u << i))) return fj_error(&P->r, "missing field \"%s\"", names[i]);
    return CUZK_OK;
}

/* One step of a fixed-length array: *has is false at the end, which must come exactly at
 * `expected`. */
static cuzk_status arr_elem(parser *P, uint64_t i, uint64_t expected, const char *what, bool *has)
{
    TRY(fj_arr_next(&P->r, has));
    if (!*has) {
        if (i != expected)
            return fj_error(&P->r, "expected %llu %s, got %llu", (unsigned long long)expected, what,
                            (unsigned long long)i);
        return CUZK_OK;
    }
    if (i >= expected) return fj_too_many(&P->r, expected, what);
    return CUZK_OK;
}

static cuzk_status nodes_array(parser *P, cuzk_node *out, uint64_t count, const char *what)
{
    TRY(fj_arr_begin(&P->r));
    for (uint64_t i = 0;; i++) {
        bool has;
        TRY(arr_elem(P, i, count, what, &has));
        if (!has) return CUZK_OK;
        TRY(fj_node(&P->r, out[i].b, true));
        fj_pop(&P->r);
    }
}

/* ---------------------------------------------------------------- Merkle proofs */
static const char *const PATH_ELEM_F[] = {"hashes", "index"};

static cuzk_status inclusion_path(parser *P, cuzk_path_elem *elems, uint32_t count, uint32_t arity)
{
    static const char *const F[] = {"path"};
    unsigned seen = 0;
    int f;
    TRY(fj_obj_begin(&P->r));
    for (;;) {
        TRY(next_field(P, F, 1, &seen, &f));
        if (f < 0) break;
        TRY(fj_arr_begin(&P->r));
        for (uint64_t i = 0;; i++) {
            bool has;
            TRY(arr_elem(P, i, count, "path elements", &has));
            if (!has) break;
            unsigned seen2 = 0;
            int f2;
            TRY(fj_obj_begin(&P->r));
            for (;;) {
                TRY(next_field(P, PATH_ELEM_F, 2, &seen2, &f2));
                if (f2 < 0) break;
                if (f2 == 0) {
                    TRY(nodes_array(P, elems[i].hashes, arity - 1,
                                    arity == 2 ? "element (sibling hash)" : "elements (sibling hashes)"));
                } else {
                    uint64_t v;
                    TRY(fj_u64(&P->r, arity - 1, &v));
                    elems[i].index = (uint32_t)v;
                }
                fj_pop(&P->r);
            }
            TRY(check_fields(P, PATH_ELEM_F, 2, seen2));
            fj_pop(&P->r);
        }
        fj_pop(&P->r);
    }
    return check_fields(P, F, 1, seen);
}

static const char *const KIND_NAMES[3] = {"Single", "Sub", "Top"};

static cuzk_status merkle_proof(parser *P, cuzk_merkle_proof *mp, const c1_tree_shape *s)
{
    TRY(c1_alloc_merkle(P->c1->arena, mp, s));
    static const char *const F[] = {"data"};
    unsigned seen = 0;
    int f;
    TRY(fj_obj_begin(&P->r));
    for (;;) {
        TRY(next_field(P, F, 1, &seen, &f));
        if (f < 0) break;
        /* ProofData: externally tagged, exactly one key */
        TRY(fj_obj_begin(&P->r));
        bool has;
        const char *k;
        size_t kl;
        TRY(fj_obj_next(&P->r, &has, &k, &kl));
        if (!has) return fj_error(&P->r, "expected one of Single, Sub, Top, got an empty object");
        int kind = -1;
        for (int i = 0; i < 3; i++)
            if (strlen(KIND_NAMES[i]) == kl && memcmp(KIND_NAMES[i], k, kl) == 0) kind = i;
        if (kind < 0) return fj_error(&P->r, "unknown variant (expected Single, Sub or Top)");
        if (kind != (int)s->kind)
            return fj_error(&P->r, "expected %s for a %u-%u-%u tree, got %s", KIND_NAMES[s->kind], s->base_arity,
                            s->sub_arity, s->top_arity, KIND_NAMES[kind]);
        static const char *const SINGLE_F[] = {"root", "leaf", "path"};
        static const char *const SUB_F[] = {"base_proof", "sub_proof", "root", "leaf"};
        static const char *const TOP_F[] = {"base_proof", "sub_proof", "top_proof", "root", "leaf"};
        const char *const *vf = kind == 0 ? SINGLE_F : kind == 1 ? SUB_F : TOP_F;
        int nvf = kind == 0 ? 3 : kind == 1 ? 4 : 5;
        unsigned vseen = 0;
        int g;
        TRY(fj_obj_begin(&P->r));
        for (;;) {
            TRY(next_field(P, vf, nvf, &vseen, &g));
            if (g < 0) break;
            const char *name = vf[g];
            if (strcmp(name, "root") == 0) TRY(fj_node(&P->r, mp->root.b, true));
            else if (strcmp(name, "leaf") == 0) TRY(fj_node(&P->r, mp->leaf.b, true));
            else if (strcmp(name, "path") == 0 || strcmp(name, "base_proof") == 0)
                TRY(inclusion_path(P, mp->path, mp->nbase, s->base_arity));
            else if (strcmp(name, "sub_proof") == 0)
                TRY(inclusion_path(P, mp->path + mp->nbase, mp->nsub, s->sub_arity));
            else TRY(inclusion_path(P, mp->path + mp->nbase + mp->nsub, mp->ntop, s->top_arity));
            fj_pop(&P->r);
        }
        TRY(check_fields(P, vf, nvf, vseen));
        fj_pop(&P->r); /* the variant key */
        TRY(fj_obj_next(&P->r, &has, &k, &kl));
        if (has) return fj_error(&P->r, "a second variant key in an externally tagged enum");
        fj_pop(&P->r); /* "data" */
    }
    return check_fields(P, F, 1, seen);
}

/* ---------------------------------------------------------------- columns and labels */
static cuzk_status column_proof(parser *P, cuzk_column_proof *cp)
{
    static const char *const F[] = {"column", "inclusion_proof"};
    static const char *const COL_F[] = {"index", "rows", "_h"};
    unsigned layers = P->shape->layers;
    cp->nrows = layers;
    cp->rows = c1_arena_alloc(P->c1->arena, layers * sizeof(cuzk_node));
    if (!cp->rows) return CUZK_ENOMEM;
    unsigned seen = 0;
    int f;
    TRY(fj_obj_begin(&P->r));
    for (;;) {
        TRY(next_field(P, F, 2, &seen, &f));
        if (f < 0) break;
        if (f == 0) {
            unsigned cseen = 0;
            int g;
            TRY(fj_obj_begin(&P->r));
            for (;;) {
                TRY(next_field(P, COL_F, 3, &cseen, &g));
                if (g < 0) break;
                if (g == 0) {
                    uint64_t v;
                    TRY(fj_u64(&P->r, UINT32_MAX, &v));
                    cp->index = (uint32_t)v;
                } else if (g == 1) {
                    TRY(nodes_array(P, cp->rows, layers, "rows (one per layer)"));
                } else {
                    TRY(fj_null(&P->r)); /* PhantomData, serialized as unit */
                }
                fj_pop(&P->r);
            }
            TRY(check_fields(P, COL_F, 3, cseen));
        } else {
            TRY(merkle_proof(P, &cp->inclusion, &P->trc));
        }
        fj_pop(&P->r);
    }
    return check_fields(P, F, 2, seen);
}

static cuzk_status labeling_proof(parser *P, cuzk_labeling_proof *lp)
{
    static const char *const F[] = {"parents", "layer_index", "node"};
    lp->nparents = CUZK_POREP_LABEL_PARENTS;
    lp->parents = c1_arena_alloc(P->c1->arena, CUZK_POREP_LABEL_PARENTS * sizeof(cuzk_node));
    if (!lp->parents) return CUZK_ENOMEM;
    unsigned seen = 0;
    int f;
    TRY(fj_obj_begin(&P->r));
    for (;;) {
        TRY(next_field(P, F, 3, &seen, &f));
        if (f < 0) break;
        uint64_t v;
        if (f == 0) TRY(nodes_array(P, lp->parents, CUZK_POREP_LABEL_PARENTS, "parents"));
        else if (f == 1) {
            TRY(fj_u64(&P->r, UINT32_MAX, &v));
            lp->layer_index = (uint32_t)v;
        } else {
            TRY(fj_u64(&P->r, UINT64_MAX, &v));
            lp->node = v;
        }
        fj_pop(&P->r);
    }
    return check_fields(P, F, 3, seen);
}

static cuzk_status column_array(parser *P, cuzk_column_proof *cols, uint64_t count, const char *what)
{
    TRY(fj_arr_begin(&P->r));
    for (uint64_t i = 0;; i++) {
        bool has;
        TRY(arr_elem(P, i, count, what, &has));
        if (!has) return CUZK_OK;
        TRY(column_proof(P, &cols[i]));
        fj_pop(&P->r);
    }
}

static cuzk_status challenge_proof(parser *P, cuzk_challenge_proof *cp)
{
    static const char *const F[] = {"comm_d_proofs", "comm_r_last_proof", "replica_column_proofs", "labeling_proofs",
                                    "encoding_proof"};
    static const char *const RCP_F[] = {"c_x", "drg_parents", "exp_parents"};
    unsigned layers = P->shape->layers;
    unsigned seen = 0;
    int f;
    TRY(fj_obj_begin(&P->r));
    for (;;) {
        TRY(next_field(P, F, 5, &seen, &f));
        if (f < 0) break;
        switch (f) {
        case 0: TRY(merkle_proof(P, &cp->comm_d_proof, &P->td)); break;
        case 1: TRY(merkle_proof(P, &cp->comm_r_last_proof, &P->trc)); break;
        case 2: {
            unsigned rseen = 0;
            int g;
            TRY(fj_obj_begin(&P->r));
            for (;;) {
                TRY(next_field(P, RCP_F, 3, &rseen, &g));
                if (g < 0) break;
                if (g == 0) TRY(column_proof(P, &cp->c_x));
                else if (g == 1) TRY(column_array(P, cp->drg_parents, CUZK_POREP_DRG_PARENTS, "DRG parent columns"));
                else TRY(column_array(P, cp->exp_parents, CUZK_POREP_EXP_PARENTS, "expander parent columns"));
                fj_pop(&P->r);
            }
            TRY(check_fields(P, RCP_F, 3, rseen));
            break;
        }
        case 3: {
            cp->nlabeling = layers;
            cp->labeling = c1_arena_alloc(P->c1->arena, layers * sizeof(cuzk_labeling_proof));
            if (!cp->labeling) return CUZK_ENOMEM;
            TRY(fj_arr_begin(&P->r));
            for (uint64_t i = 0;; i++) {
                bool has;
                TRY(arr_elem(P, i, layers, "labeling proofs (one per layer)", &has));
                if (!has) break;
                TRY(labeling_proof(P, &cp->labeling[i]));
                fj_pop(&P->r);
            }
            break;
        }
        default: TRY(labeling_proof(P, &cp->encoding)); break;
        }
        fj_pop(&P->r);
    }
    return check_fields(P, F, 5, seen);
}

/* ---------------------------------------------------------------- vanilla proofs */
static cuzk_status push_proof(parser *P, cuzk_challenge_proof **out)
{
    if (P->n == P->cap) {
        size_t cap = P->cap ? P->cap * 2 : 32;
        cuzk_challenge_proof *l = realloc(P->list, cap * sizeof *l);
        if (!l) return cuzk_fail(CUZK_ENOMEM, "out of memory reading vanilla proofs");
        P->list = l;
        P->cap = cap;
    }
    *out = &P->list[P->n++];
    memset(*out, 0, sizeof **out);
    return CUZK_OK;
}

static cuzk_status vanilla_proofs(parser *P)
{
    TRY(fj_obj_begin(&P->r));
    bool has;
    const char *k;
    size_t kl;
    TRY(fj_obj_next(&P->r, &has, &k, &kl));
    if (!has) return fj_error(&P->r, "expected a VanillaSealProof variant, got an empty object");
    /* the variant names the sector size; the V1 registry entry of that size gives the shape */
    for (int i = 0; i < 5; i++) {
        const cuzk_seal_proof_info *pi = cuzk_seal_proof_info_get((cuzk_seal_proof)i);
        if (strlen(pi->vanilla_name) == kl && memcmp(pi->vanilla_name, k, kl) == 0) P->shape = pi;
    }
    if (!P->shape)
        return fj_error(&P->r,
                        "unknown VanillaSealProof variant (expected StackedDrg2KiBV1, StackedDrg8MiBV1, "
                        "StackedDrg512MiBV1, StackedDrg32GiBV1 or StackedDrg64GiBV1)");
    P->vname = P->shape->vanilla_name;
    c1_shape_tree_d(&P->td, P->shape);
    c1_shape_tree_rc(&P->trc, P->shape);

    TRY(fj_arr_begin(&P->r));
    for (uint32_t part = 0;; part++) {
        TRY(fj_arr_next(&P->r, &has));
        if (!has) break;
        if (part >= 65536) return fj_error(&P->r, "too many partitions");
        TRY(fj_arr_begin(&P->r));
        uint32_t i = 0;
        for (;; i++) {
            TRY(fj_arr_next(&P->r, &has));
            if (!has) break;
            if (i >= 1024) return fj_error(&P->r, "too many challenges in one partition");
            cuzk_challenge_proof *cp = NULL;
            TRY(push_proof(P, &cp));
            TRY(challenge_proof(P, cp));
            fj_pop(&P->r);
        }
        if (i == 0) return fj_error(&P->r, "partition has no vanilla proofs");
        if (part == 0) P->cpp = i;
        else if (i != P->cpp)
            return fj_error(&P->r, "partition has %u challenge proofs, partition 0 has %u", i, P->cpp);
        P->nparts = part + 1;
        fj_pop(&P->r);
    }
    if (P->nparts == 0) return fj_error(&P->r, "no partitions");
    fj_pop(&P->r);
    TRY(fj_obj_next(&P->r, &has, &k, &kl));
    if (has) return fj_error(&P->r, "a second variant key in VanillaSealProof");
    return CUZK_OK;
}

/* ---------------------------------------------------------------- cross checks */
static bool is_zero(const uint8_t b[32])
{
    for (int i = 0; i < 32; i++)
        if (b[i]) return false;
    return true;
}

static cuzk_status bad(const parser *P, uint32_t k, uint32_t i, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static cuzk_status bad(const parser *P, uint32_t k, uint32_t i, const char *where, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cuzk_fail(CUZK_EFORMAT, "vanilla_proofs.%s[%u][%u].%s: %s", P->vname, k, i, where, msg);
}

static cuzk_status cross_check(parser *P)
{
    cuzk_c1 *c1 = P->c1;
    const cuzk_seal_proof_info *pi = c1->info;
    if (strcmp(pi->vanilla_name, P->vname) != 0)
        return cuzk_fail(CUZK_EFORMAT, "vanilla_proofs: variant %s does not match registered_proof %s (expects %s)",
                         P->vname, pi->name, pi->vanilla_name);
    if (P->nparts != pi->partitions)
        return cuzk_fail(CUZK_EFORMAT, "vanilla_proofs.%s: expected %u partitions for %s, got %u", P->vname,
                         pi->partitions, pi->name, P->nparts);
    if (P->cpp != pi->challenges_per_partition)
        return cuzk_fail(CUZK_EFORMAT,
                         "vanilla_proofs.%s[0]: expected %u challenge proofs per partition for %s, got %u", P->vname,
                         pi->challenges_per_partition, pi->name, P->cpp);
    if (is_zero(c1->comm_d)) return cuzk_fail(CUZK_EFORMAT, "comm_d: all-zero commitment");
    if (is_zero(c1->comm_r)) return cuzk_fail(CUZK_EFORMAT, "comm_r: all-zero commitment");
    if (is_zero(c1->seed)) return cuzk_fail(CUZK_EFORMAT, "seed: all-zero porep challenge seed");

    const char *K = KIND_NAMES[P->trc.kind];
    const cuzk_node *r_last = &c1->proofs[0].comm_r_last_proof.root, *comm_c = &c1->proofs[0].c_x.inclusion.root;
    char where[96];
    for (uint32_t k = 0; k < c1->partitions; k++) {
        for (uint32_t i = 0; i < c1->challenges_per_partition; i++) {
            const cuzk_challenge_proof *cp = cuzk_c1_challenge(c1, k, i);
            uint64_t ch = cp->labeling[0].node;
            if (ch == 0 || ch >= pi->nodes)
                return bad(P, k, i, "labeling_proofs[0].node", "challenge %llu outside [1, %llu)",
                           (unsigned long long)ch, (unsigned long long)pi->nodes);
            for (uint32_t l = 0; l < cp->nlabeling; l++) {
                snprintf(where, sizeof where, "labeling_proofs[%u]", l);
                if (cp->labeling[l].layer_index != l + 1)
                    return bad(P, k, i, where, "layer_index %u, expected %u", cp->labeling[l].layer_index, l + 1);
                if (cp->labeling[l].node != ch)
                    return bad(P, k, i, where, "node %llu differs from the challenge %llu",
                               (unsigned long long)cp->labeling[l].node, (unsigned long long)ch);
            }
            if (cp->encoding.layer_index != pi->layers || cp->encoding.node != ch)
                return bad(P, k, i, "encoding_proof", "layer %u node %llu, expected layer %u node %llu",
                           cp->encoding.layer_index, (unsigned long long)cp->encoding.node, pi->layers,
                           (unsigned long long)ch);
            if (memcmp(cp->comm_d_proof.root.b, c1->comm_d, 32) != 0)
                return bad(P, k, i, "comm_d_proofs.data.Single.root", "differs from comm_d");
            uint64_t idx = c1_merkle_index(&cp->comm_d_proof, &P->td);
            if (idx != ch)
                return bad(P, k, i, "comm_d_proofs.data.Single", "path proves node %llu, the challenge is %llu",
                           (unsigned long long)idx, (unsigned long long)ch);
            snprintf(where, sizeof where, "comm_r_last_proof.data.%s.root", K);
            if (memcmp(cp->comm_r_last_proof.root.b, r_last->b, 32) != 0)
                return bad(P, k, i, where, "differs from the tree R root of the first challenge");
            idx = c1_merkle_index(&cp->comm_r_last_proof, &P->trc);
            if (idx != ch)
                return bad(P, k, i, "comm_r_last_proof", "path proves node %llu, the challenge is %llu",
                           (unsigned long long)idx, (unsigned long long)ch);
            for (int c = 0; c < 1 + CUZK_POREP_PARENTS; c++) {
                const cuzk_column_proof *col = c == 0 ? &cp->c_x
                    : c <= CUZK_POREP_DRG_PARENTS     ? &cp->drg_parents[c - 1]
                                                      : &cp->exp_parents[c - 1 - CUZK_POREP_DRG_PARENTS];
                if (c == 0) snprintf(where, sizeof where, "replica_column_proofs.c_x");
                else if (c <= CUZK_POREP_DRG_PARENTS)
                    snprintf(where, sizeof where, "replica_column_proofs.drg_parents[%d]", c - 1);
                else
                    snprintf(where, sizeof where, "replica_column_proofs.exp_parents[%d]",
                             c - 1 - CUZK_POREP_DRG_PARENTS);
                if (col->index >= pi->nodes)
                    return bad(P, k, i, where, "column index %u outside the sector", col->index);
                if (c == 0 && col->index != ch)
                    return bad(P, k, i, where, "column index %u differs from the challenge %llu", col->index,
                               (unsigned long long)ch);
                idx = c1_merkle_index(&col->inclusion, &P->trc);
                if (idx != col->index)
                    return bad(P, k, i, where, "inclusion path proves node %llu, the column is %u",
                               (unsigned long long)idx, col->index);
                if (memcmp(col->inclusion.root.b, comm_c->b, 32) != 0)
                    return bad(P, k, i, where, "tree C root differs from the first challenge's c_x root");
            }
        }
    }
    return CUZK_OK;
}

/* ---------------------------------------------------------------- top level */
static cuzk_status parse_top(parser *P)
{
    static const char *const F[] = {"registered_proof", "vanilla_proofs", "comm_r", "comm_d",
                                    "replica_id",       "seed",           "ticket"};
    cuzk_c1 *c1 = P->c1;
    unsigned seen = 0;
    int f;
    TRY(fj_obj_begin(&P->r));
    for (;;) {
        TRY(next_field(P, F, 7, &seen, &f));
        if (f < 0) break;
        switch (f) {
        case 0: {
            const uint8_t *s;
            size_t n;
            bool esc;
            char buf[128];
            TRY(fj_string_raw(&P->r, &s, &n, &esc));
            if (esc) {
                TRY(fj_unescape(&P->r, s, n, buf, sizeof buf, &n));
                s = (const uint8_t *)buf;
            }
            if (cuzk_seal_proof_from_name(&c1->proof, (const char *)s, n) != CUZK_OK)
                return fj_error(&P->r, "%s", cuzk_last_error());
            c1->info = cuzk_seal_proof_info_get(c1->proof);
            break;
        }
        case 1: TRY(vanilla_proofs(P)); break;
        case 2: TRY(fj_node(&P->r, c1->comm_r, true)); break;
        case 3: TRY(fj_node(&P->r, c1->comm_d, true)); break;
        case 4: TRY(fj_node(&P->r, c1->replica_id, true)); break;
        case 5: TRY(fj_node(&P->r, c1->seed, false)); break;
        default: TRY(fj_node(&P->r, c1->ticket, false)); break;
        }
        fj_pop(&P->r);
    }
    TRY(check_fields(P, F, 7, seen));
    TRY(fj_end(&P->r));
    /* the proofs move into the arena now that their number is known */
    TRY(c1_alloc_proofs(c1, P->nparts, P->cpp));
    memcpy(c1->proofs, P->list, P->n * sizeof *P->list);
    return cross_check(P);
}

cuzk_status cuzk_c1_parse(cuzk_c1 **out, const uint8_t *json, size_t len)
{
    *out = NULL;
    parser P;
    memset(&P, 0, sizeof P);
    fj_init(&P.r, json, len);
    P.c1 = c1_create();
    if (!P.c1) return CUZK_ENOMEM;
    cuzk_status st = parse_top(&P);
    free(P.list);
    if (st != CUZK_OK) {
        cuzk_c1_free(P.c1);
        return st;
    }
    *out = P.c1;
    return CUZK_OK;
}

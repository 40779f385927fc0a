/* Insertion permutation (storage-proofs-core gadgets/insertion.rs): each output position is
 * chosen by a short chain of picks that shares the index bits' redundancy. The pick tables
 * below list upstream's picks in upstream's order; the order fixes the aux numbering. */
#include "cuzk/gadgets/insertion.h"

cuzk_num cuzk_pick(cuzk_cs *cs, cuzk_bool cond, cuzk_num a, cuzk_num b)
{
    const cuzk_fr *v = NULL;
    if (cs->values) v = cuzk_bool_value(cond) ? &a.value : &b.value;
    cuzk_cs_push(cs, "pick result");
    cuzk_num c = cuzk_num_alloc(cs, v);
    cuzk_cs_pop(cs);
    /* (b - a) * cond = b - c: c = a when cond, else b */
    cuzk_lc_add_one(cs, &cs->lc[0], b.var);
    cuzk_lc_sub_one(cs, &cs->lc[0], a.var);
    cuzk_bool_add_to_lc(cs, &cs->lc[1], cond, &CUZK_FR_ONE);
    cuzk_lc_add_one(cs, &cs->lc[2], b.var);
    cuzk_lc_sub_one(cs, &cs->lc[2], c.var);
    cuzk_cs_enforce(cs, "pick");
    return c;
}

/* One pick of a table: result <- cond ? slot[a] : slot[b]. Slots 0..size-1 hold the element
 * and the siblings (upstream's a, b, c, ...), later slots the earlier picks' results. */
typedef struct {
    const char *name;
    unsigned char cond, a, b;
} pick_step;

/* Conditions: index bits 0..2, then the derived b0 nor b1 (3) and b0 and b1 (4). */
enum { B0, B1, B2, NOR, AND };
/* Slots: A = element, S_B.. = siblings 0.., then pick results from S_P. */
enum { A, S_B, S_C, S_D, S_E, S_F, S_G, S_H };

static const pick_step INSERT_2[] = {
    {"binary insert 0", B0, S_B, A}, /* 2 */
    {"binary insert 1", B0, A, S_B}, /* 3 */
};
static const unsigned char INSERT_2_OUT[] = {2, 3};

static const pick_step INSERT_4[] = {
    {"p0_x0", B0, S_B, A}, /* 4 */
    {"p0", B1, S_B, 4},    /* 5 */
    {"p1_x0", B0, A, S_B}, /* 6 */
    {"p1", B1, S_C, 6},    /* 7 */
    {"p2_x1", B0, S_D, A}, /* 8 */
    {"p2", B1, 8, S_C},    /* 9 */
    {"p3_x1", B0, A, S_D}, /* 10 */
    {"p3", B1, 10, S_D},   /* 11 */
};
static const unsigned char INSERT_4_OUT[] = {5, 7, 9, 11};

static const pick_step INSERT_8[] = {
    {"p0_xx0", NOR, A, S_B}, /* 8 */
    {"p0", B2, S_B, 8},      /* 9 */
    {"p1_x00", B0, A, S_B},  /* 10 */
    {"p1_xx0", B1, S_C, 10}, /* 11 */
    {"p1", B2, S_C, 11},     /* 12 */
    {"p2_x10", B0, S_D, A},  /* 13 */
    {"p2_xx0", B1, 13, S_C}, /* 14 */
    {"p2", B2, S_D, 14},     /* 15 */
    {"p3_xx0", AND, A, S_D}, /* 16 */
    {"p3", B2, S_E, 16},     /* 17 */
    {"p4_xx1", NOR, A, S_F}, /* 18 */
    {"p4", B2, 18, S_E},     /* 19 */
    {"p5_x01", B0, A, S_F},  /* 20 */
    {"p5_xx1", B1, S_G, 20}, /* 21 */
    {"p5", B2, 21, S_F},     /* 22 */
    {"p6_x11", B0, S_H, A},  /* 23 */
    {"p6_xx1", B1, 23, S_G}, /* 24 */
    {"p6", B2, 24, S_G},     /* 25 */
    {"p7_xx1", AND, A, S_H}, /* 26 */
    {"p7", B2, 26, S_H},     /* 27 */
};
static const unsigned char INSERT_8_OUT[] = {9, 12, 15, 17, 19, 22, 25, 27};

#define NSTEPS(t) (sizeof(t) / sizeof((t)[0]))

void cuzk_insert(cuzk_cs *cs, cuzk_num element, const cuzk_bool *bits, unsigned k, const cuzk_num *elements,
                 cuzk_num *out)
{
    const pick_step *steps;
    const unsigned char *outs;
    size_t nsteps;
    switch (k) {
    case 1: steps = INSERT_2, nsteps = NSTEPS(INSERT_2), outs = INSERT_2_OUT; break;
    case 2: steps = INSERT_4, nsteps = NSTEPS(INSERT_4), outs = INSERT_4_OUT; break;
    case 3: steps = INSERT_8, nsteps = NSTEPS(INSERT_8), outs = INSERT_8_OUT; break;
    default:
        cuzk_cs_fail(cs, cuzk_fail(CUZK_EINVAL, "insert: %u index bits; only sizes 2, 4 and 8 are supported", k));
        return;
    }
    const unsigned size = 1u << k;
    cuzk_bool cond[5];
    for (unsigned i = 0; i < k; i++) cond[i] = bits[i];
    if (k == 3) {
        /* insert_8 derives b0 nor b1 and b0 and b1 as allocated bits, first nor, then and. */
        if (bits[0].kind != CUZK_BOOL_IS || bits[1].kind != CUZK_BOOL_IS) {
            cuzk_cs_fail(cs, cuzk_fail(CUZK_EINVAL, "insert_8: index bits must be allocated and unnegated"));
            return;
        }
        cuzk_cs_push(cs, "b0 nor b1");
        cond[NOR] = cuzk_bool_is(cuzk_abit_nor(cs, bits[0].bit, bits[1].bit));
        cuzk_cs_pop(cs);
        cuzk_cs_push(cs, "b0 and b1");
        cond[AND] = cuzk_bool_is(cuzk_abit_and(cs, bits[0].bit, bits[1].bit));
        cuzk_cs_pop(cs);
    }
    cuzk_num slot[8 + NSTEPS(INSERT_8)];
    slot[A] = element;
    for (unsigned i = 1; i < size; i++) slot[i] = elements[i - 1];
    for (size_t s = 0; s < nsteps; s++) {
        const pick_step *p = &steps[s];
        cuzk_cs_push(cs, "%s", p->name);
        slot[size + s] = cuzk_pick(cs, cond[p->cond], slot[p->a], slot[p->b]);
        cuzk_cs_pop(cs);
    }
    for (unsigned i = 0; i < size; i++) out[i] = slot[outs[i]];
}

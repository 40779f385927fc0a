/* Linear combinations: sorted, merged terms in reusable storage. Terms almost always arrive
 * in increasing variable order (new variables have larger indices), so the common case is an
 * append; otherwise a binary search finds the term to merge or the place to insert. */
#include <stdlib.h>
#include <string.h>

#include "cuzk/cs.h"

void cuzk_lc_init(cuzk_lc *lc) { memset(lc, 0, sizeof *lc); }

void cuzk_lc_free(cuzk_lc *lc)
{
    free(lc->t);
    memset(lc, 0, sizeof *lc);
}

static int lc_reserve(cuzk_cs *cs, cuzk_lc *lc, uint32_t need)
{
    if (need <= lc->cap) return 0;
    uint32_t cap = lc->cap ? lc->cap : 8;
    while (cap < need) cap *= 2;
    cuzk_term *t = realloc(lc->t, (size_t)cap * sizeof *t);
    if (!t) {
        cuzk_cs_fail(cs, cuzk_fail(CUZK_ENOMEM, "out of memory building a linear combination"));
        return -1;
    }
    lc->t = t;
    lc->cap = cap;
    return 0;
}

void cuzk_lc_add_slow(cuzk_cs *cs, cuzk_lc *lc, cuzk_var v, const cuzk_fr *coeff)
{
    uint32_t n = lc->n;
    if (n == 0 || lc->t[n - 1].var < v) { /* append */
        if (lc_reserve(cs, lc, n + 1)) return;
        lc->t[n].var = v;
        lc->t[n].coeff = *coeff;
        lc->n = n + 1;
        return;
    }
    uint32_t lo = 0, hi = n; /* first term with var >= v */
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (lc->t[mid].var < v) lo = mid + 1;
        else hi = mid;
    }
    if (lc->t[lo].var == v) {
        cuzk_fr_add(&lc->t[lo].coeff, &lc->t[lo].coeff, coeff);
        return;
    }
    if (lc_reserve(cs, lc, n + 1)) return;
    memmove(&lc->t[lo + 1], &lc->t[lo], (size_t)(n - lo) * sizeof *lc->t);
    lc->t[lo].var = v;
    lc->t[lo].coeff = *coeff;
    lc->n = n + 1;
}

static cuzk_fr minus_one(void)
{
    cuzk_fr m;
    cuzk_fr_neg(&m, &CUZK_FR_ONE);
    return m;
}

void cuzk_lc_add_one(cuzk_cs *cs, cuzk_lc *lc, cuzk_var v) { cuzk_lc_add(cs, lc, v, &CUZK_FR_ONE); }

void cuzk_lc_sub_one(cuzk_cs *cs, cuzk_lc *lc, cuzk_var v)
{
    if (!cs->keep_lcs) return;
    cuzk_fr m = minus_one();
    cuzk_lc_add_slow(cs, lc, v, &m);
}

void cuzk_lc_add_lc(cuzk_cs *cs, cuzk_lc *dst, const cuzk_lc *src, const cuzk_fr *coeff)
{
    if (!cs->keep_lcs) return;
    for (uint32_t i = 0; i < src->n; i++) {
        if (coeff) {
            cuzk_fr c;
            cuzk_fr_mul(&c, &src->t[i].coeff, coeff);
            cuzk_lc_add_slow(cs, dst, src->t[i].var, &c);
        } else {
            cuzk_lc_add_slow(cs, dst, src->t[i].var, &src->t[i].coeff);
        }
    }
}

void cuzk_lc_eval(const cuzk_cs *cs, const cuzk_lc *lc, cuzk_fr *out)
{
    cuzk_fr acc = CUZK_FR_ZERO, t;
    for (uint32_t i = 0; i < lc->n; i++) {
        cuzk_fr_mul(&t, &lc->t[i].coeff, cuzk_cs_value(cs, lc->t[i].var));
        cuzk_fr_add(&acc, &acc, &t);
    }
    *out = acc;
}

/* Distinct coefficients with an open-addressing index kept at most half full. */
#include "coeff_table.h"

#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

static size_t slot_of(const coeff_table *t, const cuzk_fr *v) { return (size_t)XXH3_64bits(v, sizeof *v) & t->mask; }

cuzk_status coeff_table_init(coeff_table *t)
{
    memset(t, 0, sizeof *t);
    t->cap = 64;
    t->values = malloc(t->cap * sizeof *t->values);
    t->slots = calloc(256, sizeof *t->slots);
    t->mask = 255;
    if (!t->values || !t->slots) {
        coeff_table_free(t);
        return cuzk_fail(CUZK_ENOMEM, "out of memory");
    }
    cuzk_fr minus_one;
    cuzk_fr_neg(&minus_one, &CUZK_FR_ONE);
    uint32_t i;
    cuzk_status st = coeff_table_add(t, &CUZK_FR_ONE, &i);
    if (!st) st = coeff_table_add(t, &minus_one, &i);
    return st;
}

static cuzk_status grow_index(coeff_table *t)
{
    size_t nsize = (t->mask + 1) * 2;
    uint32_t *s = calloc(nsize, sizeof *s);
    if (!s) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    uint32_t *old = t->slots;
    size_t old_size = t->mask + 1;
    t->slots = s;
    t->mask = nsize - 1;
    for (size_t i = 0; i < old_size; i++)
        if (old[i]) {
            size_t j = slot_of(t, &t->values[old[i] - 1]);
            while (s[j]) j = (j + 1) & t->mask;
            s[j] = old[i];
        }
    free(old);
    return CUZK_OK;
}

cuzk_status coeff_table_add(coeff_table *t, const cuzk_fr *v, uint32_t *idx)
{
    size_t h = slot_of(t, v);
    while (t->slots[h]) {
        if (cuzk_fr_eq(&t->values[t->slots[h] - 1], v)) {
            *idx = t->slots[h] - 1;
            return CUZK_OK;
        }
        h = (h + 1) & t->mask;
    }
    if (t->n >= UINT32_MAX - 1) return cuzk_fail(CUZK_EUNSUPPORTED, "too many distinct coefficients");
    if (t->n == t->cap) {
        cuzk_fr *nv = realloc(t->values, t->cap * 2 * sizeof *nv);
        if (!nv) return cuzk_fail(CUZK_ENOMEM, "out of memory");
        t->values = nv;
        t->cap *= 2;
    }
    if (2 * (t->n + 1) > t->mask + 1) {
        cuzk_status st = grow_index(t);
        if (st) return st;
        h = slot_of(t, v);
        while (t->slots[h]) h = (h + 1) & t->mask;
    }
    t->values[t->n] = *v;
    t->slots[h] = (uint32_t)(t->n + 1);
    *idx = (uint32_t)t->n++;
    return CUZK_OK;
}

void coeff_table_free(coeff_table *t)
{
    free(t->values);
    free(t->slots);
    memset(t, 0, sizeof *t);
}

/* The registry of named circuits (include/cuzk/testcircuits.h): every family of this module,
 * and the PoRep partition circuits of the filecoin layer, opened by name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "cuzk/filecoin.h"
#include "cuzk/filecoin_circuit.h"
#include "cuzk/filecoin_post.h"
#include "cuzk/filecoin_snap.h"

static const cuzk_circuit_def *const FAMILIES[] = {
    &cuzk_circuit_cubic,
    &cuzk_circuit_random,
    &cuzk_circuit_random_parts,
    &cuzk_circuit_parts,
    &cuzk_circuit_porep,
    &cuzk_circuit_porep_test,
    &cuzk_circuit_sha256_compress,
    &cuzk_circuit_sha256_bytes,
    &cuzk_circuit_poseidon,
    &cuzk_circuit_por,
    &cuzk_circuit_por_private,
    &cuzk_circuit_window_post,
    &cuzk_circuit_winning_post,
    &cuzk_circuit_post_test,
    &cuzk_circuit_snap,
    &cuzk_circuit_snap_test,
};
#define NFAMILIES (sizeof FAMILIES / sizeof FAMILIES[0])

const char *cuzk_circuit_names(void)
{
    static char buf[4096];
    if (!buf[0]) {
        size_t o = 0;
        for (size_t i = 0; i < NFAMILIES && o < sizeof buf; i++)
            o += (size_t)snprintf(buf + o, sizeof buf - o, "  %s\n", FAMILIES[i]->help);
    }
    return buf;
}

const char *cuzk_circuit_example(size_t i) { return i < NFAMILIES ? FAMILIES[i]->example : NULL; }
size_t cuzk_circuit_family_count(void) { return NFAMILIES; }

cuzk_status cuzk_circuit_open(cuzk_circuit **out, const char *name)
{
    *out = NULL;
    /* a Filecoin circuit by the daemon's id ("porep-32g") is its family form ("porep:32GiB") */
    char id[64], family[64];
    if (cuzk_filecoin_circuit_spellings(name, id, family) && family[0] && strcmp(name, family)) name = family;
    const cuzk_circuit_def *def = NULL;
    const char *args = "";
    for (size_t i = 0; i < NFAMILIES && !def; i++) {
        const char *p = FAMILIES[i]->prefix;
        size_t n = strlen(p);
        if (p[n - 1] == ':' ? !strncmp(name, p, n) : !strcmp(name, p)) {
            def = FAMILIES[i];
            args = name + (p[n - 1] == ':' ? n : strlen(name));
        }
    }
    if (!def) return cuzk_fail(CUZK_EINVAL, "unknown circuit '%s'; known circuits:\n%s", name, cuzk_circuit_names());
    cuzk_circuit *c = calloc(1, sizeof *c);
    if (!c) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    snprintf(c->name, sizeof c->name, "%s", name);
    snprintf(c->shape_key, sizeof c->shape_key, "%s", name);
    c->def = def;
    cuzk_status st = def->open(c, args);
    if (st) {
        cuzk_circuit_free(c);
        return st;
    }
    *out = c;
    return CUZK_OK;
}

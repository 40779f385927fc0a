/* The built-in circuits: each proof kind's family (its adapter file defines the entry), and
 * the mapping between a circuit id ("porep-32g", "wpost-32g", ...) and the registered proof it
 * was made for. Registered proofs that share parameter files share the id: the first proof of
 * the family whose id matches stands for all of them. */
#include <stdio.h>
#include <string.h>

#include "engine_internal.h"

static const builtin_family *const FAMILIES[] = {&builtin_porep, &builtin_post, &builtin_snap};
#define NFAMILIES (sizeof FAMILIES / sizeof FAMILIES[0])
/* Registered proof ids are small (the largest today is 19); this bounds the search. */
#define MAX_PROOF_ID 64

const builtin_family *builtin_of_id(const char *id, uint64_t *proof)
{
    for (size_t f = 0; f < NFAMILIES; f++)
        for (uint64_t p = 0; p < MAX_PROOF_ID; p++) {
            if (!FAMILIES[f]->valid(p)) continue;
            char pid[64];
            FAMILIES[f]->id(pid, p);
            if (!strcmp(pid, id)) {
                *proof = p;
                return FAMILIES[f];
            }
        }
    return NULL;
}

bool builtin_reserved(const char *id)
{
    uint64_t p;
    return builtin_of_id(id, &p) != NULL;
}

/* "2k", "8m", "512m", "32g": the size part of a circuit id. */
void builtin_size_suffix(char out[16], uint64_t bytes)
{
    const char *unit = "k";
    if (bytes >= (1ull << 30)) bytes >>= 30, unit = "g";
    else if (bytes >= (1ull << 20)) bytes >>= 20, unit = "m";
    else bytes >>= 10;
    snprintf(out, 16, "%llu%s", (unsigned long long)bytes, unit);
}

/* "2KiB", "32GiB": the size as circuit names spell it. */
void builtin_size_name(char out[16], uint64_t bytes)
{
    const char *unit = "KiB";
    if (bytes >= (1ull << 30)) bytes >>= 30, unit = "GiB";
    else if (bytes >= (1ull << 20)) bytes >>= 20, unit = "MiB";
    else bytes >>= 10;
    snprintf(out, 16, "%llu%s", (unsigned long long)bytes, unit);
}

static const builtin_family *family_of_kind(cuzk_job_kind kind)
{
    switch (kind) {
    case CUZK_KIND_POREP: return &builtin_porep;
    case CUZK_KIND_WINDOW_POST:
    case CUZK_KIND_WINNING_POST: return &builtin_post;
    case CUZK_KIND_SNAP: return &builtin_snap;
    default: return NULL;
    }
}

cuzk_status cuzk_engine_builtin_id(char out[64], cuzk_job_kind kind, uint64_t registered_proof)
{
    const builtin_family *f = family_of_kind(kind);
    if (!f) return cuzk_fail(CUZK_EINVAL, "proof kind %s has no built-in circuit", cuzk_kind_name(kind));
    if (!f->valid(registered_proof))
        return cuzk_fail(CUZK_EINVAL, "registered proof %llu is not a %s proof", (unsigned long long)registered_proof,
                         f->what);
    f->id(out, registered_proof);
    return CUZK_OK;
}

/* Recognisable mistakes named as such (hints.h). */
#include "cli/hints.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/outputs.h"
#include "cli/sector_json.h"
#include "cuzk/filecoin_circuit.h"
#include "cuzk/testcircuits.h"

cuzk_status cli_check_key_kind(const char *opt, const char *path, cuzk_key_kind want)
{
    if (!path) return CUZK_OK;
    cuzk_key_kind got = cuzk_groth16_key_kind_file(path, NULL);
    if (want == CUZK_KEY_PARAMS && got == CUZK_KEY_VK)
        return cuzk_fail(CUZK_EINVAL,
                         "--%s %s is a verifying key (.vk), not a parameter file (.params): --%s takes the .params "
                         "file (cuzk setup writes the two side by side; the .vk goes to --vk)",
                         opt, path, opt);
    if (want == CUZK_KEY_VK && got == CUZK_KEY_PARAMS)
        return cuzk_fail(CUZK_EINVAL,
                         "--%s %s is a parameter file (.params), not a verifying key (.vk): --%s takes the .vk file "
                         "(cuzk setup writes the two side by side)",
                         opt, path, opt);
    return CUZK_OK;
}

cuzk_status cli_c1_hint(cuzk_status st, const char *path)
{
    if (!st || !path) return st;
    char saved[1024];
    snprintf(saved, sizeof saved, "%s", cuzk_last_error());
    cuzk_mapped_file f = {0};
    sector_public s;
    /* sector.json is a few hundred bytes: anything large is not one */
    bool is_sector = !cuzk_check_input_file(path, CLI_SMALL_JSON_MAX) && !cuzk_map_file(&f, path) &&
        !sector_public_parse_fields((const char *)f.data, f.size, path, &s);
    cuzk_unmap_file(&f);
    if (!is_sector) return cuzk_fail(st, "%s", saved);
    return cuzk_fail(st,
                     "--c1 %s is a sector.json (the public data cuzk seal writes), not a C1 output: the C1 is the "
                     "c1.json beside it; to check proofs against this file, use cuzk verify porep --public %s",
                     path, path);
}

cuzk_status cli_public_hint(cuzk_status st, const char *path)
{
    if (!st || !path) return st;
    char saved[1024];
    snprintf(saved, sizeof saved, "%s", cuzk_last_error());
    cuzk_c1 *c1 = NULL;
    bool is_c1 = !cuzk_c1_parse_file(&c1, path, NULL);
    cuzk_c1_free(c1);
    if (!is_c1) return cuzk_fail(st, "%s", saved);
    return cuzk_fail(st,
                     "--public %s is a C1 output, not a sector.json (the public data cuzk seal writes beside the "
                     "c1.json): give it as --c1 %s",
                     path, path);
}

static void size_name(char *out, size_t n, uint64_t bytes)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (u < 4 && bytes >= 1024 && bytes % 1024 == 0) bytes /= 1024, u++;
    snprintf(out, n, "%llu%s", (unsigned long long)bytes, unit[u]);
}

/* The counts of the partition circuit of proof type p (cached per shape), by its generic name. */
static cuzk_status shape_counts(const cuzk_seal_proof_info *info, cuzk_circuit_counts *out)
{
    char name[96];
    snprintf(name, sizeof name, "porep-test:%u-%u-%u:%llu:%u:%u", info->base_arity, info->sub_arity, info->top_arity,
             (unsigned long long)info->nodes, info->layers, info->challenges_per_partition);
    cuzk_circuit *c;
    cuzk_status st = cuzk_circuit_open(&c, name);
    if (!st) st = cuzk_circuit_count(c, out);
    cuzk_circuit_free(c);
    return st;
}

/* Which sector sizes' partition circuits have these counts: "8MiB" or "32GiB (non-interactive)",
 * several joined by " or "; empty when none does. */
static void sizes_for(char *out, size_t n, const cuzk_key_layout *l)
{
    out[0] = 0;
    for (int p = 0; p < CUZK_SEAL_PROOF_COUNT; p++) {
        const cuzk_seal_proof_info *info = cuzk_seal_proof_info_get((cuzk_seal_proof)p);
        /* V1, V1_1 and synthetic proofs of a size share one circuit: the V1_1 one stands for them */
        bool stands = info &&
            (info->challenges == CUZK_CHALLENGES_NI ||
             (info->challenges == CUZK_CHALLENGES_INTERACTIVE && info->api_version == CUZK_API_V1_1_0));
        if (!stands || cuzk_seal_proof_num_inputs((cuzk_seal_proof)p) + 1 != l->ic_len) continue;
        cuzk_circuit_counts k;
        if (shape_counts(info, &k) || k.aux != l->l_len) continue;
        char sz[64];
        size_name(sz, 32, info->sector_size);
        if (strstr(out, sz)) continue; /* a non-interactive circuit the same as the interactive one */
        if (info->challenges == CUZK_CHALLENGES_NI) strcat(sz, " (non-interactive)");
        size_t len = strlen(out);
        snprintf(out + len, n - len, "%s%s", len ? " or " : "", sz);
    }
}

cuzk_status cli_check_porep_params(const char *path, const cuzk_c1 *c1)
{
    cuzk_key_layout l;
    cuzk_key_kind kind = cuzk_groth16_key_kind_file(path, &l);
    if (kind == CUZK_KEY_VK) return cli_check_key_kind("params", path, CUZK_KEY_PARAMS);
    if (kind != CUZK_KEY_PARAMS) return CUZK_OK;
    cuzk_circuit *c;
    cuzk_circuit_counts want;
    cuzk_status st = cuzk_porep_circuit_open(&c, c1, 0);
    if (!st) st = cuzk_circuit_count(c, &want);
    cuzk_circuit_free(c);
    if (st || (want.inputs == l.ic_len && want.aux == l.l_len)) return st;
    char c1_size[32], fits[160];
    size_name(c1_size, sizeof c1_size, c1->info->sector_size);
    sizes_for(fits, sizeof fits, &l);
    char theirs[256];
    if (fits[0])
        snprintf(theirs, sizeof theirs, "parameters of a %s sector's PoRep (%zu public inputs, %zu private values)",
                 fits, l.ic_len - 1, l.l_len);
    else
        snprintf(theirs, sizeof theirs,
                 "parameters for %zu public inputs and %zu private values, which fit no PoRep partition", l.ic_len - 1,
                 l.l_len);
    char setup[96] = "";
    if (c1->info->challenges != CUZK_CHALLENGES_NI)
        snprintf(setup, sizeof setup, " (test ones: cuzk setup --circuit porep:%s)", c1_size);
    return cuzk_fail(CUZK_EINVAL,
                     "--params %s: %s, but the C1 is of a %s sector (%s: %zu public inputs, %zu private values): give "
                     "the parameters of %s%s",
                     path, theirs, c1_size, c1->info->name, want.inputs - 1, want.aux, c1->info->name, setup);
}

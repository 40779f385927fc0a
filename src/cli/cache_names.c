/* Parameter file names in a parameter folder (cache_names.h). */
#include "cli/cache_names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin.h"
#include "cuzk/filecoin_post.h"
#include "cuzk/filecoin_snap.h"

/* A sector size as circuit names spell it ("2KiB", "32GiB") in bytes; 0 when it is not one. */
static uint64_t size_of(const char *s)
{
    char unit[4];
    unsigned long long n;
    char tail;
    if (sscanf(s, "%llu%3[KMGi]B%c", &n, unit, &tail) != 2 || n == 0 || n > 1024) return 0;
    unsigned shift = !strcmp(unit, "Ki") ? 10 : !strcmp(unit, "Mi") ? 20 : !strcmp(unit, "Gi") ? 30 : 0;
    return shift ? (uint64_t)n << shift : 0;
}

/* The official stem of the built-in PoSt and SnapDeals families (window-post:SIZE is the
 * Window V1_1 circuit; V1 shares its files), or false for another name. */
static bool post_snap_stem(const char *circuit, char stem[CUZK_PARAM_STEM_MAX], cuzk_status *st)
{
    static const struct {
        const char *prefix;
        int kind; /* -1: SnapDeals */
    } F[] = {{"window-post:", CUZK_POST_WINDOW}, {"winning-post:", CUZK_POST_WINNING}, {"snap:", -1}};
    for (size_t i = 0; i < sizeof F / sizeof F[0]; i++) {
        size_t n = strlen(F[i].prefix);
        if (strncmp(circuit, F[i].prefix, n)) continue;
        uint64_t bytes = size_of(circuit + n);
        if (F[i].kind < 0) {
            cuzk_update_proof u;
            *st = bytes ? cuzk_update_proof_for_sector_size(&u, bytes) : CUZK_EINVAL;
            if (!*st) cuzk_update_proof_param_stem(stem, u);
        } else {
            cuzk_post_proof p;
            *st = bytes ? cuzk_post_proof_lookup(&p, (cuzk_post_kind)F[i].kind, bytes, F[i].kind == CUZK_POST_WINDOW)
                        : CUZK_EINVAL;
            if (!*st) cuzk_post_proof_param_stem(stem, p);
        }
        if (*st)
            *st = cuzk_fail(CUZK_EINVAL, "circuit '%s': not a sector size (2KiB, 8MiB, 512MiB, 32GiB, 64GiB)", circuit);
        return true;
    }
    return false;
}

static char *join(const char *dir, const char *stem, const char *ext)
{
    size_t n = strlen(dir) + strlen(stem) + strlen(ext) + 2;
    char *s = malloc(n);
    if (s) snprintf(s, n, "%s/%s%s", dir, stem, ext);
    return s;
}

static cuzk_status paths(const char *dir, const char *circuit, bool official, char **params, char **vk)
{
    if (params) *params = NULL;
    if (vk) *vk = NULL;
    char stem[CUZK_PARAM_STEM_MAX + 64] = "";
    cuzk_seal_proof p;
    cuzk_status st0 = CUZK_OK;
    if (!official) {
        /* below: the test name */
    } else if (!strncmp(circuit, "porep:", 6)) {
        /* porep:SIZE proves a V1_1 partition; V1 and V1_1 share their parameter files */
        char name[64];
        int n = snprintf(name, sizeof name, "StackedDrg%sV1_1", circuit + 6);
        cuzk_status st = n > 0 && (size_t)n < sizeof name ? cuzk_seal_proof_from_name(&p, name, (size_t)n)
                                                          : cuzk_fail(CUZK_EINVAL, "no such size");
        if (st)
            return cuzk_fail(CUZK_EINVAL, "circuit '%s': not a PoRep sector size (2KiB, 8MiB, 512MiB, 32GiB, 64GiB)",
                             circuit);
        cuzk_seal_proof_param_stem(stem, p);
    } else if (post_snap_stem(circuit, stem, &st0)) {
        if (st0) return st0;
    }
    if (!official || !stem[0]) {
        size_t n = strlen(circuit);
        if (!n || n > 64) return cuzk_fail(CUZK_EINVAL, "circuit name '%s': 1 to 64 characters expected", circuit);
        int k = snprintf(stem, sizeof stem, "cuzk-test-");
        for (size_t i = 0; i < n; i++) {
            char ch = circuit[i];
            bool plain = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                ch == '.' || ch == '_' || ch == '-';
            stem[k++] = plain ? ch : '-';
        }
        stem[k] = 0;
    }
    char *a = params ? join(dir, stem, ".params") : NULL, *b = vk ? join(dir, stem, ".vk") : NULL;
    if ((params && !a) || (vk && !b)) {
        free(a);
        free(b);
        return cuzk_fail(CUZK_ENOMEM, "out of memory");
    }
    if (params) *params = a;
    if (vk) *vk = b;
    return CUZK_OK;
}

cuzk_status cli_cache_paths(const char *dir, const char *circuit, char **params, char **vk)
{
    return paths(dir, circuit, true, params, vk);
}

cuzk_status cli_cache_test_paths(const char *dir, const char *circuit, char **params, char **vk)
{
    return paths(dir, circuit, false, params, vk);
}

/* The circuit registry: the circuits the engine knows by id, the built-in ones (made on first use
 * from their kind's table, engine_builtin.c) and those registered by the caller, with their files
 * (parameters, key, precompiled circuit). Where each circuit lives (its tiers) and its loads are
 * engine_residency.c's. All locked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuzk/filecoin.h"
#include "engine_internal.h"

engine_circuit *res_find(cuzk_engine *e, const char *id)
{
    ENGINE_LOCKED(e);
    for (engine_circuit *c = e->circuits; c; c = c->next)
        if (!strcmp(c->id, id)) return c;
    return NULL;
}

engine_circuit *res_find_spelled(cuzk_engine *e, const char *id)
{
    ENGINE_LOCKED(e);
    engine_circuit *c = res_find(e, id);
    char daemon_id[64], family[64]; /* a built-in circuit by its family form: "porep:32GiB" */
    if (c || !cuzk_filecoin_circuit_spellings(id, daemon_id, family)) return c;
    c = res_find(e, daemon_id);
    return c && c->builtin ? c : NULL;
}
static char *pce_cache_path(const cuzk_engine *e, const char *id)
{
    if (!e->cache_dir) return NULL;
    size_t n = strlen(e->cache_dir) + strlen(id) + 16;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/%s.pce", e->cache_dir, id);
    return p;
}

static engine_circuit *new_circuit(cuzk_engine *e, const char *id)
{
    ENGINE_LOCKED(e);
    engine_circuit *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    snprintf(c->id, sizeof c->id, "%s", id);
    c->last_used = cuzk_now();
    c->next = e->circuits;
    e->circuits = c;
    return c;
}

static char *dup_opt(const char *s) { return s ? strdup(s) : NULL; }

cuzk_status cuzk_engine_register_circuit(cuzk_engine *e, const cuzk_engine_circuit *reg)
{
    if (!reg->id || !reg->id[0] || strlen(reg->id) >= 64)
        return cuzk_fail(CUZK_EINVAL, "a circuit id is 1 to 63 characters");
    if (!reg->open) return cuzk_fail(CUZK_EINVAL, "circuit %s: no open function", reg->id);
    if (!reg->synthetic && !reg->params_path)
        return cuzk_fail(CUZK_EINVAL, "circuit %s: parameters needed (a file, or synthetic)", reg->id);
    engine_mutex_lock(&e->mu);
    cuzk_status st = CUZK_OK;
    engine_circuit *c = NULL;
    if (builtin_reserved(reg->id) || res_find(e, reg->id))
        st = cuzk_fail(CUZK_EINVAL, "circuit id %s is taken", reg->id);
    else if (!(c = new_circuit(e, reg->id))) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
    if (c) {
        c->reg = *reg;
        c->reg.id = c->id;
        c->params_path = dup_opt(reg->params_path);
        c->vk_path = dup_opt(reg->vk_path);
        c->pce_path = reg->pce_path ? strdup(reg->pce_path) : pce_cache_path(e, reg->id);
        c->synthetic = reg->synthetic;
        c->check_params = reg->check_params;
        c->reg.params_path = c->params_path;
        c->reg.vk_path = c->vk_path;
        c->reg.pce_path = c->pce_path;
    }
    engine_mutex_unlock(&e->mu);
    return st;
}

cuzk_status res_get_builtin(cuzk_engine *e, const builtin_family *f, uint64_t proof, engine_circuit **out)
{
    ENGINE_LOCKED(e);
    char id[64];
    f->id(id, proof);
    engine_circuit *c = res_find(e, id);
    if (!c) {
        const char *dir = e->param_dir ? e->param_dir : cuzk_param_dir_default();
        char stem[CUZK_PARAM_STEM_MAX];
        f->stem(stem, proof);
        size_t n = strlen(dir) + strlen(stem) + 16;
        char *params = malloc(n), *vk = malloc(n);
        if (!params || !vk || !(c = new_circuit(e, id))) {
            free(params);
            free(vk);
            return cuzk_fail(CUZK_ENOMEM, "out of memory");
        }
        snprintf(params, n, "%s/%s.params", dir, stem);
        snprintf(vk, n, "%s/%s.vk", dir, stem);
        /* the official files; a missing one fails the load with the file named */
        c->builtin = f;
        c->proof = proof;
        c->params_path = params;
        c->vk_path = vk;
        c->pce_path = pce_cache_path(e, id);
    }
    *out = c;
    return CUZK_OK;
}

engine_circuit *res_by_id(cuzk_engine *e, const char *id)
{
    ENGINE_LOCKED(e);
    engine_circuit *c = res_find_spelled(e, id);
    if (c) return c;
    char daemon_id[64], family[64]; /* "porep:32GiB" is "porep-32g" */
    if (cuzk_filecoin_circuit_spellings(id, daemon_id, family)) id = daemon_id;
    uint64_t p;
    const builtin_family *f = builtin_of_id(id, &p);
    cuzk_clear_error();
    return f && !res_get_builtin(e, f, p, &c) ? c : NULL;
}

static cuzk_status replace(char **dst, const char *v)
{
    if (!v) return CUZK_OK;
    char *n = strdup(v);
    if (!n) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    free(*dst);
    *dst = n;
    return CUZK_OK;
}

cuzk_status cuzk_engine_set_files(cuzk_engine *e, const char *circuit, const char *params_path, const char *vk_path,
                                  const char *pce_path)
{
    cuzk_status st = engine_enter(e);
    if (st) return st;
    uint64_t proof;
    engine_circuit *c = builtin_of_id(circuit, &proof) ? res_by_id(e, circuit) : NULL;
    if (!c) st = cuzk_fail(CUZK_EINVAL, "%s is not a built-in circuit", circuit);
    else if (!st && (c->host_ready || c->host_loading))
        st = cuzk_fail(CUZK_EINVAL, "%s is loaded already: evict it first", circuit);
    if (!st) st = replace(&c->params_path, params_path);
    if (!st && params_path && !vk_path) { /* the parameters' own key */
        free(c->vk_path);
        c->vk_path = NULL;
    }
    if (!st && vk_path) st = replace(&c->vk_path, vk_path);
    if (!st) st = replace(&c->pce_path, pce_path);
    if (!st) memset(c->digest_ok, 0, sizeof c->digest_ok); /* other files: their digests are checked anew */
    engine_leave(e);
    return st;
}

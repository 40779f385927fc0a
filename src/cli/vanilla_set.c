/* Reading a folder of PoSt or SnapDeals vanilla proofs (vanilla_set.h). The descriptor names
 * every blob by a plain file name inside the folder; blobs are bounded by the size the
 * registered proof's shape allows, so a wrong or hostile file is refused before it is read.
 * post.json's sectors are the public statement (sector ids and comm_r), not a comment on the
 * blobs: the blobs are checked against them, and the public inputs are theirs. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/sector_json.h"
#include "cli/vanilla_set.h"
#include "cuzk/filecoin_post.h"
#include "cuzk/filecoin_snap.h"

static const struct {
    const char *name;
    cuzk_job_kind kind;
    const char *descriptor;
} KINDS[] = {
    {"window-post", CUZK_KIND_WINDOW_POST, "post.json"},
    {"winning-post", CUZK_KIND_WINNING_POST, "post.json"},
    {"snap", CUZK_KIND_SNAP, "update.json"},
};

bool vanilla_kind_of(const char *name, cuzk_job_kind *kind)
{
    for (size_t i = 0; i < sizeof KINDS / sizeof KINDS[0]; i++)
        if (!strcmp(name, KINDS[i].name)) {
            *kind = KINDS[i].kind;
            return true;
        }
    return false;
}

static const char *descriptor_of(cuzk_job_kind kind)
{
    for (size_t i = 0; i < sizeof KINDS / sizeof KINDS[0]; i++)
        if (KINDS[i].kind == kind) return KINDS[i].descriptor;
    return NULL;
}

void vanilla_set_free(vanilla_set *v)
{
    for (size_t i = 0; v->blobs && i < v->n; i++) free(v->blobs[i]);
    for (size_t i = 0; v->paths && i < v->n; i++) free(v->paths[i]);
    free(v->blobs);
    free(v->lens);
    free(v->paths);
    free(v->sector_ids);
    free(v->comm_rs);
    free(v->descriptor);
    memset(v, 0, sizeof *v);
}

static cuzk_status hex_field(json_t *o, const char *file, const char *key, uint8_t out[32])
{
    const char *s = json_string_value(json_object_get(o, key));
    if (!s) return cuzk_fail(CUZK_EFORMAT, "%s: \"%s\" missing or not a string", file, key);
    cuzk_status st = cuzk_hex_decode(out, 32, s);
    return st ? cuzk_fail_context(st, "%s: \"%s\"", file, key) : CUZK_OK;
}

static cuzk_status uint_field(json_t *o, const char *file, const char *key, uint64_t max, uint64_t *out)
{
    json_t *x = json_object_get(o, key);
    if (!json_is_integer(x) || json_integer_value(x) < 0 || (uint64_t)json_integer_value(x) > max)
        return cuzk_fail(CUZK_EFORMAT, "%s: \"%s\" missing or not an integer in 0..%llu", file, key,
                         (unsigned long long)max);
    *out = (uint64_t)json_integer_value(x);
    return CUZK_OK;
}

/* Blob `name` of the folder, at most max bytes (the shape's size: anything else is refused
 * before it is read). */
static cuzk_status read_blob(const char *dir, const char *name, size_t max, uint8_t **data, size_t *len)
{
    if (!name || !name[0] || strchr(name, '/') || !strcmp(name, "..") || !strcmp(name, "."))
        return cuzk_fail(CUZK_EFORMAT, "%s: a vanilla proof is named by a plain file name in the folder, not '%s'", dir,
                         name ? name : "(none)");
    char path[4096];
    cuzk_status st = cuzk_path_join(path, sizeof path, dir, name);
    if (st) return st;
    struct stat sb;
    if (stat(path, &sb) != 0) return cuzk_fail(CUZK_EIO, "cannot open %s", path);
    if (!S_ISREG(sb.st_mode)) return cuzk_fail(CUZK_EFORMAT, "%s: not a regular file", path);
    if ((uint64_t)sb.st_size > max)
        return cuzk_fail(CUZK_EFORMAT, "%s: %lld bytes, more than the %zu a vanilla proof of this proof type has", path,
                         (long long)sb.st_size, max);
    return cuzk_read_file_max(path, max, data, len);
}

static cuzk_status add_blob(vanilla_set *v, const char *dir, const char *name, size_t max)
{
    cuzk_status st = read_blob(dir, name, max, &v->blobs[v->n], &v->lens[v->n]);
    if (st) return st;
    size_t n = strlen(dir) + strlen(name) + 2;
    if (!(v->paths[v->n] = malloc(n))) {
        free(v->blobs[v->n]);
        return cuzk_fail(CUZK_ENOMEM, "out of memory");
    }
    snprintf(v->paths[v->n], n, "%s/%s", dir, name);
    v->n++;
    return CUZK_OK;
}

/* post.json's public sector list as the filecoin layer takes it (malloc'd; NULL when out of
 * memory, the error set). */
static cuzk_post_public_sector *public_sectors(const vanilla_set *v)
{
    cuzk_post_public_sector *pub = calloc(v->n ? v->n : 1, sizeof *pub);
    if (!pub) {
        cuzk_fail(CUZK_ENOMEM, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < v->n; i++) {
        pub[i].sector_id = v->sector_ids[i];
        memcpy(pub[i].comm_r, v->comm_rs + 32 * i, 32);
    }
    return pub;
}

/* sectors[i] of post.json: the public sector (id, comm_r) and its vanilla proof's file. */
static cuzk_status read_post_sector(vanilla_set *v, json_t *e, const char *file, const char *dir, size_t max)
{
    size_t i = v->n;
    char where[4200];
    if (!json_is_object(e)) return cuzk_fail(CUZK_EFORMAT, "%s: sectors[%zu] is not an object", file, i);
    snprintf(where, sizeof where, "%s: sectors[%zu].sector_id", file, i);
    cuzk_status st = sector_id_from_json(json_object_get(e, "sector_id"), where, &v->sector_ids[i]);
    if (st) return st;
    const char *comm_r = json_string_value(json_object_get(e, "comm_r"));
    if (!comm_r) return cuzk_fail(CUZK_EFORMAT, "%s: sectors[%zu].comm_r missing or not a string", file, i);
    if ((st = cuzk_hex_decode(v->comm_rs + 32 * i, 32, comm_r)))
        return cuzk_fail_context(st, "%s: sectors[%zu].comm_r", file, i);
    const char *name = json_string_value(json_object_get(e, "vanilla_proof"));
    if (!name) return cuzk_fail(CUZK_EFORMAT, "%s: sectors[%zu].vanilla_proof missing", file, i);
    return add_blob(v, dir, name, max);
}

/* The list's order and ids, checked when the folder is read (before any blob is parsed). */
static cuzk_status check_post_sectors(const vanilla_set *v, const char *file)
{
    cuzk_post_public_sector *pub = public_sectors(v);
    if (!pub) return CUZK_ENOMEM;
    cuzk_status st = cuzk_post_public_sectors_check((cuzk_post_proof)v->registered_proof, pub, v->n);
    free(pub);
    return st ? cuzk_fail_context(st, "%s", file) : CUZK_OK;
}

static cuzk_status read_post(vanilla_set *v, json_t *top, const char *file, const char *dir)
{
    uint64_t id, part;
    cuzk_status st = uint_field(top, file, "registered_proof", UINT32_MAX, &id);
    const cuzk_post_proof_info *info = st ? NULL : cuzk_post_proof_info_get((cuzk_post_proof)id);
    if (!st && !info) st = cuzk_fail_context(CUZK_EFORMAT, "%s: \"registered_proof\"", file);
    if (st) return st;
    bool window = v->kind == CUZK_KIND_WINDOW_POST;
    if ((info->kind == CUZK_POST_WINDOW) != window)
        return cuzk_fail(CUZK_EINVAL, "%s: %s is a %s proof (use prove %s)", file, info->name,
                         window ? "WinningPoSt" : "WindowPoSt", window ? "winning-post" : "window-post");
    v->registered_proof = id;
    snprintf(v->proof_name, sizeof v->proof_name, "%s", info->name);
    if ((st = hex_field(top, file, "randomness", v->randomness))) return st;
    if ((st = uint_field(top, file, "partition_index", UINT32_MAX, &part))) return st;
    v->partition_index = (uint32_t)part;
    json_t *sectors = json_object_get(top, "sectors");
    size_t n = json_array_size(sectors);
    if (!json_is_array(sectors) || n == 0 || n > info->max_blobs)
        return cuzk_fail(CUZK_EFORMAT, "%s: \"sectors\" must list 1 to %u sectors", file, info->max_blobs);
    v->blobs = calloc(n, sizeof *v->blobs);
    v->lens = calloc(n, sizeof *v->lens);
    v->paths = calloc(n, sizeof *v->paths);
    v->sector_ids = calloc(n, sizeof *v->sector_ids);
    v->comm_rs = calloc(n, 32);
    if (!v->blobs || !v->lens || !v->paths || !v->sector_ids || !v->comm_rs)
        return cuzk_fail(CUZK_ENOMEM, "out of memory");
    size_t max = cuzk_post_sector_proof_bytes((cuzk_post_proof)id);
    for (size_t i = 0; i < n && !st; i++) st = read_post_sector(v, json_array_get(sectors, i), file, dir, max);
    return st ? st : check_post_sectors(v, file);
}

/* A PartitionProof of the published sizes is at most about 0.6 MB (32 GiB: 86 challenges of
 * three Merkle paths); this bound only keeps a wrong file from being read whole, the parser
 * checks the exact shape. */
#define SNAP_BLOB_MAX ((size_t)16 << 20)

static cuzk_status read_snap(vanilla_set *v, json_t *top, const char *file, const char *dir)
{
    uint64_t id, parts;
    cuzk_status st = uint_field(top, file, "update_proof", UINT32_MAX, &id);
    const cuzk_update_proof_info *info = st ? NULL : cuzk_update_proof_info_get((cuzk_update_proof)id);
    if (!st && !info) st = cuzk_fail_context(CUZK_EFORMAT, "%s: \"update_proof\"", file);
    if (st) return st;
    v->registered_proof = id;
    snprintf(v->proof_name, sizeof v->proof_name, "%s", info->name);
    if ((st = hex_field(top, file, "comm_r_old", v->comm_r_old)) ||
        (st = hex_field(top, file, "comm_r_new", v->comm_r_new)) ||
        (st = hex_field(top, file, "comm_d_new", v->comm_d_new)))
        return st;
    if ((st = uint_field(top, file, "partitions", 64, &parts))) return st;
    if (parts != info->partitions)
        return cuzk_fail(CUZK_EFORMAT, "%s: \"partitions\": %llu, but %s has %u", file, (unsigned long long)parts,
                         info->name, info->partitions);
    v->blobs = calloc(parts, sizeof *v->blobs);
    v->lens = calloc(parts, sizeof *v->lens);
    v->paths = calloc(parts, sizeof *v->paths);
    if (!v->blobs || !v->lens || !v->paths) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    for (unsigned k = 0; k < parts && !st; k++) {
        char name[32];
        snprintf(name, sizeof name, "partition-%u.bin", k);
        st = add_blob(v, dir, name, SNAP_BLOB_MAX);
    }
    return st;
}

cuzk_status vanilla_set_read(vanilla_set *v, cuzk_job_kind kind, const char *dir)
{
    memset(v, 0, sizeof *v);
    v->kind = kind;
    const char *desc = descriptor_of(kind);
    if (!desc) return cuzk_fail(CUZK_EINVAL, "proof kind %s takes no vanilla proof folder", cuzk_kind_name(kind));
    char file[4096];
    cuzk_status jst = cuzk_path_join(file, sizeof file, dir, desc);
    if (jst) return jst;
    uint8_t *text = NULL;
    size_t len = 0;
    struct stat sb;
    if (stat(file, &sb) != 0)
        return cuzk_fail(CUZK_EIO, "cannot open %s (a folder made by `cuzk %s`)", file,
                         kind == CUZK_KIND_SNAP ? "snap encode" : "post vanilla");
    if (!S_ISREG(sb.st_mode) || sb.st_size > (1 << 24))
        return cuzk_fail(CUZK_EFORMAT, "%s: not a regular file of at most 16 MiB", file);
    cuzk_status st = cuzk_read_file_max(file, 1 << 24, &text, &len);
    if (st) return st;
    if (!(v->descriptor = strdup(file))) {
        free(text);
        return cuzk_fail(CUZK_ENOMEM, "out of memory");
    }
    json_error_t err;
    json_t *top = json_loadb((const char *)text, len, JSON_REJECT_DUPLICATES, &err);
    free(text);
    if (!json_is_object(top)) {
        json_decref(top);
        return cuzk_fail(CUZK_EFORMAT, "%s: line %d: %s", file, err.line, top ? "not a JSON object" : err.text);
    }
    st = kind == CUZK_KIND_SNAP ? read_snap(v, top, file, dir) : read_post(v, top, file, dir);
    json_decref(top);
    if (st) vanilla_set_free(v);
    return st;
}

void vanilla_set_request(const vanilla_set *v, cuzk_job_request *req)
{
    memset(req, 0, sizeof *req);
    req->kind = v->kind;
    req->blobs = (const uint8_t *const *)v->blobs;
    req->blob_lens = v->lens;
    req->nblobs = v->n;
    req->has_registered_proof = true;
    req->registered_proof = v->registered_proof;
    if (v->kind == CUZK_KIND_SNAP) {
        req->comm_r_old = v->comm_r_old;
        req->comm_r_new = v->comm_r_new;
        req->comm_d_new = v->comm_d_new;
    } else {
        req->randomness = v->randomness;
        req->partition_index = v->partition_index;
        req->post_sector_ids = v->sector_ids;
        req->post_comm_rs = v->comm_rs;
        req->post_nsectors = v->n;
    }
}

cuzk_status vanilla_set_public_inputs(const vanilla_set *v, cuzk_fr **out, size_t *nparts, size_t *ninputs)
{
    *out = NULL;
    const uint8_t *const *blobs = (const uint8_t *const *)v->blobs;
    cuzk_status st;
    if (v->kind != CUZK_KIND_SNAP) {
        cuzk_post_partition *pp = NULL;
        cuzk_post_public_sector *pub = public_sectors(v);
        st = pub ? cuzk_post_partition_parse(&pp, (cuzk_post_proof)v->registered_proof, v->randomness,
                                             v->partition_index, pub, blobs, v->lens, v->n)
                 : CUZK_ENOMEM;
        free(pub);
        size_t ni = st ? 0 : cuzk_post_partition_num_inputs(pp);
        if (!st && !(*out = calloc(ni, sizeof **out))) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
        if (!st) st = cuzk_post_partition_public_inputs(pp, *out, ni);
        cuzk_post_partition_free(pp);
        *nparts = 1;
        *ninputs = ni;
    } else {
        cuzk_snap_proofs *sp = NULL;
        st = cuzk_snap_parse(&sp, (cuzk_update_proof)v->registered_proof, v->comm_r_old, v->comm_r_new, v->comm_d_new,
                             blobs, v->lens, v->n);
        unsigned np = st ? 0 : cuzk_snap_partitions(sp);
        size_t ni = cuzk_update_proof_num_inputs((cuzk_update_proof)v->registered_proof);
        if (!st && !(*out = calloc((size_t)np * ni, sizeof **out))) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
        for (unsigned k = 0; !st && k < np; k++) st = cuzk_snap_public_inputs(sp, k, *out + (size_t)k * ni, ni);
        cuzk_snap_proofs_free(sp);
        *nparts = np;
        *ninputs = ni;
    }
    if (st) {
        free(*out);
        *out = NULL;
    }
    return st;
}

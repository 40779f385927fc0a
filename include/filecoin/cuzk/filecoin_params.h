/* The official parameter and verifying-key files Filecoin publishes (v28), with the digest of
 * each as Filecoin's parameter fetcher checks it (the first 16 bytes of the file's BLAKE2b-512,
 * in hex), and the check of a file against it, its result kept by (path, size, mtime) in a
 * cache folder so that a 47 GB file is hashed once. */
#ifndef CUZK_FILECOIN_PARAMS_H
#define CUZK_FILECOIN_PARAMS_H

#include <stdbool.h>
#include <stdint.h>

#include "cuzk/base.h"
#include "cuzk/progress.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A digest as published: 32 lowercase hex characters and the terminating zero. */
#define CUZK_PARAM_DIGEST_HEX 33

/* One official file. */
typedef struct {
    const char *name;     /* the file name in a parameter folder (".params" or ".vk") */
    const char *digest;   /* the published digest, 32 lowercase hex characters */
    uint64_t sector_size; /* bytes */
    const char *circuit;  /* the circuit it serves, as cuzk names it ("porep:32GiB", "window-post:2KiB") */
} cuzk_param_file;

/* Returns: the table of official files (static). Out: *n, its length. Thread: any. */
const cuzk_param_file *cuzk_param_files(size_t *n);

/* Returns: the official file named name (a file name, no folder), or NULL when the name is
 * not official. Thread: any. */
const cuzk_param_file *cuzk_param_file_find(const char *name);

/* The file's digest as the table spells it, read from the cache folder's record when the
 * file's size and mtime are still the recorded ones, else hashed (the progress task counts
 * bytes) and recorded there. In: path; cache_dir (NULL or "": no record kept or read);
 * progress (NULL: none). Out: hex; *hashed, whether the file was read (false: from the record).
 * Errors: CUZK_EIO naming path when it is missing, not a regular file (a FIFO is never
 * opened for reading), or unreadable; a record that cannot be written is no error (the digest
 * is right, only the next call hashes again). Thread: any; calls on one cache folder may
 * race, the last writer's record winning. */
cuzk_status cuzk_param_file_digest(char hex[CUZK_PARAM_DIGEST_HEX], bool *hashed, const char *path,
                                   const char *cache_dir, const cuzk_progress_sink *progress) CUZK_WARN_UNUSED;

/* Checks a file about to be loaded: when its name (the part after the last '/') is official,
 * its digest (cuzk_param_file_digest, cached in cache_dir) must be the published one; a file
 * under another name passes unread. Returns: CUZK_OK. In: path; cache_dir as above; progress.
 * Errors: CUZK_EFORMAT naming the file, the expected and the found digest when they differ;
 * CUZK_EIO as cuzk_param_file_digest. Thread: any. */
cuzk_status cuzk_param_file_check(const char *path, const char *cache_dir,
                                  const cuzk_progress_sink *progress) CUZK_WARN_UNUSED;

/* The name of the cache folder's record file ("param-digests.txt"): one line per file,
 * "DIGEST SIZE MTIME_NS PATH". Returns: a static string. Thread: any. */
const char *cuzk_param_digest_record_name(void);

/* Looks a file up in a record's text. In: text[len] (the record as read: any bytes; lines of the
 * form above, others and lines longer than PATH_MAX + 127 bytes skipped), key (the file's
 * absolute path), its size and mtime in nanoseconds. Out: hex, the recorded digest (32 lowercase
 * hex characters), when found. Returns: whether a line matches all three. Thread: any. */
bool cuzk_param_digest_record_find(const char *text, size_t len, const char *key, uint64_t size, uint64_t mtime_ns,
                                   char hex[CUZK_PARAM_DIGEST_HEX]);

#ifdef __cplusplus
}
#endif
#endif

/* The digest of a parameter file as Filecoin's parameter fetcher checks it (the first 16 bytes
 * of BLAKE2b-512 over the whole file, hex; libcrypto's BLAKE2b), and its record in a cache
 * folder: hashing an official 32 GiB PoRep file (47 GB) takes minutes, so the result is kept
 * by (path, size, mtime) and a file that has not changed is not read again. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/filecoin_params.h"

#define RECORD_NAME "param-digests.txt"
#define READ_CHUNK (4u << 20)

const char *cuzk_param_digest_record_name(void) { return RECORD_NAME; }

static uint64_t mtime_ns(const struct stat *sb)
{
    return (uint64_t)sb->st_mtim.tv_sec * 1000000000ull + (uint64_t)sb->st_mtim.tv_nsec;
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* The file opened for reading and its stat, or a message naming it. O_NONBLOCK so that a FIFO
 * under an official name is never waited on: it is refused by its type once open. */
static cuzk_status open_regular(const char *path, int *fd_out, struct stat *sb)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return cuzk_fail(CUZK_EIO, "cannot open %s: %s", path, strerror(errno));
    if (fstat(fd, sb) || !S_ISREG(sb->st_mode)) {
        close(fd);
        return cuzk_fail(CUZK_EIO, "%s: not a regular file", path);
    }
    *fd_out = fd;
    return CUZK_OK;
}

static cuzk_status hash_fd(char hex[CUZK_PARAM_DIGEST_HEX], int fd, const char *path, uint64_t size,
                           const cuzk_progress_sink *progress)
{
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    uint8_t *buf = malloc(READ_CHUNK);
    cuzk_status st = md && buf && EVP_DigestInit_ex(md, EVP_blake2b512(), NULL)
        ? CUZK_OK
        : cuzk_fail(CUZK_ENOMEM, "digest of %s: out of memory (or no BLAKE2b in libcrypto)", path);
    cuzk_progress *p = st ? NULL : cuzk_progress_startf(progress, size, "digest of %s", base_name(path));
    while (!st) {
        ssize_t n = read(fd, buf, READ_CHUNK);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) st = cuzk_fail(CUZK_EIO, "cannot read %s: %s", path, strerror(errno));
        if (n <= 0) break;
        if (!EVP_DigestUpdate(md, buf, (size_t)n)) st = cuzk_fail(CUZK_EINTERNAL, "digest of %s failed", path);
        cuzk_progress_add(p, (uint64_t)n);
    }
    uint8_t sum[EVP_MAX_MD_SIZE];
    unsigned len = 0;
    if (!st && (!EVP_DigestFinal_ex(md, sum, &len) || len < 16))
        st = cuzk_fail(CUZK_EINTERNAL, "digest of %s failed", path);
    if (!st) cuzk_hex_encode(hex, sum, 16);
    cuzk_progress_finish(p);
    EVP_MD_CTX_free(md);
    free(buf);
    return st;
}

/* The record file's path in cache_dir (malloc'd), NULL when none is kept. */
static char *record_path(const char *cache_dir)
{
    if (!cache_dir || !cache_dir[0]) return NULL;
    size_t n = strlen(cache_dir) + sizeof RECORD_NAME + 2;
    char *s = malloc(n);
    if (s) snprintf(s, n, "%s/%s", cache_dir, RECORD_NAME);
    return s;
}

/* A record line "DIGEST SIZE MTIME_NS PATH": true and its fields when it parses. */
static bool parse_line(const char *line, char hex[CUZK_PARAM_DIGEST_HEX], uint64_t *size, uint64_t *mtime,
                       const char **path)
{
    unsigned long long s, m;
    int off = 0;
    if (sscanf(line, "%32[0-9a-f] %llu %llu %n", hex, &s, &m, &off) != 3 || !off || strlen(hex) != 32) return false;
    *size = s;
    *mtime = m;
    *path = line + off;
    return **path != 0;
}

#define LINE_MAX_BYTES (PATH_MAX + 128)

/* The record's next line from text[*pos .. len) into line (NUL-terminated, no newline); false at
 * the end. A line too long for the buffer is returned empty (it matches nothing), never split:
 * a split line's tail could read as a line of its own. */
static bool next_line(const char *text, size_t len, size_t *pos, char line[LINE_MAX_BYTES])
{
    if (*pos >= len) return false;
    const char *start = text + *pos, *nl = memchr(start, '\n', len - *pos);
    size_t n = nl ? (size_t)(nl - start) : len - *pos;
    *pos += n + (nl ? 1 : 0);
    if (n >= LINE_MAX_BYTES || memchr(start, 0, n)) n = 0; /* too long, or not text */
    memcpy(line, start, n);
    line[n] = 0;
    return true;
}

bool cuzk_param_digest_record_find(const char *text, size_t len, const char *key, uint64_t size, uint64_t mtime_ns,
                                   char hex[CUZK_PARAM_DIGEST_HEX])
{
    char line[LINE_MAX_BYTES];
    size_t pos = 0;
    while (next_line(text, len, &pos, line)) {
        char h[CUZK_PARAM_DIGEST_HEX];
        uint64_t s, m;
        const char *p;
        if (parse_line(line, h, &s, &m, &p) && !strcmp(p, key) && s == size && m == mtime_ns) {
            memcpy(hex, h, CUZK_PARAM_DIGEST_HEX);
            return true;
        }
    }
    return false;
}

#define RECORD_MAX_BYTES (16u << 20) /* far above the 40 official files' lines */

/* The record's text (NULL when it is missing, unreadable or larger than any real record). */
static char *record_read(const char *rec, size_t *len)
{
    FILE *f = rec ? fopen(rec, "r") : NULL;
    if (!f) return NULL;
    char *text = malloc(RECORD_MAX_BYTES);
    size_t n = text ? fread(text, 1, RECORD_MAX_BYTES, f) : 0;
    bool whole = text && !ferror(f) && n < RECORD_MAX_BYTES;
    fclose(f);
    if (!whole) {
        free(text);
        return NULL;
    }
    *len = n;
    return text;
}

static bool record_lookup(const char *rec, const char *key, const struct stat *sb, char hex[CUZK_PARAM_DIGEST_HEX])
{
    size_t len = 0;
    char *text = record_read(rec, &len);
    bool found = text && cuzk_param_digest_record_find(text, len, key, (uint64_t)sb->st_size, mtime_ns(sb), hex);
    free(text);
    return found;
}

/* The record with key's line replaced: the others copied to a temporary, renamed over it. */
static void record_store(const char *rec, const char *key, const struct stat *sb, const char *hex)
{
    if (!rec || strchr(key, '\n')) return;
    size_t n = strlen(rec) + 32;
    char *tmp = malloc(n);
    if (!tmp) return;
    snprintf(tmp, n, "%s.tmp.%ld", rec, (long)getpid());
    FILE *out = fopen(tmp, "w");
    if (!out) {
        free(tmp);
        return;
    }
    size_t len = 0, pos = 0;
    char *text = record_read(rec, &len);
    char line[LINE_MAX_BYTES];
    while (text && next_line(text, len, &pos, line)) {
        char h[CUZK_PARAM_DIGEST_HEX];
        uint64_t size, mtime;
        const char *p;
        if (parse_line(line, h, &size, &mtime, &p) && strcmp(p, key)) fprintf(out, "%s\n", line);
    }
    free(text);
    fprintf(out, "%s %llu %llu %s\n", hex, (unsigned long long)sb->st_size, (unsigned long long)mtime_ns(sb), key);
    if (fclose(out) || rename(tmp, rec)) remove(tmp);
    free(tmp);
}

cuzk_status cuzk_param_file_digest(char hex[CUZK_PARAM_DIGEST_HEX], bool *hashed, const char *path,
                                   const char *cache_dir, const cuzk_progress_sink *progress)
{
    *hashed = false;
    hex[0] = 0;
    int fd = -1;
    struct stat sb;
    cuzk_status st = open_regular(path, &fd, &sb);
    if (st) return st;
    /* the record is keyed by the absolute path, so that "dir/x" and "./dir/x" are one file */
    char key[PATH_MAX];
    if (!realpath(path, key) && (size_t)snprintf(key, sizeof key, "%s", path) >= sizeof key) {
        close(fd);
        return cuzk_fail(CUZK_EINVAL,
                         "the parameter file path %.80s... is %zu bytes, longer than the %zu this check takes", path,
                         strlen(path), sizeof key - 1);
    }
    char *rec = record_path(cache_dir);
    if (!record_lookup(rec, key, &sb, hex)) {
        st = hash_fd(hex, fd, path, (uint64_t)sb.st_size, progress);
        *hashed = !st;
        if (!st) record_store(rec, key, &sb, hex);
    }
    free(rec);
    close(fd);
    return st;
}

cuzk_status cuzk_param_file_check(const char *path, const char *cache_dir, const cuzk_progress_sink *progress)
{
    const cuzk_param_file *pf = cuzk_param_file_find(base_name(path));
    if (!pf) return CUZK_OK;
    char hex[CUZK_PARAM_DIGEST_HEX];
    bool hashed;
    cuzk_status st = cuzk_param_file_digest(hex, &hashed, path, cache_dir, progress);
    if (st) return st;
    if (strcmp(hex, pf->digest))
        return cuzk_fail(CUZK_EFORMAT,
                         "%s: digest %s, but Filecoin publishes %s for this official file (a damaged or partial "
                         "download, or other parameters under the official name; fetch it again)",
                         path, hex, pf->digest);
    return CUZK_OK;
}

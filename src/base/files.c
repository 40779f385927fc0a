/* Input files are mapped or read only when they are regular files (opened without blocking, so
 * a FIFO is refused instead of waited on, and a device such as /dev/zero is never read to its
 * end). Output files replace a regular file through a temporary in the same folder renamed
 * into place on commit, so a failure never leaves a partial file; a symbolic link is followed
 * (its target is replaced, the link stays); a character device or FIFO (/dev/null,
 * /dev/stdout) is written in place with every write checked; a folder or other node is
 * refused. */
#include "cuzk/base.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Opens path for reading without blocking on a FIFO and checks that it is a regular file of
 * at most max bytes: *fd is the descriptor (blocking again). */
static cuzk_status open_regular(const char *path, uint64_t max, struct stat *st, int *fdp)
{
    *fdp = -1;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return cuzk_fail(CUZK_EIO, "cannot open %s: %s", path, strerror(errno));
    if (fstat(fd, st) != 0) {
        int e = errno;
        close(fd);
        return cuzk_fail(CUZK_EIO, "cannot stat %s: %s", path, strerror(e));
    }
    if (!S_ISREG(st->st_mode)) {
        close(fd);
        return cuzk_fail(CUZK_EIO, "%s is not a regular file (%s)", path,
                         S_ISDIR(st->st_mode)        ? "a folder"
                             : S_ISFIFO(st->st_mode) ? "a FIFO"
                             : S_ISCHR(st->st_mode)  ? "a character device"
                             : S_ISBLK(st->st_mode)  ? "a block device"
                                                     : "a socket or other node");
    }
    if ((uint64_t)st->st_size > max) {
        close(fd);
        return cuzk_fail(CUZK_EFORMAT, "%s has %llu bytes, more than the %llu accepted here", path,
                         (unsigned long long)st->st_size, (unsigned long long)max);
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0) (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    *fdp = fd;
    return CUZK_OK;
}

cuzk_status cuzk_path_join(char *out, size_t cap, const char *dir, const char *name)
{
    int n = snprintf(out, cap, "%s/%s", dir, name);
    if (n >= 0 && (size_t)n < cap) return CUZK_OK;
    if (cap) out[0] = 0;
    return cuzk_fail(CUZK_EINVAL, "the path %.80s.../%s is %d bytes, longer than the %zu this reader takes", dir, name,
                     n, cap - 1);
}

cuzk_status cuzk_check_input_file(const char *path, uint64_t max_bytes)
{
    struct stat st;
    int fd;
    cuzk_status s = open_regular(path, max_bytes, &st, &fd);
    if (!s) close(fd);
    return s;
}

cuzk_status cuzk_open_input_file(const char *path, int *fd, uint64_t *size)
{
    struct stat st;
    cuzk_status s = open_regular(path, UINT64_MAX, &st, fd);
    *size = s ? 0 : (uint64_t)st.st_size;
    return s;
}

cuzk_status cuzk_map_file(cuzk_mapped_file *f, const char *path)
{
    memset(f, 0, sizeof *f);
    struct stat st;
    int fd;
    cuzk_status s = open_regular(path, (uint64_t)SIZE_MAX, &st, &fd);
    if (s) return s;
    f->size = (size_t)st.st_size;
    if (f->size > 0) {
        void *p = mmap(NULL, f->size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            int e = errno;
            close(fd);
            return cuzk_fail(CUZK_EIO, "cannot map %s: %s", path, strerror(e));
        }
        f->data = p;
    }
    close(fd);
    f->path = strdup(path);
    return CUZK_OK;
}

void cuzk_unmap_file(cuzk_mapped_file *f)
{
    if (f->data) munmap((void *)f->data, f->size);
    free(f->path);
    memset(f, 0, sizeof *f);
}

cuzk_status cuzk_read_file_max(const char *path, uint64_t max_bytes, uint8_t **data, size_t *size)
{
    *data = NULL;
    *size = 0;
    if (max_bytes >= SIZE_MAX) max_bytes = SIZE_MAX - 1;
    struct stat st;
    int fd;
    cuzk_status s = open_regular(path, max_bytes, &st, &fd);
    if (s) return s;
    /* the size fstat gave; a file that grows meanwhile is followed up to the limit */
    size_t cap = (size_t)st.st_size, n = 0;
    uint8_t *buf = malloc(cap + 1);
    const char *why = NULL;
    int err = 0;
    while (buf) {
        uint8_t probe;
        ssize_t r = n < cap ? read(fd, buf + n, cap - n) : read(fd, &probe, 1);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            err = errno;
            why = "error";
            break;
        }
        if (r == 0) break;
        if (n < cap) {
            n += (size_t)r;
            continue;
        }
        if ((uint64_t)cap + 1 > max_bytes) {
            why = "limit";
            break;
        }
        size_t ncap = cap * 2 + 4096 > max_bytes ? (size_t)max_bytes : cap * 2 + 4096;
        uint8_t *nb = realloc(buf, ncap + 1);
        if (!nb) free(buf);
        buf = nb;
        if (buf) buf[n++] = probe;
        cap = ncap;
    }
    if (!buf || why) {
        free(buf);
        close(fd);
        if (!buf) return cuzk_fail(CUZK_ENOMEM, "out of memory reading %s", path);
        if (err) return cuzk_fail(CUZK_EIO, "error reading %s: %s", path, strerror(err));
        return cuzk_fail(CUZK_EFORMAT, "%s grew past the %llu bytes accepted here while it was read", path,
                         (unsigned long long)max_bytes);
    }
    close(fd);
    buf[n] = 0;
    *data = buf;
    *size = n;
    return CUZK_OK;
}

cuzk_status cuzk_read_file(const char *path, uint8_t **data, size_t *size)
{
    return cuzk_read_file_max(path, (uint64_t)SIZE_MAX, data, size);
}

/* Where an output at path goes: *dest, the regular file to replace through a temporary (a
 * symbolic link's resolved target), or NULL with *in_place set for a character device or FIFO. */
static cuzk_status out_target(const char *path, char **dest, bool *in_place)
{
    *dest = NULL;
    *in_place = false;
    struct stat st, lst;
    if (stat(path, &st) == 0) {
        if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
            *in_place = true;
            return CUZK_OK;
        }
        if (S_ISDIR(st.st_mode)) return cuzk_fail(CUZK_EIO, "cannot write %s: it is a folder", path);
        if (!S_ISREG(st.st_mode))
            return cuzk_fail(CUZK_EIO, "cannot write %s: not a regular file, character device or FIFO", path);
        if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
            *dest = realpath(path, NULL);
            if (!*dest) return cuzk_fail(CUZK_EIO, "cannot resolve the link %s: %s", path, strerror(errno));
            return CUZK_OK;
        }
    } else if (errno == ENOENT && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
        return cuzk_fail(CUZK_EIO, "cannot write %s: a symbolic link to a missing file", path);
    } else if (errno != ENOENT) {
        return cuzk_fail(CUZK_EIO, "cannot write %s: %s", path, strerror(errno));
    }
    *dest = strdup(path);
    return *dest ? CUZK_OK : cuzk_fail(CUZK_ENOMEM, "out of memory");
}

cuzk_status cuzk_out_open(cuzk_out_file *f, const char *path)
{
    memset(f, 0, sizeof *f);
    bool in_place;
    cuzk_status st = out_target(path, &f->dest, &in_place);
    if (st) return st;
    f->path = strdup(path);
    if (!f->path) {
        cuzk_out_abort(f);
        return cuzk_fail(CUZK_ENOMEM, "out of memory");
    }
    int fd;
    if (in_place) {
        fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    } else {
        size_t len = strlen(f->dest) + 32;
        f->tmp_path = malloc(len);
        if (!f->tmp_path) {
            cuzk_out_abort(f);
            return cuzk_fail(CUZK_ENOMEM, "out of memory");
        }
        snprintf(f->tmp_path, len, "%s.tmp.%ld", f->dest, (long)getpid());
        fd = open(f->tmp_path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0666);
    }
    if (fd >= 0) f->fp = fdopen(fd, "wb");
    if (!f->fp) {
        int e = errno;
        if (fd >= 0) close(fd);
        cuzk_out_abort(f);
        return cuzk_fail(CUZK_EIO, "cannot create %s: %s", path, strerror(e));
    }
    return CUZK_OK;
}

cuzk_status cuzk_out_write(cuzk_out_file *f, const void *data, size_t n)
{
    if (n && fwrite(data, 1, n, f->fp) != n)
        return cuzk_fail(CUZK_EIO, "cannot write %s: %s", f->path, strerror(errno));
    return CUZK_OK;
}

static void out_free(cuzk_out_file *f)
{
    free(f->path);
    free(f->tmp_path);
    free(f->dest);
    memset(f, 0, sizeof *f);
}

cuzk_status cuzk_out_commit(cuzk_out_file *f)
{
    cuzk_status st = CUZK_OK;
    /* a device or FIFO written in place has nothing to sync; its errors show at the flush */
    if (fflush(f->fp) != 0 || ferror(f->fp) || (f->tmp_path && fsync(fileno(f->fp)) != 0))
        st = cuzk_fail(CUZK_EIO, "cannot write %s: %s", f->path, strerror(errno));
    if (fclose(f->fp) != 0 && st == CUZK_OK) st = cuzk_fail(CUZK_EIO, "cannot close %s: %s", f->path, strerror(errno));
    f->fp = NULL;
    if (st == CUZK_OK && f->tmp_path && rename(f->tmp_path, f->dest) != 0)
        st = cuzk_fail(CUZK_EIO, "cannot rename into %s: %s", f->path, strerror(errno));
    if (st != CUZK_OK && f->tmp_path) unlink(f->tmp_path);
    out_free(f);
    return st;
}

void cuzk_out_abort(cuzk_out_file *f)
{
    if (f->fp) fclose(f->fp);
    if (f->tmp_path) unlink(f->tmp_path);
    out_free(f);
}

cuzk_status cuzk_write_file_atomic(const char *path, const void *data, size_t n)
{
    cuzk_out_file f;
    cuzk_status st = cuzk_out_open(&f, path);
    if (st) return st;
    st = cuzk_out_write(&f, data, n);
    if (st) {
        cuzk_out_abort(&f);
        return st;
    }
    return cuzk_out_commit(&f);
}

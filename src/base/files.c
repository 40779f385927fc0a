/* Input files are mapped read-only; output files are written under a temporary name and
 * renamed into place on commit, so a failure never leaves a partial file. */
#include "cuzk/base.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

cuzk_status cuzk_map_file(cuzk_mapped_file *f, const char *path)
{
    memset(f, 0, sizeof *f);
    int fd = open(path, O_RDONLY);
    if (fd < 0) return cuzk_fail(CUZK_EIO, "cannot open %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return cuzk_fail(CUZK_EIO, "cannot stat %s: %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return cuzk_fail(CUZK_EIO, "%s is not a regular file", path);
    }
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

cuzk_status cuzk_read_file(const char *path, uint8_t **data, size_t *size)
{
    *data = NULL;
    *size = 0;
    FILE *fp = fopen(path, "rb");
    if (!fp) return cuzk_fail(CUZK_EIO, "cannot open %s: %s", path, strerror(errno));
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap + 1);
    for (;;) {
        if (!buf) {
            fclose(fp);
            return cuzk_fail(CUZK_ENOMEM, "out of memory reading %s", path);
        }
        n += fread(buf + n, 1, cap - n, fp);
        if (n < cap) break;
        cap *= 2;
        uint8_t *nb = realloc(buf, cap + 1);
        if (!nb) free(buf);
        buf = nb;
    }
    int err = ferror(fp);
    fclose(fp);
    if (err) {
        free(buf);
        return cuzk_fail(CUZK_EIO, "error reading %s", path);
    }
    buf[n] = 0;
    *data = buf;
    *size = n;
    return CUZK_OK;
}

cuzk_status cuzk_out_open(cuzk_out_file *f, const char *path)
{
    memset(f, 0, sizeof *f);
    size_t len = strlen(path);
    f->path = strdup(path);
    f->tmp_path = malloc(len + 32);
    if (!f->path || !f->tmp_path) {
        cuzk_out_abort(f);
        return cuzk_fail(CUZK_ENOMEM, "out of memory");
    }
    snprintf(f->tmp_path, len + 32, "%s.tmp.%ld", path, (long)getpid());
    f->fp = fopen(f->tmp_path, "wb");
    if (!f->fp) {
        int e = errno;
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

cuzk_status cuzk_out_commit(cuzk_out_file *f)
{
    cuzk_status st = CUZK_OK;
    if (fflush(f->fp) != 0 || fsync(fileno(f->fp)) != 0)
        st = cuzk_fail(CUZK_EIO, "cannot write %s: %s", f->path, strerror(errno));
    if (fclose(f->fp) != 0 && st == CUZK_OK) st = cuzk_fail(CUZK_EIO, "cannot close %s", f->path);
    f->fp = NULL;
    if (st == CUZK_OK && rename(f->tmp_path, f->path) != 0)
        st = cuzk_fail(CUZK_EIO, "cannot rename into %s: %s", f->path, strerror(errno));
    if (st != CUZK_OK) unlink(f->tmp_path);
    free(f->path);
    free(f->tmp_path);
    memset(f, 0, sizeof *f);
    return st;
}

void cuzk_out_abort(cuzk_out_file *f)
{
    if (f->fp) fclose(f->fp);
    if (f->tmp_path) unlink(f->tmp_path);
    free(f->path);
    free(f->tmp_path);
    memset(f, 0, sizeof *f);
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

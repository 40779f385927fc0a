/* Scratch memory backed by a file on disk (cuzk_scratch_map in base.h): for data larger than
 * the host memory should hold, such as a streamed GPU's parameters when the host budget cannot
 * keep them (the mapped placement). The file is made in the given folder and unlinked at once,
 * so nothing is left behind however the process ends; its blocks are reserved up front
 * (posix_fallocate), so a full disk is an error here, not a SIGBUS at a later write into the
 * mapping. A folder on a memory file system (tmpfs, ramfs) is refused: its pages would be the
 * host memory the mapping is meant to spare. */
#include "cuzk/base.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/vfs.h>
#include <unistd.h>

#define TMPFS_MAGIC_ 0x01021994
#define RAMFS_MAGIC_ 0x858458f6

cuzk_status cuzk_scratch_map(cuzk_scratch_mapping *m, const char *dir, uint64_t bytes)
{
    memset(m, 0, sizeof *m);
    if (!dir || !dir[0]) return cuzk_fail(CUZK_EINVAL, "no folder was given for the scratch file");
    if (bytes == 0) return cuzk_fail(CUZK_EINVAL, "a scratch file of 0 bytes was asked for in %s", dir);
    if (bytes > (uint64_t)SIZE_MAX || bytes > (uint64_t)INT64_MAX)
        return cuzk_fail(CUZK_EINVAL, "a scratch file of %llu bytes cannot be mapped", (unsigned long long)bytes);
    struct stat st;
    if (stat(dir, &st) != 0) return cuzk_fail(CUZK_EIO, "scratch folder %s: %s", dir, strerror(errno));
    if (!S_ISDIR(st.st_mode)) return cuzk_fail(CUZK_EIO, "scratch folder %s is not a folder", dir);
    struct statfs fs;
    if (statfs(dir, &fs) == 0 && ((unsigned long)fs.f_type == TMPFS_MAGIC_ || (unsigned long)fs.f_type == RAMFS_MAGIC_))
        return cuzk_fail(CUZK_EINVAL,
                         "scratch folder %s is on a memory file system (tmpfs or ramfs): a file there takes the "
                         "host memory it is meant to spare; name a folder on a disk",
                         dir);
    struct statvfs vs; /* the free space first: a clear message, and no slow emulated reservation */
    if (statvfs(dir, &vs) == 0 && (uint64_t)vs.f_bavail * vs.f_frsize < bytes)
        return cuzk_fail(CUZK_EBUDGET, "a scratch file of %llu bytes (%.2f GiB) does not fit the %.2f GiB free in %s",
                         (unsigned long long)bytes, (double)bytes / (double)(1ull << 30),
                         (double)vs.f_bavail * (double)vs.f_frsize / (double)(1ull << 30), dir);
    char path[4096];
    if (snprintf(path, sizeof path, "%s/cuzk-scratch-XXXXXX", dir) >= (int)sizeof path)
        return cuzk_fail(CUZK_EINVAL, "scratch folder name too long (%zu bytes)", strlen(dir));
    const int fd = mkstemp(path);
    if (fd < 0) return cuzk_fail(CUZK_EIO, "cannot make a scratch file in %s: %s", dir, strerror(errno));
    unlink(path); /* the mapping keeps it until it goes */
    const int e = posix_fallocate(fd, 0, (off_t)bytes);
    if (e) {
        close(fd);
        return cuzk_fail(e == ENOSPC ? CUZK_EBUDGET : CUZK_EIO,
                         "cannot reserve %llu bytes (%.2f GiB) for a scratch file in %s: %s", (unsigned long long)bytes,
                         (double)bytes / (double)(1ull << 30), dir, strerror(e));
    }
    void *p = mmap(NULL, (size_t)bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    const int me = errno;
    close(fd);
    if (p == MAP_FAILED)
        return cuzk_fail(CUZK_EIO, "cannot map a scratch file of %llu bytes in %s: %s", (unsigned long long)bytes, dir,
                         strerror(me));
    m->data = p;
    m->size = (size_t)bytes;
    return CUZK_OK;
}

void cuzk_scratch_unmap(cuzk_scratch_mapping *m)
{
    if (m->data) munmap(m->data, m->size);
    memset(m, 0, sizeof *m);
}

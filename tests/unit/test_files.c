/* Input and output files (base): inputs are regular files only, refused without blocking (a
 * FIFO) or reading (/dev/zero), within a size limit; an output replaces a regular file through
 * a temporary, follows a symbolic link (its target replaced, the link kept), is written in place
 * on a FIFO, and refuses a folder or a dangling link. Scratch memory mapped from an unlinked
 * file: usable, nothing left on disk, refused where it cannot be had. Everything happens in a temporary folder;
 * an alarm fails the test instead of letting a blocking open hang it. */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

static char dir[256];

static const char *at(const char *name)
{
    static char buf[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "test_files: blocked (a file open or read waited)\n";
    if (write(2, msg, sizeof msg - 1)) {}
    _exit(1);
}

typedef struct {
    const char *path;
    char got[512];
    ssize_t n;
} reader;

static void *read_fifo(void *arg)
{
    reader *r = arg;
    int fd = open(r->path, O_RDONLY);
    r->n = fd < 0 ? -1 : 0;
    for (ssize_t k; fd >= 0 && (k = read(fd, r->got + r->n, sizeof r->got - (size_t)r->n)) > 0;) r->n += k;
    if (fd >= 0) close(fd);
    return NULL;
}

static int file_is(const char *path, const char *want)
{
    uint8_t *d = NULL;
    size_t n = 0;
    int ok = cuzk_read_file(path, &d, &n) == CUZK_OK && n == strlen(want) && !memcmp(d, want, n);
    free(d);
    return ok;
}

int main(void)
{
    signal(SIGALRM, on_alarm);
    alarm(60);
    snprintf(dir, sizeof dir, "%s/cuzk-files.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) TEST_SKIP("cannot make a temporary folder");

    /* inputs */
    CHECK_OK(cuzk_write_file_atomic(at("a"), "hello", 5));
    uint8_t *d = NULL;
    size_t n = 0;
    CHECK_OK(cuzk_read_file_max(at("a"), 5, &d, &n));
    CHECK(n == 5 && !memcmp(d, "hello", 5) && d[5] == 0);
    free(d);
    CHECK_FAILS(cuzk_read_file_max(at("a"), 4, &d, &n), CUZK_EFORMAT);
    CHECK(strstr(cuzk_last_error(), "more than the 4"));
    CHECK(mkfifo(at("fifo"), 0600) == 0);
    cuzk_mapped_file m;
    CHECK_FAILS(cuzk_map_file(&m, at("fifo")), CUZK_EIO); /* not waited on */
    CHECK(strstr(cuzk_last_error(), "not a regular file (a FIFO)"));
    CHECK_FAILS(cuzk_read_file(at("fifo"), &d, &n), CUZK_EIO);
    CHECK_FAILS(cuzk_check_input_file(at("fifo"), 100), CUZK_EIO);
    CHECK_FAILS(cuzk_read_file("/dev/zero", &d, &n), CUZK_EIO); /* not read to its end */
    CHECK(strstr(cuzk_last_error(), "a character device"));
    CHECK_FAILS(cuzk_map_file(&m, dir), CUZK_EIO);
    CHECK_OK(cuzk_check_input_file(at("a"), 5));

    /* a link: its target replaced, the link kept */
    CHECK(symlink("a", at("link")) == 0);
    CHECK_OK(cuzk_write_file_atomic(at("link"), "new", 3));
    struct stat st;
    CHECK(lstat(at("link"), &st) == 0 && S_ISLNK(st.st_mode));
    CHECK(file_is(at("a"), "new"));
    CHECK(symlink("missing", at("dangling")) == 0);
    CHECK_FAILS(cuzk_write_file_atomic(at("dangling"), "x", 1), CUZK_EIO);
    CHECK(access(at("missing"), F_OK) != 0);

    /* a folder is refused; a FIFO is written in place */
    CHECK(mkdir(at("sub"), 0700) == 0);
    CHECK_FAILS(cuzk_write_file_atomic(at("sub"), "x", 1), CUZK_EIO);
    CHECK(stat(at("sub"), &st) == 0 && S_ISDIR(st.st_mode));
    reader r = {at("fifo"), {0}, 0};
    pthread_t t;
    CHECK(pthread_create(&t, NULL, read_fifo, &r) == 0);
    CHECK_OK(cuzk_write_file_atomic(at("fifo"), "through", 7));
    pthread_join(t, NULL);
    CHECK(r.n == 7 && !memcmp(r.got, "through", 7));
    CHECK(stat(at("fifo"), &st) == 0 && S_ISFIFO(st.st_mode));

    /* an aborted output leaves the file it would replace, and no temporary */
    cuzk_out_file f;
    CHECK_OK(cuzk_out_open(&f, at("a")));
    CHECK_OK(cuzk_out_write(&f, "partial", 7));
    cuzk_out_abort(&f);
    CHECK(file_is(at("a"), "new"));
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", at("a"), (long)getpid());
    CHECK(access(tmp, F_OK) != 0);

    /* scratch memory on disk: written and read back through the mapping, its file unlinked
     * from the start (the folder stays empty), refused in a missing folder, a file, on tmpfs,
     * and where the disk cannot hold it */
    cuzk_scratch_mapping sm;
    CHECK_OK(cuzk_scratch_map(&sm, at("sub"), 3 << 20));
    CHECK(sm.data != NULL && sm.size == 3 << 20);
    memset(sm.data, 0x5a, sm.size);
    CHECK(((uint8_t *)sm.data)[sm.size - 1] == 0x5a);
    CHECK(rmdir(at("sub")) == 0 && mkdir(at("sub"), 0700) == 0); /* empty: the file is unlinked */
    cuzk_scratch_unmap(&sm);
    CHECK(sm.data == NULL && sm.size == 0);
    cuzk_scratch_unmap(&sm); /* twice is harmless */
    CHECK_FAILS(cuzk_scratch_map(&sm, at("nowhere"), 4096), CUZK_EIO);
    CHECK(strstr(cuzk_last_error(), "nowhere") != NULL);
    CHECK_FAILS(cuzk_scratch_map(&sm, at("a"), 4096), CUZK_EIO);
    CHECK(strstr(cuzk_last_error(), "is not a folder") != NULL);
    CHECK_FAILS(cuzk_scratch_map(&sm, at("sub"), 0), CUZK_EINVAL);
    CHECK_FAILS(cuzk_scratch_map(&sm, "", 4096), CUZK_EINVAL);
    if (access("/dev/shm", W_OK) == 0) {
        CHECK_FAILS(cuzk_scratch_map(&sm, "/dev/shm", 4096), CUZK_EINVAL);
        CHECK(strstr(cuzk_last_error(), "memory file system") != NULL);
    }
    CHECK_FAILS(cuzk_scratch_map(&sm, at("sub"), 1ull << 60), CUZK_EBUDGET); /* 1 EiB: no disk has it */
    CHECK(strstr(cuzk_last_error(), "does not fit") != NULL && strstr(cuzk_last_error(), "GiB free in") != NULL);
    CHECK(sm.data == NULL);
    CHECK(rmdir(at("sub")) == 0 && mkdir(at("sub"), 0700) == 0); /* nothing left by the failure */

    const char *names[] = {"a", "link", "dangling", "fifo"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) unlink(at(names[i]));
    rmdir(at("sub"));
    rmdir(dir);
    return harness_finish("test_files");
}

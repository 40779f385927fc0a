/* A command's output files, checked before the work and committed all or none (outputs.h). */
#include "cli/outputs.h"
#include "cuzk/engine.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { OUT_FILE, OUT_DEVICE, OUT_STDOUT };

typedef struct {
    char *opt, *path;
    char *resolved; /* an absolute path where one can be had, for comparisons */
    bool cache;     /* cli_outputs_cache: written when missing */
    bool exists;
    dev_t dev;
    ino_t ino;
} file_id;

typedef struct {
    file_id id;
    int kind;
    char *dest; /* OUT_FILE: the regular file the temporary replaces */
    char *tmp;  /* the temporary, once staged */
    bool done;  /* in place */
} output;

typedef struct {
    char *opt, *path;
    mode_t mode;
    bool make, made;
} folder;

struct cli_outputs {
    output *out;
    size_t nout, capout;
    file_id *in;
    size_t nin, capin;
    folder *dirs;
    size_t ndirs, capdirs;
    bool oom, checked, stage_tried, staged, committed;
};

static bool grow(void **p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap) return true;
    size_t nc = *cap ? *cap * 2 : 8;
    void *np = realloc(*p, nc * size);
    if (!np) return false;
    *p = np;
    *cap = nc;
    return true;
}

cli_outputs *cli_outputs_new(void) { return calloc(1, sizeof(cli_outputs)); }

/* "dir" of "dir/name" without trailing slashes ("." for a bare name), malloc'd. */
static char *parent_of(const char *path)
{
    char *copy = strdup(path);
    if (!copy) return NULL;
    char *d = strdup(dirname(copy));
    free(copy);
    return d;
}

static char *strip_slashes(const char *path)
{
    char *s = strdup(path);
    size_t n = s ? strlen(s) : 0;
    while (n > 1 && s[n - 1] == '/') s[--n] = 0;
    return s;
}

/* The absolute path of path: realpath when it exists, else its resolved folder and its name;
 * NULL when neither resolves (it is then compared by device and inode only). */
static char *resolve(const char *path)
{
    char *r = realpath(path, NULL);
    if (r || errno != ENOENT) return r;
    char *copy = strdup(path), *copy2 = strdup(path);
    char *dir = copy ? realpath(dirname(copy), NULL) : NULL;
    const char *base = copy2 ? basename(copy2) : NULL;
    if (dir && base) {
        size_t n = strlen(dir) + strlen(base) + 2;
        r = malloc(n);
        if (r) snprintf(r, n, "%s/%s", dir, base);
    }
    free(dir);
    free(copy);
    free(copy2);
    return r;
}

static void id_fill(file_id *id)
{
    struct stat st;
    if (stat(id->path, &st) == 0) {
        id->exists = true;
        id->dev = st.st_dev;
        id->ino = st.st_ino;
    }
    id->resolved = resolve(id->path);
}

static bool id_init(cli_outputs *o, file_id *id, const char *opt, const char *path)
{
    memset(id, 0, sizeof *id);
    id->opt = strdup(opt);
    id->path = strdup(path);
    if (!id->opt || !id->path) {
        free(id->opt);
        free(id->path);
        o->oom = true;
        return false;
    }
    return true;
}

static bool same_file(const file_id *a, const file_id *b)
{
    if (a->exists && b->exists) return a->dev == b->dev && a->ino == b->ino;
    return a->resolved && b->resolved && !strcmp(a->resolved, b->resolved);
}

void cli_outputs_input(cli_outputs *o, const char *opt, const char *path)
{
    if (!path) return;
    if (!grow((void **)&o->in, &o->capin, o->nin, sizeof *o->in)) {
        o->oom = true;
        return;
    }
    if (id_init(o, &o->in[o->nin], opt, path)) o->nin++;
}

void cli_outputs_inputs_from(cli_outputs *o, const cli_outputs *other)
{
    for (size_t i = 0; i < other->nin; i++) cli_outputs_input(o, other->in[i].opt, other->in[i].path);
    for (size_t i = 0; i < other->nout; i++)
        if (strcmp(other->out[i].id.path, "-")) cli_outputs_input(o, other->out[i].id.opt, other->out[i].id.path);
}

void cli_outputs_cache(cli_outputs *o, const char *opt, const char *path)
{
    size_t n = o->nin;
    cli_outputs_input(o, opt, path);
    if (o->nin > n) o->in[n].cache = true;
}

void cli_outputs_input_in(cli_outputs *o, const char *opt, const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (!p) {
        o->oom = true;
        return;
    }
    snprintf(p, n, "%s/%s", dir, name);
    cli_outputs_input(o, opt, p);
    free(p);
}

void cli_outputs_folder(cli_outputs *o, const char *opt, const char *dir, mode_t mode)
{
    if (!grow((void **)&o->dirs, &o->capdirs, o->ndirs, sizeof *o->dirs)) {
        o->oom = true;
        return;
    }
    folder *f = &o->dirs[o->ndirs];
    memset(f, 0, sizeof *f);
    f->opt = strdup(opt);
    f->path = strip_slashes(dir);
    f->mode = mode;
    if (!f->opt || !f->path) {
        free(f->opt);
        free(f->path);
        o->oom = true;
        return;
    }
    o->ndirs++;
}

int cli_outputs_add(cli_outputs *o, const char *opt, const char *path)
{
    int i = (int)o->nout;
    if (!grow((void **)&o->out, &o->capout, o->nout, sizeof *o->out)) {
        o->oom = true;
        return i;
    }
    output *out = &o->out[o->nout];
    memset(out, 0, sizeof *out);
    if (id_init(o, &out->id, opt, path)) o->nout++;
    return i;
}

int cli_outputs_add_in(cli_outputs *o, const char *opt, const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (!p) {
        o->oom = true;
        return (int)o->nout;
    }
    size_t dl = strlen(dir);
    while (dl > 1 && dir[dl - 1] == '/') dl--;
    snprintf(p, n, "%.*s/%s", (int)dl, dir, name);
    int i = cli_outputs_add(o, opt, p);
    free(p);
    return i;
}

static cuzk_status check_folder(folder *f)
{
    struct stat st, lst;
    if (stat(f->path, &st) == 0) {
        if (!S_ISDIR(st.st_mode)) return cuzk_fail(CUZK_EIO, "--%s: %s exists and is not a folder", f->opt, f->path);
        if (access(f->path, W_OK | X_OK) != 0)
            return cuzk_fail(CUZK_EIO, "--%s: cannot write in folder %s: %s", f->opt, f->path, strerror(errno));
        return CUZK_OK;
    }
    if (errno != ENOENT) return cuzk_fail(CUZK_EIO, "--%s: %s: %s", f->opt, f->path, strerror(errno));
    if (lstat(f->path, &lst) == 0)
        return cuzk_fail(CUZK_EIO, "--%s: %s is a symbolic link to a missing folder", f->opt, f->path);
    /* only the last component is made: a mistyped parent should not grow a tree of folders */
    char *parent = parent_of(f->path);
    if (!parent) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    cuzk_status s = CUZK_OK;
    if (stat(parent, &st) != 0 || !S_ISDIR(st.st_mode))
        s = cuzk_fail(CUZK_EIO, "--%s: cannot make folder %s: its parent folder does not exist", f->opt, f->path);
    else if (access(parent, W_OK | X_OK) != 0)
        s = cuzk_fail(CUZK_EIO, "--%s: cannot make folder %s: %s", f->opt, f->path, strerror(errno));
    free(parent);
    f->make = !s;
    return s;
}

/* The folder an output lies in is one this command makes (so it need not exist yet). */
static bool in_made_folder(const cli_outputs *o, const char *parent)
{
    for (size_t i = 0; i < o->ndirs; i++)
        if (o->dirs[i].make && !strcmp(o->dirs[i].path, parent)) return true;
    return false;
}

static cuzk_status check_output(cli_outputs *o, output *out)
{
    const char *opt = out->id.opt, *path = out->id.path;
    if (!strcmp(path, "-")) {
        out->kind = OUT_STDOUT;
        struct stat st;
        /* standard output redirected to a file: that file must not be an input either */
        if (fstat(STDOUT_FILENO, &st) == 0 && S_ISREG(st.st_mode)) {
            out->id.exists = true;
            out->id.dev = st.st_dev;
            out->id.ino = st.st_ino;
        }
        return CUZK_OK;
    }
    struct stat st, lst;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) return cuzk_fail(CUZK_EIO, "--%s %s: is a folder (name a file to write)", opt, path);
        if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
            out->kind = OUT_DEVICE;
            if (access(path, W_OK) != 0)
                return cuzk_fail(CUZK_EIO, "--%s %s: cannot write: %s", opt, path, strerror(errno));
            id_fill(&out->id);
            return CUZK_OK;
        }
        if (!S_ISREG(st.st_mode))
            return cuzk_fail(CUZK_EIO, "--%s %s: not a regular file, character device or FIFO", opt, path);
        out->kind = OUT_FILE;
        bool link = lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode);
        out->dest = link ? realpath(path, NULL) : strdup(path);
        if (!out->dest) return cuzk_fail(CUZK_EIO, "--%s %s: cannot resolve: %s", opt, path, strerror(errno));
    } else if (errno == ENOENT) {
        if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
            return cuzk_fail(CUZK_EIO, "--%s %s: a symbolic link to a missing file", opt, path);
        out->kind = OUT_FILE;
        out->dest = strdup(path);
        if (!out->dest) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    } else {
        return cuzk_fail(CUZK_EIO, "--%s %s: %s", opt, path, strerror(errno));
    }
    /* the temporary is made beside the file it replaces: that folder must take it */
    char *parent = parent_of(out->dest);
    if (!parent) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    cuzk_status s = CUZK_OK;
    if (!in_made_folder(o, parent)) {
        struct stat pst;
        if (stat(parent, &pst) != 0)
            s = cuzk_fail(CUZK_EIO, "--%s %s: the folder %s %s", opt, path, parent,
                          errno == ENOENT ? "does not exist" : strerror(errno));
        else if (!S_ISDIR(pst.st_mode)) s = cuzk_fail(CUZK_EIO, "--%s %s: %s is not a folder", opt, path, parent);
        else if (access(parent, W_OK | X_OK) != 0)
            s = cuzk_fail(CUZK_EIO, "--%s %s: cannot write in the folder %s: %s", opt, path, parent, strerror(errno));
    }
    free(parent);
    if (!s) id_fill(&out->id);
    return s;
}

/* A cache file (cli_outputs_cache): a regular file when it is there, else one its folder takes. */
static cuzk_status check_cache(const file_id *id)
{
    struct stat st;
    if (stat(id->path, &st) == 0)
        return S_ISREG(st.st_mode) ? CUZK_OK : cuzk_fail(CUZK_EIO, "--%s %s: not a regular file", id->opt, id->path);
    if (errno != ENOENT) return cuzk_fail(CUZK_EIO, "--%s %s: %s", id->opt, id->path, strerror(errno));
    char *parent = parent_of(id->path);
    if (!parent) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    cuzk_status s = CUZK_OK;
    if (stat(parent, &st) != 0 || !S_ISDIR(st.st_mode))
        s = cuzk_fail(CUZK_EIO, "--%s %s: the folder %s does not exist", id->opt, id->path, parent);
    else if (access(parent, W_OK | X_OK) != 0)
        s = cuzk_fail(CUZK_EIO, "--%s %s: cannot write in the folder %s: %s", id->opt, id->path, parent,
                      strerror(errno));
    free(parent);
    return s;
}

cuzk_status cli_outputs_check(cli_outputs *o)
{
    if (o->oom) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    for (size_t i = 0; i < o->nin; i++) id_fill(&o->in[i]);
    cuzk_status s = CUZK_OK;
    for (size_t i = 0; i < o->nin && !s; i++)
        if (o->in[i].cache) s = check_cache(&o->in[i]);
    for (size_t i = 0; i < o->ndirs && !s; i++) s = check_folder(&o->dirs[i]);
    for (size_t i = 0; i < o->nout && !s; i++) s = check_output(o, &o->out[i]);
    for (size_t i = 0; i < o->nout && !s; i++) {
        const output *a = &o->out[i];
        for (size_t j = 0; j < o->nin && !s; j++)
            if (a->kind != OUT_DEVICE && same_file(&a->id, &o->in[j]))
                s = cuzk_fail(CUZK_EINVAL,
                              "--%s %s: is the input file given as --%s %s (an output never replaces an input)",
                              a->id.opt, a->id.path, o->in[j].opt, o->in[j].path);
        for (size_t j = 0; j < i && !s; j++) {
            const output *b = &o->out[j];
            if (a->kind == OUT_STDOUT && b->kind == OUT_STDOUT)
                s = cuzk_fail(CUZK_EINVAL, "--%s and --%s are both standard output (-): give one of them a file",
                              b->id.opt, a->id.opt);
            else if (a->kind != OUT_DEVICE && b->kind != OUT_DEVICE && same_file(&a->id, &b->id))
                s = cuzk_fail(CUZK_EINVAL, "--%s %s and --%s %s name the same file", b->id.opt, b->id.path, a->id.opt,
                              a->id.path);
        }
    }
    o->checked = !s;
    return s;
}

static cuzk_status stage(cli_outputs *o)
{
    if (!o->checked) return cuzk_fail(CUZK_EINTERNAL, "internal: outputs written before they were checked");
    if (o->stage_tried) return cuzk_fail(CUZK_EIO, "the outputs' temporary files could not be made");
    o->stage_tried = true;
    for (size_t i = 0; i < o->ndirs; i++) {
        folder *f = &o->dirs[i];
        if (!f->make) continue;
        if (mkdir(f->path, f->mode) == 0) f->made = true;
        else if (errno != EEXIST) return cuzk_fail(CUZK_EIO, "cannot make the folder %s: %s", f->path, strerror(errno));
    }
    const char *tmpdir = getenv("TMPDIR");
    if (!tmpdir || !*tmpdir) tmpdir = "/tmp";
    for (size_t i = 0; i < o->nout; i++) {
        output *out = &o->out[i];
        size_t n = (out->dest ? strlen(out->dest) : strlen(tmpdir)) + 48;
        if (!(out->tmp = malloc(n))) return cuzk_fail(CUZK_ENOMEM, "out of memory");
        if (out->kind == OUT_FILE) {
            /* made fresh here (whatever a stale one was, a link included, goes first), so that the
             * writers find a regular file of this run's at the temporary's name */
            snprintf(out->tmp, n, "%s.tmp.%ld", out->dest, (long)getpid());
            unlink(out->tmp);
            int fd = open(out->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
            if (fd < 0) {
                int e = errno;
                out->tmp[0] = 0;
                return cuzk_fail(CUZK_EIO, "--%s %s: cannot make a temporary file beside it: %s", out->id.opt,
                                 out->id.path, strerror(e));
            }
            close(fd);
            continue;
        }
        /* a device, FIFO or standard output is copied from a file staged in TMPDIR at commit */
        snprintf(out->tmp, n, "%s/cuzk-out.XXXXXX", tmpdir);
        int fd = mkstemp(out->tmp);
        if (fd < 0) {
            int e = errno;
            out->tmp[0] = 0;
            return cuzk_fail(CUZK_EIO, "cannot make a temporary file in %s for --%s %s: %s", tmpdir, out->id.opt,
                             out->id.path, strerror(e));
        }
        close(fd);
    }
    o->staged = true;
    return CUZK_OK;
}

const char *cli_outputs_path(cli_outputs *o, int i)
{
    if (i < 0 || (size_t)i >= o->nout) {
        cuzk_fail(CUZK_EINTERNAL, "internal: no output %d", i);
        return NULL;
    }
    if (!o->staged && stage(o)) return NULL;
    return o->out[i].tmp;
}

cuzk_status cli_outputs_context(cli_outputs *o, int i, cuzk_status st)
{
    if (!st || i < 0 || (size_t)i >= o->nout) return st;
    return cuzk_fail_context(st, "--%s %s", o->out[i].id.opt, o->out[i].id.path);
}

cuzk_status cli_outputs_write(cli_outputs *o, int i, const void *data, size_t n)
{
    const char *p = cli_outputs_path(o, i);
    if (!p) return CUZK_EIO;
    return cli_outputs_context(o, i, cuzk_write_file_atomic(p, data, n));
}

/* Removes the temporaries not renamed into place and, after a failure, the folders made. */
cuzk_status cli_outputs_write_inputs(cli_outputs *o, int i, const uint8_t *inputs, size_t nproofs, size_t ninputs,
                                     bool nested)
{
    const char *p = cli_outputs_path(o, i);
    if (!p) return CUZK_EIO;
    size_t n = nproofs * ninputs;
    cuzk_fr *fr = malloc(n * sizeof *fr + 1);
    if (!fr) return cli_outputs_context(o, i, cuzk_fail(CUZK_ENOMEM, "out of memory"));
    cuzk_status st = CUZK_OK;
    for (size_t k = 0; k < n && !st; k++) st = cuzk_fr_from_bytes_le(&fr[k], inputs + k * CUZK_INPUT_BYTES);
    if (!st) st = cuzk_inputs_json_write(p, fr, nproofs, ninputs, nested);
    free(fr);
    return cli_outputs_context(o, i, st);
}

static void unstage(cli_outputs *o, bool failed)
{
    for (size_t i = 0; i < o->nout; i++) {
        output *out = &o->out[i];
        if (out->tmp && out->tmp[0] && !(out->done && out->kind == OUT_FILE)) unlink(out->tmp);
    }
    for (size_t i = o->ndirs; failed && i-- > 0;)
        if (o->dirs[i].made) rmdir(o->dirs[i].path); /* only when empty: nothing was committed in it */
}

/* Copies the staged file to the device, FIFO or standard output in place, every write checked. */
static cuzk_status copy_out(output *out)
{
    int in = open(out->tmp, O_RDONLY | O_CLOEXEC);
    if (in < 0) return cuzk_fail(CUZK_EIO, "cannot read back %s: %s", out->tmp, strerror(errno));
    int fd = STDOUT_FILENO;
    if (out->kind == OUT_STDOUT) fflush(stdout);
    else fd = open(out->id.path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    cuzk_status s = CUZK_OK;
    if (fd < 0) s = cuzk_fail(CUZK_EIO, "--%s %s: cannot open: %s", out->id.opt, out->id.path, strerror(errno));
    size_t cap = 1 << 16;
    char *buf = malloc(cap);
    if (!buf && !s) s = cuzk_fail(CUZK_ENOMEM, "out of memory");
    while (!s) {
        ssize_t r = read(in, buf, cap);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) s = cuzk_fail(CUZK_EIO, "cannot read back %s: %s", out->tmp, strerror(errno));
        if (r <= 0) break;
        for (ssize_t w = 0; w < r && !s;) {
            ssize_t k = write(fd, buf + w, (size_t)(r - w));
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0)
                s = cuzk_fail(CUZK_EIO, "--%s %s: cannot write: %s", out->id.opt,
                              out->kind == OUT_STDOUT ? "(standard output)" : out->id.path,
                              k < 0 ? strerror(errno) : "nothing written");
            else w += k;
        }
    }
    if (fd >= 0 && fd != STDOUT_FILENO && close(fd) != 0 && !s)
        s = cuzk_fail(CUZK_EIO, "--%s %s: cannot write: %s", out->id.opt, out->id.path, strerror(errno));
    free(buf);
    close(in);
    return s;
}

cuzk_status cli_outputs_commit(cli_outputs *o)
{
    if (!o->staged) {
        /* a command whose outputs were all optional and absent */
        if (o->nout) return cuzk_fail(CUZK_EINTERNAL, "internal: outputs committed before they were written");
        o->committed = true;
        return CUZK_OK;
    }
    cuzk_status s = CUZK_OK;
    for (size_t i = 0; i < o->nout && !s; i++)
        if (o->out[i].kind != OUT_FILE) s = copy_out(&o->out[i]);
    for (size_t i = 0; i < o->nout && !s; i++) {
        output *out = &o->out[i];
        if (out->kind != OUT_FILE) continue;
        if (rename(out->tmp, out->dest) != 0)
            s = cuzk_fail(CUZK_EIO, "--%s %s: cannot rename the finished file into place: %s", out->id.opt,
                          out->id.path, strerror(errno));
        else out->done = true;
    }
    unstage(o, s != CUZK_OK);
    o->committed = true; /* what is left to undo was undone */
    return s;
}

void cli_outputs_free(cli_outputs *o)
{
    if (!o) return;
    if (o->stage_tried && !o->committed) unstage(o, true);
    for (size_t i = 0; i < o->nout; i++) {
        free(o->out[i].id.opt);
        free(o->out[i].id.path);
        free(o->out[i].id.resolved);
        free(o->out[i].dest);
        free(o->out[i].tmp);
    }
    for (size_t i = 0; i < o->nin; i++) {
        free(o->in[i].opt);
        free(o->in[i].path);
        free(o->in[i].resolved);
    }
    for (size_t i = 0; i < o->ndirs; i++) {
        free(o->dirs[i].opt);
        free(o->dirs[i].path);
    }
    free(o->out);
    free(o->in);
    free(o->dirs);
    free(o);
}

cuzk_status cli_input_check(const char *opt, const char *path, uint64_t max)
{
    cuzk_status s = cuzk_check_input_file(path, max);
    return s ? cuzk_fail_context(s, "--%s", opt) : CUZK_OK;
}

uint64_t cli_inputs_json_max(uint64_t nproofs, uint64_t ninputs)
{
    /* a value is at most 77 digits, its quotes and a comma; indentation and line ends take the
     * rest of 128 bytes */
    return 4096 + nproofs * (64 + ninputs * 128);
}

cuzk_status cli_check_vk(const char *path, size_t ninputs, const char *what)
{
    cuzk_groth16_vk vk = {0};
    cuzk_status s = cuzk_groth16_vk_read(&vk, path);
    if (!s && vk.ic_len != ninputs + 1)
        s = cuzk_fail(CUZK_EINVAL,
                      "--vk %s: a key for %zu public inputs, but %s has %zu (a key of another proof type?)", path,
                      vk.ic_len ? vk.ic_len - 1 : 0, what, ninputs);
    cuzk_groth16_vk_free(&vk);
    return s;
}

/* The listen address: a Unix socket path (its folder made, a stale socket replaced, a live one
 * or a path that is no socket refused, a folder other users could write to refused) or a TCP
 * HOST:PORT, turned into gRPC's address form. The socket file bound is remembered by device and
 * inode, so that shutdown removes it only while the path still names it. */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "server_internal.h"

/* Connections the kernel holds until the accept thread takes them (capped by
 * net.core.somaxconn): a burst larger than this fails a gRPC client's connect on a unix socket
 * (server_accept.c); 128 was filled by 200 connections opened at once (the soak's flood). */
#define LISTEN_BACKLOG SOMAXCONN

/* mkdir -p of the folder holding path */
static cuzk_status make_parent(const char *path)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir) return CUZK_OK;
    *slash = 0;
    for (char *p = dir + 1; p <= dir + strlen(dir); p++) {
        if (*p != '/' && *p) continue;
        char keep = *p;
        *p = 0;
        if (mkdir(dir, 0755) && errno != EEXIST)
            return cuzk_fail(CUZK_EIO, "listen: cannot make the socket's folder %s: %s", dir, strerror(errno));
        *p = keep;
    }
    struct stat st;
    if (stat(dir, &st) || !S_ISDIR(st.st_mode))
        return cuzk_fail(CUZK_EIO, "listen: %s, the socket's folder, is not a folder", dir);
    return CUZK_OK;
}

/* The socket's folder must be one that no other user can rename or replace files in: owned by
 * this user or root, and not writable by others unless sticky (then others cannot remove our
 * socket, but could take the name first while it is free: *warning says so). */
static cuzk_status check_folder(const char *path, char *warning, size_t warning_cap)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash == dir) slash[1] = 0;
    else *slash = 0;
    struct stat st;
    if (stat(dir, &st)) return cuzk_fail(CUZK_EIO, "listen: the socket's folder %s: %s", dir, strerror(errno));
    if (st.st_uid != geteuid() && st.st_uid != 0)
        return cuzk_fail(CUZK_EIO,
                         "listen: the socket's folder %s belongs to user id %u, neither this user (%u) nor root: "
                         "its owner could replace the socket (use a folder of the daemon's user)",
                         dir, (unsigned)st.st_uid, (unsigned)geteuid());
    bool others_write = (st.st_mode & (S_IWOTH | S_IWGRP)) != 0;
    if (others_write && !(st.st_mode & S_ISVTX))
        return cuzk_fail(CUZK_EIO,
                         "listen: the socket's folder %s is writable by other users (mode %04o, not sticky): they "
                         "could replace the socket (use a folder only the daemon's user can write)",
                         dir, (unsigned)(st.st_mode & 07777));
    if (others_write)
        snprintf(warning, warning_cap,
                 "the socket's folder %s is writable by other users (mode %04o, sticky): another user could "
                 "take the socket's name while the daemon is stopped; a folder of the daemon's user is safer",
                 dir, (unsigned)(st.st_mode & 07777));
    return CUZK_OK;
}

/* A socket file at path: live (a daemon answers), stale (removed) or refused. */
static cuzk_status clear_stale(const char *path)
{
    struct stat st;
    if (lstat(path, &st)) {
        if (errno == ENOENT) return CUZK_OK;
        return cuzk_fail(CUZK_EIO, "listen: %s: %s", path, strerror(errno));
    }
    if (!S_ISSOCK(st.st_mode))
        return cuzk_fail(CUZK_EIO, "listen: %s exists and is not a socket (refusing to replace it)", path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return cuzk_fail(CUZK_EIO, "listen: socket(): %s", strerror(errno));
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    snprintf(a.sun_path, sizeof a.sun_path, "%s", path);
    int live = connect(fd, (struct sockaddr *)&a, sizeof a) == 0;
    int err = errno;
    close(fd);
    if (live)
        return cuzk_fail(CUZK_EIO, "listen: another daemon is listening on %s (stop it first, or listen elsewhere)",
                         path);
    if (err != ECONNREFUSED && err != ENOENT)
        return cuzk_fail(CUZK_EIO, "listen: cannot tell whether %s is in use: %s", path, strerror(err));
    if (unlink(path) && errno != ENOENT)
        return cuzk_fail(CUZK_EIO, "listen: cannot remove the stale socket %s: %s", path, strerror(errno));
    return CUZK_OK;
}

cuzk_status listen_prepare(const char *listen, char *grpc_addr, size_t cap, char *path, size_t path_cap, char *warning,
                           size_t warning_cap)
{
    path[0] = 0;
    warning[0] = 0;
    const char *p = NULL;
    if (!strncmp(listen, "unix://", 7)) p = listen + 7;
    else if (!strncmp(listen, "unix:", 5)) p = listen + 5;
    if (p) {
        if (p[0] != '/') return cuzk_fail(CUZK_EINVAL, "listen: '%s': the socket path must be absolute", listen);
        if (strlen(p) >= sizeof(((struct sockaddr_un *)0)->sun_path) || strlen(p) >= path_cap)
            return cuzk_fail(CUZK_EINVAL, "listen: the socket path %s is longer than a Unix socket allows (%zu)", p,
                             sizeof(((struct sockaddr_un *)0)->sun_path) - 1);
        cuzk_status st = make_parent(p);
        if (!st) st = check_folder(p, warning, warning_cap);
        if (!st) st = clear_stale(p);
        if (st) return st;
        snprintf(path, path_cap, "%s", p);
        snprintf(grpc_addr, cap, "unix:%s", p);
        return CUZK_OK;
    }
    /* HOST:PORT, HOST an IPv4 address, a name, or [IPv6] */
    const char *colon = strrchr(listen, ':');
    if (!colon || colon == listen || !colon[1] || strspn(colon + 1, "0123456789") != strlen(colon + 1) ||
        strlen(colon + 1) > 5)
        return cuzk_fail(CUZK_EINVAL, "listen: '%s' is neither unix:///PATH nor HOST:PORT", listen);
    unsigned long port = strtoul(colon + 1, NULL, 10);
    if (port > 65535) return cuzk_fail(CUZK_EINVAL, "listen: port %lu is outside 0..65535", port);
    if (strlen(listen) >= cap) return cuzk_fail(CUZK_EINVAL, "listen: '%s' is too long", listen);
    snprintf(grpc_addr, cap, "%s", listen);
    return CUZK_OK;
}

cuzk_status listen_claim_socket(const char *path, dev_t *dev, ino_t *ino)
{
    struct stat st;
    if (lstat(path, &st)) return cuzk_fail(CUZK_EIO, "listen: the socket %s after the bind: %s", path, strerror(errno));
    if (!S_ISSOCK(st.st_mode))
        return cuzk_fail(CUZK_EIO, "listen: %s is no socket after the bind (replaced meanwhile?)", path);
    *dev = st.st_dev;
    *ino = st.st_ino;
    return CUZK_OK;
}

void listen_remove_socket(const char *path, dev_t dev, ino_t ino)
{
    struct stat st;
    if (!lstat(path, &st) && S_ISSOCK(st.st_mode) && st.st_dev == dev && st.st_ino == ino) unlink(path);
}

/* A Unix socket bound at path under umask 0177 (mode 0600 from the start) and listening. */
static cuzk_status bind_unix(const char *path, int *out)
{
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return cuzk_fail(CUZK_EIO, "listen: socket(): %s", strerror(errno));
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    snprintf(a.sun_path, sizeof a.sun_path, "%s", path);
    mode_t old = umask(0177);
    int r = bind(fd, (struct sockaddr *)&a, sizeof a);
    int err = errno;
    umask(old);
    if (r || listen(fd, LISTEN_BACKLOG)) {
        err = r ? err : errno;
        close(fd);
        return cuzk_fail(CUZK_EIO, "listen: cannot bind %s: %s", path, strerror(err));
    }
    *out = fd;
    return CUZK_OK;
}

/* A TCP socket bound to "HOST:PORT" (HOST a name, an IPv4 address or [IPv6]) and listening;
 * *port: the port bound. SO_REUSEPORT stays off, so a second daemon on the port fails. */
static cuzk_status bind_tcp(const char *addr, int *out, unsigned *port)
{
    char host[300];
    const char *colon = strrchr(addr, ':');
    snprintf(host, sizeof host, "%.*s", (int)(colon - addr), addr);
    if (host[0] == '[' && host[strlen(host) - 1] == ']') {
        memmove(host, host + 1, strlen(host));
        host[strlen(host) - 1] = 0;
    }
    struct addrinfo hints = {.ai_flags = AI_PASSIVE | AI_NUMERICSERV, .ai_socktype = SOCK_STREAM}, *res = NULL;
    int gai = getaddrinfo(host, colon + 1, &hints, &res);
    if (gai)
        return cuzk_fail(CUZK_EIO, "listen: cannot bind %s (not an address of this machine: %s)", addr,
                         gai_strerror(gai));
    int fd = -1, err = 0;
    for (struct addrinfo *ai = res; ai && fd < 0; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0) {
            err = errno;
            continue;
        }
        int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one); /* restart while old connections linger */
        if (bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, LISTEN_BACKLOG)) {
            err = errno;
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    if (fd < 0)
        return cuzk_fail(CUZK_EIO, "listen: cannot bind %s (in use, or not an address of this machine: %s)", addr,
                         strerror(err));
    struct sockaddr_storage ss;
    socklen_t len = sizeof ss;
    getsockname(fd, (struct sockaddr *)&ss, &len);
    *port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                                           : ((struct sockaddr_in *)&ss)->sin_port);
    *out = fd;
    return CUZK_OK;
}

cuzk_status listen_bind(const char *addr, const char *path, int *fd, unsigned *port)
{
    *fd = -1;
    *port = 0;
    return path[0] ? bind_unix(path, fd) : bind_tcp(addr, fd, port);
}

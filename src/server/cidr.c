/* daemon.allow: the client networks a TCP listen lets in, as CIDR prefixes. IPv4 is kept as
 * its IPv4-mapped IPv6 form (::ffff:a.b.c.d, a /n prefix becoming /96+n), so one comparison
 * serves both families and an IPv4 client reaching an IPv6 socket matches its IPv4 entry. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server_internal.h"

static const uint8_t v4_mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

/* One "ADDRESS[/BITS]" entry (NUL-terminated, trimmed). */
static bool parse_entry(const char *s, cidr_entry *e)
{
    char addr[64];
    const char *slash = strchr(s, '/');
    size_t alen = slash ? (size_t)(slash - s) : strlen(s);
    if (!alen || alen >= sizeof addr) return false;
    memcpy(addr, s, alen);
    addr[alen] = 0;
    unsigned max;
    struct in_addr a4;
    if (inet_pton(AF_INET, addr, &a4) == 1) {
        memcpy(e->addr, v4_mapped, 12);
        memcpy(e->addr + 12, &a4, 4);
        max = 32;
    } else if (inet_pton(AF_INET6, addr, e->addr) == 1) {
        max = 128;
    } else {
        return false;
    }
    unsigned long bits = max;
    if (slash) {
        char *end;
        if (!slash[1] || strspn(slash + 1, "0123456789") != strlen(slash + 1) || strlen(slash + 1) > 3) return false;
        bits = strtoul(slash + 1, &end, 10);
        if (bits > max) return false;
    }
    e->bits = (unsigned)bits + (128 - max);
    return true;
}

cuzk_status cidr_list_parse(cidr_list *out, const char *key, const char *text)
{
    out->v = NULL;
    out->n = 0;
    size_t cap = 1;
    for (const char *p = text; *p; p++) cap += *p == ',';
    out->v = calloc(cap, sizeof *out->v);
    if (!out->v) return cuzk_fail(CUZK_ENOMEM, "out of memory");
    const char *p = text;
    while (*p) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char item[80];
        while (len && (*p == ' ' || *p == '\t')) p++, len--;
        while (len && (p[len - 1] == ' ' || p[len - 1] == '\t')) len--;
        if (len < sizeof item) {
            memcpy(item, p, len);
            item[len] = 0;
        }
        if (len >= sizeof item || (len && !parse_entry(item, &out->v[out->n]))) {
            cidr_list_free(out);
            return cuzk_fail(CUZK_EINVAL, "%s: '%.*s' is not a network (ADDRESS or ADDRESS/BITS, e.g. 10.0.0.0/8)", key,
                             (int)(len > 60 ? 60 : len), p);
        }
        if (len) out->n++;
        p += (comma ? (size_t)(comma - p) + 1 : strlen(p));
    }
    return CUZK_OK;
}

void cidr_list_free(cidr_list *l)
{
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

bool cidr_list_allows(const cidr_list *l, const struct sockaddr_storage *peer)
{
    uint8_t a[16];
    if (peer->ss_family == AF_INET) {
        memcpy(a, v4_mapped, 12);
        memcpy(a + 12, &((const struct sockaddr_in *)peer)->sin_addr, 4);
    } else if (peer->ss_family == AF_INET6) {
        memcpy(a, &((const struct sockaddr_in6 *)peer)->sin6_addr, 16);
    } else {
        return false;
    }
    for (size_t i = 0; i < l->n; i++) {
        const cidr_entry *e = &l->v[i];
        unsigned full = e->bits / 8, rest = e->bits % 8;
        if (memcmp(a, e->addr, full)) continue;
        if (rest && ((a[full] ^ e->addr[full]) & (uint8_t)(0xff << (8 - rest)))) continue;
        return true;
    }
    return false;
}

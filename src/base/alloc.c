/* Allocation helpers: big buffers come from mmap (zeroed, huge-page advised) so freeing them
 * returns memory to the system at once; small ones from malloc. Both report failures. */
#include "cuzk/base.h"

#include <stdlib.h>
#include <sys/mman.h>

void *cuzk_malloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) cuzk_fail(CUZK_ENOMEM, "out of memory allocating %zu bytes", bytes);
    return p;
}

void *cuzk_calloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) cuzk_fail(CUZK_ENOMEM, "out of memory allocating %zu x %zu bytes", n, size);
    return p;
}

void *cuzk_big_alloc(size_t bytes)
{
    if (bytes == 0) bytes = 1;
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        cuzk_fail(CUZK_ENOMEM, "out of memory mapping %zu bytes", bytes);
        return NULL;
    }
#ifdef MADV_HUGEPAGE
    if (bytes >= (2u << 20)) madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return p;
}

void cuzk_big_free(void *ptr, size_t bytes)
{
    if (ptr) munmap(ptr, bytes ? bytes : 1);
}

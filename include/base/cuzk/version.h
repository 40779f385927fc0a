/* cuzk's version: this header's (what a program was compiled against) and the library's (what
 * it runs with). The one place the version is written: the build reads it from here. */
#ifndef CUZK_VERSION_H
#define CUZK_VERSION_H

#ifdef __cplusplus
extern "C" {
#endif

#define CUZK_VERSION_MAJOR 0
#define CUZK_VERSION_MINOR 1
#define CUZK_VERSION_PATCH 0
#define CUZK_VERSION_STR_(x) #x
#define CUZK_VERSION_STR(x) CUZK_VERSION_STR_(x)
/* "MAJOR.MINOR.PATCH" */
#define CUZK_VERSION_STRING              \
    CUZK_VERSION_STR(CUZK_VERSION_MAJOR) \
    "." CUZK_VERSION_STR(CUZK_VERSION_MINOR) "." CUZK_VERSION_STR(CUZK_VERSION_PATCH)
/* MAJOR * 10000 + MINOR * 100 + PATCH, for #if CUZK_VERSION_NUMBER >= ... */
#define CUZK_VERSION_NUMBER (CUZK_VERSION_MAJOR * 10000 + CUZK_VERSION_MINOR * 100 + CUZK_VERSION_PATCH)

/* The library's version, "MAJOR.MINOR.PATCH".
 * Returns: a static string (never NULL, never freed).
 * Thread: any, at any time.
 * A program may compare it with CUZK_VERSION_STRING to find a header/library mismatch. */
const char *cuzk_version(void);

#ifdef __cplusplus
}
#endif
#endif

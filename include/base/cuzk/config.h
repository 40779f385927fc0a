/* cuzk configuration keys: each subsystem describes its config struct as a table of keys
 * (section, name, type, offset into the struct, range, default, environment override, help),
 * so that one table gives the defaults, the parsing of a config file or an override with
 * exact range checks, and the commented file `cuzk config --print-defaults` writes.
 * Library code never reads the environment: the CLI applies overrides through these tables.
 * Contracts are in the form of cuzk/status.h (docs/API.md); pointers are not NULL. */
#ifndef CUZK_CONFIG_H
#define CUZK_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cuzk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CUZK_CFG_BOOL, /* bool: true/false, yes/no, on/off, 1/0 */
    CUZK_CFG_UINT, /* unsigned int in [min, max] */
    CUZK_CFG_U64,  /* uint64_t in [min, max] */
    CUZK_CFG_STR   /* text into a char array of max bytes (the NUL included); min unused */
} cuzk_config_type;

typedef struct {
    const char *section, *name;
    cuzk_config_type type;
    size_t offset;
    uint64_t min, max;
    const char *dflt; /* the default, as it would be written in the file */
    const char *env;  /* environment variable the CLI reads as an override, or NULL */
    const char *help; /* one line */
} cuzk_config_key;

/* Sets every key of the table to its default in the struct at base.
 * In: keys[0 .. n), a table (cuzk_engine_config_table, cuzk_server_config_table, ...); base, the
 * table's struct. Thread: any. */
void cuzk_config_defaults(const cuzk_config_key *keys, size_t n, void *base);
/* Sets key k from text: exact parsing, the range checked, nothing changed on failure.
 * In: k, a key of base's table; value. Errors: CUZK_EINVAL naming the key, the value and the
 * accepted range. Thread: any. */
cuzk_status cuzk_config_set(const cuzk_config_key *k, void *base, const char *value) CUZK_WARN_UNUSED;
/* Returns: the key of the table called section.name, or NULL. Thread: any. */
const cuzk_config_key *cuzk_config_find(const cuzk_config_key *keys, size_t n, const char *section, const char *name);
/* Writes key k's current value in base as text, as a config file would hold it.
 * Out: out[0 .. cap), NUL-terminated (cut to fit). Thread: any. */
void cuzk_config_format(const cuzk_config_key *k, const void *base, char *out, size_t cap);

#ifdef __cplusplus
}
#endif
#endif

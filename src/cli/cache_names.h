/* Where parameter files live in a parameter folder (FIL_PROOFS_PARAMETER_CACHE, the daemon's
 * param_dir): `cuzk setup --into-cache DIR` writes there and the daemon looks there. A Filecoin
 * circuit (porep:SIZE, window-post:SIZE, winning-post:SIZE, snap:SIZE) has its official file
 * stem; a built-in test circuit is
 * cuzk-test-<name>, with every character outside [A-Za-z0-9._-] turned into '-'. */
#ifndef CUZK_CLI_CACHE_NAMES_H
#define CUZK_CLI_CACHE_NAMES_H

#include "cuzk/base.h"

/* dir/STEM.params and dir/STEM.vk for circuit (malloc'd; either output may be NULL). */
cuzk_status cli_cache_paths(const char *dir, const char *circuit, char **params, char **vk) CUZK_WARN_UNUSED;
/* dir/cuzk-test-<circuit>.params and .vk for any circuit, Filecoin ones included: where
 * parameters made here (not the official ones) sit beside official files without ever
 * taking their names (the demo's). */
cuzk_status cli_cache_test_paths(const char *dir, const char *circuit, char **params, char **vk) CUZK_WARN_UNUSED;

#endif

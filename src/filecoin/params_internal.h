/* Finding a proof type's parameter files (params.c), shared by the PoRep, PoSt and SnapDeals
 * registries. Internal to src/filecoin. */
#ifndef CUZK_PARAMS_INTERNAL_H
#define CUZK_PARAMS_INTERNAL_H

#include "cuzk/filecoin.h"

/* dir/stem.params and dir/stem.vk (dir NULL: the default directory), both checked to be
 * regular files; the message names the missing file, proof_name and the directory. */
cuzk_status param_files_find(const char *dir, const char *stem, const char *proof_name, char **params_path,
                             char **vk_path) CUZK_WARN_UNUSED;

#endif

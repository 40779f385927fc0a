/* Messages for mistakes a user makes often and that can be recognised from the files
 * themselves: one kind of key file given in the other's place, a sector.json given as a C1,
 * parameters of another sector size than the C1's. */
#ifndef CUZK_CLI_HINTS_H
#define CUZK_CLI_HINTS_H

#include "cuzk/filecoin_c1.h"
#include "cuzk/groth16.h"

/* Fails, saying what the file is, when --opt path is recognisably the other kind of key file:
 * a verifying key where parameters are expected (want CUZK_KEY_PARAMS), parameters where a
 * verifying key is (want CUZK_KEY_VK). Anything else passes (NULL path too): its reader
 * reports its own errors. A few bytes are read. */
cuzk_status cli_check_key_kind(const char *opt, const char *path, cuzk_key_kind want) CUZK_WARN_UNUSED;
/* After a C1 read of path failed with st: when the file is a sector.json (cuzk seal's public
 * data), the message says so and what to give instead. Returns st. */
cuzk_status cli_c1_hint(cuzk_status st, const char *path);
/* After a sector.json read of path (--public) failed with st: when the file is a C1 output,
 * the message says so and to give it as --c1. Returns st. */
cuzk_status cli_public_hint(cuzk_status st, const char *path);
/* --params path against the C1, before any work: a verifying key is named as such, and
 * parameters of another partition circuit (another sector size or proof type) are refused with
 * both sizes named. Files of no recognisable layout pass (the reader reports them). */
cuzk_status cli_check_porep_params(const char *path, const cuzk_c1 *c1) CUZK_WARN_UNUSED;

#endif

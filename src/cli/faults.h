/* Fault points of the CLI: places where a test build changes what a command made, so that a
 * check no real input can trip is seen to refuse it. The cuzk binary links src/cli/faults_none.c,
 * whose points change nothing (no option, configuration key or environment variable reaches
 * them); the test binary cuzk-faults (tests/faults/cli_faults.c, built beside cuzk, never
 * installed) links its own. */
#ifndef CUZK_CLI_FAULTS_H
#define CUZK_CLI_FAULTS_H

#include <stddef.h>
#include <stdint.h>

/* snap encode: the partition proofs' bincode blobs (n of them, lens[i] bytes each), written in
 * memory and not yet checked against what cuzk prove snap accepts. */
void cli_fault_snap_blobs(uint8_t *const *blobs, const size_t *lens, unsigned n);

#endif

/* The fault points of cuzk-faults, the CLI built for tests (src/cli/faults.h): each changes what
 * the command made in a way its own checks must refuse. tests/cli/snap_check_cli.sh runs it. */
#include "cli/faults.h"

/* One bit of partition 0's comm_c (the blob's first field): still a canonical field element,
 * so the blob parses, but comm_r_old is no longer H(comm_c, root of proof_r_old). */
void cli_fault_snap_blobs(uint8_t *const *blobs, const size_t *lens, unsigned n)
{
    if (n && lens[0]) blobs[0][0] ^= 1;
}

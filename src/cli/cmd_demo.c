/* cuzk demo: the main job on an embedded default. */
#include <stdio.h>

#include "cli/cli.h"
#include "cuzk/base.h"

int cli_demo(int argc, char **argv)
{
    fprintf(stderr, "cuzk demo: the Groth16 prover is not built yet\n");
    return 1;
}

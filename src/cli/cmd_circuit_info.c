/* cuzk circuit-info: a circuit's constraints, inputs (ONE included) and aux, counted in
 * COUNT mode (no values, no linear combinations). */
#include <stdio.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cuzk/testcircuits.h"

int cli_circuit_info(int argc, char **argv)
{
    const char *circuit = NULL;
    bool json = false, list = false, done;
    cli_opt opts[] = {
        {"circuit", "NAME", "built-in circuit (required unless --list)", &circuit, NULL},
        {"json", NULL, "print {\"constraints\": N, \"inputs\": N, \"aux\": N} (default: a line of text)", NULL, &json},
        {"list", NULL, "list the built-in circuits, one a line with what it is", NULL, &list},
    };
    int rc = cli_parse(argc, argv,
                       "cuzk circuit-info --circuit NAME [--json] | --list\n\n"
                       "Counts a built-in circuit's constraints, public inputs (ONE included) and private values\n"
                       "(aux), or lists the built-in circuits.\n\n"
                       "examples:\n"
                       "  cuzk circuit-info --list\n"
                       "  cuzk circuit-info --circuit porep:32GiB --json",
                       opts, (int)(sizeof opts / sizeof opts[0]), &done);
    if (rc || done) return rc;
    if (list) {
        printf("%s", cuzk_circuit_names());
        return 0;
    }
    if (!circuit) return cli_missing("circuit-info", "circuit");
    cuzk_circuit *c;
    if (cuzk_circuit_open(&c, circuit)) return cli_error("circuit-info");
    cuzk_circuit_counts n;
    double t0 = cuzk_now();
    cuzk_status st = cuzk_circuit_count(c, &n);
    double t = cuzk_now() - t0;
    cuzk_circuit_free(c);
    if (st) return cli_error("circuit-info");
    if (json) printf("{\"constraints\": %zu, \"inputs\": %zu, \"aux\": %zu}\n", n.constraints, n.inputs, n.aux);
    else
        printf("circuit %s\n  constraints %zu\n  inputs      %zu (ONE included)\n  aux         %zu\n  counted in  %.3f "
               "s\n",
               circuit, n.constraints, n.inputs, n.aux, t);
    return 0;
}

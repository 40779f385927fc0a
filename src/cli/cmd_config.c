/* cuzk config: prints the configuration file, every key with its default or current value. */
#include <stdio.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/settings.h"

int cli_config(int argc, char **argv)
{
    bool defaults = false, current = false, done = false;
    const cli_opt opts[] = {
        {"print-defaults", NULL,
         "print every key at its built-in default, commented (a starting config file; one of the two is required)",
         NULL, &defaults},
        {"print", NULL, "print every key at its value after the config file and the environment", NULL, &current},
    };
    int rc = cli_parse(argc, argv,
                       "cuzk config --print-defaults | --print\n\n"
                       "Prints the configuration file (INI): every key of every section with its range, its default\n"
                       "(or current) value and its environment override. cuzk --config FILE COMMAND reads one.\n\n"
                       "examples:\n"
                       "  cuzk config --print-defaults > cuzk.ini\n"
                       "  cuzk --config cuzk.ini config --print",
                       opts, 2, &done);
    if (rc || done) return rc;
    if (defaults == current) {
        fprintf(stderr, "cuzk config: give one of --print-defaults or --print\n");
        return 2;
    }
    cli_settings_print(stdout, defaults);
    return 0;
}

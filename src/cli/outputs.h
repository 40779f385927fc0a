/* The output files of one command, written all or none (docs/DESIGN.md, "Output files").
 *
 * A command registers its outputs and the input files they must not replace before it starts
 * its work, and checks them all at once (cli_outputs_check): an output's folder exists and is
 * writable, an output is not a folder, not a dangling link, not an input (same device and
 * inode, or the same resolved path), and no two outputs are the same file. After the work it
 * writes each output to the path cli_outputs_path gives (a temporary), then commits: device
 * and standard-output copies first, then every temporary renamed into place. A failure before
 * the commit, or cli_outputs_free without it, removes every temporary and any output folder
 * the command made, so the outputs are written together or not at all.
 *
 * What an output path names decides how it is written: a regular file, or a missing one, is
 * replaced (temporary in its folder, renamed over it); a symbolic link to a regular file is
 * followed (its target replaced, the link kept); a character device or FIFO (/dev/null, a pipe)
 * is written in place, its write errors checked (/dev/full fails); `-` is standard output. */
#ifndef CUZK_CLI_OUTPUTS_H
#define CUZK_CLI_OUTPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "cuzk/groth16.h"

typedef struct cli_outputs cli_outputs;

/* NULL when out of memory. */
cli_outputs *cli_outputs_new(void);
/* Removes whatever was staged and not committed (temporaries, folders made), then frees. */
void cli_outputs_free(cli_outputs *o);

/* An input file given as --opt (NULL paths are ignored): no output may be that file. */
void cli_outputs_input(cli_outputs *o, const char *opt, const char *path);
/* A file that is read when it is there and written (by the engine, as the work goes) when it is
 * not, such as --pce FILE: an input for the comparisons, and when missing its folder must be
 * writable, as an output's. */
void cli_outputs_cache(cli_outputs *o, const char *opt, const char *path);
/* Every input and output file of other (registered so far) as an input of o: for a second
 * group of outputs written apart from the first (--trace), none of which may be any of them. */
void cli_outputs_inputs_from(cli_outputs *o, const cli_outputs *other);
/* The input file dir/name (a file of a --sector or --vanilla folder). */
void cli_outputs_input_in(cli_outputs *o, const char *opt, const char *dir, const char *name);

/* An output folder given as --opt: it exists and is writable, or its parent does and it is
 * made (with mode, less the umask) when the outputs are staged; removed again if nothing was
 * committed. Register it before the files in it. */
void cli_outputs_folder(cli_outputs *o, const char *opt, const char *dir, mode_t mode);
/* An output file given as --opt ("-": standard output). Returns its index. */
int cli_outputs_add(cli_outputs *o, const char *opt, const char *path);
/* The output file dir/name (a file of an output folder). Returns its index. */
int cli_outputs_add_in(cli_outputs *o, const char *opt, const char *dir, const char *name);

/* Every check above, before the work; the message names the option and the path. */
cuzk_status cli_outputs_check(cli_outputs *o) CUZK_WARN_UNUSED;
/* Where to write output i now: a temporary (made on the first call, with the output folders).
 * NULL, with the error set, when it cannot be made. */
const char *cli_outputs_path(cli_outputs *o, int i);
/* Writes output i whole from a buffer (to its temporary). */
cuzk_status cli_outputs_write(cli_outputs *o, int i, const void *data, size_t n) CUZK_WARN_UNUSED;
/* st, its message prefixed with output i's option and path (for a writer given the temporary). */
cuzk_status cli_outputs_context(cli_outputs *o, int i, cuzk_status st);
/* Puts every output in place; on a failure removes the temporaries not yet in place. */
cuzk_status cli_outputs_commit(cli_outputs *o) CUZK_WARN_UNUSED;

/* Writes output i as public-inputs JSON (cuzk_inputs_json_write) to its temporary, from a job
 * result's inputs (CUZK_INPUT_BYTES each). */
cuzk_status cli_outputs_write_inputs(cli_outputs *o, int i, const uint8_t *inputs, size_t nproofs, size_t ninputs,
                                     bool nested) CUZK_WARN_UNUSED;

/* ---------------------------------------------------------------- input files */
/* Reads the verifying key at path and checks that it is one for ninputs public inputs (what:
 * the proof type, for the message), so that a wrong --vk is refused before the work. */
cuzk_status cli_check_vk(const char *path, size_t ninputs, const char *what) CUZK_WARN_UNUSED;
/* Checks, without reading or blocking, that --opt path is a regular file of at most max bytes
 * (for readers that open the file themselves, such as the JSON ones). */
cuzk_status cli_input_check(const char *opt, const char *path, uint64_t max) CUZK_WARN_UNUSED;
/* The largest public-inputs JSON (cuzk_inputs_json_write's, or one laid out more loosely) of
 * nproofs proofs of ninputs inputs each. */
uint64_t cli_inputs_json_max(uint64_t nproofs, uint64_t ninputs);
/* ... when the counts are not known before it is read: well above the largest any Filecoin
 * proof has (a 32 GiB WindowPoSt partition's 25,840 inputs are about 2 MB). */
#define CLI_INPUTS_JSON_ANY ((uint64_t)64 << 20)
/* sector.json, post.json, update.json: a few hundred bytes each. */
#define CLI_SMALL_JSON_MAX ((uint64_t)1 << 20)

#endif

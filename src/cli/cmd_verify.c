/* cuzk verify: check a file of proofs against a verifying key and public inputs.
 * Exit 0 only when every proof verifies, 1 otherwise (naming the proofs that fail). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/hints.h"
#include "cli/outputs.h"
#include "cli/vanilla_set.h"
#include "cuzk/groth16.h"

int cli_verify(int argc, char **argv)
{
    char name[64];
    if (argc > 1 && !strcmp(argv[1], "porep"))
        return cli_verify_porep(argc - 1, cli_subcommand(argv, name, sizeof name));
    cuzk_job_kind vkind;
    if (argc > 1 && vanilla_kind_of(argv[1], &vkind)) {
        const char *what = argv[1];
        return cli_verify_vanilla(what, argc - 1, cli_subcommand(argv, name, sizeof name));
    }
    const char *vk_path = NULL, *proof_path = NULL, *inputs_path = NULL;
    bool json = false, done;
    cli_opt opts[] = {
        {"vk", "FILE", "verifying key, bellperson layout (required; cuzk setup's .vk)", &vk_path, NULL},
        {"proof", "FILE", "one or more 192-byte proofs back to back (required)", &proof_path, NULL},
        {"inputs", "FILE", "public inputs JSON (required): [\"x\", ...], or [[...], ...] one per proof", &inputs_path,
         NULL},
        {"json", NULL, "print the result as JSON (default: a line of text)", NULL, &json},
    };
    int rc =
        cli_parse(argc, argv,
                  "cuzk verify --vk FILE --proof FILE --inputs FILE [--json]\n"
                  "       cuzk verify porep | window-post | winning-post | snap ...   (cuzk verify porep --help)\n\n"
                  "Verifies Groth16 proofs against a verifying key and their public inputs; exit status 0 only\n"
                  "when every proof verifies. The verbs recompute the public inputs of a Filecoin proof\n"
                  "themselves: verify porep from a C1 output or sector.json, verify window-post, winning-post\n"
                  "and snap from a folder of vanilla proofs.\n\n"
                  "examples:\n"
                  "  cuzk setup --circuit cubic --params cubic.params --vk cubic.vk\n"
                  "  cuzk prove --circuit cubic --params cubic.params --proof cubic.proof --inputs cubic.json\n"
                  "  cuzk verify --vk cubic.vk --proof cubic.proof --inputs cubic.json\n"
                  "  cuzk verify porep --c1 s/c1.json --vk porep-2KiB.vk --proof s.proof",
                  opts, (int)(sizeof opts / sizeof opts[0]), &done);
    if (rc || done) return rc;
    if (!vk_path) return cli_missing("verify", "vk");
    if (!proof_path) return cli_missing("verify", "proof");
    if (!inputs_path) return cli_missing("verify", "inputs");

    cuzk_groth16_vk vk;
    if (cli_check_key_kind("vk", vk_path, CUZK_KEY_VK) || cuzk_groth16_vk_read(&vk, vk_path))
        return cli_error("verify");
    cuzk_mapped_file f = {0};
    cuzk_fr *inputs = NULL;
    cuzk_groth16_proof *proofs = NULL;
    size_t nproofs = 0, nin = 0, np = 0;
    cuzk_status st = cuzk_map_file(&f, proof_path);
    if (!st && (f.size == 0 || f.size % CUZK_GROTH16_PROOF_BYTES))
        st = cuzk_fail(CUZK_EFORMAT, "%s: %zu bytes is not a whole number of 192-byte proofs", proof_path, f.size);
    if (!st) {
        np = f.size / CUZK_GROTH16_PROOF_BYTES;
        proofs = calloc(np, sizeof *proofs);
        if (!proofs) st = cuzk_fail(CUZK_ENOMEM, "out of memory");
    }
    for (size_t k = 0; k < np && !st; k++) {
        st = cuzk_groth16_proof_decode(&proofs[k], f.data + k * CUZK_GROTH16_PROOF_BYTES);
        if (st) cuzk_fail_context(st, "%s: proof %zu (offset %zu)", proof_path, k, k * CUZK_GROTH16_PROOF_BYTES);
    }
    /* as many inputs as the key takes for as many proofs as the file holds, at most */
    uint64_t inputs_max = cli_inputs_json_max(np, vk.ic_len ? vk.ic_len - 1 : 0);
    if (!st) st = cli_input_check("inputs", inputs_path, inputs_max);
    if (!st) st = cuzk_inputs_json_read(inputs_path, inputs_max, &inputs, &nproofs, &nin);
    if (!st && nproofs != np)
        st = cuzk_fail(CUZK_EINVAL, "%s holds %zu proofs but %s has inputs for %zu", proof_path, np, inputs_path,
                       nproofs);
    if (!st && nin != vk.ic_len - 1)
        st = cuzk_fail(CUZK_EINVAL, "%s: %zu public inputs per proof, but the verifying key expects %zu", inputs_path,
                       nin, vk.ic_len - 1);
    if (st) {
        rc = cli_error("verify");
    } else {
        /* one batch check; only when it fails, each proof alone to say which */
        st = cuzk_groth16_verify_batch(&vk, proofs, np, inputs, nin);
        bool *failed = calloc(np, sizeof *failed);
        size_t bad = 0;
        for (size_t k = 0; st && failed && k < np; k++) {
            failed[k] = np == 1 || cuzk_groth16_verify(&vk, &proofs[k], inputs + k * nin, nin) != CUZK_OK;
            bad += failed[k];
        }
        if (json) printf("{\"ok\":%s,\"proofs\":%zu,\"failed\":[", st ? "false" : "true", np);
        else if (!st) printf("OK: %zu proof(s) verify\n", np);
        else printf("FAILED: %zu of %zu proof(s) do not verify:", bad, np);
        for (size_t k = 0, printed = 0; st && failed && k < np; k++)
            if (failed[k]) printf(json ? "%s%zu" : "%s[%zu]", json ? (printed++ ? "," : "") : " ", k);
        if (json) printf("]}\n");
        else if (st) printf("\n");
        free(failed);
        rc = st ? 1 : 0;
    }
    free(inputs);
    free(proofs);
    cuzk_unmap_file(&f);
    cuzk_groth16_vk_free(&vk);
    return rc;
}

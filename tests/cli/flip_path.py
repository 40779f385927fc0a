#!/usr/bin/env python3
"""flip_path.py IN OUT [K I]: a C1 with one byte flipped in the first sibling of drg parent 0's
tree C path, in challenge I of partition K (default 0 0): the tampered C1 the sparse tests and
the GPU-host scripts check is refused."""
import json
import sys


def first_hashes(o):
    if isinstance(o, dict):
        if "hashes" in o:
            return o["hashes"]
        o = list(o.values())
    if isinstance(o, list):
        for v in o:
            h = first_hashes(v)
            if h is not None:
                return h
    return None


c1 = json.load(open(sys.argv[1]))
k, i = (int(sys.argv[3]), int(sys.argv[4])) if len(sys.argv) > 4 else (0, 0)
proof = next(iter(c1["vanilla_proofs"].values()))[k][i]
first_hashes(proof["replica_column_proofs"]["drg_parents"][0]["inclusion_proof"])[0][3] ^= 0x10
json.dump(c1, open(sys.argv[2], "w"), separators=(",", ":"))

#!/usr/bin/env python3
"""Estimates a 32 GiB PoRep C2 partition and sector on GPUs we have not measured, from the
H100 measurements of docs/BENCHMARKS.md ("GPUs smaller than the parameters"), and prints the
markdown table that section quotes.  Estimates, not measurements: see the model below.

    scripts/estimate-cards.py            # the table
    scripts/estimate-cards.py --detail   # the per-stage times behind each row

The model (the small-GPU issue's item 5: compute scaled by SMs x clock x integer throughput,
PCIe by generation):
  - Each stage of a streamed partition takes the longer of its compute (the H100's, divided by
    the card's compute relative to the H100) and its copy (the bases' bytes over the card's
    link: our copies reach 43.5 GB/s on the H100's PCIe Gen5 x16, Gen4 is taken as half).
  - The stages run one after another (they do in this build), so the partition is their sum,
    plus what the H100 measured besides them, scaled by compute.
  - A card whose memory holds the parameters (80 GB) proves resident: the H100's resident
    partition scaled by compute.
  - 16 GB cards get the 16 GiB row's smaller chunks and windows: the ratio of the H100's 16 GiB
    partition to its 24 GiB one; 48 GB cards the 48 GiB row's ratio (the precompiled circuit
    fits there).
  - A sector is 10 partitions plus what the H100 measured besides them (the first witness,
    the verification: 1.2 s streamed, 0.53 s resident): one sector at a time, after the first.
Not modelled: memory bandwidth (GDDR cards have 3-4x less than HBM: the NTTs and the MSMs'
bucket sorting may take longer than their compute share says), sustained clocks below the
boost clock under load, a host slower than 16 cores making the witnesses (300 ms a partition
on 16 threads, hidden behind the GPU on the H100 host), and a faster 32-bit multiply on sm_120
(taken at the same 64 per clock per SM as the others; unverified either way).
"""
import argparse

# The H100 host's measurements (docs/BENCHMARKS.md, 2026-12-05, build a4c9e4b): ms.
H100 = dict(sms=132, mhz=1980, link_gbs=43.5)
STREAMED_COMPUTE_MS = {  # each stage's compute: streamed NTTs and H (its sums bound it), resident L, A, B
    "ntt": 274, "h": 804, "l": 53, "a": 48, "b": 104}
STREAMED_BYTES_GB = {  # the bases each MSM copies (docs/../groth16 sizes of porep:32GiB's .params)
    "ntt": 0.0, "h": 12.885, "l": 12.496, "a": 12.456, "b": 3.179 + 6.358}
PARTITION_24_MS = 1922.9  # streamed, 24 GiB free (median of 30)
PARTITION_16_MS = 2124.0  # streamed, 16 GiB free
PARTITION_48_MS = 1834.0  # streamed, 48 GiB free (precompiled circuit on the device)
PARTITION_RESIDENT_MS = 1226.8  # all memory
SECTOR_OVERHEAD_S = 1.2  # streamed: per sector besides its 10 partitions (20.445 s - 10 x 1.923 s)
RESIDENT_OVERHEAD_S = 0.53  # resident: 12.798 s - 10 x 1.2268 s

# name, SMs, boost clock MHz, memory GB, PCIe generation (spec sheets; not verified here)
CARDS = [
    ("RTX 3090", 82, 1695, 24, 4),
    ("RTX 4090", 128, 2520, 24, 4),
    ("RTX 5070 Ti", 70, 2452, 16, 5),
    ("RTX 5090", 170, 2407, 32, 5),
    ("RTX A4000", 48, 1560, 16, 4),
    ("RTX A5000", 64, 1695, 24, 4),
    ("RTX A6000", 84, 1800, 48, 4),
    ("L4", 58, 2040, 24, 4),
    ("L40S", 142, 2520, 48, 4),
    ("A100 40GB", 108, 1410, 40, 4),
    ("A100 80GB", 108, 1410, 80, 4),
    ("H100 80GB (measured host)", 132, 1980, 80, 5),
]


def stage_ms(compute_ratio, link_gbs):
    out = {}
    for s, c_ms in STREAMED_COMPUTE_MS.items():
        copy_ms = STREAMED_BYTES_GB[s] / link_gbs * 1000.0
        out[s] = max(c_ms / compute_ratio, copy_ms)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--detail", action="store_true", help="print each card's stage times too")
    args = ap.parse_args()
    h100_stages = stage_ms(1.0, H100["link_gbs"])
    besides_ms = PARTITION_24_MS - sum(h100_stages.values())  # what the stages do not account for
    print("| card | SMs x boost clock | compute vs the H100 | PCIe | placement (memory) "
          "| partition, estimated | sector, estimated |")
    print("|---|---|---|---|---|---|---|")
    for name, sms, mhz, mem_gb, gen in CARDS:
        ratio = sms * mhz / (H100["sms"] * H100["mhz"])
        link = H100["link_gbs"] if gen >= 5 else H100["link_gbs"] / 2
        overhead_s = SECTOR_OVERHEAD_S
        if mem_gb >= 80:
            placement, overhead_s = "resident", RESIDENT_OVERHEAD_S
            part_ms = PARTITION_RESIDENT_MS / ratio
        else:
            st = stage_ms(ratio, link)
            part_ms = sum(st.values()) + besides_ms / ratio
            if mem_gb <= 16:
                placement, part_ms = "streamed, 16 GiB row", part_ms * PARTITION_16_MS / PARTITION_24_MS
            elif mem_gb >= 48:
                placement, part_ms = "streamed, circuit on the device", part_ms * PARTITION_48_MS / PARTITION_24_MS
            else:
                placement = "streamed"
            if args.detail:
                print("|  " + name + " stages | " + ", ".join(f"{k} {v:.0f} ms" for k, v in st.items()) + " | | | | | |")
        sector_s = 10 * part_ms / 1000.0 + overhead_s
        print(f"| {name} | {sms} x {mhz} MHz | {ratio:.2f}x | Gen{gen} ({link:.1f} GB/s) | "
              f"{placement} ({mem_gb} GB) | {part_ms / 1000:.2f} s | {sector_s:.1f} s |")


if __name__ == "__main__":
    main()

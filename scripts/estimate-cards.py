#!/usr/bin/env python3
"""Estimates a 32 GiB PoRep C2 partition and sector on GPUs we have not measured, from the
H100 measurements of docs/BENCHMARKS.md ("The build of 2026-12-07"), and prints the markdown table "What other cards would do" quotes.  Estimates, not
measurements: see the model below.

    scripts/estimate-cards.py            # the table
    scripts/estimate-cards.py --detail   # the per-stage times behind each row

The model (the small-GPU issue's item 5: compute scaled by SMs x clock x integer throughput,
PCIe by generation):
  - A streamed partition is proved in a batch of two (the default placement's at 16 and 24 GiB,
    and what the engine mostly runs): per partition its NTTs, its H MSM, and half of the
    batch's L, A and B MSMs, one after another, as this build runs them.
  - Each stage takes the longer of its compute (the H100's, divided by the card's compute
    relative to the H100) and its copy (its bases' bytes over the card's link: our copies reach
    43.5 GB/s on the H100's PCIe Gen5 x16, Gen4 is taken as half): H copies 12.9 GB per
    partition, L, A and B 34.5 GB per batch. What the H100 measured besides the stages (the
    assembly, uploads no stage hides) is scaled by compute.
  - A sector is the H100's verified sector at 24 GiB (18.703 s through the engine, its a, b, c
    made on the device from the circuit's streamed matrices) scaled by the card's partition
    against the H100's.
  - 16 GB cards: times the ratio of the H100's verified sector at 16 GiB to 24 GiB (20.654
    against 18.703 s: smaller chunks and windows, a, b, c two at a time); 48 GB cards: times the
    ratio of its batch of two at 48 GiB to 24 GiB (1560 against 1669 ms per partition: larger
    chunks, all of the batch's witnesses uploaded during the last H MSM).
  - A card whose memory holds the parameters (80 GB) proves resident: the H100's resident
    partition and sector scaled by compute.
Not modelled: memory bandwidth (GDDR cards have 3-4x less than HBM: the NTTs and the MSMs'
bucket sorting may take longer than their compute share says), sustained clocks below the
boost clock under load, a host slower than 16 cores making the witnesses (300 ms a partition
on 16 threads, hidden behind the GPU on the H100 host), and a faster 32-bit multiply on sm_120
(taken at the same 64 per clock per SM as the others; unverified either way).
"""
import argparse

# The H100 host's measurements (docs/BENCHMARKS.md, 2026-12-07, build 9166fa0, the stages one
# after another): ms per partition of a batch of two (gpu-prove --batch 2, 24 GiB free).
H100 = dict(sms=132, mhz=1980, link_gbs=43.5)
STREAMED_COMPUTE_MS = {  # each stage's time on the H100, where (H, NTTs) its sums bind it
    "ntt": 279, "h": 829, "lab": (229 + 305 + 85 + 240) / 2}
STREAMED_BYTES_GB = {  # the bases each stage copies per partition (porep:32GiB's .params sizes)
    "ntt": 0.0, "h": 12.885, "lab": (12.496 + 12.456 + 3.179 + 6.358) / 2}
PARTITION_24_MS = 1669.0  # the call's 3339 ms for two
SECTOR_24_S = 18.703  # a verified sector, sectors 2-3 one at a time, median
RATIO_16 = 20.654 / 18.703  # verified sectors at 16 and 24 GiB (build 9166fa0, one warm machine)
RATIO_48 = 1560.0 / 1669.0  # gpu-prove, batches of two at 48 and 24 GiB (one call, 2026-12-07)
PARTITION_RESIDENT_MS = 1226.8  # all memory (2026-12-05)
SECTOR_RESIDENT_S = 12.613  # all memory, the engine (1053c97)

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
        if mem_gb >= 80:
            placement = "resident"
            part_ms = PARTITION_RESIDENT_MS / ratio
            sector_s = SECTOR_RESIDENT_S / ratio
        else:
            st = stage_ms(ratio, link)
            part_ms = sum(st.values()) + besides_ms / ratio
            if mem_gb <= 16:
                placement, part_ms = "streamed, 16 GiB row", part_ms * RATIO_16
            elif mem_gb >= 48:
                placement, part_ms = "streamed, 48 GiB row", part_ms * RATIO_48
            else:
                placement = "streamed"
            sector_s = SECTOR_24_S * part_ms / PARTITION_24_MS
            if args.detail:
                print("|  " + name + " stages | " + ", ".join(f"{k} {v:.0f} ms" for k, v in st.items()) + " | | | | | |")
        print(f"| {name} | {sms} x {mhz} MHz | {ratio:.2f}x | Gen{gen} ({link:.1f} GB/s) | "
              f"{placement} ({mem_gb} GB) | {part_ms / 1000:.2f} s | {sector_s:.1f} s |")


if __name__ == "__main__":
    main()

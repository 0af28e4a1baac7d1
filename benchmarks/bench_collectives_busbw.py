"""Simulated all-reduce busbw vs published nccl-tests figures (large messages).

The presets are built from spec sheets only (hardware/topologies/links.py), never fitted to
these targets. Published figures (nccl-tests all_reduce_perf, out-of-place busbw at
>= 1 GiB, as quoted in issue 3 from NVIDIA's published results): 8x A100 NVSwitch
~230 GB/s, 8x H100 NVSwitch ~370 GB/s, 2 nodes x 8 A100 with 4x HDR InfiniBand ~86 GB/s.
Target: within 15%; the error is printed either way.
Run: .venv/bin/python benchmarks/bench_collectives_busbw.py
"""

from __future__ import annotations

from simdist import collectives
from simdist.hardware import TOPOLOGIES

SIZE = 2**30
CASES = [
    ("8x A100 (DGX A100, NVLink 3)", lambda: TOPOLOGIES["dgx-a100"](), 230.0),
    ("8x H100 (DGX H100, NVLink 4)", lambda: TOPOLOGIES["dgx-h100"](), 370.0),
    ("2 nodes x 8 A100, 4x HDR", lambda: TOPOLOGIES["fat-tree"](2, nics_per_node=4), 86.0),
]


def main():
    print(f"all_reduce ring, {SIZE // 2**20} MiB float32, busbw in GB/s")
    print(f"| {'system':<30} | {'simulated':>9} | {'published':>9} | {'error':>7} |")
    print(f"|{'-' * 32}|{'-' * 11}|{'-' * 11}|{'-' * 9}|")
    worst = 0.0
    for label, build, published in CASES:
        cost = collectives.price("all_reduce", "ring", SIZE, build())
        sim = cost.busbw / 1e9
        err = (sim - published) / published
        worst = max(worst, abs(err))
        print(f"| {label:<30} | {sim:9.1f} | {published:9.1f} | {err:+7.1%} |")
    print(f"worst |error| {worst:.1%} (target 15%): {'OK' if worst <= 0.15 else 'MISSED'}")
    print("\nwhere the time goes (1 GiB, ring):")
    for label, build, _ in CASES:
        print(" ", label, "->", collectives.price("all_reduce", "ring", SIZE, build()).summary())


if __name__ == "__main__":
    main()

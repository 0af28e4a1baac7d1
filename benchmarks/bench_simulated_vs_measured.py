"""Simulated vs measured: the cost model's time next to a real clock's, then calibrated.

Two tables are measured with ``collectives.measure`` for the same sizes: an all-gather
(it only moves bytes) and an all-reduce (it moves and reduces). Then, as the calibration
asks, ``collectives.calibrate`` fits the links' latency and bandwidth on the all-gather
table and ``collectives.calibrate_compute`` the reduction's compute on the all-reduce
table, and the model is priced again with both.

Where it measures (``--engine``, default ``auto``):
  nccl     -- on the cupy backend with two or more GPUs: NCCL's all-gather and all-reduce
              (cupy.cuda.nccl), timed with CUDA events, 1 KiB .. 256 MiB per rank. Not yet
              run on a GPU (README, "Real hardware").
  simdist  -- anywhere else: simdist's own collectives on arrays of the active backend
              (NumPy host arrays without a GPU), timed with time.perf_counter, 1 KiB ..
              4 MiB. This times this host's CPU, not a GPU network: the fitted "links" are
              then simdist's per-step overheads and memory copies, and the point is that
              measuring and calibrating run end to end on any machine.

Mirrors the nccl-tests workflow (all_gather_perf and all_reduce_perf tables, -w warm-ups,
-n timed iterations) and NCCL's tuner model fitted to it.

Run: python benchmarks/bench_simulated_vs_measured.py [--engine auto|simdist|nccl]
       [--topology dgx-a100] [--num-devices 4] [--repeats 5]
"""

from __future__ import annotations

import argparse

import numpy as np

from simdist import collectives
from simdist.collectives import timing

GPU_SIZES = [2**k for k in range(10, 29, 3)]  # 1 KiB .. 256 MiB per rank
HOST_SIZES = [2**k for k in range(10, 23, 2)]  # 1 KiB .. 4 MiB per rank


def _print_table(m):
    print(f"\n{m.collective}: {m.where}")
    print(f"| {'size':>10} | {'simulated us':>12} | {'measured us':>11} | {'ratio':>7} |")
    for r in m.rows:
        print(f"| {r.size:>10} | {r.simulated * 1e6:12.1f} | {r.measured * 1e6:11.1f} | "
              f"{r.ratio:7.3f} |")


def _rms(rel) -> str:
    return f"{float(np.sqrt(np.mean(np.square(rel)))):.1%}"


def main(argv=None):
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--engine", default="auto", choices=["auto", *timing.ENGINES])
    args.add_argument("--topology", default=None, help="preset name (default: p A100s on "
                      "an NVSwitch)")
    args.add_argument("--num-devices", type=int, default=None,
                      help="ranks (default: the GPUs for nccl, else 4)")
    args.add_argument("--repeats", type=int, default=5)
    opts = args.parse_args(argv)
    gpus, why = timing.gpu_count()
    engine = opts.engine
    if engine == "auto":
        engine = "nccl" if gpus >= 2 else "simdist"
        if engine == "simdist":
            print(f"no NCCL measurement: {why or f'{gpus} GPU(s), NCCL needs two'}; "
                  "measuring simdist's own collectives on this host instead.")
    p = opts.num_devices or (gpus if engine == "nccl" else 4)
    sizes = GPU_SIZES if engine == "nccl" else HOST_SIZES
    kw = dict(topology=opts.topology, num_devices=p, repeats=opts.repeats, engine=engine,
              calibrate=False)
    gather = collectives.measure("all_gather", sizes, **kw)
    reduce = collectives.measure("all_reduce", sizes, **kw)
    for m in (gather, reduce):
        _print_table(m)
    table = [(r.size, r.measured * 1e6) for r in gather.rows]
    try:
        links = collectives.calibrate(table, opts.topology, collective="all_gather",
                                      num_devices=p)
    except ValueError as e:  # timings too noisy to grow with the size
        print(f"\nno links fit on the all-gather: {e}")
        return
    print("\nlinks fitted on the all-gather:", links.summary())
    reduced = [(r.size, r.measured * 1e6) for r in reduce.rows]
    try:
        fit = collectives.calibrate_compute(reduced, links, num_devices=p)
        predicted, how = fit.predicted, f"compute fitted on the all-reduce: {fit.summary()}"
    except ValueError as e:
        try:
            own = collectives.calibrate(reduced, opts.topology, num_devices=p)
        except ValueError as alone:  # flat timings (per-step overheads): said, not raised
            print(f"no compute fit ({e}); no links fit on the all-reduce alone: {alone}")
            return
        predicted, how = own.predicted, (f"no compute fit ({e}); links fitted on the "
                                         f"all-reduce alone: {own.summary()}")
    print(how)
    print(f"| {'size':>10} | {'measured us':>11} | {'calibrated us':>13} |")
    for r, t in zip(reduce.rows, predicted):
        print(f"| {r.size:>10} | {r.measured * 1e6:11.1f} | {t * 1e6:13.1f} |")
    before = [(r.simulated - r.measured) / r.measured for r in reduce.rows]
    after = [(t - r.measured) / r.measured for r, t in zip(reduce.rows, predicted)]
    print(f"all-reduce rms relative error: before calibration {_rms(before)}, after "
          f"{_rms(after)}")


if __name__ == "__main__":
    main()

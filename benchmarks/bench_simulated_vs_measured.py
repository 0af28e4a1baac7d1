"""Simulated vs measured: the cost model's all-reduce time next to NCCL's on real GPUs.

For each message size the cost model prices the all-reduce schedule (the algorithm the
tuner picks, as NCCL's tuner would) on a topology; with the ``cupy`` backend and two or
more GPUs the same all-reduce runs through NCCL (``simdist.hardware.nccl``) and CUDA events
time it (median of ``--repeats`` after a warm-up). Then ``collectives.calibrate`` fits the
topology's link latency and bandwidth to the measurements and the model is priced again
with the fitted links. (``collectives.calibrate_compute`` fits the reduction's compute
too, but needs the links from an all-gather table first, which this benchmark does not
measure yet: with the all-reduce alone, bandwidth and compute both grow with the size.)

Without a GPU (or CuPy) it prints the simulated column, says that it measured nothing and
why, and fits nothing. This path has not yet run on a GPU (README, "Real hardware").

Run: python benchmarks/bench_simulated_vs_measured.py [--topology dgx-a100] [--repeats 20]
"""

from __future__ import annotations

import argparse
import statistics

import numpy as np

from simdist import collectives

SIZES = [2**k for k in range(10, 29, 3)]  # 1 KiB .. 256 MiB per rank


def measure_nccl(sizes, repeats: int, collective: str = "all_reduce"):
    """Median seconds per size of NCCL's ``collective`` on every GPU, or (None, reason)."""
    try:
        import cupy

        from simdist.hardware import cupy_adapter, nccl
    except ImportError as e:
        return None, f"CuPy is not installed ({e}); pip install -e '.[gpu]'"
    try:
        n = cupy_adapter.check_gpus(cupy)
    except RuntimeError as e:
        return None, str(e)
    if n < 2:
        return None, f"NCCL needs two or more GPUs; this machine has {n}"
    if collective != "all_reduce":
        return None, "only the all-reduce is measured"
    times = []
    for size in sizes:
        count = max(size // 4, 1)
        arrays = []
        for d in range(n):
            with cupy.cuda.Device(d):
                arrays.append(cupy.ones(count, dtype=cupy.float32))
        nccl.all_reduce(arrays, list(range(n)), "sum")  # warm-up (makes the communicators)
        runs = [max(nccl.all_reduce(arrays, list(range(n)), "sum")[1].values())
                for _ in range(repeats)]
        times.append(statistics.median(runs))
    return (n, times), ""


def main(argv=None):
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--topology", default=None, help="preset name (default: p A100s on "
                      "an NVSwitch, p = the GPUs measured, else 8)")
    args.add_argument("--repeats", type=int, default=20)
    opts = args.parse_args(argv)
    measured, why = measure_nccl(SIZES, opts.repeats)
    n = measured[0] if measured else 8
    topo = opts.topology
    print(f"all-reduce, float32, {n} ranks, topology {topo or 'default (NVSwitch A100s)'}")
    print(f"| {'size':>10} | {'algorithm':>9} | {'simulated us':>12} | {'measured us':>11} |"
          f" {'ratio':>6} |")
    rows = []
    for k, size in enumerate(SIZES):
        choice = collectives.tune(size, topo, num_devices=n)
        sim = collectives.price("all_reduce", choice.algorithm, size, topo,
                                num_devices=n).time
        got = measured[1][k] if measured else None
        if got is not None:
            rows.append((size, got * 1e6))
        shown = f"{got * 1e6:11.1f}" if got is not None else f"{'-':>11}"
        ratio = f"{sim / got:6.2f}" if got else f"{'-':>6}"
        print(f"| {size:>10} | {choice.algorithm:>9} | {sim * 1e6:12.1f} | {shown} | {ratio} |")
    if not measured:
        print(f"\nmeasured nothing: {why}. The simulated column is the cost model alone; "
              "run this on a machine with two or more CUDA GPUs and `pip install -e "
              "'.[gpu]'` to measure and calibrate.")
        return
    cal = collectives.calibrate(rows, topo, num_devices=n)
    print("\ncalibrated links:", cal.summary())
    for (size, t), p in zip(rows, cal.predicted):
        print(f"  {size:>10} B: measured {t:10.1f} us, calibrated model {p * 1e6:10.1f} us")
    print("rms relative residual after calibration:", f"{cal.rms:.1%}",
          "(before: ", f"{float(np.sqrt(np.mean(_before(rows, topo, n) ** 2))):.1%})")


def _before(rows, topo, n):
    sims = np.array([collectives.price("all_reduce", "ring", s, topo, num_devices=n).time
                     for s, _ in rows])
    meas = np.array([t for _, t in rows]) * 1e-6
    return (sims - meas) / meas


if __name__ == "__main__":
    main()

"""Where simdist's time goes in bench_seed001_vs_tf.py's custom loop, without a profiler.

cProfile inflates simdist's many tiny per-op calls and misreads its lock-step replica
threads (their work shows up as the main thread waiting).  This instead wraps a few
functions with wall-clock timers (inclusive time, summed over calls and threads; the
replica threads take turns, so sums do not overlap) and runs the loop once.

Sections (disjoint):  forward, loss, backward, metric (each replica thread);
  grad all-reduce and apply (Adam on every mirrored copy) (the merge_calls, main thread);
  next batch (distributed iterator); rest = thread hand-offs, tf.function, reduce, loop.
Cross-cutting (inside the sections): per-op cost charging and device trace recording,
  tape recording, and execute.execute (wrapping each op's result: Tensor, charge, tape).

Run: .venv/bin/python benchmarks/seed001/time_sections.py
"""

from __future__ import annotations

import collections
import functools
import os
import sys
import time

TOTALS: collections.Counter = collections.Counter()
CALLS: collections.Counter = collections.Counter()


def timed(owner, attr, label):
    """Replace ``owner.attr`` by a wrapper that adds its wall time to ``TOTALS[label]``."""
    original = getattr(owner, attr)

    @functools.wraps(original)
    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            TOTALS[label] += time.perf_counter() - start
            CALLS[label] += 1

    setattr(owner, attr, wrapper)


def instrument():
    import simdist
    from simdist.distribute import input_lib
    from simdist.framework import backprop, execute, tape
    from simdist.hardware import trace
    from simdist.keras import losses
    from simdist.keras.engine import sequential
    from simdist.keras.metrics import base_metric
    from simdist.keras.optimizers import optimizer

    timed(sequential.Sequential, "__call__", "forward")
    timed(losses.Loss, "__call__", "loss")
    timed(simdist.nn, "compute_average_loss", "loss")
    timed(backprop.GradientTape, "gradient", "backward")
    timed(base_metric.MeanMetricWrapper, "update_state", "metric")
    timed(optimizer, "_all_reduce_sum_fn", "grad all-reduce")
    timed(optimizer.Optimizer, "_distributed_apply_gradients_fn", "apply (Adam)")
    timed(input_lib.DistributedIterator, "__next__", "next batch")
    timed(execute, "_charge", "  op cost charging")
    timed(trace.Trace, "record", "  trace recording")
    timed(tape, "record", "  tape recording")
    timed(execute, "execute", "  op wrapping (execute)")


def main():
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import bench_seed001_vs_tf as bench

    instrument()
    start = time.perf_counter()
    result = bench.run_framework("simdist")
    total = time.perf_counter() - start
    loop = total - (result["startup_s"] - (start - bench.T0))
    sections = ["forward", "loss", "backward", "metric", "grad all-reduce", "apply (Adam)",
                "next batch"]
    print(f"set-up {total - loop:.2f} s, training loop {loop:.2f} s (instrumented)\n")
    print(f"{'section':<22} {'seconds':>8} {'share':>6} {'calls':>8}")
    for label in sections:
        print(f"{label:<22} {TOTALS[label]:8.2f} {TOTALS[label] / loop:6.1%} {CALLS[label]:8d}")
    rest = loop - sum(TOTALS[s] for s in sections)
    print(f"{'rest (threads etc.)':<22} {rest:8.2f} {rest / loop:6.1%}")
    print("cross-cutting:")
    for label in sorted(set(TOTALS) - set(sections)):
        print(f"{label:<22} {TOTALS[label]:8.2f} {TOTALS[label] / loop:6.1%} {CALLS[label]:8d}")


if __name__ == "__main__":
    main()

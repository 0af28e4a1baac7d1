"""Seed 001's distributed training step: eager Python at every call vs the traced graph.

The workload is the custom loop of ``tests/seeds/data/seed_001.py`` (Dense16/Dense8/Dense1,
Adam, BinaryCrossentropy(NONE) + compute_average_loss, global batch 256 over the default
machine's 4 simulated GPUs, ``strategy.run`` + ``strategy.reduce`` in ``@tf.function``).
Both modes run in this one process, alternately, on the same batches:

  eager   the function's Python runs at every call (as simdist did before distributed
          steps were traced: forced here with an eager condition);
  nodes   the step is traced (twice at the first call: the optimizer makes its slots),
          then each call replays the recorded graph node by node, each recorded op's
          Python run again (``graph_plan.disabled()``: the replay before plans existed);
  graph   the same, through the graph's compiled plan (framework/graph_plan.py: nodes
          lowered to kernel steps where they can be, the rest node by node).

Glossary:
  trace s    the first call of the traced step (both traces and one execution).
  step ms    the fastest later call, in wall milliseconds (the steady state; the fastest
             is the least disturbed by other processes on a shared machine).
  cpu ms     the process's CPU time per later call (all threads), the fairer measure on
             a loaded machine: the eager step hops between replica threads, which a busy
             scheduler favours (each wakes with credit), while a replay is one thread.
  ratio      graph / eager and graph / nodes, for the step and for the CPU: below 1
             means the plan's replay is faster.
  simulated  whether both modes ended on the same simulated device clocks.

Run: PYTHONPATH=. .venv/bin/python benchmarks/bench_traced_step.py [--steps 30] [--rounds 3]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SEED_001 = os.path.join(HERE, "..", "tests", "seeds", "data", "seed_001.py")


def _setup(tf):
    """The listing's model, optimizer, loss, metric and step, without its training loops."""
    src = open(SEED_001).read()
    src = src[:src.index('print("Starting distributed training...")')]
    tf.random.set_seed(0)
    scope = {"__name__": "__main__"}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(src, SEED_001, "exec"), scope)  # noqa: S102 - the seed's own listing
    return scope


def _run(mode: str, steps: int):
    import simdist as tf
    from simdist.framework import graph_plan
    from simdist.hardware.machine import get_machine
    from simdist.testing import reset_world

    reset_world()
    _EAGER[0] = mode == "eager"
    scope = _setup(tf)
    batches = list(scope["dataset"].take(steps + 1))
    step = scope["distributed_train_step"]
    with graph_plan.disabled() if mode == "nodes" else contextlib.nullcontext():
        t = time.perf_counter()
        step(batches[0])
        first = time.perf_counter() - t
        times = []
        cpu = time.process_time()
        for b in batches[1:]:
            t = time.perf_counter()
            step(b)
            times.append(time.perf_counter() - t)
        cpu = (time.process_time() - cpu) / len(times)
    clocks = tuple(d.clock for d in get_machine().devices.values())
    return first, min(times), clocks, cpu


_EAGER = [False]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    from simdist.framework import func_graph

    func_graph.register_eager_condition(
        lambda: "the benchmark's eager mode" if _EAGER[0] else None)
    results = {"eager": [], "nodes": [], "graph": []}
    for _ in range(args.rounds):
        for mode in results:
            results[mode].append(_run(mode, args.steps))
    load = os.getloadavg()[0]
    print(f"{args.rounds} rounds x {args.steps} steps, load average {load:.1f} "
          f"on {os.cpu_count()} CPUs")
    print(f"{'mode':6} {'first call s':>12} {'step ms':>8} {'cpu ms':>7}")
    for mode, rows in results.items():
        first = statistics.median(r[0] for r in rows)
        step = statistics.median(r[1] for r in rows)
        cpu = statistics.median(r[3] for r in rows)
        print(f"{mode:6} {first:12.3f} {step * 1e3:8.2f} {cpu * 1e3:7.2f}")
    for base in ("eager", "nodes"):
        ratio = {k: statistics.median(r[k] for r in results["graph"])
                 / statistics.median(r[k] for r in results[base]) for k in (1, 3)}
        print(f"ratio graph/{base}: step {ratio[1]:.2f}, cpu {ratio[3]:.2f}")
    same = {r[2] for rows in results.values() for r in rows}
    print(f"simulated clocks equal in all modes: {len(same) == 1}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Seed 001's custom loop with this pass's fast paths on and off on alternate steps, in one
process: thread CPU per step of the plan nodes each one speeds up, and of the whole step.

A shared, loaded machine makes separate runs' times differ by 10-20 %; alternating the
paths step by step inside one run compares them under the same load. Each fast path has
a switch that turns it off for a block (the tests compare both paths' results):

  optimizer  keras/optimizers/fused_flat.py (every copy's Adam update as one element-wise
             computation; off: each copy's fused update in turn) -- the
             ``Optimizer._distributed_apply_gradients_fn`` node.
  allreduce  collectives/api.py (a collective's trace events kept with its price; off:
             built at every call) -- the ``StrategyExtended.batch_reduce_to`` node.

Glossary:
  on / off   the steps run with every fast path on / off (even / odd executions).
  median     the median over the run's steps after the first 10 (thread CPU, ms).

Run: .venv/bin/python benchmarks/seed001/ab_pieces.py [--epochs 5]
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import os
import statistics
import sys
import time

PIECES = {"optimizer": "_distributed_apply_gradients_fn",
          "allreduce": "StrategyExtended.batch_reduce_to"}


def switches():
    """Every fast path's off-switch, as one context manager."""
    from simdist.collectives import api
    from simdist.keras.optimizers import fused_flat

    stack = contextlib.ExitStack()
    stack.enter_context(fused_flat.disabled())
    stack.enter_context(api.build_events_each_call())
    return stack


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=int, default=5)
    args = parser.parse_args()
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import bench_seed001_vs_tf as bench

    from simdist.framework import context, graph_plan
    from simdist.hardware import machine

    bench.EPOCHS = args.epochs
    times = collections.defaultdict(list)   # (piece, "on"/"off") -> ms per step
    original = graph_plan.run
    executions = [0]

    def run(graph, env):
        plan = graph._plans.get(context.explicit_device())
        if plan is None or plan.machine() is not machine.get_machine():
            return original(graph, env)
        executions[0] += 1
        mode = "on" if executions[0] % 2 == 0 else "off"
        spent = collections.Counter()
        with (contextlib.nullcontext() if mode == "on" else switches()):
            start = time.thread_time()
            for node, step in zip(graph.nodes, plan.steps):
                t0 = time.thread_time()
                step(env)
                name = getattr(node, "name", "")
                for piece, pattern in PIECES.items():
                    if pattern in name:
                        spent[piece] += time.thread_time() - t0
            spent["whole step"] = time.thread_time() - start
        for piece, seconds in spent.items():
            times[piece, mode].append(seconds * 1e3)

    graph_plan.run = run
    result = bench.run_framework("simdist")
    print(f"seed 001 loop, {args.epochs} epochs, fast paths on/off on alternate steps "
          f"(last epoch loss/accuracy {result['history'][-1][0]:.4f}/"
          f"{result['history'][-1][1]:.4f}); load average {os.getloadavg()[0]:.1f}\n")
    print(f"{'piece':<12} {'off ms':>8} {'on ms':>8} {'on/off':>7}   (median thread CPU per step)")
    for piece in (*PIECES, "whole step"):
        off, on = (statistics.median(times[piece, m][10:]) for m in ("off", "on"))
        print(f"{piece:<12} {off:8.3f} {on:8.3f} {on / off:7.2f}x")


if __name__ == "__main__":
    main()

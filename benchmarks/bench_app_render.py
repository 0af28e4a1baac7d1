"""Server time to render one animation step of the gradient-sync page, for 8, 16, 64 devices
on one NVSwitch node and on the fat-tree (4 rings, 64 transfers a step at 16 GPUs).

One step = what the page recomputes when the user presses "next": the logical view of the
first channel, the topology figure with the step's transfers (aggregated per link), the
buffer heatmap (schedule replayed to that step), the step-time and all-steps figures, and
the values after the step (executor on the truncated schedule). The all-reduce itself is
cached by the page, so it is the baseline: the bare ``collectives.all_reduce`` call,
measured in the same run. Target: under 100 ms at 16 devices.

Run: python benchmarks/bench_app_render.py
"""

from __future__ import annotations

import time

from simdist import collectives
from simdist.viz import logical, sync
from simdist.viz import logical_figures as lfigs
from simdist.viz import sync_figures as figs
from simdist.viz.topology import sized_topology

PRESETS, ELEMENTS, REPEAT = ("nvswitch", "fat-tree"), 1024, 5


def best(fn, repeat=REPEAT, clock=time.perf_counter):
    times = []
    for _ in range(repeat):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return min(times)


def render_step(run, k):
    channel = logical.channels(run.schedule)[0]
    lfigs.logical_figure(run, k, channel).to_plotly_json()
    figs.topology_figure(run, k, channel).to_plotly_json()
    figs.buffer_figure(run, k, channel).to_plotly_json()
    figs.step_time_figure(run, k).to_plotly_json()
    figs.steps_figure(run, k).to_plotly_json()
    figs.values_frame(run, sync.values_at(run, k), k)


def main():
    # CPU ms: this process's CPU time, what the server spends; it stays near the wall time
    # on an idle machine and is the figure to read on a busy one.
    print(f"{'preset':>9} {'devices':>8} {'all_reduce ms':>14} {'render step ms':>15} "
          f"{'CPU ms':>7} {'ratio':>7}")
    for preset, n in [(p, n) for p in PRESETS for n in (8, 16, 64)]:
        topo = sized_topology(preset, n)
        inputs = sync.make_inputs(n, ELEMENTS)
        devices = topo.devices[:n]
        base = best(lambda i=inputs, t=topo, d=devices: collectives.all_reduce(
            i, "ring", topology=t, devices=d))
        run = sync.run_sync("ring", n, preset, ELEMENTS)
        k = run.num_positions // 2          # mid-schedule: the replay does half the steps
        render_step(run, k)                 # warm caches (layout, routes)
        t = best(lambda r=run, k=k: render_step(r, k))
        cpu = best(lambda r=run, k=k: render_step(r, k), clock=time.process_time)
        flag = "  (target < 100 ms)" if n == 16 else ""
        print(f"{preset:>9} {n:>8} {base * 1e3:>14.2f} {t * 1e3:>15.2f} {cpu * 1e3:>7.1f} "
              f"{t / base:>7.1f}{flag}")


if __name__ == "__main__":
    main()

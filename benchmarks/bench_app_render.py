"""Server time to render one animation step of the gradient-sync page, for 8, 16, 64 devices.

One step = what the page recomputes when the user presses "next": the topology figure with
the step's transfers, the buffer heatmap (schedule replayed to that step), the step-time and
all-steps figures, and the values after the step (executor on the truncated schedule). The
all-reduce itself is cached by the page, so it is the baseline: the bare
``collectives.all_reduce`` call, measured in the same run. Target: under 100 ms at 16 devices.

Run: python benchmarks/bench_app_render.py
"""

from __future__ import annotations

import time

from simdist import collectives
from simdist.viz import sync
from simdist.viz import sync_figures as figs
from simdist.viz.topology import sized_topology

PRESET, ELEMENTS, REPEAT = "nvswitch", 1024, 5


def best(fn, repeat=REPEAT):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def render_step(run, k):
    figs.topology_figure(run, k).to_plotly_json()
    figs.buffer_figure(run, k).to_plotly_json()
    figs.step_time_figure(run, k).to_plotly_json()
    figs.steps_figure(run, k).to_plotly_json()
    figs.values_frame(run, sync.values_at(run, k), k)


def main():
    print(f"{'devices':>8} {'all_reduce ms':>14} {'render step ms':>15} {'ratio':>7}")
    for n in (8, 16, 64):
        topo = sized_topology(PRESET, n)
        inputs = sync.make_inputs(n, ELEMENTS)
        devices = topo.devices[:n]
        base = best(lambda i=inputs, t=topo, d=devices: collectives.all_reduce(
            i, "ring", topology=t, devices=d))
        run = sync.run_sync("ring", n, PRESET, ELEMENTS)
        k = run.num_positions // 2          # mid-schedule: the replay does half the steps
        render_step(run, k)                 # warm caches (layout, routes)
        t = best(lambda r=run, k=k: render_step(r, k))
        flag = "  (target < 100 ms)" if n == 16 else ""
        print(f"{n:>8} {base * 1e3:>14.2f} {t * 1e3:>15.2f} {t / base:>7.1f}{flag}")


if __name__ == "__main__":
    main()

"""Page 1, gradient sync: one real all-reduce, step by step, on a topology.

Glossary:
  step     -- position 0 is before any transfer; position k shows step k's transfers and
              the buffers after it.
  compare  -- the second algorithm runs on the same inputs; its result differs from the
              first in the last bits because it adds in another order.
"""

import common
import numpy as np
import streamlit as st

from simdist.hardware.topology import TopologyError
from simdist.viz import logical, sync, ulp
from simdist.viz import logical_figures as lfigs
from simdist.viz import sync_figures as figs
from simdist.viz.topology import max_devices

PAGE = "sync"
common.init(PAGE)
st.title("Gradient sync: all-reduce step by step")

# two rows: the algorithms' names (up to "CollectiveAllReduce(NCCL)") and the topologies'
# whole at 1024 px, where five columns cut "nvswitch"
c = st.columns(2) + st.columns(3)
alg = common.widget(PAGE, "alg", c[0])
topo = common.widget(PAGE, "topo", c[2])
n = common.widget(PAGE, "n", c[3], hi=max_devices(topo))
# the slider stops at the largest size the page runs with n devices (no silent clamp)
size_k = common.widget(PAGE, "size", c[4], hi=(sync.MAX_TOTAL_ELEMENTS // n).bit_length() - 1)
alg2 = common.widget(PAGE, "alg2", c[1])
elements = 2 ** size_k


@st.cache_resource(max_entries=32, show_spinner=False)
def get_run(alg, n, topo, elements):
    return sync.run_sync(alg, n, topo, elements)


# The figures are cached with what they draw: plotly validates every value it is given, and
# drawing them was half of a rerun (a player step redraws only this position's).
# st.plotly_chart copies a figure, never changes it.
@st.cache_resource(max_entries=64, show_spinner=False)
def get_figures(alg, n, topo, elements, pos, ch):
    """Position ``pos``'s logical, physical and buffer views (channel ``ch``), its step
    time and the steps so far."""
    run = get_run(alg, n, topo, elements)
    chans = logical.channels(run.schedule)
    return (lfigs.logical_figure(run, pos, chans[ch]),
            figs.topology_figure(run, pos, chans[ch] if len(chans) > 1 else None),
            figs.buffer_figure(run, pos, chans[ch]), figs.step_time_figure(run, pos),
            figs.steps_figure(run, pos))


@st.cache_resource(max_entries=32, show_spinner=False)
def get_ulps(alg, alg2, n, topo, elements):
    """ULPs between rank 0's results of the two algorithms, per element, and their figure."""
    va = get_run(alg, n, topo, elements).result.values[0].reshape(-1)
    vb = get_run(alg2, n, topo, elements).result.values[0].reshape(-1)
    d = ulp.ulp_distance(va, vb)
    return d, figs.ulp_figure(d)


try:
    run = get_run(alg, n, topo, elements)
    run2 = get_run(alg2, n, topo, elements)
except (ValueError, TopologyError) as err:
    st.error(str(err))
    st.stop()

last = run.num_positions - 1
st.caption(f"{alg} runs **{run.algorithm}** ({run.result.schedule.num_steps} steps, "
           f"{run.schedule.num_chunks} chunks) on {run.topology.name}; "
           f"{elements:,} float32 elements per replica ({elements * 4:,} bytes).")
pos = common.player(PAGE, last)
chans = logical.channels(run.schedule)
row = st.columns([1, 3]) if len(chans) > 1 else [st, st]
ch = common.channel(PAGE, [c.name for c in chans], row[0])
channel = chans[ch]
common.sync_url(PAGE, {"alg": alg, "alg2": alg2, "topo": topo, "n": n, "size": size_k,
                       "ch": ch, "step": pos})
row[1].caption(
    "**Logical view**: the ranks as the algorithm sees them"
    + (" - a ring is drawn as a circle in ring order, whatever path its hops take on "
       "the wires. "
       if channel.shape == "ring" else " - each tree under its root. "
       if channel.shape == "tree" else ". ")
    + "**Physical view**: the same transfers on the wires they take, through switches "
    "and NICs; a wider line carries more transfers. "
    + (f"{len(chans)} channels run at once, each on its own share of the chunks: the one "
       "chosen is in full colour, the others faded." if len(chans) > 1 else ""))
# Side by side where the window is wide; at 1024 px the row wraps, one view above the other.
logical_fig, topology_fig, buffer_fig, step_fig, steps_fig = get_figures(
    alg, n, topo, elements, pos, ch)
with st.container(horizontal=True):
    st.plotly_chart(logical_fig, key="logical", width=460)
    st.plotly_chart(topology_fig, key="topology", width="stretch")
st.plotly_chart(buffer_fig, key="buffers", width="stretch")

left, right = st.columns([2, 3])
left.plotly_chart(step_fig, key="step_time", width="stretch")
right.plotly_chart(steps_fig, key="steps", width="stretch")

t = figs.totals(run)
m = st.columns(3) + st.columns(3)      # two rows: readable at 1024 px
m[0].metric("total time", f"{t['time_us']:.2f} us")
m[1].metric("latency", f"{t['latency_us']:.2f} us")
m[2].metric("bandwidth", f"{t['bandwidth_us']:.2f} us")
m[3].metric("compute", f"{t['compute_us']:.2f} us")
m[4].metric("algbw", f"{t['algbw_GBps']:.2f} GB/s")
m[5].metric("busbw", f"{t['busbw_GBps']:.2f} GB/s")

st.subheader("Values this step changed" if pos else "Values before the first step")
vals = figs.values_frame(run, sync.values_at(run, pos), pos)
st.session_state["sync.values"] = vals
st.caption("The first element of each chunk written in this step, on every rank; the cells "
           "this step wrote are highlighted." if pos else
           "The first element of each chunk: every rank still holds only its own gradient.")
st.dataframe(figs.values_styler(vals), key="values", hide_index=True)

st.subheader(f"Compare: {alg} vs {alg2}")
a, b = st.columns(2)
for col, r, name in ((a, run, alg), (b, run2, alg2)):
    tt = figs.totals(r)
    col.markdown(f"**{name}** -> {r.algorithm}: {tt['steps']} steps, "
                 f"{tt['time_us']:.2f} us, busbw {tt['busbw_GBps']:.2f} GB/s")
va, vb = run.result.values[0].reshape(-1), run2.result.values[0].reshape(-1)
summary = ulp.ulp_summary(va, vb)
st.session_state["sync.ulp"] = summary
st.markdown(f"Same inputs, rank 0's result: **{summary['differing']:,} of "
            f"{summary['elements']:,}** elements differ, by up to **{summary['max_ulp']} ULP** "
            f"(mean {summary['mean_ulp']:.3f}; largest relative error "
            f"{summary['max_rel_error']:.2e}).")
st.caption("**ULP** (unit in the last place) is the gap between a float32 and the next "
           "one: two results *k* ULP apart have *k - 1* floats between them, 0 ULP means "
           "identical bits. The **relative error** |a - b| / |b| of one ULP is about "
           "6e-8 to 1.2e-7 in float32 (2^-24 to 2^-23). Both algorithms add exactly the "
           "same numbers, only in another order, so every difference here is rounding; a "
           "large count of ULPs on an element whose sum cancelled to almost zero is still a "
           "tiny absolute difference.")
d, ulp_fig = get_ulps(alg, alg2, n, topo, elements)
st.plotly_chart(ulp_fig, key="ulp", width="stretch")
worst = int(np.argmax(d))
st.code(f"x[{worst}]: {alg} = {va[worst]!r} ({va[worst:worst + 1].view(np.uint32)[0]:#010x})\n"
        f"x[{worst}]: {alg2} = {vb[worst]!r} ({vb[worst:worst + 1].view(np.uint32)[0]:#010x})")

common.keep_playing(PAGE, last)

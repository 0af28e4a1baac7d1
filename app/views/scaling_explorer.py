"""Page 5, scaling explorer: nccl-tests style curves from the cost model.

Glossary:
  size sweep   -- every all-reduce algorithm priced from 1 KiB to 1 GiB on n devices.
  device sweep -- the same message on 2, 4, 8 ... devices of the preset.
"""

import common
import streamlit as st

from simdist.viz import scaling
from simdist.viz.topology import max_devices

PAGE = "scaling"
common.init(PAGE)
st.title("Scaling explorer")

c = st.columns(4)
topo = common.widget(PAGE, "topo", c[0])
n = common.widget(PAGE, "n", c[1], hi=max_devices(topo))
size_k = common.widget(PAGE, "size", c[2])
metric = common.widget(PAGE, "metric", c[3])
algs = common.widget(PAGE, "algs", help="all-reduce algorithms to draw; each keeps its own "
                                         "colour and dash whatever else is selected")
common.sync_url(PAGE, {"topo": topo, "n": n, "size": size_k, "metric": metric, "algs": algs})
if not algs:
    st.info("No algorithm selected: choose one or more above to draw their curves.")
    st.stop()


@st.cache_data(max_entries=64, show_spinner=False)
def sweeps(algs, topo, n, size_k):
    counts = [k for k in (2, 4, 8, 16, 32, 64) if k <= max_devices(topo)]
    return (scaling.size_sweep(algs, topo, n),
            scaling.device_sweep(algs, topo, 2 ** size_k, counts))


by_size, by_devices = sweeps(tuple(algs), topo, n, size_k)
st.session_state["scaling.sweep"] = by_size
cross = scaling.crossovers(by_size, "ring", "tree")
st.markdown(f"ring and tree cross at **{', '.join(scaling.size_text(b) for b in cross)}**: "
            "below it tree's fewer latency hops win, above it ring's bandwidth wins "
            "(the dotted line)." if cross
            else "ring and tree do not cross in 1 KiB .. 1 GiB here (or one is not selected).")
same = scaling.identical(by_size)
if same:
    st.caption("Identical curves (drawn with different dashes, one over the other): "
               + "; ".join(f"{a} = {b}" for a, b in same))
st.plotly_chart(scaling.size_figure(by_size, metric), key="by_size", width="stretch")
st.plotly_chart(scaling.device_figure(by_devices, metric), key="by_devices",
                width="stretch")

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
algs = st.multiselect("algorithms", scaling.all_reduce_algorithms(),
                      default=scaling.all_reduce_algorithms(), key="scaling.algs")
common.sync_url(PAGE, {"topo": topo, "n": n, "size": size_k, "metric": metric})


@st.cache_data(max_entries=64, show_spinner=False)
def sweeps(algs, topo, n, size_k):
    counts = [k for k in (2, 4, 8, 16, 32, 64) if k <= max_devices(topo)]
    return (scaling.size_sweep(algs, topo, n),
            scaling.device_sweep(algs, topo, 2 ** size_k, counts))


by_size, by_devices = sweeps(tuple(algs), topo, n, size_k)
st.session_state["scaling.sweep"] = by_size
cross = scaling.crossovers(by_size, "ring", "tree")
st.markdown(f"ring and tree cross at **{', '.join(f'{b:,} B' for b in cross)}**" if cross
            else "ring and tree do not cross in 1 KiB .. 1 GiB here (or one is not selected).")
st.plotly_chart(scaling.size_figure(by_size, metric), key="by_size", width="stretch")
st.plotly_chart(scaling.device_figure(by_devices, metric), key="by_devices",
                width="stretch")

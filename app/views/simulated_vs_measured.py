"""Page 9, simulated vs measured: a collective's cost-model time beside a real clock's.

Glossary:
  measurement -- ``collectives.measure`` (simdist.viz.measured): the same schedule priced
                 by the cost model on the chosen topology, run for real (simdist's
                 executor on this backend's arrays: NumPy on the host here; NCCL on GPUs),
                 and priced again after ``collectives.calibrate`` fitted the model to it.
  again       -- the button measures once more (a real clock: numbers change run to run).
"""

import common
import streamlit as st

from simdist.hardware import backend
from simdist.viz import measured
from simdist.viz.topology import max_devices

PAGE = "measured"
common.init(PAGE)
st.title("Simulated vs measured")
st.markdown("The cost model prices a collective's schedule step by step on a topology. Here "
            "the same schedule also **runs for real** at each message size, timed with a "
            "real clock, and `collectives.calibrate` fits the model's links (and, for an "
            "all-reduce, its reduction compute) to those measurements: the calibrated "
            "model's time is drawn too.")

c = st.columns(3) + st.columns(3) + st.columns(2)   # three rows: labels whole at 1024 px
coll = common.widget(PAGE, "coll", c[0])
names = measured.algorithms(coll)
key = "measured.alg"
if st.session_state.get(key) not in names:  # a link or a switch to a collective without it
    st.session_state[key] = "ring"
alg = c[1].selectbox("algorithm (schedule)", names, key=key,
                     help="The schedules the registry has for this collective.")
topo = common.widget(PAGE, "topo", c[2],
                     help="The GPUs and links the cost model prices the schedule on.")
n = common.widget(PAGE, "n", c[3], hi=min(8, max_devices(topo)),
                  help="ranks (devices) taking part; the host measurement runs as many "
                       "simulated ranks")
repeats = common.widget(PAGE, "repeats", c[4],
                        help="timed runs per size after one warm-up; the median is kept")
again = c[5].button("measure again", key="measured.again",
                    help="run the measurement once more (a real clock: it varies)")
lo = common.widget(PAGE, "lo", c[6])
hi = common.widget(PAGE, "hi", c[7])
common.sync_url(PAGE, {"coll": coll, "alg": alg, "topo": topo, "n": n, "lo": lo, "hi": hi,
                       "repeats": repeats})
st.session_state["measured.runs"] = st.session_state.get("measured.runs", 0) + bool(again)


@st.cache_resource(max_entries=16, show_spinner="measuring...")
def get_measurement(coll, alg, topo, n, lo, hi, repeats, run_number):
    return measured.run(coll, alg, topo, n, lo, hi, repeats)


try:
    m = get_measurement(coll, alg, topo, n, lo, hi, repeats, st.session_state["measured.runs"])
except (ValueError, RuntimeError) as err:
    st.error(f"{type(err).__name__}: {err}")
    st.stop()
st.session_state["measured.m"] = m

where = (f"**Measured here:** {m.where}. " + (
    "That is a GPU measurement." if measured.on_gpu(m) else
    f"This machine ran it **on the host CPU, not on a GPU** (backend "
    f"`{backend.get_backend()}`): the measured column times simdist's own schedule on "
    "host arrays, while the model prices the GPUs and links of the topology "
    f"`{topo}`. Expect the model to be much faster; the calibrated model is the cost model "
    "with links fitted to this host."))
st.info(where)
if measured.NCCL_LAST_PASSED is None:
    st.warning("**The NCCL path is untested.** On a machine with two or more GPUs and "
               "the cupy backend (`SIMDIST_BACKEND=cupy`), `collectives.measure` times "
               "NCCL's collective with CUDA events instead; that code has not yet run on "
               "GPUs (it needs two; the CuPy backend itself has run on one: README, \"Real "
               "hardware\"), so no GPU numbers are shown here.")

rows = m.rows
ratios = sorted(r.ratio for r in rows)
mid = ratios[len(ratios) // 2]
k = st.columns(3)
k[0].metric("sizes measured", len(rows))
k[1].metric("model / measured", f"{mid:.3g}",
            help="simulated / measured time, the median over the sizes. 1: the model "
                 "predicts this machine; 0.01: the model is 100x faster")
if all(r.calibrated is not None for r in rows):
    cal = sorted(r.calibrated / r.measured for r in rows)[len(rows) // 2]
    k[2].metric("calibrated / measured", f"{cal:.3g}",
                help="the calibrated model's time / measured time, the median over the sizes")

with st.container(horizontal=True):
    st.plotly_chart(measured.time_figure(m), key="measured_time", width=560)
    st.plotly_chart(measured.ratio_figure(m), key="measured_ratio", width=560)
st.dataframe(measured.table(m), key="measured_table", hide_index=True)

if m.calibration is not None:
    st.markdown("**Calibration** (`collectives.calibrate`"
                + (", then `calibrate_compute`" if m.compute is not None else "") + "): "
                + m.calibration.summary()
                + (f"; {m.compute.summary()}" if m.compute is not None else "") + ".")
if m.note:
    st.caption(m.note)
st.code(f"from simdist import collectives\n"
        f"from simdist.viz.topology import sized_topology\n"
        f"m = collectives.measure({coll!r}, sizes={[r.size for r in rows]},\n"
        f"                        algorithm={alg!r}, topology=sized_topology({topo!r}, {n}),\n"
        f"                        num_devices={n}, repeats={repeats})\n"
        f"m.table()", language="python")
st.caption("The measured times come from a real clock on a shared machine: they change from "
           "run to run (press *measure again*). Every number on this page comes from that "
           "call.")

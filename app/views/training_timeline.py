"""Page 4, training timeline: model.fit under a strategy; loss, Gantt chart, scaling.

Glossary:
  trace      -- every compute op, transfer and collective step the simulated GPUs did.
  efficiency -- weak scaling: step time on 1 GPU over step time on N (same per-GPU batch).
"""

import common
import streamlit as st

from simdist.viz import timeline

PAGE = "timeline"
common.init(PAGE)
st.title("Training timeline")

c = st.columns(4)
strategy = common.widget(PAGE, "strategy", c[0])
gpu = common.widget(PAGE, "gpu", c[1])
n = common.widget(PAGE, "n", c[2])
epochs = common.widget(PAGE, "epochs", c[3])
common.sync_url(PAGE, {"strategy": strategy, "gpu": gpu, "n": n, "epochs": epochs})


@st.cache_resource(max_entries=16, show_spinner="training on simulated GPUs...")
def get_run(strategy, n, gpu, epochs):
    return timeline.train(strategy, n, gpu, epochs)


@st.cache_resource(max_entries=8, show_spinner="training on 1, 2, 4, 8 GPUs...")
def get_scaling(strategy, gpu):
    return timeline.scaling_runs(strategy, gpu, [1, 2, 4, 8])


run = get_run(strategy, n, gpu, epochs)
st.session_state["timeline.run"] = run
m = st.columns(4)
m[0].metric("final loss", f"{run.losses[-1]:.4f}")
m[1].metric("optimizer steps", run.steps)
m[2].metric("simulated time", f"{run.sim_time * 1e3:.3f} ms")
m[3].metric("step time", f"{run.step_time * 1e6:.1f} us")

left, right = st.columns(2)
left.plotly_chart(timeline.loss_figure(run), key="loss", width="stretch")
right.plotly_chart(timeline.busy_figure(run), key="busy", width="stretch")
span = st.slider("time window (% of the run)", 0, 100, (0, 100), key="timeline.window")
window = (run.sim_time * span[0] / 100, run.sim_time * max(span[1], span[0] + 1) / 100)
st.plotly_chart(timeline.gantt_figure(run, window), key="gantt", width="stretch")
st.download_button("Download Chrome trace (open in Perfetto)", timeline.chrome_json(run),
                   file_name="simdist_trace.json", mime="application/json")
if strategy != "OneDeviceStrategy":
    st.plotly_chart(timeline.efficiency_figure(get_scaling(strategy, gpu)), key="efficiency",
                    width="stretch")

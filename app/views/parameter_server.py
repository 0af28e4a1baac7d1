"""Page 6, parameter servers: asynchronous training on simulated workers and ps.

Glossary:
  step       -- one function the coordinator scheduled (``coordinator.schedule(step_fn)``),
                run by whichever worker was free, on that worker's own clock.
  pull/push  -- a worker reading a variable from its ps / writing its update there.
  staleness  -- the other workers' updates that landed between a step's read of the
                parameters and its write: the price of not waiting for each other.
"""

import common
import numpy as np
import streamlit as st

from simdist.viz import ps_timeline

PAGE = "ps"
common.init(PAGE)
st.title("Parameter servers: asynchronous training")
st.markdown("TF's parameter-server tutorial loop, `coordinator.schedule(step_fn)` then "
            "`coordinator.join()`, on simulated workers and parameter servers (a Dense 16 -> "
            "Dense 1 regression, SGD, each worker its own shuffled copy of the data). "
            "Nobody waits: each worker pulls the current weights, computes, and pushes its "
            "update while the others do the same.")

# five sliders in a row and the failure switch under them: a sixth column cut its label
# at 1024 px
c = st.columns(5)
workers = common.widget(PAGE, "workers", c[0])
num_ps = common.widget(PAGE, "ps", c[1])
slow = common.widget(PAGE, "slow", c[2])
steps = common.widget(PAGE, "steps", c[3])
seed = common.widget(PAGE, "seed", c[4])
fail = common.widget(PAGE, "fail")
common.sync_url(PAGE, {"workers": workers, "ps": num_ps, "slow": slow, "steps": steps,
                       "seed": seed, "fail": fail})


@st.cache_resource(max_entries=16, show_spinner="training on simulated workers...")
def get_run(workers, num_ps, slow, steps, seed, fail):
    return ps_timeline.train(workers, num_ps, float(slow), steps, seed, fail)


run = get_run(workers, num_ps, slow, steps, seed, fail)
st.session_state["ps.run"] = run
done = {w: sum(1 for s in run.steps if s["worker"] == w and s["status"] == "ok")
        for w in range(workers)}
m = st.columns(4)
m[0].metric("final loss", f"{run.losses[-1]:.4f}")
m[1].metric("simulated time", f"{run.sim_time * 1e3:.1f} ms")
m[2].metric("max staleness", max(run.staleness, default=0))
m[3].metric("mean staleness", f"{np.mean(run.staleness) if run.staleness else 0:.2f}")
st.markdown("**Steps per worker:** " + ", ".join(f"worker {w}: {n}" for w, n in done.items())
            + (f". Worker {workers - 1} is {slow}x slower, so it finishes fewer steps and "
               "pushes updates computed from older weights." if slow > 1 and workers > 1
               else "."))
if run.failed_worker is not None:
    rescheduled = [s for s in run.steps if s["status"] != "ok"]
    st.markdown(f"**Worker {run.failed_worker} failed** during {len(rescheduled)} step(s): "
                "as TF's coordinator does, the step went back to the queue and ran on another "
                "worker; the failed worker rejoined later with its dataset rebuilt.")
st.plotly_chart(ps_timeline.timeline_figure(run), key="ps_timeline", width="stretch")
# Side by side where the window is wide; at 1024 px the row wraps, one chart above the other
# (in half a 1024 px page the axis titles were cut).
with st.container(horizontal=True):
    st.plotly_chart(ps_timeline.version_figure(run), key="ps_versions", width=520)
    st.plotly_chart(ps_timeline.staleness_figure(run), key="ps_staleness", width=520)
st.caption("Costs: 25 Gbit/s and 50 us per message between tasks, the workers' compute priced "
           "by the same cost model as the other pages. The same run is reproducible: the "
           "seed fixes the data, the initial weights and each step's small random delay.")

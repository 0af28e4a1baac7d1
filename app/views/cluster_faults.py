"""Page 6, cluster faults: a simulated multi-worker cluster trains with one injected fault.

Glossary:
  fault     -- simdist.faults: kill a worker at a step, a straggler, a slow link.
  timeline  -- one row per worker; the fault's events and the survivors' bounded wait.
"""

import common
import streamlit as st

from simdist.viz import faults

PAGE = "faults"
common.init(PAGE)
st.title("Cluster faults")
st.markdown("`MultiWorkerMirroredStrategy` over simulated CPU workers (one replica each, as "
            "TF's multi-worker tutorial runs them) trains a small model for "
            f"{faults.STEPS} steps, with one fault injected by `simdist.faults`: the same "
            "program, the same fault, the same trace every time.")

c = st.columns(5)
kind = common.widget(PAGE, "kind", c[0])
workers = common.widget(PAGE, "workers", c[1])
task = common.widget(PAGE, "task", c[2], hi=workers - 1)
at = common.widget(PAGE, "at", c[3]) if kind == "kill" else None
factor = common.widget(PAGE, "factor", c[4]) if kind in ("straggler", "slow link") else None
values = {"kind": kind, "workers": workers, "task": task}
values.update({k: v for k, v in (("at", at), ("factor", factor)) if v is not None})
common.sync_url(PAGE, values)


@st.cache_resource(max_entries=16, show_spinner="training the simulated cluster...")
def get_run(kind, workers, task, at, factor):
    return faults.run(workers, kind, task, at if at is not None else 0, factor or 1)


run = get_run(kind, workers, task, at, factor)
st.session_state["faults.run"] = run
code = {"kill": f"faults.KillWorker(task={task}, step={at})",
        "straggler": f"faults.Straggler(task={task}, factor={factor})",
        "slow link": f"faults.SlowLink({task}, {(task + 1) % workers}, {factor})",
        "none": ""}[kind]
st.code(f"with simdist.faults.inject({code}):\n    for batch in dist_dataset:\n"
        "        strategy.run(step, args=(batch,))", language="python")
m = st.columns(3)
m[0].metric("steps finished", f"{len(run.losses)} of {faults.STEPS}")
m[1].metric("last loss", f"{run.losses[-1]:.4f}" if run.losses else "-")
m[2].metric("fault events in the trace", len(run.fault_events))
if run.error:
    st.error(f"Every other worker raised `tf.errors.UnavailableError`: {run.error}")
    st.markdown("The survivors waited for the lost task a bounded (simulated) time, then "
                "gave up with the error TF raises when a collective's peer is gone. To go "
                "on, restart the whole cluster: with `BackupAndRestore` training resumes "
                "from the last backup (see lesson 14).")
elif kind == "straggler":
    st.markdown(f"Worker {task}'s ops take {factor}x as long; every all-reduce waits for it, "
                "so every step is as slow as the slowest worker.")
elif kind == "slow link":
    st.markdown(f"The link between workers {task} and {(task + 1) % workers} is {factor}x "
                "slower; the ring moves in lock-step, so every all-reduce crossing it slows "
                "down as a whole.")
left, right = st.columns([2, 1])
left.plotly_chart(faults.timeline_figure(run), key="timeline", width="stretch")
right.plotly_chart(faults.step_figure(run), key="steps", width="stretch")
st.download_button("Download Chrome trace (open in Perfetto)", faults.chrome_json(run),
                   file_name="simdist_faults_trace.json", mime="application/json")

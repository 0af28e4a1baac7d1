"""Page 8, tf.function tracing: a small step run N times, and what tracing did at each call.

Glossary:
  program  -- a preset (or the learner's edit of it) that defines ``step`` with
              ``@tf.function``; it runs in this app's Python process, as a notebook cell.
  call     -- the expression, in ``i``, that calls ``step`` at call i = 0 .. N-1.
  trace    -- the Python body ran on symbolic tensors and a graph was recorded; the other
              calls ran that graph without the Python (simdist.viz.tracing).
"""

import common
import streamlit as st

from simdist.viz import tracing
from simdist.viz import tracing_figures as figs

PAGE = "tracing"
common.init(PAGE)
st.title("tf.function tracing")
st.markdown("`@tf.function` runs your Python **once per input signature**, on symbolic "
            "tensors, and records the ops it calls as a graph (a *trace*); every call with a "
            "matching signature then runs the graph, not the Python. Pick or edit a small "
            "step, run it N times, and see what simdist's tracing did at each call: the "
            "trace events, the tracing count, what `print` and `tf.print` wrote, TF's "
            "warnings, the code AutoGraph generated and the graph's nodes.")

c = st.columns([3, 2])
preset = common.widget(PAGE, "preset", c[0],
                       format_func=lambda k: tracing.PRESETS[k].title,
                       help="Each program defines `step`; edit it below.")
n = common.widget(PAGE, "calls", c[1], help="how many times the call below runs (i = 0..N-1)")
common.sync_url(PAGE, {"preset": preset, "calls": n})
p = tracing.PRESETS[preset]
st.info(p.shows)
# side by side where the window is wide; at 1024 px the call and the counts go below
with st.container(horizontal=True):
    left, right = st.container(width=560), st.container(width=440)
# the program in a fixed-width font, as code
st.html("<style>.st-key-tracing_editor textarea {font-family: 'Source Code Pro', "
        "monospace; font-size: 0.85rem;}</style>")
source = left.container(key="tracing_editor").text_area(
    "program (defines step)", p.source, key=f"tracing.src.{preset}", height=280,
    help="Python, with simdist imported as `tf`. It runs in this app's process, as a "
         "notebook cell would. Ctrl+Enter runs it.")
call = right.text_input("call, at i = 0 .. N-1", p.call, key=f"tracing.call.{preset}",
                        help="A Python expression that calls step; `i` is the call's number.")
right.caption("Edit the program or the call and press Ctrl+Enter (or click outside): the "
              "page runs it again on a fresh simulated machine (two V100 GPUs).")


@st.cache_resource(max_entries=32, show_spinner="running step...")
def get_run(source, call, n):
    return tracing.run_program(source, call, n)


run = get_run(source, call, n)
st.session_state["tracing.run"] = run
if run.error:
    st.error(f"The program did not run: {run.error}")
    st.stop()

graphs = sum(c.graph for c in run.calls)
eager = sum(not c.graph and not c.error for c in run.calls)
m = right.columns(2) + right.columns(2)
m[0].metric("calls", len(run.calls))
m[1].metric("traces", run.count, help="step.experimental_get_tracing_count()")
m[2].metric("graph runs", graphs)
m[3].metric("eager runs", eager, help="calls whose Python ran eagerly: simdist's "
            "fallback for what its graphs cannot record yet")

if run.retracing_calls:
    calls = ", ".join(map(str, run.retracing_calls))
    st.warning(f"**TF's retracing warning**, logged at call"
               f"{'s' if len(run.retracing_calls) > 1 else ''} {calls}, as TF logs it "
               f"(the first of them):\n\n{run.retracing_warnings[0]}")
for message in run.warnings:
    if message in run.retracing_warnings:
        continue
    if message.startswith("simdist could not trace"):
        st.warning(f"**simdist fell back to eager execution** for this function: {message}")
    else:
        st.warning(f"Logged on the tensorflow logger: {message}")
failed = next((c for c in run.calls if c.error), None)
if failed:
    st.error(f"Call {failed.index} raised {failed.error}; the calls after it did not run.")

st.plotly_chart(figs.timeline_figure(run), key="tracing_timeline", width="stretch")
st.subheader("What printed at which call")
st.caption("`print` writes to stdout while the Python runs (at a trace, or at every call "
           "when simdist falls back to eager); `tf.print` is an op of the graph and writes "
           "to stderr at every call.")
st.table(figs.calls_frame(run), hide_index=True)

with st.container(horizontal=True):
    st.plotly_chart(figs.count_figure(run), key="tracing_count", width=520)
    with st.container(width=620):
        st.markdown("**The device trace's function events** (`trace`, `retrace`, "
                    "`(graph)`), from `get_machine().trace.filter(cat='function')`")
        events = figs.events_frame(run)
        st.dataframe(events, key="tracing_events", hide_index=True,
                     height=min(260, 36 * (len(events) + 1) + 3))

st.markdown(f"**The recorded graphs**: {len(run.traces)} "
            f"trace{'' if len(run.traces) == 1 else 's'}; each lists its FuncGraph's nodes, "
            "one per public op call, a cond's or while_loop's branches indented, and below "
            "them the graph's operations as TensorFlow lists them.")
with st.container(horizontal=True):
    for t in run.traces:
        with st.container(width=300, border=True):
            st.caption(f"Trace {t.number}, made by call {t.first_call}, for "
                       f"({t.signature})")
            st.code(figs.nodes_text(t), language="text", wrap_lines=True)
            with st.expander(f"TF's operations ({len(t.operations)}): "
                             "`get_operations()`"):
                st.code(figs.operations_text(t), language="text")
st.markdown("**AutoGraph's code** (`tf.autograph.to_code(step.python_function)`): what "
            "the traces ran instead of the function as written.")
st.code(run.code, language="python", wrap_lines=True)

"""The landing page: what each page shows, with links (every link can carry query params)."""

import streamlit as st

st.title("simdist: see tf.distribute at work")
st.markdown("Every picture here comes from simdist's runtime: the all-reduce schedule that "
            "was executed, the split the distributed dataset made, the losses that were "
            "computed, the trace of a real `model.fit` on simulated GPUs.")
st.page_link("views/gradient_sync.py", label="1. Gradient sync: an all-reduce step by step")
st.page_link("views/data_sharding.py", label="2. Data sharding: batches into replicas")
st.page_link("views/loss_scaling.py", label="3. Loss scaling: compute_average_loss, "
             "mixed precision")
st.page_link("views/training_timeline.py", label="4. Training timeline: Gantt chart, "
             "scaling efficiency")
st.page_link("views/scaling_explorer.py", label="5. Scaling explorer: time and busbw curves")
st.page_link("views/cluster_faults.py", label="6. Cluster faults: a killed worker, a "
             "straggler or a slow link in a multi-worker cluster")
st.page_link("views/parameter_server.py", label="7. Parameter servers: asynchronous "
             "training, stale reads, stragglers, a failing worker")
st.page_link("views/tf_function.py", label="8. tf.function tracing: trace once, run the "
             "graph; print vs tf.print, retracing, AutoGraph")
st.page_link("views/simulated_vs_measured.py", label="9. Simulated vs measured: the cost "
             "model's time beside a real clock's, and the calibrated model")
st.caption("Each page keeps its controls in the URL, e.g. "
           "`/gradient_sync?alg=tree&n=8&topo=dgx1&step=3`.")

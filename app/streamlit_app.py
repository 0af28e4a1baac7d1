"""simdist's Streamlit app: the entry point that lists the pages (``simdist app`` runs it).

Glossary:
  page   -- one file under ``views/``: widgets, then calls into ``simdist.viz``.
  state  -- every control lives in the URL's query parameters (``common.controls``), so a
            lesson can link to an exact view, e.g. ``/gradient_sync?alg=tree&n=8&step=3``.
"""

import sys
from pathlib import Path

import streamlit as st

sys.path.insert(0, str(Path(__file__).resolve().parent))  # pages import common.py

st.set_page_config(page_title="simdist", layout="wide")

PAGES = [
    st.Page("views/home.py", title="simdist", default=True),
    st.Page("views/gradient_sync.py", title="1. Gradient sync", url_path="gradient_sync"),
    st.Page("views/data_sharding.py", title="2. Data sharding", url_path="data_sharding"),
    st.Page("views/loss_scaling.py", title="3. Loss scaling", url_path="loss_scaling"),
    st.Page("views/training_timeline.py", title="4. Training timeline",
            url_path="training_timeline"),
    st.Page("views/scaling_explorer.py", title="5. Scaling explorer",
            url_path="scaling_explorer"),
    st.Page("views/cluster_faults.py", title="6. Cluster faults", url_path="cluster_faults"),
    st.Page("views/parameter_server.py", title="7. Parameter servers",
            url_path="parameter_server"),
    st.Page("views/tf_function.py", title="8. tf.function tracing", url_path="tf_function"),
    st.Page("views/simulated_vs_measured.py", title="9. Simulated vs measured",
            url_path="simulated_vs_measured"),
]

st.navigation(PAGES).run()

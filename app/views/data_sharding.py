"""Page 2, data sharding: how experimental_distribute_dataset cuts each global batch.

Glossary:
  plan   -- simdist.data's recorded TF split: step -> replica -> dataset elements.
  step   -- the slider / player moves through the steps of one epoch.
"""

import common
import streamlit as st

from simdist.viz import sharding

PAGE = "shard"
common.init(PAGE)
st.title("Data sharding: global batches into per-replica batches")

c = st.columns(6)
ds = common.widget(PAGE, "ds", c[0])
gb = common.widget(PAGE, "gb", c[1])
rep = common.widget(PAGE, "rep", c[2])
wk = common.widget(PAGE, "wk", c[3])
policy = common.widget(PAGE, "policy", c[4])
drop = common.widget(PAGE, "drop", c[5])

st.code(f"ds = tf.data.Dataset.range({ds}).batch({gb}, drop_remainder={drop})\n"
        f"options.experimental_distribute.auto_shard_policy = AutoShardPolicy.{policy}\n"
        f"dist = strategy.experimental_distribute_dataset(ds)  "
        f"# {rep} replicas on {wk} worker(s)", language="python")
try:
    plan = sharding.make_plan(ds, gb, rep, wk, drop, policy)
except Exception as err:  # TF's own errors (NotFoundError for FILE, ValueError)
    st.error(f"{type(err).__name__}: {err}")
    common.sync_url(PAGE, {"ds": ds, "gb": gb, "rep": rep, "wk": wk, "drop": drop,
                           "policy": policy})
    st.stop()

last = max(len(plan.steps) - 1, 0)
pos = common.player(PAGE, last)
common.sync_url(PAGE, {"ds": ds, "gb": gb, "rep": rep, "wk": wk, "drop": drop,
                       "policy": policy, "step": pos})
sizes = plan.batch_sizes()
st.session_state["shard.sizes"] = sizes
if sizes:
    kinds = [sharding.batch_kind(plan, s) for s in sizes[pos]]
    st.markdown(f"**Step {pos + 1} of {len(sizes)}**: per-replica sizes {sizes[pos]} "
                f"(full = {sharding.full_size(plan)} rows)"
                + (" -- **empty batch!**" if "empty" in kinds else "")
                + (" -- partial batch" if "partial" in kinds else ""))

st.plotly_chart(sharding.step_figure(plan, pos), key="step", width="stretch")
left, right = st.columns(2)
left.plotly_chart(sharding.sizes_figure(plan, pos), key="sizes", width="stretch")
right.plotly_chart(sharding.flow_figure(plan, pos), key="flow", width="stretch")

common.keep_playing(PAGE, last)

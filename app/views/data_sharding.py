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

st.markdown("`strategy.experimental_distribute_dataset` cuts every **global** batch into "
            "per-replica batches, exactly as TensorFlow does (recorded from TF): look for "
            "partial and **empty** replica batches at the end of an epoch, and for elements "
            "read twice when auto-sharding is OFF on several workers.")
c = st.columns(3) + st.columns(3)        # two rows: labels readable at 1024 px
ds = common.widget(PAGE, "ds", c[0], help="elements of Dataset.range(n); 0 is allowed")
gb = common.widget(PAGE, "gb", c[1], help="the batch size given to .batch(): the global batch")
rep = common.widget(PAGE, "rep", c[2], help="replicas in sync, over all workers")
wk = common.widget(PAGE, "wk", c[3], help="workers (MultiWorkerMirroredStrategy tasks)")
policy = common.widget(PAGE, "policy", c[4],
                       help="AutoShardPolicy: DATA (and AUTO, for a source reading no files) "
                            "gives each worker its own elements; OFF makes every worker read "
                            "everything. FILE shards the files a source reads: Dataset.range "
                            "reads none, so FILE is not offered here (TF raises NotFoundError "
                            "with several workers).")
drop = common.widget(PAGE, "drop", c[5], help="drop_remainder: drop the last, partial batch")

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

if not plan.steps:
    st.warning(f"The dataset yields no batch: {ds} element{'' if ds == 1 else 's'}"
               + (f", and drop_remainder=True drops the only, partial batch of {ds}"
                  if ds else " (an empty dataset)")
               + ". A training loop over it runs 0 steps.")
    common.sync_url(PAGE, {"ds": ds, "gb": gb, "rep": rep, "wk": wk, "drop": drop,
                           "policy": policy})
    st.stop()
last = len(plan.steps) - 1
pos = common.player(PAGE, last, first=1)
common.sync_url(PAGE, {"ds": ds, "gb": gb, "rep": rep, "wk": wk, "drop": drop,
                       "policy": policy, "step": pos})
sizes = plan.batch_sizes()
st.session_state["shard.sizes"] = sizes
kinds = [sharding.batch_kind(plan, s) for s in sizes[pos]]
if policy == "OFF" and wk > 1:
    st.warning(f"AutoShardPolicy.OFF on {wk} workers: every worker reads the whole dataset, "
               "so each element is trained on once per worker in an epoch (the classic "
               "mistake; DATA or AUTO split the elements between workers).")
st.markdown(f"**Step {pos + 1} of {len(sizes)}**: per-replica sizes {sizes[pos]} "
            f"(full = {sharding.full_size(plan)} rows)"
            + (" -- **empty batch!**" if "empty" in kinds else "")
            + (" -- partial batch" if "partial" in kinds else ""))

st.plotly_chart(sharding.step_figure(plan, pos), key="step", width="stretch")
left, right = st.columns(2)
left.plotly_chart(sharding.sizes_figure(plan, pos), key="sizes", width="stretch")
right.plotly_chart(sharding.flow_figure(plan, pos), key="flow", width="stretch")

common.keep_playing(PAGE, last)

"""One worker of a MultiWorkerMirroredStrategy program that calls every collective (run once
per task): all_gather (axis 0 with different sizes per replica, axis 1), strategy.gather,
all_reduce of a structure, batch_reduce_to, extended.broadcast_to, the chief's broadcast of
initial values and experimental_distribute_values_from_function.

Prints ``@@RESULT@@{json}`` with this worker's local results as lists (and float bytes as
hex for bit comparisons). ``TF_MODULE=tensorflow`` runs it under TensorFlow.
"""

import importlib
import json
import os

import numpy as np

tf = importlib.import_module(os.environ.get("TF_MODULE", "simdist"))

strategy = tf.distribute.MultiWorkerMirroredStrategy()
task_id = strategy.cluster_resolver.task_id or 0
local = strategy.experimental_local_results


def lists(values):
    return [np.asarray(v).tolist() for v in local(values)]


def hexes(values):
    return [np.asarray(v).tobytes().hex() for v in local(values)]


def replica_values():
    ctx = tf.distribute.get_replica_context()
    r = ctx.replica_id_in_sync_group
    # Replica r holds r + 1 rows (sizes differ along axis 0) of values 1/(r+3).
    rows = tf.fill([r + 1, 2], 1.0 / (tf.cast(r, tf.float32) + 3.0))
    wide = tf.reshape(tf.cast(tf.range(2 * (r + 1)), tf.float32) + 10.0 * tf.cast(r, tf.float32),
                      [1, 2 * (r + 1)])
    return rows, wide


def gathers():
    ctx = tf.distribute.get_replica_context()
    rows, wide = replica_values()
    g0 = ctx.all_gather(rows, axis=0)
    g1 = ctx.all_gather(wide, axis=1)
    nested = ctx.all_gather({"a": tf.reshape(tf.cast(ctx.replica_id_in_sync_group, tf.int32), [1])},
                            axis=0)
    summed = ctx.all_reduce("SUM", {"x": rows[:1] * 3.0, "n": tf.constant([1, 2])})
    return g0, g1, nested["a"], summed["x"], summed["n"]


g0, g1, ids, sx, sn = strategy.run(gathers)
rows, wide = strategy.run(replica_values)
out = {"task": [strategy.cluster_resolver.task_type, task_id], "tensorflow": tf.__version__,
       "num_replicas_in_sync": strategy.num_replicas_in_sync,
       "all_gather_rows": lists(g0), "all_gather_rows_hex": hexes(g0),
       "all_gather_axis1": lists(g1), "all_gather_ids": lists(ids),
       "all_reduce_x_hex": hexes(sx), "all_reduce_n": lists(sn),
       "gather_rows": np.asarray(strategy.gather(rows, axis=0)).tolist(),
       "gather_wide": np.asarray(strategy.gather(wide, axis=1)).tolist()}
pairs = [(rows, None), (wide, None)]
reduced = strategy.extended.batch_reduce_to(
    "SUM", [(strategy.run(lambda: replica_values()[0][:1]), "/cpu:0"),
            (strategy.run(lambda: replica_values()[1][:, :2]), "/cpu:0")])
out["batch_reduce_to_hex"] = [hexes(r) for r in reduced]
mean = strategy.extended.reduce_to("MEAN", strategy.run(lambda: replica_values()[0][:1]),
                                   "/cpu:0")
out["reduce_to_mean_hex"] = hexes(mean)
# The chief's initial value wins, whatever each worker's seed drew.
tf.random.set_seed(100 + task_id)
with strategy.scope():
    v = tf.Variable(tf.random.uniform([3]))
    counter = tf.Variable(0, dtype=tf.int64)
out["variable_hex"] = hexes(v)
out["counter"] = lists(counter)
# broadcast_to copies this worker's tensor to the variable's devices (no collective in TF).
out["broadcast_to"] = lists(strategy.extended.broadcast_to(
    tf.constant([float(task_id)] * 3), v))
from_fn = strategy.experimental_distribute_values_from_function(
    lambda ctx: tf.constant([ctx.replica_id_in_sync_group, ctx.num_replicas_in_sync]))
out["values_from_function"] = lists(from_fn)


# Sums whose bits show the order of additions: floats of mixed magnitudes, one row per
# replica (TF's ring: 64-byte aligned chunks, chunk c added in rank order from rank c).
def mixed(n, seed):
    rng = np.random.RandomState(seed)
    return (rng.randn(8, n) * 10.0 ** rng.randint(-4, 4, (8, n))).astype(np.float32)


def rows(table):
    return strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(table[ctx.replica_id_in_sync_group]))


def summed(*xs):
    return tf.distribute.get_replica_context().all_reduce("SUM", list(xs))


BIG, SMALL = mixed(1000, 1), mixed(37, 2)
out["all_reduce_mixed_hex"] = hexes(strategy.run(summed, args=(rows(BIG),))[0])


def both():
    r = tf.distribute.get_replica_context().replica_id_in_sync_group
    return summed(tf.gather(tf.constant(BIG), r), tf.gather(tf.constant(SMALL), r))


# In a tf.function the two tensors go as one pack (one ring over the concatenation).
out["all_reduce_packed_hex"] = [hexes(t) for t in tf.function(lambda: strategy.run(both))()]
# A worker's one replica all-reducing a function's argument (made outside every device
# scope): TF has no destination for it (ValueError "destinations can not be empty").
try:
    tf.function(lambda x: strategy.run(summed, args=(x,)))(rows(BIG))
    out["argument_all_reduce_error"] = None
except ValueError as e:
    out["argument_all_reduce_error"] = "destinations can not be empty" in str(e)


# A traced step's operations as this worker's graph lists them: its one replica's packs,
# CollectiveReduceV2 (with its instance key and ordering token) and unpacking, per
# all-reduce, and strategy.reduce's collective across the workers.
@tf.function
def listed_step():
    def fn():
        ctx = tf.distribute.get_replica_context()
        a = tf.ones([3]) * 2.0
        total = ctx.all_reduce("SUM", a)
        means = ctx.all_reduce("MEAN", [a + 1.0, tf.ones([2, 2])])
        return total + means[0]
    return strategy.reduce("MEAN", strategy.run(fn), axis=None)


out["step_operations"] = [[op.type, op.name, op.device] for op in
                          listed_step.get_concrete_function().graph.get_operations()]
out["step_value"] = listed_step().numpy().tolist()
print("@@RESULT@@" + json.dumps(out), flush=True)

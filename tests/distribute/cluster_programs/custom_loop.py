"""One worker of a MultiWorkerMirroredStrategy custom training loop (run once per task).

Prints ``@@RESULT@@{json}``: what this worker saw and computed. ``FAULT_TASK``/``FAULT_STEP``
make that task die (os._exit) before that step; the others report the error they got.
``TF_MODULE=tensorflow`` runs it under TensorFlow (record_tf_cluster.py, with INIT=constant).
"""

import importlib
import json
import os

import numpy as np

tf = importlib.import_module(os.environ.get("TF_MODULE", "simdist"))

GLOBAL_BATCH = 8
STEPS_DATA = 4

strategy = tf.distribute.MultiWorkerMirroredStrategy()
resolver = strategy.cluster_resolver
# Each task seeds differently: the workers agree only because the chief's initial values
# are broadcast (INIT=constant: initial values that do not depend on the Keras version).
tf.keras.utils.set_random_seed(1 + (resolver.task_id or 0))
init = {} if os.environ.get("INIT", "random") == "random" else {
    "kernel_initializer": tf.keras.initializers.Constant(0.5), "bias_initializer": "zeros"}
x = np.linspace(-1, 1, 2 * GLOBAL_BATCH * STEPS_DATA, dtype=np.float32).reshape(-1, 2)
y = x @ np.array([[1.0], [-2.0]], dtype=np.float32) + 0.5
dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH)
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,), **init)])
    optimizer = tf.keras.optimizers.SGD(0.1)
initial = [w.numpy().tobytes().hex() for w in model.weights]


def step(inputs):
    xb, yb = inputs
    with tf.GradientTape() as tape:
        per_example = tf.keras.losses.mean_squared_error(yb, model(xb, training=True))
        loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


out = {"task": [resolver.task_type, resolver.task_id], "tensorflow": tf.__version__,
       "num_replicas_in_sync": strategy.num_replicas_in_sync,
       "should_checkpoint": strategy.extended.should_checkpoint,
       "multi_worker": strategy.extended._in_multi_worker_mode(),
       "replica_ids": [int(r) for r in strategy.experimental_local_results(strategy.run(
           lambda: tf.distribute.get_replica_context().replica_id_in_sync_group))],
       "initial": initial, "inputs": [], "local_losses": [], "losses": []}
fault_task, fault_step = int(os.environ.get("FAULT_TASK", -1)), int(os.environ.get(
    "FAULT_STEP", -1))
try:
    for i, batch in enumerate(strategy.experimental_distribute_dataset(dataset)):
        if i == fault_step and resolver.task_id == fault_task:
            os._exit(3)  # a worker dies mid-training
        out["inputs"].append([np.asarray(b).tolist()
                              for b in strategy.experimental_local_results(batch[0])])
        per_replica = strategy.run(step, args=(batch,))
        out["local_losses"].append([float(v) for v in
                                    strategy.experimental_local_results(per_replica)])
        out["losses"].append(float(strategy.reduce("SUM", per_replica, axis=None)))
        out.setdefault("step_weights", []).append(
            [w.numpy().tobytes().hex() for w in model.weights])
    out["weights"] = [w.numpy().tobytes().hex() for w in model.weights]
    out["weight_values"] = [w.numpy().tolist() for w in model.weights]
    if hasattr(tf.distribute.ReduceOp, "MAX"):  # simdist's extension (the seeds list it)
        out["max_loss"] = float(strategy.reduce("MAX", per_replica, axis=None))
except tf.errors.OpError as e:
    out["error"] = [type(e).__name__, str(e)]
if os.environ.get("MERGE_TRACE") and strategy.extended.should_checkpoint:
    # The chief merges every worker's trace (each writes its own to SIMDIST_TRACE_DIR).
    from simdist.distribute.process_cluster import merge_worker_traces

    merge_worker_traces(strategy, os.environ["MERGE_TRACE"])
if os.environ.get("SIM_TRACE"):  # the simulated cluster's one trace, to compare with
    from simdist.hardware.machine import get_machine

    get_machine().trace.save(os.environ["SIM_TRACE"])
print("@@RESULT@@" + json.dumps(out), flush=True)

"""One worker of a cluster reading datasets with every AutoShardPolicy (run once per task).

For AUTO, DATA, OFF and FILE in turn: ``experimental_distribute_dataset`` of 22 numbered
elements in global batches of 4 (``drop_remainder=False``, so the last step is short), and
what this worker's replicas got at each step (or the error TF raises: FILE needs a file-based
source, and a dataset of tensors has none). Then ``distribute_datasets_from_function``: the
InputContext each pipeline saw and the batches after ``ctx.shard``. Prints ``@@RESULT@@``.
``TF_MODULE=tensorflow`` runs it under TensorFlow.
"""

import importlib
import json
import os

import numpy as np

tf = importlib.import_module(os.environ.get("TF_MODULE", "simdist"))
GLOBAL_BATCH = 4
FN_BATCH = 6  # distribute_datasets_from_function's: divisible by 2 and 3 replicas

strategy = tf.distribute.MultiWorkerMirroredStrategy()
local = strategy.experimental_local_results
Policy = tf.data.experimental.AutoShardPolicy
out = {"task": [strategy.cluster_resolver.task_type, strategy.cluster_resolver.task_id],
       "tensorflow": tf.__version__, "policies": {}}


def numbers():
    return tf.data.Dataset.from_tensor_slices(np.arange(22, dtype=np.int64)).batch(GLOBAL_BATCH)


for name in ("AUTO", "DATA", "OFF", "FILE"):
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = getattr(Policy, name)
    steps = []
    try:
        for batch in strategy.experimental_distribute_dataset(numbers().with_options(options)):
            steps.append([np.asarray(b).tolist() for b in local(batch)])
        out["policies"][name] = steps
    except tf.errors.OpError as e:
        out["policies"][name] = {"error": type(e).__name__}

# A pipeline that reads files (FILES_DIR holds f0.txt ... f3.txt, 4 lines each): AUTO
# shards it by FILE, each worker reading whole files.
if os.environ.get("FILES_DIR"):
    out["file_policies"] = {}
    for name in ("AUTO", "FILE", "DATA", "OFF"):
        options = tf.data.Options()
        options.experimental_distribute.auto_shard_policy = getattr(Policy, name)
        files = tf.data.Dataset.list_files(os.path.join(os.environ["FILES_DIR"], "f*.txt"),
                                           shuffle=False)
        lines = files.interleave(tf.data.TextLineDataset, cycle_length=2).batch(GLOBAL_BATCH)
        steps = []
        for batch in strategy.experimental_distribute_dataset(lines.with_options(options)):
            steps.append([[x.decode() for x in np.asarray(b).tolist()] for b in local(batch)])
        out["file_policies"][name] = steps

contexts = []


def dataset_fn(ctx):
    contexts.append([ctx.num_input_pipelines, ctx.input_pipeline_id, ctx.num_replicas_in_sync,
                     ctx.get_per_replica_batch_size(FN_BATCH)])
    ds = tf.data.Dataset.from_tensor_slices(np.arange(18, dtype=np.int64))
    ds = ds.shard(ctx.num_input_pipelines, ctx.input_pipeline_id)
    return ds.batch(ctx.get_per_replica_batch_size(FN_BATCH))


out["from_function"] = [[np.asarray(b).tolist() for b in local(batch)]
                        for batch in strategy.distribute_datasets_from_function(dataset_fn)]
out["input_contexts"] = contexts
print("@@RESULT@@" + json.dumps(out), flush=True)

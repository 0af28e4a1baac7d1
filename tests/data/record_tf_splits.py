"""Record how TensorFlow splits global batches among replicas and workers.

Run with a TensorFlow 2.x interpreter (not simdist's venv)::

    /tmp/tfenv/bin/python tests/data/record_tf_splits.py

It writes ``tests/data/fixtures/tf_batch_splits.json``, which
``test_distribute_rules_conformance.py`` replays against
``simdist.data.distribute_rules``.

Glossary of what is recorded:
  single  -- a real ``MirroredStrategy`` over N logical CPUs and
             ``experimental_distribute_dataset``: for each step, the elements each
             replica got (the dataset is ``range(size)`` so an element is its index).
  multi   -- one worker's view of a multi-worker pipeline, built in one process from
             TF's own functions exactly as ``input_lib.DistributedDataset`` builds it for
             ``MultiWorkerMirroredStrategy`` (its ``_make_rebatch_fn`` with the global
             replica count, then ``input_ops.auto_shard_dataset`` with the worker index):
             the stream of per-replica batches each worker's pipeline yields, in order,
             or the error TF raises (FILE sharding of a dataset that reads no files).
  rebatch -- the batch sizes ``distribute.batch_sizes_for_worker`` returns.
"""

from __future__ import annotations

import json
import os
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow as tf  # noqa: E402
from tensorflow.python.data.experimental.ops import distribute as tf_distribute  # noqa: E402
from tensorflow.python.distribute import input_lib, input_ops  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "tf_batch_splits.json")

SIZES = [0, 1, 3, 5, 7, 8, 10, 13, 16, 17, 24]
BATCHES = [1, 2, 3, 4, 5, 7, 8, 10]
REPLICAS = [1, 2, 3, 4, 5, 8]
# Pipelines: how the batched dataset is built (the rebatch path TF takes depends on it).
PIPELINES = {
    # batch is the last op: compute_batch_size finds it -> RebatchDatasetV2.
    "batch": lambda ds, b, d: ds.batch(b, drop_remainder=d),
    # a map after batch: still found through the map.
    "batch_map": lambda ds, b, d: ds.batch(b, drop_remainder=d).map(lambda x: x),
    # a filter after batch: the batch size cannot be inferred -> legacy rebatch.
    "batch_filter": lambda ds, b, d: ds.batch(b, drop_remainder=d).filter(lambda x: True),
}


def _ints(t) -> list[int]:
    return [int(v) for v in t.numpy().reshape(-1)]


def _single_case(strategy, replicas, pipe_name, size, batch, drop, policy="AUTO") -> dict:
    ds = PIPELINES[pipe_name](tf.data.Dataset.range(size), batch, drop)
    if policy != "AUTO":
        opts = tf.data.Options()
        opts.experimental_distribute.auto_shard_policy = POLICIES[policy]
        ds = ds.with_options(opts)
    case = {"pipeline": pipe_name, "policy": policy, "size": size, "global_batch": batch,
            "replicas": replicas, "drop_remainder": drop,
            "computed_batch_size": int(tf_distribute.compute_batch_size(ds).numpy())}
    try:
        dist = strategy.experimental_distribute_dataset(ds)
        steps = []
        for x in dist:
            parts = strategy.experimental_local_results(x)
            steps.append([_ints(p) for p in parts])
        case["steps"] = steps
    except Exception as e:  # noqa: BLE001 - record what TF raised
        case["error"] = type(e).__name__
        case["message"] = str(e).splitlines()[0][:300]
    return case


def record_single(strategies) -> list[dict]:
    cases = []
    for pipe_name in PIPELINES:
        sizes = SIZES if pipe_name == "batch" else [0, 5, 7, 10, 17]
        batches = BATCHES if pipe_name == "batch" else [3, 4, 5, 8]
        for replicas, strategy in strategies.items():
            for size in sizes:
                for batch in batches:
                    for drop in (False, True):
                        cases.append(_single_case(strategy, replicas, pipe_name, size, batch,
                                                  drop))
    # Other auto-shard policies: OFF keeps TF's even RebatchDatasetV2 split; DATA and FILE
    # are applied even with one worker.
    for policy in ("OFF", "DATA", "FILE"):
        sizes = [0, 1, 5, 7, 10, 17] if policy != "FILE" else [10]
        batches = [1, 3, 4, 5, 7, 8] if policy != "FILE" else [4]
        for replicas, strategy in strategies.items():
            for size in sizes:
                for batch in batches:
                    for drop in (False, True):
                        cases.append(_single_case(strategy, replicas, "batch", size, batch,
                                                  drop, policy))
    return cases


POLICIES = {
    "AUTO": tf.data.experimental.AutoShardPolicy.AUTO,
    "DATA": tf.data.experimental.AutoShardPolicy.DATA,
    "OFF": tf.data.experimental.AutoShardPolicy.OFF,
    "FILE": tf.data.experimental.AutoShardPolicy.FILE,
}


def record_multi() -> list[dict]:
    cases = []
    for workers in (2, 3):
        for per_worker in (1, 2, 3):
            total = workers * per_worker
            for size in (0, 5, 7, 12, 17, 24):
                for batch in (1, 3, 4, 5, 6, 7, 8):
                    for drop in (False, True):
                        for pname, policy in POLICIES.items():
                            if pname == "FILE" and (size, batch) != (12, 4):
                                continue
                            case = {"workers": workers, "replicas_per_worker": per_worker,
                                    "size": size, "global_batch": batch,
                                    "drop_remainder": drop, "policy": pname}
                            streams = []
                            try:
                                for w in range(workers):
                                    ds = tf.data.Dataset.range(size).batch(batch, drop)
                                    opts = tf.data.Options()
                                    opts.experimental_distribute.auto_shard_policy = policy
                                    ds = ds.with_options(opts)
                                    # as DistributedDataset._create_cloned_datasets_from_dataset
                                    # with an input_context (multi-worker, between-graph).
                                    rebatch_fn = input_lib.DistributedDataset._make_rebatch_fn(
                                        None, ds, workers, total)
                                    ds = rebatch_fn(ds, w)
                                    ds = input_ops.auto_shard_dataset(ds, workers, w, total)
                                    streams.append([_ints(t) for t in ds])
                                case["streams"] = streams
                            except Exception as e:  # noqa: BLE001 - record what TF raised
                                case["error"] = type(e).__name__
                                case["message"] = str(e).splitlines()[0][:300]
                            cases.append(case)
    return cases


def record_batch_sizes() -> list[dict]:
    out = []
    for g in (0, 1, 2, 3, 5, 7, 8, 10, 13, 16):
        for workers in (1, 2, 3):
            for per_worker in (1, 2, 3, 4):
                for w in range(workers):
                    sizes = tf_distribute.batch_sizes_for_worker(g, workers, per_worker, w)
                    out.append({"global_batch": g, "workers": workers,
                                "replicas_per_worker": per_worker, "worker_index": w,
                                "batch_sizes": [int(v) for v in sizes.numpy()]})
    return out


def main() -> None:
    t0 = time.time()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(
        cpu, [tf.config.LogicalDeviceConfiguration()] * max(REPLICAS))
    strategies = {
        r: tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(r)]) for r in REPLICAS
    }
    data = {
        "tensorflow_version": tf.__version__,
        "note": "Recorded by tests/data/record_tf_splits.py; elements are range() indices.",
        "batch_sizes_for_worker": record_batch_sizes(),
        "single_worker": record_single(strategies),
        "multi_worker": record_multi(),
    }
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump(data, f, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {OUT}: {len(data['single_worker'])} single-worker cases, "
          f"{len(data['multi_worker'])} multi-worker cases in {time.time() - t0:.0f}s",
          file=sys.stderr)


if __name__ == "__main__":
    main()

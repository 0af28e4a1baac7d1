"""Every collective of MultiWorkerMirroredStrategy across real processes on 127.0.0.1.

cluster_programs/collectives.py calls ReplicaContext.all_gather (sizes that differ along
axis 0, axis 1, a structure), ReplicaContext.all_reduce, strategy.gather,
extended.batch_reduce_to / reduce_to, extended.broadcast_to, creates variables (each worker
seeded differently) and experimental_distribute_values_from_function. Each worker's results
must be bit-identical to the one-process simulation of the same cluster, and match what
TensorFlow 2.21 did as the same processes (record_tf_cluster.py).
"""

import json
import os

import numpy as np
import pytest
from cluster_processes import cluster_config, run_cluster
from test_process_cluster import _ok, _simulated

pytestmark = pytest.mark.timeout(120)

# Values every replica of the cluster ends with (replica context) ...
PER_REPLICA = ("all_gather_rows_hex", "all_gather_axis1", "all_gather_ids", "all_reduce_x_hex",
               "all_reduce_n", "variable_hex", "counter", "values_from_function",
               "all_reduce_mixed_hex")
# ... and cross-replica results (one value per worker).
CROSS_REPLICA = ("gather_rows", "gather_wide", "batch_reduce_to_hex", "reduce_to_mean_hex")
FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "tf_cluster_collectives.json")


@pytest.fixture(scope="module", params=[2, 3])
def runs(request):
    n = request.param
    cluster = cluster_config(n)
    return n, _ok(run_cluster("collectives.py", cluster=cluster)), _simulated(
        "collectives.py", cluster)


def test_each_worker_is_bit_identical_to_the_simulated_cluster(runs):
    n, results, sim = runs
    for w, res in enumerate(results):
        assert res["num_replicas_in_sync"] == n
        for key in PER_REPLICA:
            # One replica per worker: its value is replica w's of the simulation.
            assert res[key] == [sim[key][w]], key
        for key in CROSS_REPLICA:
            assert res[key] == sim[key], key


def test_gathers_hold_every_workers_part_in_replica_order(runs):
    n, results, _ = runs
    rows = [[1.0 / np.float32(r + 3)] * 2 for r in range(n) for _ in range(r + 1)]
    for res in results:
        assert res["all_gather_ids"] == [list(range(n))]
        np.testing.assert_array_equal(res["all_gather_rows"][0], np.float32(rows))
        assert res["gather_rows"] == res["all_gather_rows"][0]
        assert res["gather_wide"] == res["all_gather_axis1"][0]
        assert len(res["all_gather_axis1"][0][0]) == n * (n + 1)


def test_initial_values_are_the_chiefs_and_broadcast_to_stays_on_the_worker(runs):
    _, results, _ = runs
    # Each worker drew its own random value; all start from the chief's.
    assert len({res["variable_hex"][0] for res in results}) == 1
    # extended.broadcast_to copies a worker's own tensor to its devices: TF runs no
    # collective there, so each worker keeps the value it passed.
    assert [res["broadcast_to"] for res in results] == [[[float(w)] * 3]
                                                        for w in range(len(results))]


def test_tensorflow_recording_replays(runs):
    n, results, _ = runs
    with open(FIXTURE) as f:
        recorded = json.load(f)
    assert recorded["tensorflow"].startswith("2.")
    for res, want in zip(results, recorded["clusters"][str(n)], strict=True):
        assert res["num_replicas_in_sync"] == want["num_replicas_in_sync"]
        # Every sum bit for bit: TF's ring (its chunks, each added in rank order from its
        # own rank) runs across the processes, in eager and as a traced pack.
        for key in ("all_gather_rows_hex", "all_gather_axis1", "all_gather_ids",
                    "all_reduce_n", "gather_rows", "gather_wide", "broadcast_to", "counter",
                    "values_from_function", "all_reduce_x_hex", "reduce_to_mean_hex",
                    "batch_reduce_to_hex", "all_reduce_mixed_hex", "all_reduce_packed_hex",
                    "argument_all_reduce_error", "step_operations", "step_value"):
            assert res[key] == want[key], key

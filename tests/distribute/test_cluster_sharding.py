"""Auto-sharding across real worker processes (AUTO / DATA / OFF / FILE) and
distribute_datasets_from_function's InputContext, replayed from TensorFlow 2.21.

cluster_programs/sharding.py reads 22 numbered elements in global batches of 4 with each
policy, and 18 elements through ``distribute_datasets_from_function`` (``ctx.shard``).
FILE on a dataset of tensors raises NotFoundError on every worker, as TF (no file source);
on list_files + interleave(TextLineDataset) over 4 files, AUTO is FILE: each worker reads
whole files (file_policies, also DATA and OFF).
"""

import json
import os

import pytest
from cluster_processes import cluster_config, run_cluster
from record_tf_cluster import text_files
from test_process_cluster import _ok, _simulated

pytestmark = pytest.mark.timeout(120)

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "tf_cluster_sharding.json")


@pytest.fixture(scope="module", params=[2, 3])
def runs(request, tmp_path_factory):
    n = request.param
    cluster = cluster_config(n)
    env = {"FILES_DIR": text_files(str(tmp_path_factory.mktemp("files")))}
    return n, _ok(run_cluster("sharding.py", cluster=cluster, env=env)), _simulated(
        "sharding.py", cluster, env)


def test_every_policy_and_input_context_replays_tensorflow(runs):
    n, results, _ = runs
    with open(FIXTURE) as f:
        recorded = json.load(f)["clusters"][str(n)]
    for res, want in zip(results, recorded, strict=True):
        assert res["policies"] == want["policies"]
        assert res["file_policies"] == want["file_policies"]
        assert res["input_contexts"] == want["input_contexts"]
        assert res["from_function"] == want["from_function"]


def test_data_splits_each_batch_and_off_reads_everything_on_every_worker(runs):
    n, results, _ = runs
    seen = sorted(x for res in results for step in res["policies"]["DATA"]
                  for part in step for x in part)
    assert seen == list(range(22))  # DATA: each element once in the cluster
    for res in results:
        assert res["policies"]["AUTO"] == res["policies"]["DATA"]  # no files: AUTO is DATA
        off = [x for step in res["policies"]["OFF"] for part in step for x in part]
        assert off == list(range(22))  # OFF: every worker reads every element
        assert res["policies"]["FILE"] == {"error": "NotFoundError"}
        assert res["file_policies"]["AUTO"] == res["file_policies"]["FILE"]
    lines = sorted(x for res in results for step in res["file_policies"]["FILE"]
                   for part in step for x in part)
    assert lines == sorted(f"{i}-{j}" for i in range(4) for j in range(4))  # each line once
    for w, res in enumerate(results):  # whole files: worker w reads files w, w + n, ...
        files = {x[0] for step in res["file_policies"]["FILE"] for part in step for x in part}
        assert files == {str(f) for f in range(w, 4, n)}
    assert [res["input_contexts"] for res in results] == [[[n, w, n, 6 // n]]
                                                          for w in range(n)]


def test_each_worker_reads_what_the_simulated_cluster_gives_its_replica(runs):
    _, results, sim = runs
    for w, res in enumerate(results):
        for policy in ("AUTO", "DATA", "OFF"):
            assert res["policies"][policy] == [[step[w]] for step in sim["policies"][policy]]
        for policy in ("AUTO", "FILE", "DATA", "OFF"):
            assert res["file_policies"][policy] == [
                [step[w]] for step in sim["file_policies"][policy]]
        assert res["from_function"] == [[step[w]] for step in sim["from_function"]]
    assert sim["input_contexts"] == [ctx for res in results for ctx in res["input_contexts"]]

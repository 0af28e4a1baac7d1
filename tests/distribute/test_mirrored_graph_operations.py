"""The operations of a tf.function whose MirroredStrategy steps all-reduce and reduce, as
TF 2.21 lists them (fixtures/tf_mirrored_graph.json, record_tf_mirrored_graph.py: TF's own
MirroredStrategy over 2 and over 4 logical CPUs).

TF's graph (cross_device_ops.py, cross_device_utils.py): an all-reduce is TF's default
``CollectiveAllReduce``, built replica by replica: the values packed (``Reshape``,
``Shape``, ``concat``), ``CollectiveReduceV2`` with its instance key ``Placeholder`` and
ordering token, unpacked (``Prod``, ``packed``, ``split``, ``Reshape``), MEAN's
``truediv``; then each replica's ``Identity`` and ``IdentityN`` (ReplicaContext.
all_reduce's custom gradient), which its later ops read. int32 values and
``strategy.reduce`` to the host go through ``ReductionToOneDevice``: ``AddN``, MEAN's
``truediv`` and an ``Identity`` per destination; SGD's update of each replica's copies in
``SGD/update_<r>`` scopes (mirrored_update_listing). simdist listed one node of type
``StrategyExtended.batch_reduce_to`` (or ``reduce_to``) with no input
(simdist/distribute/collective_listing.py).
"""

import json
import os

import pytest
from mirrored_graph_programs import DEVICES, PROGRAMS, listed
from tf_snippets import split_cpu

import simdist as tf

with open(os.path.join(os.path.dirname(__file__), "fixtures", "tf_mirrored_graph.json")) as _f:
    RECORDED = json.load(_f)["results"]

def _step(name, n):
    split_cpu(tf, max(DEVICES))
    strategy = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(n)])
    return PROGRAMS[name](tf, strategy)


@pytest.mark.parametrize("n", DEVICES)
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_the_operations_are_tfs(name, n):
    step = _step(name, n)
    ops = listed(step.get_concrete_function(tf.constant(1.0)).graph)
    want = RECORDED[name][str(n)]
    assert ops == want["ops"]
    got = [v.numpy().tolist() for v in tf.nest.flatten(step(tf.constant(2.0)))]
    assert got == want["values"]


def test_every_program_was_recorded():
    assert set(RECORDED) == set(PROGRAMS)
    assert all(set(r) == {str(n) for n in DEVICES} for r in RECORDED.values())

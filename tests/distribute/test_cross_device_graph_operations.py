"""The operations of a tf.function whose MirroredStrategy steps all-reduce with the
cross-device ops other than TF's default, as TF 2.21 lists them
(fixtures/tf_cross_device_graph.json, record_tf_cross_device_graph.py: TF's own
MirroredStrategy over 2 and over 4 logical CPUs).

HierarchicalCopyAllReduce and NcclAllReduce pack each device's values (Reshape, Shape,
Size, concat, split), sum them (AddN of each half, AddN of both, Identity broadcasts; or a
NcclAllReduce per device) and unpack them (concat, packed, split, Reshape; MEAN's
truediv); simdist listed one ``StrategyExtended.batch_reduce_to`` node
(simdist/distribute/all_reduce_listing.py). TF builds NcclAllReduce's graph on CPUs and
fails running it (InvalidArgumentError: no CPU kernel); simdist raised while tracing.
Each op's device is TF's too (a pack on its device ...; the default CollectiveAllReduce,
only traced here: each replica's ops on the replica's device).

One replica (MultiWorkerMirroredStrategy on CPUs, whatever its CommunicationImplementation;
a MirroredStrategy of one CPU): TF's CrossDeviceOps shortcut lists no op for an all-reduce
(its Identity and IdentityN read the value itself) and one Identity for strategy.reduce;
simdist listed its batch_reduce_to / reduce_to node, and no IdentityN for
MultiWorkerMirroredStrategy.
"""

import json
import os

import pytest
from mirrored_graph_programs import (
    CROSS_DEVICE_OPS,
    CROSS_DEVICE_PROGRAMS,
    DEVICES,
    ONE,
    ONE_REPLICA,
    ONE_REPLICA_PROGRAMS,
    cross_device_case,
    one_replica_case,
)
from tf_snippets import split_cpu

import simdist as tf

with open(os.path.join(os.path.dirname(__file__), "fixtures",
                       "tf_cross_device_graph.json")) as _f:
    RECORDED = json.load(_f)["results"]


@pytest.mark.parametrize("n", DEVICES)
@pytest.mark.parametrize("name", CROSS_DEVICE_PROGRAMS)
@pytest.mark.parametrize("ops", CROSS_DEVICE_OPS)
def test_the_operations_are_tfs(ops, name, n):
    split_cpu(tf, max(DEVICES))
    assert cross_device_case(tf, n, ops, name) == RECORDED[ops][name][str(n)]


@pytest.mark.parametrize("name", ONE_REPLICA_PROGRAMS)
@pytest.mark.parametrize("strategy", ONE_REPLICA)
def test_one_replica_lists_tfs_shortcut(strategy, name):
    assert one_replica_case(tf, strategy, name) == RECORDED[ONE][strategy][name]


def test_every_case_was_recorded():
    assert set(RECORDED) == {*CROSS_DEVICE_OPS, ONE}
    assert set(RECORDED[ONE]) == set(ONE_REPLICA)
    assert all(set(r) == set(ONE_REPLICA_PROGRAMS) for r in RECORDED.pop(ONE).values())
    assert all(set(r) == set(CROSS_DEVICE_PROGRAMS) for r in RECORDED.values())
    assert all(set(c) == {str(n) for n in DEVICES} for r in RECORDED.values()
               for c in r.values())

"""Record the operations TF 2.21 lists for MirroredStrategy steps traced in a tf.function
with the cross-device ops other than its default (fixtures/tf_cross_device_graph.json);
test_cross_device_graph_operations.py compares simdist's.

Each of ``CROSS_DEVICE_OPS`` (HierarchicalCopyAllReduce, NcclAllReduce,
ReductionToOneDevice) runs ``CROSS_DEVICE_PROGRAMS`` of mirrored_graph_programs over 2 and
over 4 logical CPUs, a process per device count (record_tf_mirrored_graph's). TF builds
NcclAllReduce's graph on CPUs (cross_device_utils.aggregate_gradients_using_nccl) but has
no CPU kernel for it: the step's error type is kept in place of its values. Under
``"one replica"``: ``ONE_REPLICA_PROGRAMS`` with each of ``ONE_REPLICA`` (MultiWorker-
MirroredStrategy with TF_CONFIG unset and each CommunicationImplementation: on CPUs one
replica; a MirroredStrategy of one CPU), in a process whose CPU is not split.

Run with the TensorFlow interpreter (naming programs re-records only them):
    TF_CPP_MIN_LOG_LEVEL=3 CUDA_VISIBLE_DEVICES="" /tmp/tfvenv/bin/python \\
        tests/distribute/record_tf_cross_device_graph.py ["an all-reduce" ...]
"""

import json
import os
import sys

import mirrored_graph_programs as programs
from record_tf_mirrored_graph import HERE, by_devices, recorded, split_cpus, tf, write

FIXTURE = os.path.join(HERE, "fixtures", "tf_cross_device_graph.json")


def main(names):
    n = int(os.environ.get("RECORD_DEVICES", 0))
    if n:   # in a process of its own: one replica's cases on the CPU not split
        if n > 1:
            split_cpus(n)
        groups, known, case = (programs.ONE_REPLICA, programs.ONE_REPLICA_PROGRAMS,
                               programs.one_replica_case) if n == 1 else (
            programs.CROSS_DEVICE_OPS, programs.CROSS_DEVICE_PROGRAMS,
            lambda tf, ops, name: programs.cross_device_case(tf, n, ops, name))
        print(json.dumps({g: {name: case(tf, g, name) for name in names if name in known}
                          for g in groups}))
        return
    names = names or sorted({*programs.CROSS_DEVICE_PROGRAMS, *programs.ONE_REPLICA_PROGRAMS})
    results = recorded(FIXTURE)
    for n, got in by_devices(__file__, names, (1, *programs.DEVICES)).items():
        for group, cases in got.items():
            for name, case in cases.items():
                if n == "1":
                    results.setdefault(programs.ONE, {}).setdefault(group, {})[name] = case
                else:
                    results.setdefault(group, {}).setdefault(name, {})[n] = case
    write(FIXTURE, results)


if __name__ == "__main__":
    main(sys.argv[1:])

"""Record the operations TF 2.21 lists for MirroredStrategy steps traced in a tf.function
with the cross-device ops other than its default (fixtures/tf_cross_device_graph.json);
test_cross_device_graph_operations.py compares simdist's.

Each of ``CROSS_DEVICE_OPS`` (HierarchicalCopyAllReduce, NcclAllReduce,
ReductionToOneDevice) runs ``CROSS_DEVICE_PROGRAMS`` of mirrored_graph_programs over 2 and
over 4 logical CPUs, a process per device count (record_tf_mirrored_graph's). TF builds
NcclAllReduce's graph on CPUs (cross_device_utils.aggregate_gradients_using_nccl) but has
no CPU kernel for it: the step's error type is kept in place of its values.

Run with the TensorFlow interpreter (naming programs re-records only them):
    TF_CPP_MIN_LOG_LEVEL=3 CUDA_VISIBLE_DEVICES="" /tmp/tfvenv/bin/python \\
        tests/distribute/record_tf_cross_device_graph.py ["an all-reduce" ...]
"""

import json
import os
import sys

from mirrored_graph_programs import CROSS_DEVICE_OPS, CROSS_DEVICE_PROGRAMS, cross_device_case
from record_tf_mirrored_graph import HERE, by_devices, recorded, split_cpus, tf, write

FIXTURE = os.path.join(HERE, "fixtures", "tf_cross_device_graph.json")


def main(names):
    if os.environ.get("RECORD_DEVICES"):   # in a process of its own
        n = int(os.environ["RECORD_DEVICES"])
        split_cpus(n)
        print(json.dumps({ops: {name: cross_device_case(tf, n, ops, name) for name in names}
                          for ops in CROSS_DEVICE_OPS}))
        return
    names = names or list(CROSS_DEVICE_PROGRAMS)
    results = recorded(FIXTURE)
    for n, got in by_devices(__file__, names).items():
        for ops in CROSS_DEVICE_OPS:
            for name in names:
                results.setdefault(ops, {}).setdefault(name, {})[n] = got[ops][name]
    write(FIXTURE, results)

if __name__ == "__main__":
    main(sys.argv[1:])

"""Record what TF 2.21 (tf-keras) prints for the tutorial programs (test_tutorials.py).

Run with the TensorFlow interpreter, one process per device count and program (a process
fixes its logical CPUs once, and a second MirroredStrategy program in the same TF process
collides with the first one's collective keys); this machine has no GPU, so
MirroredStrategy() takes every logical CPU:
    export TF_USE_LEGACY_KERAS=1 TF_ENABLE_ONEDNN_OPTS=0 TF_CPP_MIN_LOG_LEVEL=3
    for n in 1 4; do for p in distributed_keras custom_training distributed_training; do
        /tmp/tfvenv/bin/python tests/tutorials/record_tf_tutorials.py $n $p; done; done
and on one CPU the rest (``record_tf_tutorials.py 1 customizing_fit`` ...): the guides of
test_tape_guides.py (``1 autodiff advanced_autodiff basic_training_loops effective_tf2``) and
of test_migrate_guides.py (``1 migrate_mirrored_strategy migrate_multi_worker
migrate_fault_tolerance``, and ``4 migrate_mirrored_strategy``) each in a process of its own.
Writes fixtures/<program>@<n>cpu.json: TF's version and its printed text (and, for the
programs in run_program.TF_PRINTS, what their tf.print calls printed to stderr).
"""

import json
import os
import sys

import tensorflow as tf
from run_program import HERE, TF_PRINTS, run_with_prints

if __name__ == "__main__":
    cpus = int(sys.argv[1])
    tf.config.set_logical_device_configuration(
        tf.config.list_physical_devices("CPU")[0],
        [tf.config.LogicalDeviceConfiguration()] * cpus)
    for name in sys.argv[2:]:
        text, printed = run_with_prints(name, "tensorflow", prints=name in TF_PRINTS)
        recorded = {"tf_version": tf.__version__, "stdout": text}
        if name in TF_PRINTS:
            recorded["tf_print"] = printed
        with open(os.path.join(HERE, "fixtures", f"{name}@{cpus}cpu.json"), "w") as f:
            json.dump(recorded, f, indent=1)
        print(f"recorded {name} on {cpus} CPUs: {len(text.splitlines())} lines")

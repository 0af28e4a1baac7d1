"""Record what TF 2.21's DeviceAssignment.build gives for device_assignment_cases.CASES
(fixtures/tf_device_assignment.json): core assignments for computation shapes, strides,
replica counts and device order modes on full TPU meshes, and its errors. TF builds a
Topology from a mesh shape and device coordinates without any TPU.

Run with the TensorFlow interpreter (not simdist's venv):
    TF_CPP_MIN_LOG_LEVEL=3 CUDA_VISIBLE_DEVICES="" /tmp/tfvenv/bin/python \\
        tests/distribute/record_tf_device_assignment.py
"""

import json
import os

import tensorflow as tf
from device_assignment_cases import CASES, name, run  # this folder, under TF

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    results = {name(mesh, kwargs): run(tf, mesh, kwargs) for mesh, kwargs in CASES}
    with open(os.path.join(HERE, "fixtures", "tf_device_assignment.json"), "w") as f:
        json.dump({"tf_version": tf.__version__, "results": results}, f)
        f.write("\n")


if __name__ == "__main__":
    main()

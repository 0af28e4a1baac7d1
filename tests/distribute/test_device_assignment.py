"""tf.tpu.experimental.DeviceAssignment.build against TF 2.21 (record_tf_device_assignment.py):
core assignments for computation shapes, strides (cores spaced apart, footprints
interleaved), replica counts and DeviceOrderMode, on full TPU meshes, and TF's errors."""

import json
import os

import numpy as np
import pytest
from device_assignment_cases import CASES, device_coordinates, name, run

import simdist as tf

with open(os.path.join(os.path.dirname(__file__), "fixtures", "tf_device_assignment.json")) as f:
    RECORDED = json.load(f)["results"]


def test_every_case_was_recorded():
    assert set(RECORDED) == {name(mesh, kwargs) for mesh, kwargs in CASES}


@pytest.mark.parametrize("mesh,kwargs", CASES, ids=[name(m, k) for m, k in CASES])
def test_build_gives_what_tensorflow_gave(mesh, kwargs):
    want = RECORDED[name(mesh, kwargs)]
    got = run(tf, mesh, kwargs)
    if "error" in want:
        assert got.get("error") == want["error"], got
        assert got["message"].split("\n")[0] in want["message"], got
    else:
        assert got == want


def test_a_stride_spaces_a_replicas_cores_and_every_core_is_used_once():
    mesh = [4, 4, 1, 2]
    topology = tf.tpu.experimental.Topology(mesh_shape=mesh,
                                            device_coordinates=device_coordinates(mesh))
    da = tf.tpu.experimental.DeviceAssignment.build(
        topology, computation_shape=[2, 2, 1, 1], computation_stride=[2, 2, 1, 1],
        num_replicas=8)
    cores = da.core_assignment
    assert cores.shape == (8, 4, 4)
    for replica in cores:   # the block's cores sit 2 apart on x and y
        xs, ys = sorted({int(c[0]) for c in replica}), sorted({int(c[1]) for c in replica})
        assert xs[1] - xs[0] == 2 and ys[1] - ys[0] == 2
    flat = [tuple(c) for c in cores.reshape(-1, 4).tolist()]
    assert len(set(flat)) == len(flat) == 32
    assert np.asarray(flat).max(axis=0).tolist() == [3, 3, 0, 1]

"""DeviceAssignment.build cases, run under TF 2.21 (record_tf_device_assignment.py) and
simdist (test_device_assignment.py): a full TPU mesh ``[x, y, z, cores]``, the keyword
arguments, and what build gives (the core_assignment) or raises.

Each mesh's device_coordinates list every core once, 8 per host task, in C order."""

import numpy as np

CASES = [
    # (mesh_shape, build kwargs)
    ([2, 2, 1, 2], {}),
    ([2, 2, 1, 2], {"num_replicas": 8}),
    ([2, 2, 1, 2], {"computation_shape": [1, 1, 1, 2], "num_replicas": 4}),
    ([2, 2, 1, 2], {"computation_shape": [2, 1, 1, 1], "num_replicas": 4}),
    ([2, 2, 1, 2], {"computation_shape": [1, 1, 1, 1], "computation_stride": [2, 1, 1, 1],
                    "num_replicas": 8}),
    ([2, 2, 1, 2], {"computation_shape": [1, 1, 1, 2], "computation_stride": [1, 2, 1, 1],
                    "num_replicas": 4}),
    ([4, 4, 1, 2], {"computation_shape": [2, 1, 1, 1], "computation_stride": [2, 1, 1, 1],
                    "num_replicas": 16}),
    ([4, 4, 1, 2], {"computation_shape": [2, 2, 1, 1], "computation_stride": [2, 2, 1, 1],
                    "num_replicas": 5}),
    ([4, 4, 1, 2], {"computation_shape": [1, 1, 1, 2], "num_replicas": 16}),
    ([4, 4, 1, 2], {"computation_shape": [1, 1, 1, 2], "num_replicas": 6}),
    ([4, 4, 1, 2], {"num_replicas": 32}),
    ([2, 2, 2, 2], {"computation_shape": [1, 1, 1, 2], "num_replicas": 8}),
    ([2, 2, 2, 2], {"computation_shape": [1, 1, 2, 1], "computation_stride": [2, 1, 1, 1],
                    "num_replicas": 8}),
    ([4, 4, 4, 2], {"computation_shape": [2, 2, 2, 2], "num_replicas": 8}),
    ([4, 2, 2, 2], {"computation_shape": [2, 2, 1, 2], "num_replicas": 4}),
    ([4, 4, 1, 2], {"computation_shape": [1, 1, 1, 2], "num_replicas": 16,
                    "device_order_mode": "RING"}),
    ([4, 4, 1, 2], {"computation_shape": [1, 1, 1, 2], "num_replicas": 16,
                    "device_order_mode": "MESH"}),
    ([4, 4, 1, 2], {"computation_shape": [1, 1, 1, 2], "num_replicas": 6,
                    "device_order_mode": "RING"}),
    # errors
    ([2, 2, 1, 2], {"computation_stride": [2, 2, 2, 1]}),
    ([2, 2, 1, 2], {"computation_stride": [0, 1, 1, 1]}),
    ([2, 2, 1, 2], {"computation_shape": [0, 1, 1, 1]}),
    ([2, 2, 1, 2], {"computation_shape": [1, 1, 1]}),
    ([2, 2, 1, 2], {"computation_stride": [1, 1]}),
    ([2, 2, 1, 2], {"computation_shape": [1, 1, 1, 2], "computation_stride": [2, 1, 1, 1],
                    "num_replicas": 5}),
    ([2, 2, 1, 2], {"num_replicas": 9}),
]


def name(mesh, kwargs) -> str:
    return f"{mesh} {sorted(kwargs.items())}"


def device_coordinates(mesh):
    """Every core of ``mesh`` once, 8 per host task (fewer on a smaller mesh), C order."""
    x, y, z, c = mesh
    coords = [(i, j, k, n) for k in range(z) for j in range(y) for i in range(x)
              for n in range(c)]
    per_task = min(8, len(coords))
    return np.asarray(coords, dtype=np.int32).reshape(len(coords) // per_task, per_task, 4)


def run(tf, mesh, kwargs):
    """What build gives: {"value": core_assignment} or {"error", "message"}."""
    kwargs = dict(kwargs)
    if "device_order_mode" in kwargs:
        kwargs["device_order_mode"] = getattr(tf.tpu.experimental.DeviceOrderMode,
                                              kwargs["device_order_mode"])
    topology = tf.tpu.experimental.Topology(mesh_shape=mesh,
                                            device_coordinates=device_coordinates(mesh))
    try:
        da = tf.tpu.experimental.DeviceAssignment.build(topology, **kwargs)
    except Exception as e:  # noqa: BLE001 - the error is the result
        return {"error": type(e).__name__, "message": str(e)}
    return {"value": np.asarray(da.core_assignment).tolist()}

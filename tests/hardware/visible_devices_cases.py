"""What a process sees under CUDA_VISIBLE_DEVICES, recorded under TF 2.21 (CPU-only TF: the
values that hide every GPU, as TF's multi-worker tutorial sets -1) by
record_tf_visible_devices.py and replayed by test_cuda_visible_devices.py."""

# CUDA_VISIBLE_DEVICES values TF-CPU can show: each hides every GPU.
HIDE_ALL = ["-1", "", "-1,0", "x"]

SNIPPET = """
import json
print(json.dumps(describe(tf)))
"""


def describe(tf) -> dict:
    """The devices and the default MirroredStrategy a process gets."""
    strategy = tf.distribute.MirroredStrategy()
    return {
        "physical": [[d.name, d.device_type] for d in tf.config.list_physical_devices()],
        "physical_gpus": [d.name for d in tf.config.list_physical_devices("GPU")],
        "logical": [[d.name, d.device_type] for d in tf.config.list_logical_devices()],
        "replicas": strategy.num_replicas_in_sync,
        "worker_devices": list(strategy.extended.worker_devices),
    }

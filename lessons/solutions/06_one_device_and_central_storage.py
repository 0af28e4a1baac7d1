"""Solutions to lesson 6's exercises (tests/lessons/test_exercises.py checks them)."""

_PICK = '''
def pick_strategy():
    gpus = len(tf.config.list_logical_devices("GPU"))
    if gpus == 0:
        return tf.distribute.OneDeviceStrategy(CPU)
    if gpus == 1:
        return tf.distribute.OneDeviceStrategy("/gpu:0")
    return MANY
'''

SOLUTIONS = {
    "6a": 'variable_device_kind = "CPU"',
    "6b": _PICK.replace("CPU", '"/cpu:0"').replace("MANY", "tf.distribute.MirroredStrategy()"),
}

WRONG = {
    "6a": ['variable_device_kind = "GPU"'],
    "6b": [
        # Mirrored everywhere: a OneDevice job is what the CPU-only machine should get.
        "def pick_strategy():\n    return tf.distribute.MirroredStrategy()\n",
        # Central storage for several GPUs is another strategy than the one asked for.
        _PICK.replace("CPU", '"/cpu:0"').replace(
            "MANY", "tf.distribute.experimental.CentralStorageStrategy()"),
        # The CPU case on a GPU name.
        _PICK.replace("CPU", '"/gpu:0"').replace("MANY", "tf.distribute.MirroredStrategy()"),
    ],
}

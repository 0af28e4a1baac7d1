"""A program that logs op placements (tf.debugging.set_log_device_placement), run by
record_tf_placement.py under TensorFlow (its stderr's "Executing op" lines recorded into
fixtures/tf_placement.json) and by test_log_device_placement.py under simdist.
``tf`` is the framework; the machine has two logical CPUs and no GPU."""

PROGRAM = """
tf.config.set_logical_device_configuration(
    tf.config.list_physical_devices("CPU")[0], [tf.config.LogicalDeviceConfiguration()] * 2)
tf.debugging.set_log_device_placement(True)
a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
b = tf.constant([[1.0, 1.0], [0.0, 1.0]])
c = tf.matmul(a, b)
d = a + 1
with tf.device("/cpu:1"):
    f = tf.nn.relu(a - 2.5)
    g = tf.matmul(f, b)
    h = g * d
"""

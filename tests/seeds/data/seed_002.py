# ruff: noqa
# The code snippets of seeds/002_d22aeaf060f531b8.txt, in the seed's order, verbatim but for
# the import line (the seed shows none: `import tensorflow as tf` -> `import simdist as tf`);
# the seed's flattened lines are indented back as Python. Left out: the TPUStrategy snippet
# (its `tpu_address` is never defined, and it needs a TPU), a comment marks its place.
import simdist as tf

mirrored_strategy = tf.distribute.MirroredStrategy()
mirrored_strategy = tf.distribute.MirroredStrategy(devices=["/gpu:0", "/gpu:1"])
mirrored_strategy = tf.distribute.MirroredStrategy(
    cross_device_ops=tf.distribute.HierarchicalCopyAllReduce())
central_storage_strategy = tf.distribute.experimental.CentralStorageStrategy()
multiworker_strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy()
multiworker_strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy(
    tf.distribute.experimental.CollectiveCommunication.NCCL)
# (the TPUStrategy snippet)
ps_strategy = tf.distribute.experimental.ParameterServerStrategy()
strategy = tf.distribute.OneDeviceStrategy(device="/gpu:0")

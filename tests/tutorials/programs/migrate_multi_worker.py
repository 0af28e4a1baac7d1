# TF's "Migrate multi-worker CPU/GPU training" guide (site/en/guide/migrate/
# multi_worker_cpu_gpu_training.ipynb): its TensorFlow 2 code cells, for tests/tutorials: the
# in-process cluster (a chief, 3 workers and 2 parameter servers as tf.distribute.Servers in
# this one process), Keras fit and evaluate under ParameterServerStrategy, then a
# MultiWorkerMirroredStrategy. The TensorFlow 1 part (tf.compat.v1 Estimator) is out of scope:
# simdist simulates TF 2's APIs. Edits are marked "simdist test:": portpicker (not installed)
# is a free port of 127.0.0.1; the cells' last expressions, which a notebook displays, are
# printed; the initial weights are seeded (the workers update them asynchronously, so the
# losses still vary from run to run).
import tensorflow as tf

from tutorial_data import pick_unused_port  # simdist test: was `import portpicker`

tf.keras.utils.set_random_seed(0)  # simdist test: seeded (initial weights, the shuffle)

features = [[1., 1.5], [2., 2.5], [3., 3.5]]
labels = [[0.3], [0.5], [0.7]]
eval_features = [[4., 4.5], [5., 5.5], [6., 6.5]]
eval_labels = [[0.8], [0.9], [1.]]

import json
import os

tf_config = {
    'cluster': {
        'chief': ['localhost:11111'],
        'worker': ['localhost:12345', 'localhost:23456', 'localhost:21212'],
        'ps': ['localhost:12121', 'localhost:13131'],
    },
    'task': {'type': 'chief', 'index': 0}
}

os.environ['TF_CONFIG'] = json.dumps(tf_config)

del os.environ['TF_CONFIG']

# Find ports that are available for the `'chief'` (the coordinator),
# `'worker'`s, and `'ps'` (parameter servers).
chief_port = pick_unused_port()  # simdist test: was portpicker.pick_unused_port()
worker_ports = [pick_unused_port() for _ in range(3)]  # simdist test: the same
ps_ports = [pick_unused_port() for _ in range(2)]  # simdist test: the same

# Dump the cluster information to `'TF_CONFIG'`.
tf_config = {
    'cluster': {
        'chief': ["localhost:%s" % chief_port],
        'worker': ["localhost:%s" % port for port in worker_ports],
        'ps':  ["localhost:%s" % port for port in ps_ports],
    },
    'task': {'type': 'chief', 'index': 0}
}
os.environ['TF_CONFIG'] = json.dumps(tf_config)

# Use a cluster resolver to bridge the information to the strategy created below.
cluster_resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()

# Workers need some inter_ops threads to work properly.
# This is only needed for this notebook to demo. Real servers
# should not need this.
worker_config = tf.compat.v1.ConfigProto()
worker_config.inter_op_parallelism_threads = 4

for i in range(3):
  tf.distribute.Server(
      cluster_resolver.cluster_spec(),
      job_name="worker",
      task_index=i,
      config=worker_config)

for i in range(2):
  tf.distribute.Server(
      cluster_resolver.cluster_spec(),
      job_name="ps",
      task_index=i)

strategy = tf.distribute.experimental.ParameterServerStrategy(cluster_resolver)

dataset = tf.data.Dataset.from_tensor_slices(
      (features, labels)).shuffle(10).repeat().batch(64)

eval_dataset = tf.data.Dataset.from_tensor_slices(
      (eval_features, eval_labels)).repeat().batch(1)

with strategy.scope():
  model = tf.keras.models.Sequential([tf.keras.layers.Dense(1)])
  optimizer = tf.keras.optimizers.legacy.Adagrad(learning_rate=0.05)
  model.compile(optimizer, "mse")

model.fit(dataset, epochs=5, steps_per_epoch=10)

print(model.evaluate(eval_dataset, steps=10, return_dict=True))  # simdist test: print added

# To clean up the `TF_CONFIG` used for `ParameterServerStrategy`.
del os.environ['TF_CONFIG']
strategy = tf.distribute.MultiWorkerMirroredStrategy()
print(strategy.num_replicas_in_sync)  # simdist test: print added (the strategy is made only)

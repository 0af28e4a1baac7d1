# TF's "Migrate single-worker multiple-GPU training" guide (site/en/guide/migrate/
# mirrored_strategy.ipynb): its TensorFlow 2 code cells, for tests/tutorials. The TensorFlow 1
# part (tf.compat.v1 Estimator with a MirroredStrategy RunConfig) is out of scope: simdist
# simulates TF 2's APIs. Edits are marked "simdist test:": the initial weights are seeded; the
# cell's last expression, which a notebook displays, is printed.
import tensorflow as tf

tf.keras.utils.set_random_seed(0)  # simdist test: seeded (the Dense layer's initial weights)

features = [[1., 1.5], [2., 2.5], [3., 3.5]]
labels = [[0.3], [0.5], [0.7]]
eval_features = [[4., 4.5], [5., 5.5], [6., 6.5]]
eval_labels = [[0.8], [0.9], [1.]]

dataset = tf.data.Dataset.from_tensor_slices((features, labels)).batch(1)
eval_dataset = tf.data.Dataset.from_tensor_slices(
      (eval_features, eval_labels)).batch(1)

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
  model = tf.keras.models.Sequential([tf.keras.layers.Dense(1)])
  optimizer = tf.keras.optimizers.Adagrad(learning_rate=0.05)

model.compile(optimizer=optimizer, loss='mse')
model.fit(dataset)
print(model.evaluate(eval_dataset, return_dict=True))  # simdist test: print added

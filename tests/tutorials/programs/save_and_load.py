# TF's "Save and load a model using a distribution strategy"
# (site/en/tutorials/distribute/save_and_load.ipynb): its code cells in order, for
# tests/tutorials. Edits are marked "simdist test:"; they replace the dataset download and the
# TF Hub layer, shrink the sizes, fix the initial weights, write under the working directory
# instead of /tmp, and print what a notebook would have shown of a cell's last expression.
from tutorial_data import fixed_weights, synthetic_mnist  # simdist test: not tfds

import tensorflow as tf

mirrored_strategy = tf.distribute.MirroredStrategy()

def get_data():
  # simdist test: was tfds.load(name='mnist', as_supervised=True)
  datasets, _ = synthetic_mnist(tf)
  mnist_train, mnist_test = datasets['train'], datasets['test']

  BUFFER_SIZE = 1  # simdist test: was 10000 (a one-element buffer keeps the order)

  BATCH_SIZE_PER_REPLICA = 8  # simdist test: was 64
  BATCH_SIZE = BATCH_SIZE_PER_REPLICA * mirrored_strategy.num_replicas_in_sync

  def scale(image, label):
    image = tf.cast(image, tf.float32)
    image /= 255

    return image, label

  train_dataset = mnist_train.map(scale).cache().shuffle(BUFFER_SIZE).batch(BATCH_SIZE)
  eval_dataset = mnist_test.map(scale).batch(BATCH_SIZE)

  return train_dataset, eval_dataset

def get_model():
  with mirrored_strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Conv2D(32, 3, activation='relu', input_shape=(28, 28, 1)),
        tf.keras.layers.MaxPooling2D(),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(64, activation='relu'),
        tf.keras.layers.Dense(10)
    ])
    model.set_weights(fixed_weights(model))  # simdist test: the same initial weights

    model.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  optimizer=tf.keras.optimizers.Adam(),
                  metrics=[tf.metrics.SparseCategoricalAccuracy()])
    return model

model = get_model()
train_dataset, eval_dataset = get_data()
model.fit(train_dataset, epochs=2)

keras_model_path = 'keras_save.keras'  # simdist test: was '/tmp/keras_save.keras'
model.save(keras_model_path)

restored_keras_model = tf.keras.models.load_model(keras_model_path)
restored_keras_model.fit(train_dataset, epochs=2)

another_strategy = tf.distribute.OneDeviceStrategy('/cpu:0')
with another_strategy.scope():
  restored_keras_model_ds = tf.keras.models.load_model(keras_model_path)
  restored_keras_model_ds.fit(train_dataset, epochs=2)

model = get_model()  # get a fresh model
saved_model_path = 'tf_save'  # simdist test: was '/tmp/tf_save'
tf.saved_model.save(model, saved_model_path)

DEFAULT_FUNCTION_KEY = 'serving_default'
loaded = tf.saved_model.load(saved_model_path)
inference_func = loaded.signatures[DEFAULT_FUNCTION_KEY]

predict_dataset = eval_dataset.map(lambda image, label: image)
for batch in predict_dataset.take(1):
  print(inference_func(batch))

another_strategy = tf.distribute.MirroredStrategy()
with another_strategy.scope():
  loaded = tf.saved_model.load(saved_model_path)
  inference_func = loaded.signatures[DEFAULT_FUNCTION_KEY]

  dist_predict_dataset = another_strategy.experimental_distribute_dataset(
      predict_dataset)

  # Calling the function in a distributed manner
  for batch in dist_predict_dataset:
    result = another_strategy.run(inference_func, args=(batch,))
    print(result)
    break

# simdist test: the TF Hub cell (tensorflow_hub.KerasLayer wrapping the loaded SavedModel) is
# left out: tensorflow_hub is not installed, and it downloads nothing here that the cells
# around it do not already cover (loading under another MirroredStrategy and fitting).

model = get_model()

# Saving the model using Keras `Model.save`
model.save(saved_model_path)

another_strategy = tf.distribute.MirroredStrategy()
# Loading the model using the lower-level API
with another_strategy.scope():
  loaded = tf.saved_model.load(saved_model_path)

model = get_model()

# Saving the model to a path on localhost.
saved_model_path = 'tf_save'  # simdist test: was '/tmp/tf_save'
save_options = tf.saved_model.SaveOptions(experimental_io_device='/job:localhost')
model.save(saved_model_path, options=save_options)

# Loading the model from a path on localhost.
another_strategy = tf.distribute.MirroredStrategy()
with another_strategy.scope():
  load_options = tf.saved_model.LoadOptions(experimental_io_device='/job:localhost')
  loaded = tf.keras.models.load_model(saved_model_path, options=load_options)
  print(loaded.evaluate(eval_dataset, verbose=0))  # simdist test: added, to use what loaded

class SubclassedModel(tf.keras.Model):
  """Example model defined by subclassing `tf.keras.Model`."""

  output_name = 'output_layer'

  def __init__(self):
    super(SubclassedModel, self).__init__()
    self._dense_layer = tf.keras.layers.Dense(
        5, dtype=tf.dtypes.float32, name=self.output_name)

  def call(self, inputs):
    return self._dense_layer(inputs)

my_model = SubclassedModel()
try:
  my_model.save(saved_model_path)
except ValueError as e:
  print(f'{type(e).__name__}: ', *e.args)

tf.saved_model.save(my_model, saved_model_path)
x = tf.saved_model.load(saved_model_path)
print(x.signatures)  # simdist test: was the cell's last expression `x.signatures`

print(my_model.save_spec() is None)

BATCH_SIZE_PER_REPLICA = 4
BATCH_SIZE = BATCH_SIZE_PER_REPLICA * mirrored_strategy.num_replicas_in_sync

dataset_size = 100
dataset = tf.data.Dataset.from_tensors(
    (tf.range(5, dtype=tf.float32), tf.range(5, dtype=tf.float32))
    ).repeat(dataset_size).batch(BATCH_SIZE)

my_model.compile(optimizer='adam', loss='mean_squared_error')
my_model.build((None, 5))  # simdist test: added, for the next line's fixed initial weights
my_model.set_weights(fixed_weights(my_model))  # simdist test: the same initial weights
my_model.fit(dataset, epochs=2)

print(my_model.save_spec() is None)
my_model.save(saved_model_path)

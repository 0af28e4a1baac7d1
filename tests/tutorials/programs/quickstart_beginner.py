# TF's "TensorFlow 2 quickstart for beginners" tutorial (site/en/tutorials/quickstart/
# beginner.ipynb): its code cells in order, for tests/tutorials. Edits are marked
# "simdist test:": synthetic MNIST-shaped data (80 training and 16 test images) instead of
# the download, the initial weights and dropout seeded, and the cells' last expressions,
# which a notebook displays, printed.
import tensorflow as tf
print("TensorFlow version:", tf.__version__)

from tutorial_data import synthetic_fashion  # simdist test: not the MNIST download

tf.keras.utils.set_random_seed(0)  # simdist test: seeded (initial weights, dropout, shuffle)

# simdist test: was mnist = tf.keras.datasets.mnist; mnist.load_data()
(x_train, y_train), (x_test, y_test) = synthetic_fashion()
x_train, x_test = x_train / 255.0, x_test / 255.0

model = tf.keras.models.Sequential([
  tf.keras.layers.Flatten(input_shape=(28, 28)),
  tf.keras.layers.Dense(128, activation='relu'),
  tf.keras.layers.Dropout(0.2),
  tf.keras.layers.Dense(10)
])

predictions = model(x_train[:1]).numpy()
print(predictions)  # simdist test: print added

print(tf.nn.softmax(predictions).numpy())  # simdist test: print added

loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

print(loss_fn(y_train[:1], predictions).numpy())  # simdist test: print added

model.compile(optimizer='adam',
              loss=loss_fn,
              metrics=['accuracy'])

model.fit(x_train, y_train, epochs=5)

print(model.evaluate(x_test,  y_test, verbose=2))  # simdist test: print added

probability_model = tf.keras.Sequential([
  model,
  tf.keras.layers.Softmax()
])

print(probability_model(x_test[:5]))  # simdist test: print added

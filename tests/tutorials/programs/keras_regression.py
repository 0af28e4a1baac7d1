# TF's "Basic regression: Predict fuel efficiency" tutorial (site/en/tutorials/keras/
# regression.ipynb): its code cells in order, for tests/tutorials. Edits are marked
# "simdist test:": a synthetic Auto-MPG-shaped NumPy table of 160 rows instead of the
# download read by pandas (its origins one-hot encoded with NumPy in get_dummies' column
# order, the first 128 rows for training instead of a random 80%; the DataFrame's tail,
# isna, describe and pairplot cells left out), the initial weights seeded, 5 epochs
# instead of 100, the %%time magics and the plots left out (matplotlib: the last losses
# printed instead), the reload of the saved model left out (tf-keras 2.21 fails there), and
# the cells' last expressions, which a notebook displays, printed.
import numpy as np

# Make NumPy printouts easier to read.
np.set_printoptions(precision=3, suppress=True)

import tensorflow as tf

from tensorflow import keras
from tensorflow.keras import layers

from tutorial_data import synthetic_auto_mpg  # simdist test: not the UCI download

print(tf.__version__)
tf.keras.utils.set_random_seed(0)  # simdist test: seeded (initial weights, shuffling)

column_names = ['MPG', 'Cylinders', 'Displacement', 'Horsepower', 'Weight',
                'Acceleration', 'Model Year', 'Origin']

# simdist test: was pd.read_csv(url, ...), dropna, the origins mapped to names and
# pd.get_dummies (columns Europe, Japan, USA), dataset.sample(frac=0.8, random_state=0)
dataset = synthetic_auto_mpg()
origin = dataset[:, 7:8]
dataset = np.concatenate([dataset[:, :7], origin == 2, origin == 3, origin == 1], axis=1)
train_dataset, test_dataset = dataset[:128], dataset[128:]

train_features = train_dataset[:, 1:].copy()
test_features = test_dataset[:, 1:].copy()

train_labels = train_dataset[:, 0].copy()
test_labels = test_dataset[:, 0].copy()

normalizer = tf.keras.layers.Normalization(axis=-1)

normalizer.adapt(np.array(train_features))

print(normalizer.mean.numpy())

first = np.array(train_features[:1])

with np.printoptions(precision=2, suppress=True):
  print('First example:', first)
  print()
  print('Normalized:', normalizer(first).numpy())

horsepower = np.array(train_features[:, 2])  # simdist test: was train_features['Horsepower']

horsepower_normalizer = layers.Normalization(input_shape=[1,], axis=None)
horsepower_normalizer.adapt(horsepower)

horsepower_model = tf.keras.Sequential([
    horsepower_normalizer,
    layers.Dense(units=1)
])

horsepower_model.summary()

print(horsepower_model.predict(horsepower[:10]))  # simdist test: print added

horsepower_model.compile(
    optimizer=tf.keras.optimizers.Adam(learning_rate=0.1),
    loss='mean_absolute_error')

history = horsepower_model.fit(
    train_features[:, 2],  # simdist test: was train_features['Horsepower']
    train_labels,
    epochs=5,  # simdist test: was 100
    # Suppress logging.
    verbose=0,
    # Calculate validation results on 20% of the training data.
    validation_split = 0.2)

# simdist test: was a DataFrame of the history's tail
print(history.epoch[-5:], history.history['loss'][-5:], history.history['val_loss'][-5:])

test_results = {}

test_results['horsepower_model'] = horsepower_model.evaluate(
    test_features[:, 2],  # simdist test: was test_features['Horsepower']
    test_labels, verbose=0)

x = tf.linspace(0.0, 250, 251)
y = horsepower_model.predict(x)
print(y[::50])  # simdist test: was plotted

linear_model = tf.keras.Sequential([
    normalizer,
    layers.Dense(units=1)
])

print(linear_model.predict(train_features[:10]))  # simdist test: print added

print(linear_model.layers[1].kernel)  # simdist test: print added

linear_model.compile(
    optimizer=tf.keras.optimizers.Adam(learning_rate=0.1),
    loss='mean_absolute_error')

history = linear_model.fit(
    train_features,
    train_labels,
    epochs=5,  # simdist test: was 100
    # Suppress logging.
    verbose=0,
    # Calculate validation results on 20% of the training data.
    validation_split = 0.2)

print(history.history['loss'][-1], history.history['val_loss'][-1])  # simdist test: was plotted

test_results['linear_model'] = linear_model.evaluate(
    test_features, test_labels, verbose=0)

def build_and_compile_model(norm):
  model = keras.Sequential([
      norm,
      layers.Dense(64, activation='relu'),
      layers.Dense(64, activation='relu'),
      layers.Dense(1)
  ])

  model.compile(loss='mean_absolute_error',
                optimizer=tf.keras.optimizers.Adam(0.001))
  return model

dnn_horsepower_model = build_and_compile_model(horsepower_normalizer)

dnn_horsepower_model.summary()

history = dnn_horsepower_model.fit(
    train_features[:, 2],  # simdist test: was train_features['Horsepower']
    train_labels,
    validation_split=0.2,
    verbose=0, epochs=5)  # simdist test: was 100

print(history.history['loss'][-1], history.history['val_loss'][-1])  # simdist test: was plotted

x = tf.linspace(0.0, 250, 251)
y = dnn_horsepower_model.predict(x)
print(y[::50])  # simdist test: was plotted

test_results['dnn_horsepower_model'] = dnn_horsepower_model.evaluate(
    test_features[:, 2], test_labels,  # simdist test: was test_features['Horsepower']
    verbose=0)

dnn_model = build_and_compile_model(normalizer)
dnn_model.summary()

history = dnn_model.fit(
    train_features,
    train_labels,
    validation_split=0.2,
    verbose=0, epochs=5)  # simdist test: was 100

print(history.history['loss'][-1], history.history['val_loss'][-1])  # simdist test: was plotted

test_results['dnn_model'] = dnn_model.evaluate(test_features, test_labels, verbose=0)

print(test_results)  # simdist test: was a DataFrame of it

test_predictions = dnn_model.predict(test_features).flatten()

error = test_predictions - test_labels
print(np.histogram(error, bins=5)[0])  # simdist test: was plotted (25 bins)

dnn_model.save('dnn_model.keras')

# simdist test: the reload left out: tf-keras 2.21's load_model of this file raises
# ValueError (the Normalization layer rebuilt for input shape [None, None]: "All `axis`
# values to be kept must have known shape"), so the last two cells are not run

# The pattern of seeds/000_2b59820783d9843e.txt. The seed leaves build_model() and
# build_dataset() to the reader and writes `epochs=...`; those three are filled in here
# (a small classifier on separable synthetic data), everything else is the listing verbatim.
import numpy as np

import simdist as tf


def build_model():
    return tf.keras.Sequential([
        tf.keras.layers.Dense(32, activation='relu', input_shape=(8,)),
        tf.keras.layers.Dense(3),
        tf.keras.layers.Activation('softmax'),
    ])


def build_dataset():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(1024, 8)).astype(np.float32)
    y = np.argmax(x[:, :3], axis=1).astype(np.int64)
    return tf.data.Dataset.from_tensor_slices((x, y)).shuffle(1024, seed=0).batch(64)


# 1. Instantiate the desired strategy
# (Example: Training on multiple GPUs on the same machine)
strategy = tf.distribute.MirroredStrategy()
print(f'Number of devices: {strategy.num_replicas_in_sync}')
# 2. Open the strategy's scope
with strategy.scope():
    # Model, optimizer, and metrics need to be created within the scope
    model = build_model()  # Your model-building function
    optimizer = tf.keras.optimizers.Adam()
    train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name='train_accuracy')
    # ... other metrics
# 3. Prepare the dataset (tf.data pipeline)
train_dataset = build_dataset()
# Optionally distribute the dataset using the strategy
# train_dist_dataset = strategy.experimental_distribute_dataset(train_dataset)
# 4. Compile and train using standard Keras API
# model.compile() is often called outside the scope, but check documentation
# for specific needs, especially with custom training loops.
model.compile(optimizer=optimizer,
              loss='sparse_categorical_crossentropy',
              metrics=[train_accuracy])
# Model.fit handles the distribution automatically when a strategy is active
history = model.fit(train_dataset, epochs=25, verbose=0)
print("History:", history.history)

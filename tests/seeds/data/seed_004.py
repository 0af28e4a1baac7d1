# ruff: noqa
# The code listing of seeds/004_79585275fab5ee83.txt, verbatim but for the import line
# (`import tensorflow as tf` -> `import simdist as tf`); the seed's flattened lines are
# indented back as Python.
import simdist as tf
import numpy as np
# Single GPU strategy
strategy = tf.distribute.OneDeviceStrategy("/gpu:0")
# Multi-GPU strategy (automatic GPU detection)
strategy = tf.distribute.MirroredStrategy()
# Explicit device specification
strategy = tf.distribute.MirroredStrategy(devices=["/gpu:0", "/gpu:1"])
# Multi-worker strategy (requires cluster setup)
strategy = tf.distribute.MultiWorkerMirroredStrategy()
# Create and compile model within strategy scope
with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(128, activation='relu', input_shape=(10,)),
        tf.keras.layers.Dense(64, activation='relu'),
        tf.keras.layers.Dense(1, activation='sigmoid')
    ])
    model.compile(optimizer='adam',
        loss='binary_crossentropy',
        metrics=['accuracy'])
# Prepare distributed dataset
def make_dataset():
    x = np.random.random((1000, 10))
    y = np.random.randint(2, size=(1000, 1))
    dataset = tf.data.Dataset.from_tensor_slices((x, y))
    return dataset.batch(32)
# Distribute dataset across replicas
dataset = make_dataset()
dist_dataset = strategy.experimental_distribute_dataset(dataset)
# Custom training loop with strategy
with strategy.scope():
    # Define loss and metrics
    loss_object = tf.keras.losses.BinaryCrossentropy(
        from_logits=False,
        reduction=tf.keras.losses.Reduction.NONE
    )
    def compute_loss(labels, predictions):
        per_example_loss = loss_object(labels, predictions)
        return tf.nn.compute_average_loss(per_example_loss, global_batch_size=32)
    train_accuracy = tf.keras.metrics.BinaryAccuracy()
    optimizer = tf.keras.optimizers.Adam()
    # Training step function
    def train_step(inputs):
        features, labels = inputs
        with tf.GradientTape() as tape:
            predictions = model(features, training=True)
            loss = compute_loss(labels, predictions)
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        train_accuracy.update_state(labels, predictions)
        return loss
# Distributed training step
@tf.function
def distributed_train_step(dataset_inputs):
    per_replica_losses = strategy.run(train_step, args=(dataset_inputs,))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)
# Training loop
for epoch in range(5):
    total_loss = 0.0
    num_batches = 0
    for x in dist_dataset:
        loss = distributed_train_step(x)
        total_loss += loss.numpy()
        num_batches += 1
    train_loss = total_loss / num_batches
    print(f"Epoch {epoch + 1}, Loss: {train_loss:.4f}, "
        f"Accuracy: {train_accuracy.result():.4f}")
    train_accuracy.reset_states()
# Using built-in Keras fit with strategy
with strategy.scope():
    model_fit = tf.keras.Sequential([
        tf.keras.layers.Dense(128, activation='relu', input_shape=(10,)),
        tf.keras.layers.Dense(1, activation='sigmoid')
    ])
    model_fit.compile(optimizer='adam',
        loss='binary_crossentropy',
        metrics=['accuracy'])
# Keras fit automatically handles distribution
model_fit.fit(dataset, epochs=5)
# Multi-worker setup example (requires environment configuration)
# Set TF_CONFIG environment variable before running:
# os.environ['TF_CONFIG'] = json.dumps({
# 'cluster': {
# 'worker': ["host1:port", "host2:port", "host3:port"],
# 'ps': ["host4:port", "host5:port"]
# },
# 'task': {'type': 'worker', 'index': 1}
# })
# Strategy utilities
current_strategy = tf.distribute.get_strategy()
print(f"Current strategy: {type(current_strategy).__name__}")
print(f"Number of replicas: {current_strategy.num_replicas_in_sync}")
# Check execution context
if tf.distribute.in_cross_replica_context():
    print("In cross-replica context")
else:
    print("In replica context")
# Custom reduction example
with strategy.scope():
    @tf.function
    def replica_fn():
        return tf.constant([1.0, 2.0, 3.0])
    # Run function on all replicas
    per_replica_result = strategy.run(replica_fn)
    # Reduce across replicas
    reduced_sum = strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_result)
    reduced_mean = strategy.reduce(tf.distribute.ReduceOp.MEAN, per_replica_result)
    print(f"Sum: {reduced_sum}")
    print(f"Mean: {reduced_mean}")

# ruff: noqa
# The code listing of seeds/001_6872e329618eb535.txt, verbatim but for the import line
# (`import tensorflow as tf` -> `import simdist as tf`); the seed's prose is left out and
# its flattened lines are laid out as Python.
import simdist as tf
import os
import json

print("TensorFlow version:", tf.__version__)
gpus = tf.config.list_physical_devices('GPU')
if gpus:
    print(f"Detected {len(gpus)} GPU(s):")
    for i, gpu in enumerate(gpus):
        print(f" GPU {i}: {gpu}")
else:
    print("No GPU detected. MirroredStrategy requires at least one GPU,")
    print("but works best with multiple GPUs. CPU execution will be slower.")
    print("Consider using tf.distribute.OneDeviceStrategy('/cpu:0') for CPU practice.")

# Define a buffer size for shuffling the dataset
BUFFER_SIZE = 10000
# Define the global batch size. This will be split across replicas.
GLOBAL_BATCH_SIZE = 64 * len(gpus) if gpus else 64 # Example: 64 per replica
# Define the number of epochs for training
EPOCHS = 5

# Create a simple synthetic dataset
def create_synthetic_dataset(num_samples=10000, num_features=10):
    # Generate random features and binary labels
    X = tf.random.normal(shape=(num_samples, num_features))
    coeffs = tf.random.normal(shape=(num_features, 1))
    logits = tf.matmul(X, coeffs) + tf.random.normal(shape=(num_samples, 1), stddev=0.1)
    y = tf.cast(logits > 0, tf.int64)
    return tf.data.Dataset.from_tensor_slices((X, y))

# Create the dataset
dataset = create_synthetic_dataset()
# Shuffle and batch the dataset
# Note: Batch size here is the GLOBAL batch size
dataset = dataset.shuffle(BUFFER_SIZE).batch(GLOBAL_BATCH_SIZE).prefetch(tf.data.AUTOTUNE)
print(f"Dataset element spec: {dataset.element_spec}")
print(f"Global batch size: {GLOBAL_BATCH_SIZE}")
if gpus:
    print(f"Per-replica batch size: {GLOBAL_BATCH_SIZE // len(gpus)}")

def build_model(num_features=10):
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(16, activation='relu', input_shape=(num_features,)),
        tf.keras.layers.Dense(8, activation='relu'),
        tf.keras.layers.Dense(1, activation='sigmoid')
    ])
    return model

# If GPUs are available, use MirroredStrategy. Otherwise, use OneDeviceStrategy for CPU.
if gpus:
    strategy = tf.distribute.MirroredStrategy()
    print(f"Using MirroredStrategy with {strategy.num_replicas_in_sync} replicas.")
else:
    # Fallback for CPU or single GPU scenarios for demonstration purposes
    strategy = tf.distribute.OneDeviceStrategy('/cpu:0') # Or '/gpu:0' if one GPU exists
    print("Using OneDeviceStrategy (fallback).")

# Calculate the effective number of replicas
num_replicas = strategy.num_replicas_in_sync

# Create the model and optimizer within the strategy scope
with strategy.scope():
    # Model building
    model = build_model()
    # Optimizer definition
    optimizer = tf.keras.optimizers.Adam()
    # Loss function definition
    loss_object = tf.keras.losses.BinaryCrossentropy(
        from_logits=False,
        reduction=tf.keras.losses.Reduction.NONE # Important for distributed training!
    )
    # Define metrics
    train_accuracy = tf.keras.metrics.BinaryAccuracy(name='train_accuracy')
    # Compile the model (optional but recommended for Keras fit/evaluate)
    # Note: We use a dummy loss here because we will compute it manually below
    # OR provide the loss_object directly if using model.fit
    # model.compile(optimizer=optimizer, loss=loss_object, metrics=['accuracy'])

# Function to compute loss per replica
def compute_loss(labels, predictions):
    per_example_loss = loss_object(labels, predictions)
    # We compute the MEAN loss across the LOCAL batch size inside the replica.
    # The strategy will handle the averaging across replicas later.
    # Alternatively, you can sum here and divide by GLOBAL batch size after reduction.
    return tf.nn.compute_average_loss(per_example_loss, global_batch_size=GLOBAL_BATCH_SIZE)

# Define the training step function
@tf.function
def distributed_train_step(inputs):
    features, labels = inputs

    def step_fn(features, labels):
        with tf.GradientTape() as tape:
            predictions = model(features, training=True)
            loss = compute_loss(labels, predictions)
        # Calculate gradients
        gradients = tape.gradient(loss, model.trainable_variables)
        # Apply gradients
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        # Update metrics
        train_accuracy.update_state(labels, predictions)
        return loss

    # Run the step function on each replica
    per_replica_losses = strategy.run(step_fn, args=(features, labels))
    # Aggregate the results (e.g., loss) across replicas
    # Use reduce with SUM and divide by num_replicas, or directly use MEAN.
    mean_loss = strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)
    return mean_loss # Return the average loss across the global batch

print("Starting distributed training...")
for epoch in range(EPOCHS):
    total_loss = 0.0
    num_batches = 0
    # Reset metrics at the start of each epoch
    train_accuracy.reset_state()
    # Iterate over the distributed dataset
    for batch_inputs in dataset:
        # Run the distributed training step
        batch_loss = distributed_train_step(batch_inputs)
        total_loss += batch_loss
        num_batches += 1
        # Optional: Print progress within the epoch
        # if num_batches % 50 == 0:
        #     print(f" Epoch {epoch+1}, Batch {num_batches}, Loss: {batch_loss.numpy():.4f}, Accuracy: {train_accuracy.result().numpy():.4f}")
    # Calculate average loss over the epoch
    epoch_loss = total_loss / num_batches
    epoch_accuracy = train_accuracy.result()
    print(f"Epoch {epoch+1}/{EPOCHS}, Loss: {epoch_loss:.4f}, Accuracy: {epoch_accuracy:.4f}")
print("Distributed training finished.")

# Re-create model and optimizer within scope if not done already
with strategy.scope():
    model_fit = build_model()
    optimizer_fit = tf.keras.optimizers.Adam()
    # Use standard reduction for compile/fit unless specific needs arise
    loss_fit = tf.keras.losses.BinaryCrossentropy(from_logits=False)
    model_fit.compile(optimizer=optimizer_fit, loss=loss_fit, metrics=['accuracy'])

print("\nStarting distributed training with model.fit...")
# model.fit handles dataset distribution automatically
history = model_fit.fit(dataset, epochs=EPOCHS, verbose=1)
print("Distributed training with model.fit finished.")
print("History:", history.history)

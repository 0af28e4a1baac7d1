# TF's "Migrate the fault tolerance mechanism" guide (site/en/guide/migrate/
# fault_tolerance.ipynb): its TensorFlow 2 code cells, for tests/tutorials: BackupAndRestore
# interrupted at an epoch's end and resumed, then saving every few steps and interrupted in an
# epoch, then a custom loop writing checkpoints with a CheckpointManager. The TensorFlow 1
# part (an Estimator with a SessionRunHook) is out of scope: simdist simulates TF 2's APIs.
# Edits are marked "simdist test:": synthetic MNIST-shaped arrays instead of the download, 4
# steps an epoch instead of 100 (the interruption at step 7, not 140, and a backup every 3
# steps, not 30: it resumes in the second epoch, as the guide's), 6 epochs, not 10, a hidden
# layer of 64 units, not 512, seeded weights and dropout, the backup folders relative to the
# working directory (the runner's temporary one) so that the printed paths are the same in
# each run.
import tensorflow as tf
import numpy as np
import tempfile
import time

from tutorial_data import synthetic_fashion  # simdist test: no download

tf.keras.utils.set_random_seed(0)  # simdist test: seeded (initial weights, dropout)

(x_train, y_train), (x_test, y_test) = synthetic_fashion(128, 32)  # simdist test: was mnist
x_train, x_test = x_train / 255.0, x_test / 255.0

class InterruptAtEpoch(tf.keras.callbacks.Callback):
  # A callback for artificially interrupting training.
  def __init__(self, interrupting_epoch=3):
    self.interrupting_epoch = interrupting_epoch

  def on_epoch_end(self, epoch, log=None):
    if epoch == self.interrupting_epoch:
      raise RuntimeError('Interruption')

def create_model():
  return tf.keras.models.Sequential([
    tf.keras.layers.Flatten(input_shape=(28, 28)),
    tf.keras.layers.Dense(64, activation='relu'),  # simdist test: was 512
    tf.keras.layers.Dropout(0.2),
    tf.keras.layers.Dense(10)
  ])
loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
model = create_model()
model.compile(optimizer='adam',
              loss=loss,
              metrics=['accuracy'])
log_dir = "backup_1"  # simdist test: was tempfile.mkdtemp()
backup_restore_callback = tf.keras.callbacks.BackupAndRestore(
    backup_dir = log_dir)

try:
  model.fit(x=x_train,
            y=y_train,
            epochs=6,  # simdist test: was 10
            steps_per_epoch=4,  # simdist test: was 100
            validation_data=(x_test, y_test),
            callbacks=[backup_restore_callback, InterruptAtEpoch()])
except Exception as e:
  print(f'{type(e).__name__}:{e}')

model = create_model()
model.compile(optimizer='adam',
              loss=loss,
              metrics=['accuracy'],
              steps_per_execution=10)
model.fit(x=x_train,
            y=y_train,
            epochs=6,  # simdist test: was 10
            steps_per_epoch=4,  # simdist test: was 100
            validation_data=(x_test, y_test),
            callbacks=[backup_restore_callback])

class InterruptAtStep(tf.keras.callbacks.Callback):
  # A callback for artificially interrupting training.
  def __init__(self, interrupting_step=7):  # simdist test: was 140
    self.total_step_count = 0
    self.interrupting_step = interrupting_step

  def on_batch_begin(self, batch, logs=None):
    self.total_step_count += 1

  def on_batch_end(self, batch, logs=None):
    if self.total_step_count == self.interrupting_step:
      print("\nInterrupting at step count", self.total_step_count)
      raise RuntimeError('Interruption')

log_dir_2 = "backup_2"  # simdist test: was tempfile.mkdtemp()

backup_restore_callback = tf.keras.callbacks.BackupAndRestore(
    backup_dir = log_dir_2, save_freq=3  # simdist test: was 30
)
model = create_model()
model.compile(optimizer='adam',
              loss=loss,
              metrics=['accuracy'])
try:
  model.fit(x=x_train,
            y=y_train,
            epochs=6,  # simdist test: was 10
            steps_per_epoch=4,  # simdist test: was 100
            validation_data=(x_test, y_test),
            callbacks=[backup_restore_callback, InterruptAtStep()])
except Exception as e:
  print(f'{type(e).__name__}:{e}')

model = create_model()
model.compile(optimizer='adam',
              loss=loss,
              metrics=['accuracy'],
              steps_per_execution=10)
model.fit(x=x_train,
            y=y_train,
            epochs=6,  # simdist test: was 10
            steps_per_epoch=4,  # simdist test: was 100
            validation_data=(x_test, y_test),
            callbacks=[backup_restore_callback])

model = create_model()
optimizer = tf.keras.optimizers.SGD(learning_rate=0.001)
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
log_dir = "checkpoints"  # simdist test: was tempfile.mkdtemp()
epochs = 5
steps_per_epoch = 5

checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer)
checkpoint_manager = tf.train.CheckpointManager(
            checkpoint, log_dir, max_to_keep=2)

for epoch in range(epochs):
  if epoch > 0:
      tf.train.load_checkpoint(save_path)
  print(f"\nStart of epoch {epoch}")

  for step in range(steps_per_epoch):
    with tf.GradientTape() as tape:

      logits = model(x_train, training=True)
      loss_value = loss_fn(y_train, logits)

      grads = tape.gradient(loss_value, model.trainable_weights)
      optimizer.apply_gradients(zip(grads, model.trainable_weights))

    save_path = checkpoint_manager.save()
    print(f"Checkpoint saved to {save_path}")
    print(f"Training loss at step {step}: {loss_value}")

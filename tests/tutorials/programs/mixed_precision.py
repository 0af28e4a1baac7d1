# TF's "Mixed precision" guide (site/en/guide/mixed_precision.ipynb): its code cells in order,
# for tests/tutorials. Edits are marked "simdist test:"; they replace the MNIST download and the
# shell magic, shrink the sizes, fix the initial weights and print what a notebook would have
# shown of a cell's last expression. Both frameworks run it on a CPU-only machine (the guide's
# CPU branch: 64 units; TF warns on stderr that mixed_float16 finds no compatible GPU).
import tensorflow as tf

from tensorflow import keras
from tensorflow.keras import layers
from tensorflow.keras import mixed_precision

from tutorial_data import fixed_weights, synthetic_fashion  # simdist test: not the download

# simdist test: the `!nvidia-smi -L` cell is left out (a shell command).

policy = mixed_precision.Policy('mixed_float16')
mixed_precision.set_global_policy(policy)

# Equivalent to the two lines above
mixed_precision.set_global_policy('mixed_float16')

print('Compute dtype: %s' % policy.compute_dtype)
print('Variable dtype: %s' % policy.variable_dtype)

inputs = keras.Input(shape=(784,), name='digits')
if tf.config.list_physical_devices('GPU'):
  print('The model will run with 4096 units on a GPU')
  num_units = 4096
else:
  # Use fewer units on CPUs so the model finishes in a reasonable amount of time
  print('The model will run with 64 units on a CPU')
  num_units = 64
dense1 = layers.Dense(num_units, activation='relu', name='dense_1')
x = dense1(inputs)
dense2 = layers.Dense(num_units, activation='relu', name='dense_2')
x = dense2(x)

print(dense1.dtype_policy)
print('x.dtype: %s' % x.dtype.name)
# 'kernel' is dense1's variable
print('dense1.kernel.dtype: %s' % dense1.kernel.dtype.name)

# INCORRECT: softmax and model output will be float16, when it should be float32
outputs = layers.Dense(10, activation='softmax', name='predictions')(x)
print('Outputs dtype: %s' % outputs.dtype.name)

# CORRECT: softmax and model output are float32
x = layers.Dense(10, name='dense_logits')(x)
outputs = layers.Activation('softmax', dtype='float32', name='predictions')(x)
print('Outputs dtype: %s' % outputs.dtype.name)

# The linear activation is an identity function. So this simply casts 'outputs'
# to float32. In this particular case, 'outputs' is already float32 so this is a
# no-op.
outputs = layers.Activation('linear', dtype='float32')(outputs)

model = keras.Model(inputs=inputs, outputs=outputs)
model.compile(loss='sparse_categorical_crossentropy',
              optimizer=keras.optimizers.RMSprop(),
              metrics=['accuracy'])
model.set_weights(fixed_weights(model))  # simdist test: the same initial weights

# simdist test: was keras.datasets.mnist.load_data() (60000 and 10000 images)
(x_train, y_train), (x_test, y_test) = synthetic_fashion(n_train=80, n_test=16)
x_train = x_train.reshape(80, 784).astype('float32') / 255  # simdist test: was 60000
x_test = x_test.reshape(16, 784).astype('float32') / 255  # simdist test: was 10000

initial_weights = model.get_weights()

history = model.fit(x_train, y_train,
                    batch_size=16,  # simdist test: was 8192
                    epochs=2,  # simdist test: was 5
                    validation_split=0.2,
                    shuffle=False)  # simdist test: added (the frameworks' shuffles differ)
test_scores = model.evaluate(x_test, y_test, verbose=2)
print('Test loss:', test_scores[0])
print('Test accuracy:', test_scores[1])

x = tf.constant(256, dtype='float16')
print((x ** 2).numpy())  # Overflow  # simdist test: print added

x = tf.constant(1e-5, dtype='float16')
print((x ** 2).numpy())  # Underflow  # simdist test: print added

optimizer = keras.optimizers.RMSprop()
optimizer = mixed_precision.LossScaleOptimizer(optimizer)

loss_object = tf.keras.losses.SparseCategoricalCrossentropy()
train_dataset = (tf.data.Dataset.from_tensor_slices((x_train, y_train))
                 .shuffle(1).batch(16))  # simdist test: was shuffle(10000).batch(8192)
test_dataset = tf.data.Dataset.from_tensor_slices((x_test, y_test)).batch(16)  # was 8192

@tf.function
def train_step(x, y):
  with tf.GradientTape() as tape:
    predictions = model(x)
    loss = loss_object(y, predictions)
    scaled_loss = optimizer.get_scaled_loss(loss)
  scaled_gradients = tape.gradient(scaled_loss, model.trainable_variables)
  gradients = optimizer.get_unscaled_gradients(scaled_gradients)
  optimizer.apply_gradients(zip(gradients, model.trainable_variables))
  return loss

@tf.function
def test_step(x):
  return model(x, training=False)

model.set_weights(initial_weights)

for epoch in range(2):  # simdist test: was 5
  epoch_loss_avg = tf.keras.metrics.Mean()
  test_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(
      name='test_accuracy')
  for x, y in train_dataset:
    loss = train_step(x, y)
    epoch_loss_avg(loss)
  for x, y in test_dataset:
    predictions = test_step(x)
    test_accuracy.update_state(y, predictions)
  print('Epoch {}: loss={}, test accuracy={}'.format(epoch, epoch_loss_avg.result(), test_accuracy.result()))

print(optimizer.loss_scale.numpy())  # simdist test: added, the dynamic loss scale reached

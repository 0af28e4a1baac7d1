# TF's tutorial "Text classification with an RNN" (tensorflow/text
# docs/tutorials/text_classification_rnn.ipynb at 03787f07, tensorflow.org's
# text/tutorials/text_classification_rnn). Its code cells in order, for tests/tutorials.
# Edits are marked "simdist test:": seeded (tf.keras.utils.set_random_seed); the
# tensorflow_datasets download of IMDB replaced by 32 training and 16 test synthetic reviews
# of 6 pseudo-words (tutorial_data.synthetic_imdb_reviews), batches of 32 instead of 64,
# 1 epoch instead of 10 with 1 validation step instead of 30, a padding sentence of 20 words
# instead of 2000; the results of cells whose last expression a notebook shows printed; the
# matplotlib plots left out.
import numpy as np

import tensorflow as tf

from tutorial_data import synthetic_imdb_reviews  # simdist test: not the tfds download

tf.keras.utils.set_random_seed(0)  # simdist test: seeded

# simdist test: was tfds.load('imdb_reviews', with_info=True, as_supervised=True)
dataset, info = synthetic_imdb_reviews(tf)
train_dataset, test_dataset = dataset['train'], dataset['test']

print(train_dataset.element_spec)  # simdist test: printed

for example, label in train_dataset.take(1):
  print('text: ', example.numpy())
  print('label: ', label.numpy())

BUFFER_SIZE = 10000
BATCH_SIZE = 32  # simdist test: was 64

train_dataset = train_dataset.shuffle(BUFFER_SIZE).batch(BATCH_SIZE).prefetch(tf.data.AUTOTUNE)
test_dataset = test_dataset.batch(BATCH_SIZE).prefetch(tf.data.AUTOTUNE)

for example, label in train_dataset.take(1):
  print('texts: ', example.numpy()[:3])
  print()
  print('labels: ', label.numpy()[:3])

VOCAB_SIZE = 1000
encoder = tf.keras.layers.TextVectorization(
    max_tokens=VOCAB_SIZE)
encoder.adapt(train_dataset.map(lambda text, label: text))

vocab = np.array(encoder.get_vocabulary())
print(vocab[:20])  # simdist test: printed

encoded_example = encoder(example)[:3].numpy()
print(encoded_example)  # simdist test: printed

for n in range(3):
  print("Original: ", example[n].numpy())
  print("Round-trip: ", " ".join(vocab[encoded_example[n]]))
  print()

model = tf.keras.Sequential([
    encoder,
    tf.keras.layers.Embedding(
        input_dim=len(encoder.get_vocabulary()),
        output_dim=64,
        # Use masking to handle the variable sequence lengths
        mask_zero=True),
    tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(64)),
    tf.keras.layers.Dense(64, activation='relu'),
    tf.keras.layers.Dense(1)
])

print([layer.supports_masking for layer in model.layers])

# predict on a sample text without padding.

sample_text = ('The movie was cool. The animation and the graphics '
               'were out of this world. I would recommend this movie.')
predictions = model.predict(np.array([sample_text]))
print(predictions[0])

# predict on a sample text with padding

padding = "the " * 20  # simdist test: was 2000
predictions = model.predict(np.array([sample_text, padding]))
print(predictions[0])

model.compile(loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
              optimizer=tf.keras.optimizers.Adam(1e-4),
              metrics=['accuracy'])

history = model.fit(train_dataset, epochs=1,  # simdist test: was 10
                    validation_data=test_dataset,
                    validation_steps=1)  # simdist test: was 30

test_loss, test_acc = model.evaluate(test_dataset)

print('Test Loss:', test_loss)
print('Test Accuracy:', test_acc)

sample_text = ('The movie was cool. The animation and the graphics '
               'were out of this world. I would recommend this movie.')
predictions = model.predict(np.array([sample_text]))
print(predictions)  # simdist test: printed

model = tf.keras.Sequential([
    encoder,
    tf.keras.layers.Embedding(len(encoder.get_vocabulary()), 64, mask_zero=True),
    tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(64,  return_sequences=True)),
    tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(32)),
    tf.keras.layers.Dense(64, activation='relu'),
    tf.keras.layers.Dropout(0.5),
    tf.keras.layers.Dense(1)
])

model.compile(loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
              optimizer=tf.keras.optimizers.Adam(1e-4),
              metrics=['accuracy'])

history = model.fit(train_dataset, epochs=1,  # simdist test: was 10
                    validation_data=test_dataset,
                    validation_steps=1)  # simdist test: was 30

test_loss, test_acc = model.evaluate(test_dataset)

print('Test Loss:', test_loss)
print('Test Accuracy:', test_acc)

# predict on a sample text without padding.

sample_text = ('The movie was not good. The animation and the graphics '
               'were terrible. I would not recommend this movie.')
predictions = model.predict(np.array([sample_text]))
print(predictions)
print(history.history)  # simdist test: printed

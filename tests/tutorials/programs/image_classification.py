# TF's "Image classification" tutorial (site/en/tutorials/images/classification.ipynb): its
# code cells in order, for tests/tutorials. Edits are marked "simdist test:": a synthetic
# flower_photos-shaped folder of 20 small images (tutorial_images.py: PNG bytes under the
# download's .jpg names) instead of the download, seeded, 16x16 images instead of 180x180,
# batches of 8, 1 epoch instead of 10 and 15, the plots left out (matplotlib: the histories
# and the augmented images' sums printed instead), the cells' last expressions printed, and
# the sunflower read with tf.io instead of keras.utils.load_img (PIL: absent here); the
# TensorFlow Lite part is left out (tf.lite).
import numpy as np
import tensorflow as tf

from tensorflow import keras
from tensorflow.keras import layers
from tensorflow.keras.models import Sequential

from tutorial_images import synthetic_flower, synthetic_flowers  # simdist test: data

tf.keras.utils.set_random_seed(0)  # simdist test: seeded

import pathlib

# simdist test: was tf.keras.utils.get_file("flower_photos.tgz", origin=dataset_url,
# extract=True) and its extracted folder
data_dir = pathlib.Path(synthetic_flowers('.'))

image_count = len(list(data_dir.glob('*/*.jpg')))
print(image_count)

roses = sorted(data_dir.glob('roses/*'))  # simdist test: sorted, PIL.Image.open left out
print(len(roses))

batch_size = 8  # simdist test: was 32
img_height = 16  # simdist test: was 180
img_width = 16  # simdist test: was 180

train_ds = tf.keras.utils.image_dataset_from_directory(
  data_dir,
  validation_split=0.2,
  subset="training",
  seed=123,
  image_size=(img_height, img_width),
  batch_size=batch_size)

val_ds = tf.keras.utils.image_dataset_from_directory(
  data_dir,
  validation_split=0.2,
  subset="validation",
  seed=123,
  image_size=(img_height, img_width),
  batch_size=batch_size)

class_names = train_ds.class_names
print(class_names)

for images, labels in train_ds.take(1):  # simdist test: the plot's titles printed
  for i in range(9 if len(images) >= 9 else len(images)):
    print(class_names[labels[i]], images[i].numpy().astype("uint8").sum())

for image_batch, labels_batch in train_ds:
  print(image_batch.shape)
  print(labels_batch.shape)
  break

AUTOTUNE = tf.data.AUTOTUNE

train_ds = train_ds.cache().shuffle(1000).prefetch(buffer_size=AUTOTUNE)
val_ds = val_ds.cache().prefetch(buffer_size=AUTOTUNE)

normalization_layer = layers.Rescaling(1./255)

normalized_ds = train_ds.map(lambda x, y: (normalization_layer(x), y))
image_batch, labels_batch = next(iter(normalized_ds))
first_image = image_batch[0]
# Notice the pixel values are now in `[0,1]`.
print(np.min(first_image), np.max(first_image))

num_classes = len(class_names)

model = Sequential([
  layers.Rescaling(1./255, input_shape=(img_height, img_width, 3)),
  layers.Conv2D(16, 3, padding='same', activation='relu'),
  layers.MaxPooling2D(),
  layers.Conv2D(32, 3, padding='same', activation='relu'),
  layers.MaxPooling2D(),
  layers.Conv2D(64, 3, padding='same', activation='relu'),
  layers.MaxPooling2D(),
  layers.Flatten(),
  layers.Dense(128, activation='relu'),
  layers.Dense(num_classes)
])

model.compile(optimizer='adam',
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=['accuracy'])

model.summary()

epochs=1  # simdist test: was 10
history = model.fit(
  train_ds,
  validation_data=val_ds,
  epochs=epochs
)

acc = history.history['accuracy']
val_acc = history.history['val_accuracy']

loss = history.history['loss']
val_loss = history.history['val_loss']
print(acc, val_acc, loss, val_loss)  # simdist test: printed, not plotted

data_augmentation = keras.Sequential(
  [
    layers.RandomFlip("horizontal",
                      input_shape=(img_height,
                                  img_width,
                                  3)),
    layers.RandomRotation(0.1),
    layers.RandomZoom(0.1),
  ]
)

for images, _ in train_ds.take(1):  # simdist test: the augmented images' sums printed
  for i in range(9):
    augmented_images = data_augmentation(images)
    print(augmented_images[0].numpy().astype("uint8").sum())

model = Sequential([
  data_augmentation,
  layers.Rescaling(1./255),
  layers.Conv2D(16, 3, padding='same', activation='relu'),
  layers.MaxPooling2D(),
  layers.Conv2D(32, 3, padding='same', activation='relu'),
  layers.MaxPooling2D(),
  layers.Conv2D(64, 3, padding='same', activation='relu'),
  layers.MaxPooling2D(),
  layers.Dropout(0.2),
  layers.Flatten(),
  layers.Dense(128, activation='relu'),
  layers.Dense(num_classes, name="outputs")
])

model.compile(optimizer='adam',
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=['accuracy'])

model.summary()

epochs = 1  # simdist test: was 15
history = model.fit(
  train_ds,
  validation_data=val_ds,
  epochs=epochs
)

print(history.history)  # simdist test: printed, not plotted

# simdist test: was tf.keras.utils.get_file('Red_sunflower', origin=sunflower_url) and
# tf.keras.utils.load_img(sunflower_path, target_size=(img_height, img_width)) (PIL)
img = tf.image.resize(tf.io.decode_png(synthetic_flower()), (img_height, img_width),
                      method='nearest')
img_array = tf.cast(img, tf.float32)  # simdist test: was tf.keras.utils.img_to_array(img)
img_array = tf.expand_dims(img_array, 0) # Create a batch

predictions = model.predict(img_array)
score = tf.nn.softmax(predictions[0])

print(
    "This image most likely belongs to {} with a {:.2f} percent confidence."
    .format(class_names[np.argmax(score)], 100 * np.max(score))
)

# TF's "Data augmentation" tutorial (site/en/tutorials/images/data_augmentation.ipynb): its
# code cells in order, for tests/tutorials. Edits are marked "simdist test:": a synthetic
# tf_flowers of 20 small images (tutorial_images.tfds_flowers, made by from_generator)
# instead of tfds.load's download, seeded, 12x12 images instead of 180x180,
# 1 epoch instead of 5, crops of 14x20 instead of 210x300, the plots left out (matplotlib:
# each shown image's shape, dtype and sum printed instead), and the two seeded training
# datasets the last cells make iterated once (the tutorial stops at making them; the
# second one mapped without parallel calls, see there).
import numpy as np
import tensorflow as tf

from tensorflow.keras import layers

from tutorial_images import tfds_flowers  # simdist test: not tensorflow_datasets

tf.keras.utils.set_random_seed(0)  # simdist test: seeded


def show(image):  # simdist test: what plt.imshow showed, printed
  image = np.asarray(image)
  print(image.shape, image.dtype, round(float(image.astype('float64').sum()), 3))


# simdist test: was tfds.load('tf_flowers', split=['train[:80%]', 'train[80%:90%]',
# 'train[90%:]'], with_info=True, as_supervised=True)
(train_ds, val_ds, test_ds), metadata = tfds_flowers(tf)

num_classes = metadata.features['label'].num_classes
print(num_classes)

get_label_name = metadata.features['label'].int2str

image, label = next(iter(train_ds))
show(image)  # simdist test: was plt.imshow(image)
print(get_label_name(label))  # simdist test: was plt.title(get_label_name(label))

IMG_SIZE = 12  # simdist test: was 180

resize_and_rescale = tf.keras.Sequential([
  layers.Resizing(IMG_SIZE, IMG_SIZE),
  layers.Rescaling(1./255)
])

result = resize_and_rescale(image)
show(result)  # simdist test: was plt.imshow(result)

print("Min and max pixel values:", result.numpy().min(), result.numpy().max())

data_augmentation = tf.keras.Sequential([
  layers.RandomFlip("horizontal_and_vertical"),
  layers.RandomRotation(0.2),
])

# Add the image to a batch.
image = tf.cast(tf.expand_dims(image, 0), tf.float32)

for i in range(9):  # simdist test: the plt.figure / subplot / axis calls left out
  augmented_image = data_augmentation(image)
  show(augmented_image[0])  # simdist test: was plt.imshow(augmented_image[0])

model = tf.keras.Sequential([
  # Add the preprocessing layers you created earlier.
  resize_and_rescale,
  data_augmentation,
  layers.Conv2D(16, 3, padding='same', activation='relu'),
  layers.MaxPooling2D(),
  # Rest of your model.
])

aug_ds = train_ds.map(
  lambda x, y: (resize_and_rescale(x, training=True), y))

batch_size = 32
AUTOTUNE = tf.data.AUTOTUNE

def prepare(ds, shuffle=False, augment=False):
  # Resize and rescale all datasets.
  ds = ds.map(lambda x, y: (resize_and_rescale(x), y),
              num_parallel_calls=AUTOTUNE)

  if shuffle:
    ds = ds.shuffle(1000)

  # Batch all datasets.
  ds = ds.batch(batch_size)

  # Use data augmentation only on the training set.
  if augment:
    ds = ds.map(lambda x, y: (data_augmentation(x, training=True), y),
                num_parallel_calls=AUTOTUNE)

  # Use buffered prefetching on all datasets.
  return ds.prefetch(buffer_size=AUTOTUNE)

train_ds = prepare(train_ds, shuffle=True, augment=True)
val_ds = prepare(val_ds)
test_ds = prepare(test_ds)

model = tf.keras.Sequential([
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

epochs=1  # simdist test: was 5
history = model.fit(
  train_ds,
  validation_data=val_ds,
  epochs=epochs
)

loss, acc = model.evaluate(test_ds)
print("Accuracy", acc)

def random_invert_img(x, p=0.5):
  if  tf.random.uniform([]) < p:
    x = (255-x)
  else:
    x
  return x

def random_invert(factor=0.5):
  return layers.Lambda(lambda x: random_invert_img(x, factor))

random_invert = random_invert()

for i in range(9):  # simdist test: the plt.figure / subplot / axis calls left out
  augmented_image = random_invert(image)
  show(augmented_image[0].numpy().astype("uint8"))  # simdist test: was plt.imshow

class RandomInvert(layers.Layer):
  def __init__(self, factor=0.5, **kwargs):
    super().__init__(**kwargs)
    self.factor = factor

  def call(self, x):
    return random_invert_img(x)

show(RandomInvert()(image)[0])  # simdist test: was plt.imshow

# simdist test: was tfds.load(...) as above
(train_ds, val_ds, test_ds), metadata = tfds_flowers(tf)

image, label = next(iter(train_ds))
show(image)  # simdist test: was plt.imshow(image)
print(get_label_name(label))  # simdist test: was plt.title(get_label_name(label))

def visualize(original, augmented):  # simdist test: the figure's two images printed
  show(original)
  show(augmented)

flipped = tf.image.flip_left_right(image)
visualize(image, flipped)

grayscaled = tf.image.rgb_to_grayscale(image)
visualize(image, tf.squeeze(grayscaled))

saturated = tf.image.adjust_saturation(image, 3)
visualize(image, saturated)

bright = tf.image.adjust_brightness(image, 0.4)
visualize(image, bright)

cropped = tf.image.central_crop(image, central_fraction=0.5)
visualize(image, cropped)

rotated = tf.image.rot90(image)
visualize(image, rotated)

for i in range(3):
  seed = (i, 0)  # tuple of size (2,)
  stateless_random_brightness = tf.image.stateless_random_brightness(
      image, max_delta=0.95, seed=seed)
  visualize(image, stateless_random_brightness)

for i in range(3):
  seed = (i, 0)  # tuple of size (2,)
  stateless_random_contrast = tf.image.stateless_random_contrast(
      image, lower=0.1, upper=0.9, seed=seed)
  visualize(image, stateless_random_contrast)

for i in range(3):
  seed = (i, 0)  # tuple of size (2,)
  stateless_random_crop = tf.image.stateless_random_crop(
      image, size=[14, 20, 3], seed=seed)  # simdist test: was size=[210, 300, 3]
  visualize(image, stateless_random_crop)

# simdist test: was tfds.load(...) as above
(train_datasets, val_ds, test_ds), metadata = tfds_flowers(tf)

def resize_and_rescale(image, label):
  image = tf.cast(image, tf.float32)
  image = tf.image.resize(image, [IMG_SIZE, IMG_SIZE])
  image = (image / 255.0)
  return image, label

def augment(image_label, seed):
  image, label = image_label
  image, label = resize_and_rescale(image, label)
  image = tf.image.resize_with_crop_or_pad(image, IMG_SIZE + 6, IMG_SIZE + 6)
  # Make a new seed.
  new_seed = tf.random.split(seed, num=1)[0, :]
  # Random crop back to the original size.
  image = tf.image.stateless_random_crop(
      image, size=[IMG_SIZE, IMG_SIZE, 3], seed=seed)
  # Random brightness.
  image = tf.image.stateless_random_brightness(
      image, max_delta=0.5, seed=new_seed)
  image = tf.clip_by_value(image, 0, 1)
  return image, label

# Create a `Counter` object and `Dataset.zip` it together with the training set.
counter = tf.data.experimental.Counter()
train_ds = tf.data.Dataset.zip((train_datasets, (counter, counter)))

train_ds = (
    train_ds
    .shuffle(1000)
    .map(augment, num_parallel_calls=AUTOTUNE)
    .batch(batch_size)
    .prefetch(AUTOTUNE)
)

val_ds = (
    val_ds
    .map(resize_and_rescale, num_parallel_calls=AUTOTUNE)
    .batch(batch_size)
    .prefetch(AUTOTUNE)
)

test_ds = (
    test_ds
    .map(resize_and_rescale, num_parallel_calls=AUTOTUNE)
    .batch(batch_size)
    .prefetch(AUTOTUNE)
)

for images, labels in train_ds.take(1):  # simdist test: one batch of each dataset shown
  show(images)
  print(labels.numpy())
for images, labels in val_ds.take(1):
  show(images)

# Create a generator.
rng = tf.random.Generator.from_seed(123, alg='philox')

# Create a wrapper function for updating seeds.
def f(x, y):
  seed = rng.make_seeds(1)[:, 0]
  image, label = augment((x, y), seed)
  return image, label

train_ds = (
    train_datasets
    .shuffle(1000)
    .map(f, num_parallel_calls=AUTOTUNE)
    .batch(batch_size)
    .prefetch(AUTOTUNE)
)

val_ds = (
    val_ds
    .map(resize_and_rescale, num_parallel_calls=AUTOTUNE)
    .batch(batch_size)
    .prefetch(AUTOTUNE)
)

test_ds = (
    test_ds
    .map(resize_and_rescale, num_parallel_calls=AUTOTUNE)
    .batch(batch_size)
    .prefetch(AUTOTUNE)
)

# simdist test: one batch shown, as above, of train_ds without its shuffle and
# num_parallel_calls: TF's parallel calls of f take the generator's seeds in a racy order
# (three TF runs gave three sums)
for images, labels in train_datasets.map(f).batch(batch_size).take(1):
  show(images)
  print(labels.numpy())

# TF's "Convolutional Neural Network (CNN)" tutorial (site/en/tutorials/images/cnn.ipynb): its
# code cells in order, for tests/tutorials. Edits are marked "simdist test:": synthetic
# CIFAR-10-shaped data (32 training and 8 test images) instead of the download, the
# initial weights seeded, 2 epochs instead of 10, and the plots left out (matplotlib: the
# images, and the accuracies, printed instead).
import tensorflow as tf

from tensorflow.keras import datasets, layers, models

from tutorial_data import synthetic_cifar10  # simdist test: not the download

tf.keras.utils.set_random_seed(0)  # simdist test: seeded (initial weights, shuffling)

# simdist test: was datasets.cifar10.load_data()
(train_images, train_labels), (test_images, test_labels) = synthetic_cifar10(32, 8)

# Normalize pixel values to be between 0 and 1
train_images, test_images = train_images / 255.0, test_images / 255.0

class_names = ['airplane', 'automobile', 'bird', 'cat', 'deer',
               'dog', 'frog', 'horse', 'ship', 'truck']

print([class_names[train_labels[i][0]] for i in range(25)])  # simdist test: was plotted

model = models.Sequential()
model.add(layers.Conv2D(32, (3, 3), activation='relu', input_shape=(32, 32, 3)))
model.add(layers.MaxPooling2D((2, 2)))
model.add(layers.Conv2D(64, (3, 3), activation='relu'))
model.add(layers.MaxPooling2D((2, 2)))
model.add(layers.Conv2D(64, (3, 3), activation='relu'))

model.summary()

model.add(layers.Flatten())
model.add(layers.Dense(64, activation='relu'))
model.add(layers.Dense(10))

model.summary()

model.compile(optimizer='adam',
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=['accuracy'])

history = model.fit(train_images, train_labels, epochs=2,  # simdist test: was 10
                    validation_data=(test_images, test_labels))

print(history.history['accuracy'], history.history['val_accuracy'])  # simdist test: was plotted

test_loss, test_acc = model.evaluate(test_images,  test_labels, verbose=2)

print(test_acc)

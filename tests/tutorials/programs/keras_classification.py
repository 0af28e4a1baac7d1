# TF's "Basic classification: Classify images of clothing" tutorial (site/en/tutorials/keras/
# classification.ipynb): its code cells in order, for tests/tutorials. Edits are marked
# "simdist test:": synthetic Fashion-MNIST-shaped data (80 training and 16 test images)
# instead of the download, the initial weights seeded, 3 epochs instead of 10, the plots
# left out (matplotlib: the images, and each prediction's plot_image and plot_value_array;
# what plot_image writes under an image printed instead), and the cells' last expressions,
# which a notebook displays, printed.
import tensorflow as tf

import numpy as np

from tutorial_data import synthetic_fashion  # simdist test: not the download

print(tf.__version__)
tf.keras.utils.set_random_seed(0)  # simdist test: seeded (initial weights, shuffling)

# simdist test: was fashion_mnist = tf.keras.datasets.fashion_mnist; .load_data()
(train_images, train_labels), (test_images, test_labels) = synthetic_fashion()

class_names = ['T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat',
               'Sandal', 'Shirt', 'Sneaker', 'Bag', 'Ankle boot']

print(train_images.shape)  # simdist test: print added

print(len(train_labels))  # simdist test: print added

print(train_labels)  # simdist test: print added

print(test_images.shape)  # simdist test: print added

print(len(test_labels))  # simdist test: print added

train_images = train_images / 255.0

test_images = test_images / 255.0

model = tf.keras.Sequential([
    tf.keras.layers.Flatten(input_shape=(28, 28)),
    tf.keras.layers.Dense(128, activation='relu'),
    tf.keras.layers.Dense(10)
])

model.compile(optimizer='adam',
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=['accuracy'])

model.fit(train_images, train_labels, epochs=3)  # simdist test: was epochs=10

test_loss, test_acc = model.evaluate(test_images,  test_labels, verbose=2)

print('\nTest accuracy:', test_acc)

probability_model = tf.keras.Sequential([model, 
                                         tf.keras.layers.Softmax()])

predictions = probability_model.predict(test_images)

print(predictions[0])  # simdist test: print added

print(np.argmax(predictions[0]))  # simdist test: print added

print(test_labels[0])  # simdist test: print added

def plot_image(i, predictions_array, true_label, img):  # simdist test: its label printed
  true_label, img = true_label[i], img[i]
  predicted_label = np.argmax(predictions_array)
  print("{} {:2.0f}% ({})".format(class_names[predicted_label],
                                  100*np.max(predictions_array),
                                  class_names[true_label]))

for i in (0, 12):  # simdist test: the two single-image plots
  plot_image(i, predictions[i], test_labels, test_images)

num_rows = 5
num_cols = 3
num_images = num_rows*num_cols
for i in range(num_images):
  plot_image(i, predictions[i], test_labels, test_images)

img = test_images[1]

print(img.shape)

img = (np.expand_dims(img,0))

print(img.shape)

predictions_single = probability_model.predict(img)

print(predictions_single)

print(np.argmax(predictions_single[0]))  # simdist test: print added

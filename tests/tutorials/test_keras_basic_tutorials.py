"""TF's basic Keras tutorials run under simdist and print what TF 2.21 printed
(``record_tf_tutorials.py 1 keras_classification``, ``1 keras_regression``, ``1 cnn``,
``1 text_classification``, ``1 text_classification_rnn``, each in a process of its own).

"Basic classification: Classify images of clothing" (programs/keras_classification.py, on
80 synthetic Fashion-MNIST-shaped training images and 16 test images): a seeded Sequential
fit for three epochs with progress bars, evaluated with ``verbose=2``, wrapped with a
Softmax layer for ``predict``, and what its plots would label printed.

"Basic regression: Predict fuel efficiency" (programs/keras_regression.py, on a synthetic
Auto-MPG-shaped NumPy table): Normalization layers adapted on all features and on one
(``input_shape=[1,]``, ``axis=None``: 1-D inputs conformed to the Sequential's (batch, 1)
Input), linear and DNN models fit silently with ``validation_split``, their summaries,
histories, predictions over ``tf.linspace`` and test losses, and the model saved as .keras
(tf-keras 2.21 cannot load it back: left out). The program's ``np.set_printoptions`` is
put back after it (run_program).

"Convolutional Neural Network (CNN)" (programs/cnn.py, on 32 synthetic CIFAR-10-shaped
training images and 8 test images; its ``from tensorflow.keras import datasets, layers,
models`` line as written): a Sequential of Conv2D and MaxPooling2D layers built by ``add``,
summarised before and after its Dense head, fit for two epochs with validation data, and
evaluated.

"Basic text classification" (programs/text_classification.py, on a synthetic IMDB-shaped
folder of 80 training and 32 test reviews): text_dataset_from_directory with a seeded
validation split, a TextVectorization with the tutorial's custom standardization adapted on
the training text, its vectorized review and vocabulary, datasets mapped, cached and
prefetched, an Embedding / Dropout / GlobalAveragePooling1D / Dense model fit for 3 epochs,
evaluated, its history, and the model wrapped with its TextVectorization layer evaluated on
raw strings and predicting three examples.

"Text classification with an RNN" (programs/text_classification_rnn.py, TF Text's tutorial,
on 32 training and 16 test synthetic reviews of 6 pseudo-words shaped like tfds's
imdb_reviews): the element spec, a shuffled batch, TextVectorization adapted on the mapped
text, its vocabulary and round trips, a Sequential of the encoder, Embedding(mask_zero=True),
Bidirectional(LSTM) and Dense layers (``supports_masking`` of each; a prediction that the
padding of a longer text in its batch leaves unchanged), fit with validation_steps,
evaluated and predicting; then the stacked model (Bidirectional LSTM with
``return_sequences`` under another, Dropout) likewise.
"""

from test_tutorials import _replays_traced, cpu_machine  # noqa: F401 - the fixture


def test_keras_classification_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    _replays_traced("keras_classification")


def test_keras_regression_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    _replays_traced("keras_regression")


def test_cnn_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    _replays_traced("cnn")


def test_text_classification_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    _replays_traced("text_classification")


def test_text_classification_rnn_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    _replays_traced("text_classification_rnn")

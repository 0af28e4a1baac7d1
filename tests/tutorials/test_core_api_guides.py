"""TF's guides to its Core APIs (site/en/guide/core) run under simdist and print what TF 2.21
printed (``record_tf_tutorials.py 1 quickstart_core``, ``1 logistic_regression_core``,
``1 mlp_core``, ``1 optimizers_core``, ``1 matrix_core``, each guide in a process of its
own).

"Quickstart for the TensorFlow Core APIs" (programs/quickstart_core.py, on a synthetic
Auto-MPG-shaped table of 160 rows): ``tf.random.shuffle`` with a seed, one-hot origins, a
tf.Module normalizer, a linear model whose tf.function makes its variables at the first
call, 100 epochs of hand-written gradient descent over shuffled batches, and an export
module (an input_signature tf.function calling the model's tf.function: a nested call of a
new trace, for the unknown shape) saved as a SavedModel, loaded and called.

"Logistic regression for binary classification with Core APIs"
(programs/logistic_regression_core.py, on a synthetic breast-cancer-shaped table of 80
rows): a normalizer of tf.Variables, ``tf.linspace`` and sigmoid, a logistic model (not a
tf.function) drawing its weights with op seeds under a global seed, sigmoid cross-entropy,
accuracy by hand, 60 eager epochs, and its export module saved, loaded and called.

"Multilayer perceptrons for digit recognition with Core APIs" (programs/mlp_core.py, on
synthetic MNIST-shaped images, hidden layers of 70 and 50 units): Dense tf.Modules with
Xavier weights drawn by op seeds, built inside the MLP's tf.function at its first call (a
``preds=False`` default the saved trace keeps), a hand-written Adam, three epochs, the
export module of uint8 images saved and loaded, and accuracies per digit from boolean-mask
indexing (``test_classes[y_test == label]``).

"Optimizers with Core APIs" (programs/optimizers_core.py, at most 120 iterations per test):
gradient descent, momentum and Adam tf.Modules minimising a quartic from x = 2 by eager
GradientTape steps; a float32 variable unchanged by a step ends a test, so the iteration
at which each converges (momentum at a learning rate of 0.01: 80) or explodes is TF's only
if every step's float32 value is.
"""

from test_core_guides import _compare_but_version
from test_tutorials import _replays_traced, cpu_machine  # noqa: F401 - the fixture


def test_quickstart_core_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    _compare_but_version("quickstart_core")


def test_logistic_regression_core_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    _replays_traced("logistic_regression_core")   # its version line: dropped by normalize


def test_mlp_core_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    _replays_traced("mlp_core")


def test_optimizers_core_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    _replays_traced("optimizers_core")


def test_matrix_core_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    """"Matrix approximation with Core APIs" (programs/matrix_core.py, a seeded 40x30 matrix
    and a synthetic 96x128 photo): ``tf.linalg.svd`` of a matrix and of a batch of three
    channels, rank-r approximations by ``einsum`` over sliced singular vectors (a tensor
    rank from ``tf.argmin`` too), their sizes and errors, ``tf.map_fn`` of ``tf.cumsum``
    proportions of the singular values, and the Frobenius norm of the residual against the
    singular values left out. Singular vectors' signs may differ from TF's (see
    simdist.framework.ops.linalg_decompositions); everything printed is independent of
    them."""
    cpu_machine(1)
    _replays_traced("matrix_core")

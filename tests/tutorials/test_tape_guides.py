"""TF's guides on gradients and training loops run under simdist and print what TF 2.21 printed
(``record_tf_tutorials.py 1 autodiff basic_training_loops``).

"Introduction to gradients and automatic differentiation" (programs/autodiff.py): tapes on
variables and watched constants, persistent tapes, gradients of dicts and lists of sources
and targets, non-scalar targets (the gradient of the sum), ``tf.linspace`` and the sigmoid's
gradient, Python control flow, a variable as a target, and every "gradient returns None"
case: unconnected, a variable replaced by a tensor, NumPy in between, an integer source
(TF's warning, checked here too), a stateful ``assign_add``, an op without a gradient
(``tf.image.adjust_contrast``: TF's LookupError text) and ``UnconnectedGradients.ZERO``.

"Basic training loops" (programs/basic_training_loops.py): TF's seeded ``tf.random.normal``
noise, a ``tf.Module`` trained by hand, then a ``tf.keras.Model`` whose weights are
``tf.Variable`` attributes trained by the same loop and by ``fit``.

Numbers are equal to 1e-4 (TF's Eigen sigmoid is not NumPy's to the last bit). One text
differs by name only: the class of an eager tensor, ``EagerTensor`` in TF, is simdist's
``Tensor`` (masked here).
"""

import re

from run_program import run
from test_tutorials import _compare, _recorded, _replays_traced, cpu_machine  # noqa: F401

from simdist.testing.log_capture import tf_logs

_EAGER = re.compile(r"^EagerTensor :", re.M)


def test_autodiff_guide_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    with tf_logs() as logs:
        printed = run("autodiff", "simdist")
    _compare(printed, _EAGER.sub("Tensor :", _recorded("autodiff", 1)))
    assert logs.messages == ["The dtype of the watched tensor must be floating (e.g. "
                             "tf.float32), got tf.int32"]


def test_basic_training_loops_guide_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    _replays_traced("basic_training_loops")


def test_effective_tf2_guide_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    """"Effective TensorFlow 2" (programs/effective_tf2.py): a seeded CNN with an L2 penalty,
    dropout and batch norm fit and evaluated, the same model trained by a traced step adding
    ``model.losses``, a Keras model whose ``call`` is a tf.function with an input signature
    stepping an LSTMCell through a ``tf.range`` loop into a TensorArray, metrics updated in
    the traced step and compiled by name ('acc', 'accuracy') and as objects. Its
    tf.functions trace (no eager fallback)."""
    cpu_machine(1)
    _replays_traced("effective_tf2")


def test_advanced_autodiff_guide_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    """"Advanced automatic differentiation" (programs/advanced_autodiff.py): stop_recording,
    reset, stop_gradient, ``tf.custom_gradient`` (the clipped gradient), two tapes at once,
    second derivatives by nested tapes, an input-gradient penalty, jacobians of a scalar and
    of a tensor source, a Hessian by a jacobian of a gradient and a Newton step
    (``tf.linalg.solve`` with ``tf.eye``), ``batch_jacobian`` and ``tf.einsum``'s diagonal.
    Its SavedModel cells are left out: simdist's SavedModel of a tf.Module keeps its traced
    graphs, not a custom gradient's Python gradient function."""
    cpu_machine(1)
    _compare(run("advanced_autodiff", "simdist"), _recorded("advanced_autodiff", 1))

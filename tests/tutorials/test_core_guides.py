"""TF's guides to its core objects run under simdist and print what TF 2.21 printed
(``record_tf_tutorials.py 1 variable``, ``1 intro_to_modules``, ``1 basics``, ``1 tensor``,
``1 checkpoint``, ``1 quickstart_advanced``, ``1 quickstart_beginner``, ``1 tensor_slicing``,
each guide in a process of its own).

"Introduction to Variables" (programs/variable.py): variables of float, bool and complex128
values, viewed as tensors, reshaped, assigned (TF's ValueError for a resizing ``assign``),
copied, compared, and placed with ``tf.device``: 'GPU:0' on a machine without a GPU places
the multiply on the CPU (soft placement, TF's default in eager code).

"Introduction to modules, layers, and models" (programs/intro_to_modules.py): tf.Modules
and their variables and submodules, a module that makes its variables at its first call,
checkpointed (the files, ``list_variables``) and restored into a new module before its
variables exist (restored as they are made), a module whose ``__call__`` is a tf.function
(called with nested Python lists), its graph traced into a TensorBoard log
(``tf.summary.trace_on`` / ``trace_export``, the profiler started), saved as a SavedModel
(its files) and loaded (not the saved class), Keras layers holding ``tf.Variable``s, built
on first call, a MatMul shape error in a layer, a subclassed model registered with
``register_keras_serializable``, a functional model's summary, and a .keras file saved and
loaded. TF's eager MatMul error is compared whole (its kernel's wrapper name,
``{{function_node __wrapped__MatMul_device_...}}`` ... ``name:``); simdist's line after it,
why the shapes do not fit, is left out.

"Introduction to Tensors" (programs/tensor.py): tensors of every rank, NumPy conversion,
arithmetic, reductions, shapes, indexing, reshapes (TF's error for a bad one, whole),
casts, broadcasting, a ragged list refused by tf.constant, then
tf.ragged.constant, string tensors (unicode too), tf.strings.split of a scalar and of a
vector (a RaggedTensor), to_number, bytes_split, tf.io.decode_raw, unicode_split and
unicode_decode, and a SparseTensor with tf.sparse.to_dense.

"Introduction to tensor slicing" (programs/tensor_slicing.py): tf.slice and Python slices,
tf.gather of numbers and strings, tf.gather_nd of rows, elements and matrices, tf.scatter_nd,
a SparseTensor made dense, and tensor_scatter_nd_add, _sub, _min and _max.
"""

import re

from run_program import run
from test_tutorials import _compare, _recorded, _replays_traced, cpu_machine  # noqa: F401

from simdist.testing.log_capture import tf_logs

# TF 2.21's eager op error, whole (its kernel's wrapper named first, ' name: ' after), then
# on a line of its own what simdist adds to say why the shapes do not fit: left out
_EAGER_ERROR = re.compile(r"\{\{function_node __wrapped__\w+_device_[^}]*\}\} .*\[Op:\w+\]")
_ADVICE = re.compile(r"^(.*\[Op:MatMul\] name: )\nThe inner dimensions must agree: .*$", re.M)


def test_variable_guide_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    _compare(run("variable", "simdist"), _recorded("variable", 1))


def test_intro_to_modules_guide_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    got, want = run("intro_to_modules", "simdist"), _recorded("intro_to_modules", 1)
    assert len(_EAGER_ERROR.findall(want)) == 1 and len(_ADVICE.findall(got)) == 1
    _compare(_ADVICE.sub(r"\1", got), want)


def test_basics_guide_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    """"TensorFlow basics" (programs/basics.py): tensors and their ops, a variable assigned,
    a gradient, a tf.function traced once per dtype ('Tracing.' printed twice), a tf.Module
    saved as a SavedModel, loaded and called, a quadratic model trained on seeded noisy data
    from a shuffled dataset, then a Keras Sequential of a Lambda and a Dense (its kernel drawn
    by ``tf.random.normal`` while fit's step traces: an eager op seed, as TF's init_scope)
    fit and saved as .keras. Its tf.functions trace (no eager fallback)."""
    cpu_machine(1)
    _replays_traced("basics")


def test_tensor_guide_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    want = _recorded("tensor", 1)
    assert len(_EAGER_ERROR.findall(want)) == 1
    _compare(run("tensor", "simdist"), want)


def test_tensor_slicing_guide_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    _compare(run("tensor_slicing", "simdist"), _recorded("tensor_slicing", 1))


def test_checkpoint_guide_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    """"Training checkpoints" (programs/checkpoint.py): save_weights, a seeded subclassed
    model trained by hand with Adam while a CheckpointManager keeps the last three of a
    checkpoint of the step, the optimizer, the net and the dataset iterator, then a fresh
    net restored from the latest and trained on (the same losses), the files kept, a
    restore into a hand-made object graph of Checkpoints (a variable set as an attribute
    after the restore gets its value), load_checkpoint's keys, shapes, dtypes and a tensor,
    and lists and dicts set on a Checkpoint (ListWrapper; an item appended after a restore
    gets its value)."""
    cpu_machine(1)
    _compare(run("checkpoint", "simdist"), _recorded("checkpoint", 1))


_VERSION = re.compile(r"^TensorFlow version: .*$", re.M)


def _compare_but_version(name):
    """Program ``name`` prints what TF printed, its tf.functions traced (no eager fallback).
    The version line it prints is TF's own ('2.21.0') and simdist's ('2.15.0+simdist...'):
    compared as the line's label only."""
    with tf_logs(contains="could not trace") as fallbacks:
        got = run(name, "simdist")
    want = _recorded(name, 1)
    assert len(_VERSION.findall(got)) == len(_VERSION.findall(want)) == 1
    _compare(_VERSION.sub("TensorFlow version:", got), _VERSION.sub("TensorFlow version:", want))
    assert fallbacks.messages == []


def test_quickstart_for_experts_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    """"TensorFlow 2 quickstart for experts" (programs/quickstart_advanced.py, on 80
    synthetic MNIST-shaped training images and 16 test images): a seeded subclassed CNN
    trained by a traced step with Adam and metrics, a traced test step, five epochs over a
    shuffled dataset (the last batch partial: a second trace), the metrics reset each epoch."""
    cpu_machine(1)
    _compare_but_version("quickstart_advanced")


def test_quickstart_for_beginners_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    """"TensorFlow 2 quickstart for beginners" (programs/quickstart_beginner.py, the same
    synthetic images): a seeded Sequential of Flatten, Dense, Dropout and Dense called on
    float64 NumPy images, its logits' softmax and loss, compiled with 'adam' and fit for five
    epochs (dropout's masks TF's), evaluated with ``verbose=2``, then wrapped with a
    ``Softmax`` layer in a second Sequential."""
    cpu_machine(1)
    _compare_but_version("quickstart_beginner")

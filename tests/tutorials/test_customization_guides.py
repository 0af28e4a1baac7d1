"""TF's customization tutorials run under simdist and print what TF 2.21 printed
(``record_tf_tutorials.py 1 customization_basics``, ``1 custom_layers``,
``1 custom_training_walkthrough``, each tutorial in a process of its own).

"Customization basics: tensors and operations" (programs/customization_basics.py): ops on
Python numbers and lists, a matmul's shape and dtype, NumPy arrays converted both ways, a
tensor's device on a GPU-less machine, matmuls timed on 'CPU:0' (the milliseconds masked),
a dataset mapped with ``tf.math.square``, shuffled (TF's seeded order) and batched, and a
TextLineDataset of a temporary file batched.

"Custom layers" (programs/custom_layers.py): a Dense called on zeros, its variables, a Layer
subclass with ``add_weight`` built on first call, a ResNet identity block (a Model subclass
named '', which Keras keeps: its summary reads 'Model: ""') of Conv2D and BatchNormalization
layers, its layers and variables, and a Sequential of the same layers, summarised. The
layers' reprs name their classes' modules, tf_keras's or simdist's: compared without them.

"Custom training: walkthrough" (programs/custom_training_walkthrough.py, on synthetic
penguins-shaped data: 32 training and 12 test examples): a seeded Sequential of three Dense
layers, its logits, softmax and argmax, a loss and its gradients, one SGD step
(``optimizer.iterations`` 0, then 1), 51 eager epochs with a Mean and a
SparseCategoricalAccuracy made anew each epoch, a test Accuracy over batches of 10 (the last
one partial), ``tf.stack`` of labels and predictions, and the three predictions' class names
and probabilities.
"""

import re

from run_program import run
from test_core_guides import _compare_but_version
from test_tutorials import _compare, _recorded, cpu_machine  # noqa: F401 - the fixture

_MODULE = re.compile(r"<[\w.]+\.(\w+) object at ")
_TIMED = re.compile(r"^10 loops: \d+\.\d\dms$", re.M)


def test_customization_basics_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    got, want = run("customization_basics", "simdist"), _recorded("customization_basics", 1)
    assert len(_TIMED.findall(got)) == len(_TIMED.findall(want)) == 1
    _compare(_TIMED.sub("10 loops: ms", got), _TIMED.sub("10 loops: ms", want))


def test_custom_layers_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    got, want = run("custom_layers", "simdist"), _recorded("custom_layers", 1)
    assert len(_MODULE.findall(want)) == 6
    _compare(_MODULE.sub(r"<\1 object at ", got), _MODULE.sub(r"<\1 object at ", want))


def test_custom_training_walkthrough_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    _compare_but_version("custom_training_walkthrough")

"""TF's "Distributed training with Keras", "Custom training with tf.distribute.Strategy",
"Save and load a model using a distribution strategy", "Distributed input" tutorials and the
"Distributed training with TensorFlow" guide (programs/distributed_training.py: every
strategy's constructor as its cells make them, a CPU-only machine's GPU-device Mirrored
strategy included; fit, evaluate and a custom loop under MirroredStrategy) run
under simdist and print what TF 2.21 printed (record_tf_tutorials.py), on one replica and on
four (the input tutorial makes its own two); and TF's "Parameter server training" tutorial
on its in-process cluster (recorded by
``record_tf_tutorials.py 1 parameter_server_training``).

The programs (programs/*.py) are the tutorials' code cells with marked edits: synthetic
MNIST-shaped data instead of the downloads, smaller sizes, a one-element shuffle buffer and
fixed initial weights (kept from when simdist drew other random numbers than TF), the
TensorBoard callback left out (TF 2.21 without the tensorboard package stops fit; see
tests/keras/test_tensorboard.py) and the legacy .h5 checkpoint name (tf-keras 2.21 cannot load
its own .weights.h5 into a MirroredStrategy model). Both frameworks run them as a CPU-only
machine with 1 or 4 logical CPUs, so MirroredStrategy() has the same replicas. Printed lines
must match with timings masked and numbers equal to 1e-4 (the replicas' sums are added in
another order).
"""

import json
import os
import re

import pytest
from printed_text import compare as _compare
from run_program import HERE, normalize, run

import simdist as tf
from simdist.hardware import machine
from simdist.testing.log_capture import tf_logs


def _recorded(name, cpus):
    with open(os.path.join(HERE, "fixtures", f"{name}@{cpus}cpu.json")) as f:
        return json.load(f)["stdout"]


@pytest.fixture
def cpu_machine():
    """A GPU-less machine, as the recording's; the default one is put back after."""
    def make(cpus):
        machine.set_machine("gpus=0")
        if cpus > 1:
            tf.config.set_logical_device_configuration(
                tf.config.list_physical_devices("CPU")[0],
                [tf.config.LogicalDeviceConfiguration()] * cpus)
    yield make
    tf.keras.backend.clear_session()
    machine.set_machine(None)


def _replays_traced(name, cpus=1):
    """Program ``name`` under simdist prints what TF printed, no tf.function falling back to
    running eagerly."""
    with tf_logs(contains="could not trace") as fallbacks:
        printed = run(name, "simdist")
    _compare(printed, _recorded(name, cpus))
    assert fallbacks.messages == []


# Their tf.functions iterate distributed datasets and iterators (custom_training's
# distributed_train_epoch, distributed_input's train_fn), or are Keras's step functions
# (fit / evaluate / predict in distributed_keras, save_and_load, mixed_precision,
# customizing_fit; distributed_training's fit and its distributed_train_step;
# training_loop_from_scratch's train and test steps): each must trace into a graph.
_TRACED = {"custom_training", "distributed_input", "distributed_keras", "save_and_load",
           "mixed_precision", "customizing_fit", "customizing_fit_keras_io",
           "distributed_training",
           "training_loop_from_scratch", "custom_layers_and_models"}


def _run(name):
    """What the program printed; for _TRACED, asserting no tf.function fell back to eager."""
    with tf_logs(contains="could not trace") as fallbacks:
        out = run(name, "simdist")
    assert not (name in _TRACED and fallbacks.messages), fallbacks.messages
    return out


@pytest.mark.parametrize("cpus", [1, 4])
@pytest.mark.parametrize("name", ["distributed_keras", "custom_training", "save_and_load",
                                  "distributed_training"])
def test_tutorial_prints_what_tensorflow_printed(name, cpus, cpu_machine):
    cpu_machine(cpus)
    _compare(_run(name), _recorded(name, cpus))


def test_distributed_input_tutorial_prints_what_tensorflow_printed(cpu_machine):
    """"Distributed input" splits its one CPU into two logical devices itself."""
    cpu_machine(1)
    _compare(_run("distributed_input"), _recorded("distributed_input", 1))


def test_mixed_precision_guide_prints_what_tensorflow_printed(cpu_machine):
    """TF's "Mixed precision" guide (programs/mixed_precision.py) on a GPU-less machine: the
    policy's dtypes, the layers' output dtypes, fit and evaluate under mixed_float16, float16
    overflow and underflow, and the custom loop with LossScaleOptimizer's scaled loss and
    unscaled gradients, to the dynamic loss scale reached. Equal to 1e-4, as the float32
    tutorials: the bias gradients are TF's BiasAddGrad (summed in float32, bit-equal to TF's),
    the float16 matmuls sum their float32 products in k order as TF's kernel does (bit-equal
    for the gradients' k = 16 and the 64-long products; half_matmul.py), and what is left is
    TF's oneDNN kernel summing the 784-long products in blocks (one float16 ulp on about 0.3%
    of them: the losses differ by up to 7e-5). With NumPy's float32 BLAS instead, the result
    depended on the CPU's BLAS kernel (val_loss 2.3044 on an AVX2 CPU). TF's warning that no
    compatible GPU was found goes to stderr, not compared here
    (test_device_compatibility_check.py)."""
    cpu_machine(1)
    try:
        _compare(_run("mixed_precision"), _recorded("mixed_precision", 1))
    finally:
        tf.keras.mixed_precision.set_global_policy("float32")


_DECIMAL = re.compile(r"-?\d+\.\d+")


def test_parameter_server_tutorial_runs_as_written(cpu_machine):
    """TF's parameter-server tutorial (programs/parameter_server_training.py: 3 workers and
    2 ps in process, Keras fit with steps_per_execution and checkpoint callbacks, then the
    custom loop with a sharded embedding) prints the lines TF 2.21 printed. Its data and
    initial weights are random and its workers asynchronous, in TF as here, so decimals are
    masked; the ps devices of the embedding's shards, the epochs and step counts are not.
    Its tf.functions trace (the scheduled steps, fit's train function, the per-worker
    dataset functions): no eager fallback."""
    cpu_machine(1)
    with tf_logs(contains="could not trace") as fallbacks:
        got = normalize(run("parameter_server_training", "simdist"))
    assert fallbacks.messages == [], fallbacks.messages
    want = normalize(_recorded("parameter_server_training", 1))
    assert [_DECIMAL.sub("#", g) for g in got] == [_DECIMAL.sub("#", w) for w in want]
    for line in got:
        if "accuracy" in line:
            assert 0.0 <= float(_DECIMAL.findall(line)[-1]) <= 1.0
    assert any(line.startswith("/job:ps/replica:0/task:1/") for line in got)

"""TF's Keras guides on custom training (and the Sequential model, functional API and
subclassing guides) run under simdist and print what TF 2.21 printed
(``record_tf_tutorials.py 1 customizing_fit customizing_fit_keras_io
training_loop_from_scratch``, ``1 sequential_model``, ``1 functional_api``,
``1 custom_layers_and_models``).

"Customizing what happens in fit()" (programs/customizing_fit.py, the tf.keras version):
subclasses of ``keras.Model`` made with ``CustomModel(inputs, outputs)`` (a functional model
keeping the subclass's ``train_step`` / ``test_step``) fitting with ``compiled_loss`` /
``compiled_metrics``, with their own metrics listed in a ``metrics`` property, with
``sample_weight``, evaluating with a custom ``test_step``; and the GAN: LeakyReLU,
Conv2DTranspose, a ``compile`` override with two optimizers, random noise drawn inside the
traced step, and a shuffled dataset whose order is TF's (Keras makes one iterator before its
epochs, so the first epoch reads the shuffle's second order). Every number is compared to
1e-4, from seeded data and weights (``tf.keras.utils.set_random_seed(0)``); the step
functions trace (no eager fallback).

The keras-io version of the same guide (programs/customizing_fit_keras_io.py, its last
tf.keras 2 text): ``self.compute_loss(y=..., y_pred=...)`` and loops over ``self.metrics``
(whose compiled ``mae`` TF never builds there, so it prints none), and a GAN whose
``keras.metrics.Mean`` trackers, kept as attributes, are in ``Model.metrics`` (reset at each
epoch, and the epoch's logs).

"Writing a training loop from scratch" (programs/training_loop_from_scratch.py, the tf.keras
version): the eager loop with GradientTape and an optimizer, metrics updated and reset by
hand, the same loop with ``@tf.function`` train and test steps, a layer's ``add_loss`` and
the GAN trained by its own traced step; losses, accuracies and the discriminator's summary
to 1e-4.

"The Sequential model" (programs/sequential_model.py, the keras-io text at 0a57de48): models
called on ones, layers listed, ``add`` / ``pop``, a Dense's weights before and after its
first call, summaries of a model built by a call, from ``keras.Input`` and from
``input_shape``, and the add() + summary() workflow of Conv2D / MaxPooling2D layers on
250x250 images, and feature extractors: a ``keras.Model`` from a Sequential's ``inputs``
to its layers' ``output`` (all of them, and one found by ``get_layer``) called on ones.

"The Functional API" (programs/functional_api.py, the keras-io tf.keras text at 14a2af7e):
``Input`` shape and dtype, ``plot_model`` (ImportError: no pydot / graphviz, as in TF's
recording), fit / evaluate / save / load_model of the MNIST-shaped model, the encoder /
decoder / autoencoder summaries (Conv2DTranspose, UpSampling2D) and nested models, an
ensemble by ``layers.average``, the multi-input, multi-output ticket model fit by output
name, the toy ResNet (``layers.add``, ``to_categorical``), a shared Embedding, feature
extraction from every layer's ``output``, ``get_config`` / ``from_config`` of a custom layer
whose config has no name, and custom RNN layers (Conv1D, a static batch). TF logs no
retracing warning while it runs, nor may simdist.
"""

import re

from test_tutorials import (  # noqa: F401 - the fixture
    _compare,
    _recorded,
    _replays_traced,
    _run,
    cpu_machine,
)

from simdist.testing.log_capture import tf_logs

_MODULE = re.compile(r"<[\w.]+\.(\w+) object at ")


def test_customizing_fit_guide_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    _compare(_run("customizing_fit"), _recorded("customizing_fit", 1))


def test_training_loop_from_scratch_guide_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    _compare(_run("training_loop_from_scratch"), _recorded("training_loop_from_scratch", 1))


def test_keras_io_customizing_fit_guide_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    """The keras-io tf.keras 2 version of the guide: ``self.compute_loss(...)`` and a loop over
    ``self.metrics``. TF prints no ``mae``: the compiled metrics are built only by
    ``compiled_metrics.update_state``, which this step never calls, and an unbuilt container
    lists no metrics."""
    cpu_machine(1)
    _compare(_run("customizing_fit_keras_io"), _recorded("customizing_fit_keras_io", 1))


def test_sequential_model_guide_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    _replays_traced("sequential_model")


def test_functional_api_guide_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    """TF 2.21 logs no retracing warning while the program runs (its recording's stderr):
    tf-keras's train, test and predict functions are three code objects, each with its
    own count of traces."""
    cpu_machine(1)
    with tf_logs(contains="retracing") as retraced:
        _replays_traced("functional_api")
    assert retraced.messages == []


def test_subclassing_guide_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    """"Making new Layers and Models via subclassing" (programs/custom_layers_and_models.py):
    ``tf.random_normal_initializer()`` / ``tf.zeros_initializer()`` drawing TF's numbers,
    ``add_weight``, a non-trainable weight, nested layers, ``add_loss`` (a layer's activity
    loss, a Dense's kernel penalty in ``losses`` as TF's repr shows a scalar), a compiled
    model without a loss, ``add_metric`` in a layer fit on a dict of inputs,
    ``get_config`` / ``from_config``, a ``training`` argument, and the VAE: subclassed (the
    eager loop and fit, ``tf.keras.backend.random_normal``) and functional, whose
    ``vae.add_loss(kl_loss)`` of KerasTensors adds the KL term to every step's loss. A
    metric's repr names its class's module, tf_keras's or simdist's: compared without it.
    Five models' train functions, each traced once, log TF's retracing warning (TF 2.21 logged
    the same line while recording)."""
    cpu_machine(1)
    with tf_logs(contains="retracing") as retraced:
        got = _run("custom_layers_and_models")
    want = _recorded("custom_layers_and_models", 1)
    assert [m[:88] for m in retraced.messages] == [
        "5 out of the last 6 calls to <function Model.make_train_function.<locals>.train_function"]
    assert len(_MODULE.findall(want)) == 1
    _compare(_MODULE.sub(r"<\1 object at ", got), _MODULE.sub(r"<\1 object at ", want))

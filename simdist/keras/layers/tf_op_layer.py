"""Op layers: a TF op or operator applied to KerasTensors becomes a layer of the functional
model (``tf.reduce_mean(x, axis=1)``, ``x + 1``, ``x[:, 0]`` on ``tf.keras.Input``).

Glossary:
  TFOpLambda       -- wraps one public op; named 'tf.' + the op's TF name
                      ('tf.math.reduce_mean', 'tf.__operators__.add', 'tf.reshape'), made
                      unique with '_1', '_2' ...; no weights, no autocast, never given
                      ``training``. Its config names the op ('function': 'math.reduce_mean')
                      and ``from_config`` finds it again in simdist's namespace.
  SlicingOpLambda  -- the same for ``x[...]``: the slices of the call are kept as dicts
                      ``{start, stop, step}`` (a model's config can hold them) and made
                      slices again when it runs.
  KerasOpDispatcher -- registered with framework/dispatch.py: any public op that fails on a
                      KerasTensor argument becomes a TFOpLambda called on the arguments.
  variables        -- a variable given to the op (``x * tf.Variable(2.0)``) is not the
                      layer's weight: TF's warning, once per layer, on the "tensorflow" logger.
  operators        -- ``+ - * / // % ** @ < <= > >= == != - abs ~ & | []`` on a KerasTensor
                      make the layer TF makes (api_names.OPERATORS, recorded from TF).
  output shape     -- the op run on zeros twice, with each unknown dimension 1 and then 2
                      (node.outputs_from_two_sizes): a dimension that follows them is
                      unknown (None), as TF's symbolic shape; one that does not (a reduced
                      batch axis) keeps its size.

Mirrors tf_keras/src/layers/core/tf_op_layer.py and engine/keras_tensor.py (operators).
"""

from __future__ import annotations

import inspect

from simdist.framework import api_names, dispatch, nest
from simdist.framework.variables import Variable
from simdist.keras import backend
from simdist.keras.engine import node
from simdist.keras.engine.base_layer import Layer
from simdist.keras.engine.keras_tensor import KerasTensor


def get_symbol_from_name(symbol):
    """simdist's public function of TF name ``symbol`` ('math.reduce_mean'), or None."""
    import simdist

    for path in [symbol] + [p for p, name in api_names.DISPATCHED.items() if name == symbol]:
        obj = simdist
        for part in path.split("."):
            obj = getattr(obj, part, None)
        if obj is not None:
            return obj
    return None


class TFOpLambda(Layer):
    """One TF op applied to KerasTensors, as a layer of the functional model."""

    _expects_training_arg = False

    def __init__(self, function, symbol=None, **kwargs):
        self.function = function
        self.symbol = symbol or dispatch.api_name(function)
        if "name" not in kwargs:
            kwargs["name"] = backend.unique_object_name(
                "tf." + self.symbol if self.symbol else function.__name__)
        kwargs["autocast"] = False
        super().__init__(**kwargs)
        self._already_warned = False

    def __call__(self, *args, **kwargs):
        kwargs.pop("training", None)
        if not args:  # the op's first argument given by keyword
            first = next(iter(inspect.signature(self.function).parameters))
            args = (kwargs.pop(first),)
        return super().__call__(*args, **kwargs)

    def call(self, *args, **kwargs):
        self._check_variables(args, kwargs)
        return self.function(*args, **_unnamed(kwargs))

    def _infer_outputs(self, args, kwargs):
        """The op's KerasTensor outputs for symbolic ``args`` (see the glossary)."""
        self._check_variables(args, kwargs)
        return node.outputs_from_two_sizes(self, self.function, args, _unnamed(kwargs))

    def _check_variables(self, args, kwargs) -> None:
        """Warn once, as TF, that variables the op reads are not the layer's: saving the
        model will not save them (``x * tf.Variable(2.0)``)."""
        if self._already_warned:
            return
        used = [v for v in nest.flatten([list(args), kwargs]) if isinstance(v, Variable)]
        if used:
            listed = "\n".join(f"  <tf.Variable '{v.name}' shape={v.shape} "
                                f"dtype={v.dtype.name}>" for v in used)
            import logging  # loaded by a first warning, not by Keras

            logging.getLogger("tensorflow").warning(
                f"The following Variables were used in a Lambda layer's call ({self.name}), "
                f"but are not present in its tracked objects: {listed}. This is a strong "
                "indication that the Lambda layer should be rewritten as a subclassed Layer.")
            self._already_warned = True

    def get_config(self) -> dict:
        """The op by its TF name ('function': 'math.reduce_mean').

        Raises:
          ValueError: the op is not a public TF function (TF's message).
        """
        if not self.symbol:
            raise ValueError(
                f"This TF-Keras op layer was generated from {self.function}, a method that is "
                "not publicly exposed in the TensorFlow API. This may have happened if the "
                "method was explicitly decorated to add dispatching support, and it was used "
                "during Functional model construction. To ensure cross-version compatibility "
                "of TF-Keras models that use op layers, only op layers produced from public "
                "TensorFlow API symbols can be serialized.")
        return {**super().get_config(), "function": self.symbol}

    @classmethod
    def from_config(cls, config):
        """Raises: ValueError: no public function has that TF name."""
        config = dict(config)
        symbol = config.pop("function")
        function = get_symbol_from_name(symbol)
        if function is None:
            raise ValueError(f"TF symbol `{symbol}` could not be found.")
        return cls(function, symbol=symbol, **config)


class SlicingOpLambda(TFOpLambda):
    """``x[...]`` on a KerasTensor: slices kept as dicts in the node, slices when it runs."""

    def call(self, *args, **kwargs):
        return self.function(*_slices(args), **_slices(_unnamed(kwargs)))

    def _infer_outputs(self, args, kwargs):
        return super()._infer_outputs(_slices(args), _slices(kwargs))


def _unnamed(kwargs) -> dict:
    """The op's keyword arguments without ``name``: the node keeps it, the call drops it (a
    reused layer would repeat the op's name), as tf-keras's ``_call_wrapper``."""
    return {k: v for k, v in kwargs.items() if k != "name"}


def _slices(arguments):
    """The arguments (a list, or a dict of keyword arguments) with slice dicts turned back
    into slices, in a list or tuple of them too (a saved keyword ``slice_spec`` is a list:
    a tuple here, as the index it was)."""
    def convert(a, kind=None):
        if isinstance(a, (list, tuple)):
            return (kind or type(a))(_dict_to_slice(s) for s in a)
        return _dict_to_slice(a)
    if isinstance(arguments, dict):
        return {k: convert(v, tuple) for k, v in arguments.items()}
    return [convert(a) for a in arguments]


def _slice_to_dict(x):
    if isinstance(x, slice):
        return {"start": x.start, "stop": x.stop, "step": x.step}
    if isinstance(x, tuple):
        return tuple(_slice_to_dict(s) for s in x)
    return x


def _dict_to_slice(x):
    if isinstance(x, dict) and set(x) == {"start", "stop", "step"}:
        return slice(x["start"], x["stop"], x["step"])
    return x


def _has_keras_tensor(args, kwargs) -> bool:
    return any(isinstance(x, KerasTensor) for x in nest.flatten([list(args), kwargs]))


class KerasOpDispatcher(dispatch.GlobalOpDispatcher):
    """Makes a public op called on KerasTensors a TFOpLambda layer of the model."""

    def handle(self, op, args, kwargs):
        if not _has_keras_tensor(args, kwargs):
            return self.NOT_SUPPORTED
        if dispatch.api_name(op) == "__operators__.getitem":
            return SlicingOpLambda(op)(*_slice_to_dict(tuple(args)), **kwargs)
        return TFOpLambda(op)(*args, **kwargs)


KerasOpDispatcher().register()


_UNNAMED_OPERATORS = ("__operators__.eq", "__operators__.ne", "__operators__.getitem")


def _operator(dunder, symbol):
    function = get_symbol_from_name(symbol)
    reflected = dunder.startswith("__r") and dunder not in ("__rshift__",)
    unary = dunder in ("__neg__", "__abs__", "__invert__")
    layer_cls = SlicingOpLambda if symbol == "__operators__.getitem" else TFOpLambda

    def op(self, *other):
        if unary:
            args = (self,)
        elif reflected:
            args = (other[0], self)
        else:
            args = (self, _slice_to_dict(other[0]) if layer_cls is SlicingOpLambda
                    else other[0])
        return layer_cls(function, symbol=symbol)(*args, **named)

    # TF's operator wrappers pass ``name=None`` on (binary_op_wrapper ...): the node keeps it;
    # ==, != and [] call their function without it
    named = {} if symbol in _UNNAMED_OPERATORS else {"name": None}
    op.__name__ = dunder
    return op


for _dunder, _symbol in api_names.OPERATORS.items():
    setattr(KerasTensor, _dunder, _operator(_dunder, _symbol))
KerasTensor.__hash__ = object.__hash__  # __eq__ makes a layer; a KerasTensor stays hashable

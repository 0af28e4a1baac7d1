"""``tf.keras.layers.Lambda``: a layer that calls a Python function on its inputs.

Glossary:
  function      -- called as ``function(inputs, **arguments)``, with ``mask`` / ``training``
                   too when its signature names them.
  output_shape  -- None (found by calling the layer, as any layer's), a tuple (the shape
                   after the batch dimension) or a function of the input shape.
  config        -- a Python function (a ``lambda`` or a ``def``) is saved as its
                   marshalled, base64 bytecode (Keras's func_dump, function_type 'lambda'),
                   another callable by its name ('function'); loading a lambda from a
                   .keras file is refused in safe mode (Keras's ValueError), allowed with
                   ``safe_mode=False``.

Mirrors tf_keras/src/layers/core/lambda_layer.py.
"""

from __future__ import annotations

import codecs
import inspect
import marshal
import sys
import types

from simdist.keras.engine.base_layer import Layer


class Lambda(Layer):
    """Wraps a Python function as a layer."""

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        if not callable(function):
            raise TypeError(f"Lambda expects a callable function, got {function!r}.")
        self.arguments = arguments or {}
        self.function = function
        if mask is not None:
            self.supports_masking = True
        self.mask = mask
        self._output_shape = output_shape
        try:
            params = inspect.signature(function).parameters
        except (TypeError, ValueError):
            params = {}
        self._fn_expects_training_arg = "training" in params
        self._fn_expects_mask_arg = "mask" in params

    def call(self, inputs, mask=None, training=None):
        kwargs = dict(self.arguments)
        if self._fn_expects_mask_arg:
            kwargs["mask"] = mask
        if self._fn_expects_training_arg:
            kwargs["training"] = training
        return self.function(inputs, **kwargs)

    def compute_output_shape(self, input_shape):
        if self._output_shape is None:
            try:
                return super().compute_output_shape(input_shape)
            except NotImplementedError:
                raise NotImplementedError("We could not automatically infer the shape of the "
                                          "Lambda's output. Please specify `output_shape` for "
                                          "this Lambda.") from None
        if callable(self._output_shape):
            return self._output_shape(input_shape)
        batch = tuple(input_shape)[0] if input_shape else None
        return (batch,) + tuple(self._output_shape)

    def compute_mask(self, inputs, mask=None):
        if callable(self.mask):
            return self.mask(inputs, mask)
        return self.mask

    def get_config(self):
        config = {}
        for key, value, raw in (("function", self.function, False),
                                ("output_shape", self._output_shape, True)):
            out, kind, module = _serialize_function(value, raw)
            config.update({key: out, f"{key}_type": kind,
                           "module" if key == "function" else f"{key}_module": module})
        if self.mask is not None:
            out, kind, module = _serialize_function(self.mask, False)
            config.update(mask=out, mask_type=kind, mask_module=module)
        config["arguments"] = self.arguments
        return {**super().get_config(), **config}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        config["function"] = _parse(config, custom_objects, "function", "module",
                                    "function_type")
        config["output_shape"] = _parse(config, custom_objects, "output_shape",
                                        "output_shape_module", "output_shape_type")
        config["mask"] = (_parse(config, custom_objects, "mask", "mask_module", "mask_type")
                          if "mask" in config else None)
        return cls(**config)


def _serialize_function(value, allow_raw):
    """(config value, 'lambda' | 'function' | 'raw', module) as Keras saves a function.

    Raises:
      ValueError: neither callable nor (where allowed) a raw value.
    """
    if isinstance(value, types.LambdaType):   # any Python function, as in Keras
        code = codecs.encode(marshal.dumps(value.__code__), "base64").decode("ascii")
        closure = tuple(c.cell_contents for c in value.__closure__) if value.__closure__ \
            else None
        return (code, value.__defaults__, closure), "lambda", value.__module__
    if callable(value):
        return value.__name__, "function", value.__module__
    if allow_raw:
        return value, "raw", None
    raise ValueError(f"Invalid input for serialization, type: {type(value)} ")


def _parse(config, custom_objects, key, module_key, type_key):
    """A function back from its config entries (they are removed from ``config``).

    Raises:
      ValueError: a lambda in safe mode (Keras's text).
      TypeError: an unknown function type.
    """
    # here: simdist.keras.saving imports the layers' table (layers/serialization.py)
    import numpy as np

    import simdist
    from simdist.keras.saving import object_registration

    # A loaded function's globals: tf and np (what tf-keras's lambda_layer module holds),
    # then its module's names if that module is loaded, then custom_objects.
    module = config.pop(module_key, None)
    globs = {"tf": simdist, "np": np}
    globs.update(sys.modules[module].__dict__ if module in sys.modules else {})
    globs.update(custom_objects or {})
    kind = config.pop(type_key)
    value = config[key]
    if kind == "function":
        found = object_registration.get_registered_object(value, custom_objects, globs)
        if found is None:
            raise ValueError(f"Unknown function in Lambda layer: '{value}'. Please ensure you "
                             "are using a `keras.utils.custom_object_scope` and that this "
                             "object is included in the scope.")
        return found
    if kind == "lambda":
        if object_registration.in_safe_mode():
            raise ValueError(
                "Requested the deserialization of a Lambda layer with a Python `lambda` "
                "inside it. This carries a potential risk of arbitrary code execution and "
                "thus it is disallowed by default. If you trust the source of the saved "
                "model, you can pass `safe_mode=False` to the loading function in order to "
                "allow Lambda layer loading.")
        code, defaults, closure = value
        raw = codecs.decode(code.encode("ascii"), "base64")
        cells = tuple(types.CellType(c) for c in closure) if closure else None
        return types.FunctionType(marshal.loads(raw), globs, None,
                                  tuple(defaults) if defaults else None, cells)
    if kind == "raw":
        return value
    raise TypeError(f"Unsupported value for `function_type` argument. Received: "
                    f"function_type={kind}. Expected one of ['function', 'lambda', 'raw']")

"""``Layer``: weights, build-on-first-call, dtype policy and sub-layer tracking.

Glossary:
  add_weight   -- create a (possibly distributed) variable named ``<scopes>/<name>``;
                  under a strategy's scope it becomes a MirroredVariable (or SyncOnRead for
                  ``synchronization=ON_READ``), because ``tf.Variable`` goes through the
                  strategy's variable creator.
  name scope   -- ``__call__`` opens one named after the layer around its build and call
                  (Keras's eager call scope), so a called Dense's weights are 'dense/kernel'
                  and a sub-layer's 'block/dense/kernel'; ``layer.build(shape)`` called
                  directly opens none ('kernel'). ``init_scope`` leaves them all, as a
                  Sequential's graph building does.
  build        -- create weights from the first input's shape; ``__call__`` calls it once.
  autocast     -- floating inputs are cast to a floating compute dtype (float16 under
                  'mixed_float16'); weights stay in the variable dtype and are cast on use.
                  ``autocast=False`` (op layers) leaves the inputs as they come.
  input_spec   -- the rank and axis sizes ``__call__`` checks before ``call`` (Keras's
                  ValueError naming the layer), see input_spec.py.
  training     -- passed to ``call`` when it accepts it; an inner layer inherits the value
                  its outer layer was called with.
  tracking     -- layers assigned as attributes (or in lists/dicts) are sub-layers; their
                  weights are this layer's weights. A Layer is a ``tf.Module``, so a module
                  holding layers finds their variables.
  input_shape / output_shape -- the shapes of the layer's place in a Sequential's or a
                  functional model's graph (Keras's inbound node); a layer only ever called
                  eagerly has none, a shared layer whose calls differ has no single one.
  symbolic call -- called on KerasTensors (``tf.keras.Input``), a layer builds and records
                  a node instead of computing (node.py).

Mirrors keras/src/engine/base_layer.py.
"""

from __future__ import annotations

import contextlib
import inspect
import weakref

from simdist import warnings as teach
from simdist.distribute import distribution_strategy_context as ds_context
from simdist.framework import dtypes, execute, func_graph, module, nest, trackable
from simdist.framework import name_scope as name_scope_lib
from simdist.framework import variables as variables_lib
from simdist.framework.name_scope import name_scope
from simdist.framework.name_scope import outside_name_scopes as init_scope  # noqa: F401
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.framework.tensor import Tensor
from simdist.framework.thread_local import ThreadLocalStack
from simdist.keras import backend, initializers, regularizers
from simdist.keras.engine import input_spec, layer_metrics, scratch_graph
from simdist.keras.engine import node as node_module
from simdist.keras.engine.keras_tensor import KerasTensor
from simdist.keras.utils import tf_utils, traceback_utils

_training = ThreadLocalStack()


def _training_stack() -> list:
    return _training.items


# function -> {(argument name, var_keyword): whether it takes it}; a layer asks at every
# call.
_ACCEPTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _accepts(fn, arg, var_keyword=True) -> bool:
    """Whether ``fn`` takes a keyword ``arg`` (named, or through ``**kwargs`` unless
    ``var_keyword`` is False: TF's generic_utils.has_arg); remembered per function (a bound
    method's function: binding drops ``self`` only)."""
    key = getattr(fn, "__func__", fn)
    try:
        known = _ACCEPTS.get(key)
    except TypeError:  # not weakly referable: asked every time
        return _signature_accepts(fn, arg, var_keyword)
    if known is None:
        known = _ACCEPTS[key] = {}
    found = known.get((arg, var_keyword))
    if found is None:
        found = known[(arg, var_keyword)] = _signature_accepts(fn, arg, var_keyword)
    return found


def _signature_accepts(fn, arg, var_keyword=True) -> bool:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    return arg in params or var_keyword and any(p.kind is p.VAR_KEYWORD
                                                for p in params.values())


class Layer(module.Module):
    """Base class of every layer (``tf.keras.layers.Layer``), a ``tf.Module`` as in TF."""

    # The weights by name are a checkpoint's view; flatten finds them in creation order.
    _TF_MODULE_IGNORED_PROPERTIES = frozenset({"_named_weights"})
    # ``_layers`` is tf-keras's ``_self_tracked_trackables``: it sorts after ``_metrics``, so a
    # model's submodules list its attribute metrics before its layers, as tf-keras does.
    _TF_MODULE_SORT_NAMES = {"_layers": "_self_tracked_trackables"}
    _SUPPORTS_MASKING = False  # True: the output's mask is the input's (tf-keras's layers
    # that set supports_masking = True: Dense, Activation, Dropout, normalizations ...)
    _expects_training_arg = True  # passed ``training`` when ``call`` takes it (not op layers)

    def __init__(self, trainable=True, name=None, dtype=None, dynamic=False, **kwargs):
        from simdist.keras.mixed_precision import policy as policy_lib

        object.__setattr__(self, "_layers", [])
        self._trainable_weights = []
        self._non_trainable_weights = []
        self._named_weights = {}  # add_weight's name -> weight: the checkpoint's names
        self._trainable = bool(trainable)
        self._dynamic = bool(dynamic)
        self.built = False
        if name is None:
            name = backend.unique_name(tf_utils.snake_case(type(self).__name__))
        elif not isinstance(name, str):  # an empty name is kept, as Keras's _init_set_name
            raise TypeError(f"Expected `name` argument to be a string, but got: {name}")
        self._name = name
        backend.observe_name(self._name)
        self._dtype_policy = policy_lib.get_policy(dtype)
        self._losses = []
        self._build_input_shape = None
        self._node_shapes = None  # (input shape, output shape) in a model's graph
        self._inbound_nodes = []  # this layer's calls on KerasTensors (functional API)
        # tf-keras: a layer that overrides compute_mask supports masking; those that set
        # supports_masking in their constructor say so here
        self.supports_masking = type(self)._SUPPORTS_MASKING or \
            type(self).compute_mask is not Layer.compute_mask
        self.input_spec = None
        self.activity_regularizer = regularizers.get(kwargs.pop("activity_regularizer", None))
        input_shape = kwargs.pop("input_shape", None)
        batch_input_shape = kwargs.pop("batch_input_shape", None)
        input_dim = kwargs.pop("input_dim", None)
        self._autocast = kwargs.pop("autocast", True)
        kwargs.pop("input_length", None)
        if kwargs:
            # Keras's two-argument TypeError: ('Keyword argument not understood:', 'foo').
            raise TypeError("Keyword argument not understood:", next(iter(kwargs)))
        if input_dim is not None and input_shape is None:
            input_shape = (input_dim,)
        if input_shape is not None:
            batch_input_shape = (None,) + tuple(input_shape)
        self._batch_input_shape = (tuple(batch_input_shape)
                                   if batch_input_shape is not None else None)

    # --- attribute tracking -------------------------------------------------------------
    def __setattr__(self, name, value):
        # Private attributes hold sub-layers and variables too (``self._dense = Dense(...)``),
        # as Keras tracks them; the layer's own bookkeeping does not.
        if name not in _BOOKKEEPING:
            container = isinstance(value, (list, tuple, dict))
            if container and any(isinstance(v, variables_lib.Variable)
                                 for v in nest.flatten(value)):
                # tf-keras wraps it in a tracked data structure, whose variables a model
                # lists before its own
                self.__dict__.setdefault("_tracked", []).append(TrackedContainer(value))
            for item in nest.flatten(value) if container else [value]:
                if isinstance(item, Layer) and item is not self and all(
                        item is not lay for lay in self.__dict__.get("_layers", [])):
                    self.__dict__.setdefault("_layers", []).append(item)
                    self.__dict__.setdefault("_tracked", []).append(item)
                elif getattr(type(item), "_is_keras_metric", False) and all(
                        item is not m for m in self.__dict__.get("_metrics", [])):
                    # a Metric kept as an attribute: Keras lists it in Model.metrics, and
                    # a model (not a layer) counts its state among its weights
                    self.__dict__.setdefault("_metrics", []).append(item)
                    self.__dict__.setdefault("_tracked", []).append(item)
                elif isinstance(item, variables_lib.Variable):
                    # a variable kept as an attribute is one of the layer's own weights
                    # (tf-keras's Layer.__setattr__), after those of add_weight
                    own = "_trainable_weights" if item.trainable else "_non_trainable_weights"
                    weights = self.__dict__.setdefault(own, [])
                    if all(item is not w for w in weights):
                        weights.append(item)
        object.__setattr__(self, name, value)

    def _trackable_children(self) -> dict:
        """Weights by their ``add_weight`` names, then trackable attributes by attribute name
        (sub-layers, lists of them, variables, an optimizer), as Keras tracks them."""
        out = dict(self._named_weights)
        for name, value in vars(self).items():
            if name in out or name in _BOOKKEEPING:
                continue
            if (not name.startswith("_") and trackable.is_trackable(value)) or \
                    isinstance(value, Layer):  # a private sub-layer keeps its name
                out[name] = value
        return out

    # --- properties ---------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self._name

    @property
    def name_scope(self):
        """The layer's name scope (``with layer.name_scope:``)."""
        return name_scope(self._name)

    @property
    def dtype(self) -> str:
        """The variable dtype (``dtype_policy.variable_dtype``)."""
        return self._dtype_policy.variable_dtype

    @property
    def compute_dtype(self) -> str:
        return self._dtype_policy.compute_dtype

    @property
    def variable_dtype(self) -> str:
        return self._dtype_policy.variable_dtype

    @property
    def dtype_policy(self):
        return self._dtype_policy

    @property
    def trainable(self) -> bool:
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        self._trainable = bool(value)
        for layer in self._layers:
            layer.trainable = value

    @property
    def layers(self) -> list:
        return list(self._layers)

    @property
    def dynamic(self) -> bool:
        """Whether the layer, or one of its sub-layers, was made with ``dynamic=True``
        (eager only: a model holding one runs eagerly)."""
        return any(getattr(layer, "_dynamic", False)
                   for layer in (self, *self._flatten_layers()))

    def _flatten_layers(self):
        for layer in self._layers:
            yield layer
            yield from layer._flatten_layers()

    @property
    def trainable_weights(self) -> list:
        if not self._trainable:
            return []
        out = list(self._trainable_weights)
        for layer in self._layers:
            out.extend(layer.trainable_weights)
        return _dedup(out)

    @property
    def non_trainable_weights(self) -> list:
        if self._trainable:
            out = list(self._non_trainable_weights)
            for layer in self._layers:
                out.extend(layer.non_trainable_weights)
        else:
            out = list(self._trainable_weights) + list(self._non_trainable_weights)
            for layer in self._layers:
                out.extend(layer.weights)
        return _dedup(out)

    @property
    def weights(self) -> list:
        return self.trainable_weights + self.non_trainable_weights

    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights
    variables = weights

    @property
    def losses(self) -> list:
        """Losses added in the last call, then weight penalties evaluated now."""
        out = [loss for loss in self._losses if not callable(loss)]
        out += [teach.regularization(loss()) for loss in self._losses if callable(loss)]
        for layer in self._layers:
            out.extend(layer.losses)
        return out

    def add_loss(self, loss):
        """Add a loss tensor (kept until the next outer call) or a callable (kept)."""
        self._losses.append(loss)

    @property
    def metrics(self) -> list:
        """The metrics this layer and its sub-layers keep (tf-keras's ``Layer.metrics``):
        Metric attributes and those ``add_metric`` made."""
        out = []
        for layer in (self, *self._flatten_layers()):
            out += layer.__dict__.get("_metrics", [])
        return out

    def add_metric(self, value, name=None, **kwargs):
        """Report ``value`` as the metric ``name`` of this layer (layer_metrics)."""
        layer_metrics.add_metric(self, value, name, kwargs, in_call=bool(_training_stack()))

    def _clear_losses(self):
        """Drop the losses of the previous call (callables, i.e. weight penalties, stay)."""
        self._losses[:] = [loss for loss in self._losses if callable(loss)]
        for layer in self._layers:
            layer._clear_losses()

    # --- weights ------------------------------------------------------------------------
    def add_weight(self, name=None, shape=None, dtype=None, initializer=None,
                   regularizer=None, trainable=None, constraint=None,
                   synchronization=variables_lib.VariableSynchronization.AUTO,
                   aggregation=variables_lib.VariableAggregation.NONE, **kwargs):
        """Create a weight of this layer; distributed when a strategy's scope is active."""
        shape = () if shape is None else tuple(int(s) for s in shape)
        dtype = dtypes.as_dtype(dtype or self.variable_dtype)
        if initializer is None:
            initializer = "glorot_uniform" if dtype.is_floating else "zeros"
        init = initializers.get(initializer)
        if trainable is None:
            trainable = synchronization != variables_lib.VariableSynchronization.ON_READ
        # tf.Variable prefixes the open name scopes ('block/dense/'), as in TF.
        var = variables_lib.Variable(initial_value=lambda: init(shape, dtype=dtype),
                                     name=name or "Variable",
                                 trainable=trainable, dtype=dtype,
                                 synchronization=synchronization, aggregation=aggregation,
                                 constraint=constraint)
        (self._trainable_weights if trainable else self._non_trainable_weights).append(var)
        self._named_weights.setdefault(name or "Variable", var)
        trackable.restore_deferred()  # a checkpoint restored before the build may wait for it
        if regularizer is not None:
            penalty = regularizers.get(regularizer)
            self.add_loss(lambda: penalty(A._t(var)))
        return var

    def _variables_restored(self) -> None:
        """Called once ``load_model`` restored the model's variables (tf-keras's
        ``load_own_variables``): a layer whose state is derived from its weights rebuilds it."""

    def get_weights(self) -> list:
        """The weights' values as NumPy arrays (in ``weights`` order)."""
        return _values(self.weights)

    def set_weights(self, weights) -> None:
        """Assign NumPy arrays to the weights (every copy of a mirrored weight).

        Raises:
          ValueError: a wrong number of arrays or a shape mismatch.
        """
        self._set_weights_impl(self.weights, weights)

    def _set_weights_impl(self, params, weights) -> None:
        """Assign ``weights`` (NumPy arrays) to the variables ``params``, checked."""
        weights = list(weights)
        if len(params) != len(weights):
            raise ValueError(
                f"You called `set_weights(weights)` on layer \"{self.name}\" with a weight "
                f"list of length {len(weights)}, but the layer was expecting "
                f"{len(params)} weights. Provided weights: {str(weights)[:50]}...")
        for p, w in zip(params, weights):
            import numpy as np

            w = np.asarray(w)
            if tuple(p.shape) != tuple(w.shape):
                raise ValueError(
                    f"Layer {self.name} weight shape {tuple(p.shape)} is not compatible with "
                    f"provided weight shape {tuple(w.shape)}.")
            with ds_context.enter_or_assert_strategy(ds_context.strategy_of(p)):
                p.assign(w.astype(p.dtype.as_numpy_dtype))
        for layer in (self, *self._flatten_layers()):   # tf-keras's set_weights
            layer.finalize_state()

    def finalize_state(self) -> None:
        """Rebuild what ``call`` uses from the weights, after ``set_weights`` (tf-keras's:
        nothing by default; an adapted Normalization's mean and variance)."""

    def count_params(self) -> int:
        import math

        return sum(math.prod(w.shape) for w in self.weights)

    # --- calling ------------------------------------------------------------------------
    def build(self, input_shape):
        self._build_input_shape = input_shape
        self.built = True

    def call(self, inputs, *args, **kwargs):
        return inputs

    def compute_output_shape(self, input_shape):
        """The output shape for ``input_shape``, found by calling the layer on zeros.

        Keras calls the layer on placeholders in a scratch graph; here it runs on one row of
        zeros under ``shape_inference`` (no device time, no trace), building it if needed.
        """
        shape = tuple(input_shape)
        if any(d is None for d in shape[1:]):
            raise NotImplementedError(
                f"Please run in eager mode or implement the compute_output_shape method on "
                f"your layer ({type(self).__name__}).")
        with execute.shape_inference():
            out = self(A.zeros((1,) + shape[1:], dtype=self.compute_dtype), training=False)
        return nest.map_structure(lambda t: (shape[0],) + tuple(t.shape)[1:], out)

    def _weight(self, w):
        """A weight read in the compute dtype (float16 under 'mixed_float16'). In a trace,
        as tf-keras's AutoCastVariable is read and cast while the op using it converts
        it, the read and the Cast are named by that op (``dense/MatMul/ReadVariableOp``,
        ``dense/MatMul/Cast``: FuncGraph.named_when_used)."""
        cd = dtypes.as_dtype(self.compute_dtype)
        graph = func_graph.current()
        if graph is None or dtypes.as_dtype(w.dtype) == cd or \
                func_graph.recorded_op_variant() is not None:
            t = A._t(w)
            return A.cast(t, cd) if t.dtype != cd else t
        saved = graph.names_taken()
        t = A._t(w)
        out = A.cast(t, cd)
        graph.named_when_used(out, [(t, "ReadVariableOp"), (out, "Cast")], saved)
        return out

    def _maybe_cast(self, x):
        compute = dtypes.as_dtype(self.compute_dtype)
        # Keras casts floats only to a floating compute dtype (an int64 layer keeps them)
        if isinstance(x, Tensor) and x.dtype.is_floating and compute.is_floating and \
                x.dtype != compute:
            return A.cast(x, compute)
        return x

    def _convert_inputs(self, inputs):
        def conv(x):
            if isinstance(x, Tensor) or x is None:
                return x
            if hasattr(x, "_as_tensor") or hasattr(x, "__array__") or isinstance(
                    x, (int, float, list, str, bytes)):
                if func_graph.current() is not None and not hasattr(x, "_as_tensor"):
                    return A.constant(x)   # recorded: a Const of the traced graph
                return execute.convert_to_tensor(x)
            return x

        return nest.map_structure(conv, inputs)

    def _maybe_build(self, inputs):
        if self.built:
            return
        first = nest.flatten(inputs)[0] if nest.flatten(inputs) else None
        shape = tuple(first.shape) if hasattr(first, "shape") else None
        if isinstance(inputs, (list, tuple)) and len(nest.flatten(inputs)) > 1:
            shape = [tuple(t.shape) for t in nest.flatten(inputs)]
            if type(inputs) is tuple:   # TF keeps a tuple input's structure (RNN's nested)
                shape = tuple(shape)
        if func_graph.current() is not None:
            # Called while a tf.function traces: tf-keras builds in tf.init_scope
            # (tf_utils.maybe_init_scope), so the weights are made once, eagerly.
            with name_scope_lib.init_scope():
                self.build(shape)
        else:
            self.build(shape)
        self.built = True
        if self._build_input_shape is None:
            self._build_input_shape = shape

    def compute_mask(self, inputs, mask=None):
        """The outputs' mask: none for a layer without masking, else the input's.

        Raises:
          TypeError: a mask passed to a layer that does not support masking.
        """
        if not self.supports_masking:
            if any(m is not None for m in nest.flatten(mask)):
                raise TypeError(f"Layer {self.name} does not support masking, but was passed "
                                f"an input_mask: {mask!s}")
            return None
        return mask

    def _input_masks(self, inputs, args, kwargs):
        """tf-keras's ``_get_input_masks``: the ``mask`` passed, else the inputs' own
        ``_keras_mask`` (None when none has one), given to ``call`` when it takes ``mask``."""
        takes_mask = _accepts(self.call, "mask")
        if not self.supports_masking and not takes_mask:
            return None
        if "mask" in kwargs:
            return kwargs["mask"]
        masks = [backend.get_keras_mask(t) for t in nest.flatten(inputs)]
        if all(m is None for m in masks):
            return None
        masks = nest.pack_sequence_as(inputs, masks)
        if takes_mask:
            kwargs["mask"] = masks
        return masks

    def _set_mask_metadata(self, inputs, outputs, previous_mask) -> None:
        """tf-keras's: outputs without a mask of their own get ``compute_mask``'s."""
        flat = nest.flatten(outputs)
        if not self.supports_masking or getattr(self, "_compute_output_and_mask_jointly",
                                                False) or \
                all(backend.get_keras_mask(t) is not None for t in flat):
            return
        output_masks = self.compute_mask(inputs, previous_mask)
        if output_masks is None:
            return
        for tensor, mask in zip(flat, nest.flatten(output_masks)):
            if isinstance(tensor, Tensor):
                backend.set_keras_mask(tensor, mask)

    def __call__(self, inputs, *args, **kwargs):
        """Build on the first call, cast inputs to the compute dtype, then ``call``."""
        if any(isinstance(x, KerasTensor) for x in nest.flatten((inputs, args, kwargs))):
            return node_module.symbolic_call(self, inputs, args, kwargs)
        input_masks = self._input_masks(inputs, args, kwargs)
        inputs = self._convert_inputs(inputs)
        training = kwargs.pop("training", None)
        stack = _training_stack()
        if not stack:  # the outermost call: the losses of the last one go
            self._clear_losses()
        if training is None and stack:
            training = stack[-1]
        if self._expects_training_arg and _accepts(self.call, "training"):
            if training is not None:
                # a boolean tensor stays one (a tf.function's argument: the layers
                # choose by it in the graph, Keras's smart_cond / in_train_phase)
                kwargs["training"] = training if isinstance(training, Tensor) \
                    else bool(training)
        input_spec.assert_input_compatibility(self.input_spec, inputs, self.name)
        self._check_call_inputs(inputs)
        # Weights created while building or calling this layer, its own and its sub-layers',
        # are named under it ('block/dense/kernel'), as Keras's eager call scope does. A
        # Sequential opens none: it builds its layers in an init scope (sequential.py).
        scope = contextlib.nullcontext() if getattr(self, "_is_sequential", False) \
            else name_scope(self.name, graph=False)
        # In a trace, the ops are named under the layer's call scope (tf-keras's
        # _name_scope: 'sequential/dense/BiasAdd'), a Sequential's included.
        with scope, func_graph.graph_name_scope(self.name, layer=True):
            self._maybe_build(inputs)
            if self._autocast:   # after the build, in the layer's scope ('dense/Cast')
                inputs = nest.map_structure(self._maybe_cast, inputs)
            stack.append(training)
            try:
                out = scratch_graph.call_fn(self)(inputs, *args, **kwargs)
            except Exception as e:   # tf-keras adds the call's arguments to the message
                raise traceback_utils.with_call_info(
                    e, self.call, scratch_graph.call_object_name(self),
                    (inputs,) + args, kwargs) from None
            finally:
                stack.pop()
        self._set_mask_metadata(inputs, out, input_masks)
        first = nest.flatten(out)[0] if nest.flatten(out) else None
        if self.activity_regularizer is not None and hasattr(first, "shape"):
            penalty = self.activity_regularizer(first)  # per example: / batch size, as Keras
            self.add_loss(M.divide(penalty, A.cast(A.constant(first.shape[0]), penalty.dtype)))
        return out

    def _check_call_inputs(self, inputs) -> None:
        """More of Keras's checks of a call's inputs before ``call`` (a Functional
        model's: its inputs' names and number, tf-keras's input_spec of its Inputs), so
        their errors carry no call context (traceback_utils)."""

    def _record_node_shapes(self, node):
        """Keep the shapes of the layer's first node; a later node with other shapes makes
        them ill-defined (a shared layer called on different shapes)."""
        shapes = (node.input_shapes, node.output_shapes)
        if self._node_shapes is None or len(self._inbound_nodes) == 1:
            self._node_shapes = shapes
        elif self._node_shapes != shapes:
            self._node_shapes = _MULTIPLE

    def _node_shape(self, i, what):
        if self._node_shapes is _MULTIPLE:
            raise AttributeError(
                f'The layer "{self.name}" has multiple inbound nodes, with different {what} '
                f'shapes. Hence the notion of "{what} shape" is ill-defined for the layer. '
                f"Use `get_{what}_shape_at(node_index)` instead.")
        return self._node_shapes[i]

    @property
    def input_shape(self):
        """The input shape of the layer's place in a model's graph.

        Raises:
          AttributeError: the layer has no such place (it was only called eagerly).
        """
        if self._node_shapes is None:
            raise AttributeError(
                f'The layer "{self.name}" has never been called and thus has no defined input '
                "shape. Note that the `input_shape` property is only available for Functional "
                "and Sequential models.")
        return self._node_shape(0, "input")

    @property
    def output_shape(self):
        """The output shape of the layer's place in a model's graph.

        Raises:
          AttributeError: the layer has no such place (it was only called eagerly).
        """
        if self._node_shapes is None:
            raise AttributeError(f'The layer "{self.name}" has never been called and thus has '
                                 "no defined output shape.")
        return self._node_shape(1, "output")

    @property
    def input(self):
        """The KerasTensor(s) the layer's first call in a model's graph took.

        Raises:
          AttributeError: the layer was never called on KerasTensors (Keras's message).
        """
        if not self._inbound_nodes:
            raise AttributeError(f"Layer {self.name} is not connected, no input to return.")
        node = self._inbound_nodes[0]
        if node.is_input:
            return node.outputs
        return node.keras_inputs[0] if len(node.keras_inputs) == 1 else node.keras_inputs

    @property
    def output(self):
        """The KerasTensor(s) the layer's first call in a model's graph made.

        Raises:
          AttributeError: the layer was never called on KerasTensors (Keras's message).
        """
        if not self._inbound_nodes:
            raise AttributeError(f"Layer {self.name} has no inbound nodes.")
        return self._inbound_nodes[0].outputs

    def get_config(self) -> dict:
        cfg = {"name": self.name, "trainable": self.trainable}
        if self._batch_input_shape is not None:
            cfg["batch_input_shape"] = self._batch_input_shape
        cfg["dtype"] = self._dtype_policy.name
        return cfg

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__module__}.{type(self).__name__} object at {id(self):#x}>"


def refuse_constraints(*constraints) -> None:
    """Weight constraints are refused, not ignored.

    Raises:
      NotImplementedError: any constraint given.
    """
    if any(c is not None for c in constraints):
        raise NotImplementedError(
            "Weight constraints are not simulated by simdist; apply them yourself after "
            "each step (w.assign(constraint(w))) or leave them out.")


_MULTIPLE = object()  # a shared layer's nodes disagree on their shapes


def _values(variables) -> list:
    """The variables' values as NumPy arrays (a mirrored one's, in its strategy)."""
    out = []
    for w in variables:
        with ds_context.enter_or_assert_strategy(ds_context.strategy_of(w)):
            out.append(w.numpy())
    return out

class TrackedContainer:
    """A list, tuple or dict of variables kept as a layer attribute, as tf-keras's tracked
    data structure (ListWrapper, DictWrapper) lists its weights: those of nested structures
    first (a dict's in key order), then its own variables in order."""

    def __init__(self, value):
        self._value = value

    def _variables(self, value, want) -> list:
        items = [value[k] for k in sorted(value)] if isinstance(value, dict) else list(value)
        nested = [v for item in items if isinstance(item, (list, tuple, dict))
                  for v in self._variables(item, want)]
        own = [v for v in items if isinstance(v, variables_lib.Variable) and want(v)]
        return nested + own

    @property
    def trainable_weights(self) -> list:
        return self._variables(self._value, lambda v: v.trainable)

    @property
    def non_trainable_weights(self) -> list:
        return self._variables(self._value, lambda v: not v.trainable)

    @property
    def weights(self) -> list:
        return self.trainable_weights + self.non_trainable_weights


# Attributes of a layer's own bookkeeping: never sub-layers, never checkpoint children.
_BOOKKEEPING = frozenset({"_layers", "_inbound_nodes", "_trainable_weights",
                          "_non_trainable_weights", "_named_weights", "_losses",
                          "_node_shapes", "_build_input_shape", "_dtype_policy",
                          "_train_counter", "_test_counter", "_predict_counter",
                          "_metrics", "_tracked", "_compile_args"})


def same_shape(layer, input_shape):
    """``compute_output_shape`` of a layer whose output is shaped like its input."""
    return input_shape


def _dedup(ws):
    """``ws`` without repeats; a ShardedVariable counts as its shards, as in TF's layers."""
    from simdist.distribute.sharded_variable import ShardedVariable

    seen, out = set(), []
    for w in (x for v in ws for x in (v.variables if isinstance(v, ShardedVariable) else [v])):
        if id(w) not in seen:
            seen.add(id(w))
            out.append(w)
    return out

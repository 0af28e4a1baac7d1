"""``tf.keras.layers.RNN``: a cell run over the time axis of its input.

Glossary:
  cell             -- a layer (or any object) with ``call(inputs, states)`` returning
                      ``(output, new_states)`` and a ``state_size`` (an int, or one per
                      state); a list of cells is one ``StackedRNNCells``.
  return_sequences -- the output at every step ``(batch, time, units)``, else the last.
  return_state     -- the final states too: ``[output] + states``.
  go_backwards     -- the input sequence reversed (the outputs are in the reversed order).
  unroll           -- the steps as Python instead of a ``while_loop`` (the same values).
  time_major       -- inputs and outputs ``(time, batch, ...)``.
  initial_state    -- the states the first step gets (zeros from ``get_initial_state``).
  stateful         -- the last states of a batch start the next: kept in variables,
                      ``reset_states()`` zeroes them; needs a fixed batch size.
  mask             -- the input's ``_keras_mask`` (an Embedding's ``mask_zero``, Masking):
                      masked steps keep the states and the previous output (rnn_loop); the
                      output of ``return_sequences`` carries the mask on.
  nested input     -- a tuple (or dict) of sequences, one step of each given to the cell
                      together (its ``build`` gets their step shapes); a list is the input
                      followed by initial states and constants, as TF's standardize_args.
  constants        -- tensors given to the cell's ``call(..., constants=...)`` at every step
                      (a condition the sequence does not change); a cell whose ``call`` has
                      no ``constants`` is TF's ValueError; ``num_constants`` in the config.
                      The cell is built on the step's input shape alone, as tf-keras does.

Mirrors tf_keras/src/layers/rnn/base_rnn.py and rnn_utils.py.
"""

from __future__ import annotations

from simdist.distribute import distribution_strategy_context as ds_context
from simdist.framework import nest
from simdist.framework.name_scope import name_scope
from simdist.framework.ops import array_ops as A
from simdist.framework.tensor_shape import TensorShape
from simdist.framework.variables import Variable
from simdist.keras.engine.base_layer import Layer, _accepts
from simdist.keras.engine.input_spec import InputSpec
from simdist.keras.engine.keras_tensor import KerasTensor
from simdist.keras.layers.rnn.rnn_loop import rnn
from simdist.keras.layers.rnn.stacked_rnn_cells import StackedRNNCells
from simdist.keras.utils import traceback_utils


def is_multiple_state(state_size) -> bool:
    """``state_size`` names several states (TF's rnn_utils.is_multiple_state)."""
    return hasattr(state_size, "__len__") and not isinstance(state_size, TensorShape)


def zero_state(cell, inputs=None, batch_size=None, dtype=None):
    """Zeros for each of ``cell``'s states (rnn_utils.generate_zero_filled_state_for_cell).

    Raises:
      ValueError: neither ``inputs`` nor both ``batch_size`` and ``dtype``.
    """
    if inputs is not None:
        batch_size, dtype = A.shape(inputs)[0], inputs.dtype
    if batch_size is None or dtype is None:
        raise ValueError(
            "batch_size and dtype cannot be None while constructing initial state. "
            f"Received: batch_size={batch_size}, dtype={dtype}")
    if is_multiple_state(cell.state_size):
        return [A.zeros([batch_size] + _dims(s), dtype=dtype) for s in cell.state_size]
    return A.zeros([batch_size] + _dims(cell.state_size), dtype=dtype)


def _input_shapes(input_shape):
    """A shape as a tuple of dims, or a nested input's shapes as a structure of them (TF
    tries ``TensorShape(input_shape)`` first)."""
    try:
        return tuple(TensorShape(input_shape).as_list())
    except (TypeError, ValueError):
        return type(input_shape)(_input_shapes(s) for s in input_shape)


def _is_shape(shape) -> bool:
    return all(d is None or isinstance(d, int) for d in shape)


def _map_shapes(fn, shapes):
    """``fn`` on each shape of a structure of shapes (tuples of dims)."""
    return fn(shapes) if _is_shape(shapes) else \
        type(shapes)(_map_shapes(fn, s) for s in shapes)


def _dims(size) -> list:
    return list(TensorShape(size).as_list()) if not isinstance(size, int) else [size]


class RNN(Layer):
    """Base class for recurrent layers (``tf.keras.layers.RNN``)."""

    def __init__(self, cell, return_sequences=False, return_state=False, go_backwards=False,
                 stateful=False, unroll=False, time_major=False, **kwargs):
        if isinstance(cell, (list, tuple)):
            cell = StackedRNNCells(cell)
        if "call" not in dir(cell):
            raise ValueError("Argument `cell` should have a `call` method. "
                             f"The RNN was passed: cell={cell}")
        if "state_size" not in dir(cell):
            raise ValueError("The RNN cell should have a `state_size` attribute (tuple of "
                             "integers, one integer per RNN state). "
                             f"Received: cell={cell}")
        self.zero_output_for_mask = kwargs.pop("zero_output_for_mask", False)
        if "input_shape" not in kwargs and ("input_dim" in kwargs or "input_length" in kwargs):
            kwargs["input_shape"] = (kwargs.pop("input_length", None),
                                     kwargs.pop("input_dim", None))
        super().__init__(**kwargs)
        self.cell = cell
        self.return_sequences, self.return_state = return_sequences, return_state
        self.go_backwards, self.stateful = go_backwards, stateful
        self.unroll, self.time_major = unroll, time_major
        self.supports_masking = True
        self.input_spec = None
        self._states = None
        self._num_constants = 0
        if stateful:
            if ds_context.has_strategy():
                raise ValueError("Stateful RNNs (created with `stateful=True`) are not yet "
                                 "supported with tf.distribute.Strategy.")

    @property
    def states(self):
        if self._states is None:
            size = self.cell.state_size
            return [None] * len(size) if is_multiple_state(size) else [None]
        return self._states

    def _state_sizes(self) -> list:
        size = self.cell.state_size
        return list(size) if is_multiple_state(size) else [size]

    def compute_output_shape(self, input_shape):
        shape = _input_shapes(input_shape)
        while not _is_shape(shape):   # a nested input: its first tensor's batch and time
            shape = shape[0]
        self._refuse_unknown_unroll(KerasTensor(list(shape), self.dtype, name=self.name))
        batch, time = (shape[1], shape[0]) if self.time_major else (shape[0], shape[1])

        def output_shape(size):
            if self.return_sequences:
                return ((time, batch) if self.time_major else (batch, time)) + \
                    tuple(_dims(size))
            return (batch,) + tuple(_dims(size))

        size = getattr(self.cell, "output_size", None)
        if size is None:
            out = output_shape(self._state_sizes()[0])
        elif isinstance(size, (list, tuple)):   # a nested output: its shapes flat
            out = [output_shape(s) for s in nest.flatten(size)]
            out = out[0] if len(out) == 1 else out
        else:
            out = output_shape(size)
        if not self.return_state:
            return out
        return (out if isinstance(out, list) else [out]) + \
            [(batch,) + tuple(_dims(s)) for s in self._state_sizes()]

    def build(self, input_shape):
        if isinstance(input_shape, list):
            input_shape = input_shape[0]
        shapes = _input_shapes(input_shape)
        batch_axis, time_axis = (1, 0) if self.time_major else (0, 1)

        def spec(shape):
            shape = list(shape)
            if not self.stateful:
                shape[batch_axis] = None
            shape[time_axis] = None
            return InputSpec(shape=tuple(shape))

        def step_shape(shape):
            return tuple(shape[1:]) if self.time_major else (shape[0],) + tuple(shape[2:])

        if not _is_shape(shapes):   # a nested input: a spec and a step shape each
            self.input_spec = nest.flatten(_map_shapes(spec, shapes))
            step_shape = _map_shapes(step_shape, shapes)
        else:
            self.input_spec = [spec(shapes)]
            step_shape = step_shape(shapes)
        if isinstance(self.cell, Layer) and not self.cell.built:
            with name_scope(self.cell.name, graph=False):   # 'lstm/lstm_cell/kernel'
                self.cell.build(step_shape)
            self.cell.built = True
        if self.stateful:
            self.reset_states()
        super().build(input_shape)

    def get_initial_state(self, inputs):
        """Zeros for each state: the cell's ``get_initial_state``, else rnn_utils's."""
        inputs = nest.flatten(inputs)[0]   # a nested input's first tensor
        batch = A.shape(inputs)[1 if self.time_major else 0]
        fn = getattr(self.cell, "get_initial_state", None)
        state = fn(inputs=None, batch_size=batch, dtype=inputs.dtype) if fn else \
            zero_state(self.cell, batch_size=batch, dtype=inputs.dtype)
        return list(state) if isinstance(state, (list, tuple)) else [state]

    def __call__(self, inputs, initial_state=None, constants=None, **kwargs):
        if isinstance(inputs, list) and len(inputs) > 1 and initial_state is None \
                and constants is None:   # (rnn_utils.standardize_args)
            inputs = list(inputs)
            if self._num_constants:
                inputs, constants = inputs[:-self._num_constants], \
                    inputs[-self._num_constants:]
            inputs, initial_state = inputs[0], (list(inputs[1:]) or None)
        if constants is not None:
            constants = list(constants) if isinstance(constants, (list, tuple)) \
                else [constants]
            self._num_constants = len(constants)
            kwargs["constants"] = constants
        if initial_state is not None:
            kwargs["initial_state"] = list(initial_state) \
                if isinstance(initial_state, (list, tuple)) else [initial_state]
            self._check_initial_state(kwargs["initial_state"])
        if isinstance(inputs, KerasTensor):
            self._refuse_unknown_unroll(inputs, kwargs)
        return super().__call__(inputs, **kwargs)

    def _refuse_unknown_unroll(self, inputs, kwargs=None) -> None:
        """A symbolic call (or a Sequential's shape pass) runs on zeros with an unknown time
        axis as 1: raise as TF's graph-mode call does when that axis is unknown."""
        if self.unroll and inputs.shape[0 if self.time_major else 1] is None:
            raise traceback_utils.with_call_info(
                ValueError(_CANNOT_UNROLL), self.call,
                f'layer "{self.name}" (type {type(self).__name__})', (inputs,), kwargs or {})

    def compute_mask(self, inputs, mask):
        """The input's mask on the outputs of ``return_sequences`` (none on the states)."""
        if isinstance(mask, list):
            mask = mask[0]
        output_mask = mask if self.return_sequences else None
        if self.return_state:
            return [output_mask] + [None for _ in self.states]
        return output_mask

    def call(self, inputs, mask=None, training=None, initial_state=None, constants=None):
        if isinstance(mask, list):
            mask = mask[0]
        if constants and not _accepts(self.cell.call, "constants", var_keyword=False):
            raise ValueError(f"RNN cell {self.cell} does not support constants. "
                             f"Received: constants={constants}")
        self._reset_dropout_masks()
        timesteps = nest.flatten(inputs)[0].shape[0 if self.time_major else 1]
        if self.unroll and timesteps is None:
            raise ValueError(_CANNOT_UNROLL)
        initial_state = self._initial_state(inputs, initial_state)
        cell_call = self.cell.__call__ if callable(self.cell) else self.cell.call
        takes_training = _accepts(self.cell.call, "training", var_keyword=False)  # has_arg
        single = not is_multiple_state(self.cell.state_size) and \
            getattr(self.cell, "_is_tf_rnn_cell", None) is not None

        kwargs = {"training": training} if takes_training else {}
        if constants:
            kwargs["constants"] = constants

        def step(x, states):
            states = states[0] if len(states) == 1 and single else list(states)
            output, new_states = cell_call(x, states, **kwargs)
            return output, new_states if isinstance(new_states, (list, tuple)) \
                else [new_states]

        last_output, outputs, states = rnn(
            step, inputs, initial_state, go_backwards=self.go_backwards, mask=mask,
            unroll=self.unroll, time_major=self.time_major,
            zero_output_for_mask=self.zero_output_for_mask,
            return_all_outputs=self.return_sequences)
        if self.stateful:
            for variable, state in zip(self._states, nest.flatten(states)):
                variable.assign(A.cast(state, variable.dtype))
        output = outputs if self.return_sequences else last_output
        return [output] + list(states) if self.return_state else output

    def _reset_dropout_masks(self) -> None:
        cells = self.cell.cells if isinstance(self.cell, StackedRNNCells) else [self.cell]
        for cell in cells:
            if hasattr(cell, "reset_dropout_mask"):
                cell.reset_dropout_mask()
                cell.reset_recurrent_dropout_mask()

    def _initial_state(self, inputs, initial_state):
        if initial_state is not None:
            return list(initial_state)
        if self.stateful:
            return [A._t(s) for s in self._states]
        return self.get_initial_state(inputs)

    def _check_initial_state(self, initial_state) -> None:
        sizes = nest.flatten(self._state_sizes())
        given = [tuple(s.shape[1:]) for s in nest.flatten(initial_state)]
        if len(given) != len(sizes) or any(
                not TensorShape(g).is_compatible_with(TensorShape(_dims(s)))
                for g, s in zip(given, sizes)):
            specs = ", ".join(f"InputSpec(shape={tuple(s.shape)}, ndim={len(s.shape)})"
                              for s in nest.flatten(initial_state))
            raise ValueError("An `initial_state` was passed that is not compatible with "
                             f"`cell.state_size`. Received `state_spec`=ListWrapper([{specs}]); "
                             "however "
                             f"`cell.state_size` is {self._state_sizes()}")

    def reset_states(self, states=None):
        """Zero the states of a stateful RNN (or set them to ``states``).

        Raises:
          AttributeError: the layer is not stateful.
          ValueError: no fixed batch size; ``states`` of another number or shape.
        """
        if not self.stateful:
            raise AttributeError("Layer must be stateful.")
        spec = self.input_spec[0].shape if self.input_spec else None
        batch = spec[1 if self.time_major else 0] if spec else None
        if not batch:
            raise ValueError(_NO_BATCH_SIZE.format(name=self.name))
        sizes = self._state_sizes()
        if self._states is None:
            self._states = [Variable(A.zeros([batch] + _dims(s), dtype=self.dtype),
                                     trainable=False) for s in sizes]
        if states is None:
            for v in self._states:
                v.assign(A.zeros(v.shape, dtype=v.dtype))
            return
        states = nest.flatten(states)
        if len(states) != len(self._states):
            raise ValueError(f"Layer {self.name} expects {len(self._states)} states, but it "
                             f"received {len(states)} state values. States received: {states}")
        for index, (v, value) in enumerate(zip(self._states, states)):
            value = A._t(A.convert_to_tensor(value, dtype=v.dtype))
            if tuple(value.shape) != tuple(v.shape):
                raise ValueError(f"State {index} is incompatible with layer {self.name}: "
                                 f"expected shape={tuple(v.shape)} but found "
                                 f"shape={tuple(value.shape)}")
            v.assign(value)

    def get_config(self):
        from simdist.keras.layers import serialization

        cfg = super().get_config()
        cfg.update(return_sequences=self.return_sequences, return_state=self.return_state,
                   go_backwards=self.go_backwards, stateful=self.stateful,
                   unroll=self.unroll, time_major=self.time_major,
                   cell=serialization.serialize(self.cell))
        if self.zero_output_for_mask:
            cfg["zero_output_for_mask"] = self.zero_output_for_mask
        if self._num_constants:
            cfg["num_constants"] = self._num_constants
        return cfg

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from simdist.keras.layers import serialization

        config = dict(config)
        num_constants = config.pop("num_constants", 0)
        if isinstance(config.get("cell"), dict):
            config["cell"] = serialization.deserialize(config["cell"], custom_objects)
        layer = cls(**config)
        layer._num_constants = num_constants
        return layer


_CANNOT_UNROLL = (
    "Cannot unroll a RNN if the time dimension is undefined. \n"
    "- If using a Sequential model, specify the time dimension by passing an `input_shape` "
    "or `batch_input_shape` argument to your first layer. If your first layer is an "
    "Embedding, you can also use the `input_length` argument.\n"
    "- If using the functional API, specify the time dimension by passing a `shape` or "
    "`batch_shape` argument to your Input layer.")

_NO_BATCH_SIZE = (
    "If a RNN is stateful, it needs to know its batch size. Specify the batch size of your "
    "input tensors: \n- If using a Sequential model, specify the batch size by passing a "
    "`batch_input_shape` argument to your first layer.\n- If using the functional API, "
    "specify the batch size by passing a `batch_shape` argument to your Input layer.")

"""``backend.rnn``: a step function run over the time axis of a sequence.

Glossary:
  step_function -- ``(input_t, states) -> (output_t, new_states)``: one cell step.
  time-major    -- the loop runs over axis 0; batch-major inputs are transposed first and
                   the outputs back (``swap_batch_timestep``).
  time zero     -- the step is called once on the first input and the initial states before
                   the loop, for the outputs' dtype and shape (TF does; a cell's dropout masks
                   are drawn there).
  loop          -- a ``while_loop`` over TensorArrays (one read and one write per step;
                   without ``return_all_outputs`` every step writes index 0); ``unroll``
                   runs the steps as Python, which needs a known number of steps.
  nested        -- inputs and outputs may be structures of tensors: a TensorArray each
                   ('input_ta_<i>', 'output_ta_<i>'), the step sees the structures.
  mask          -- (batch, time) booleans: at a masked step each sequence keeps its states
                   and its previous output (zeros before its first unmasked step; zeros at
                   every masked step with ``zero_output_for_mask``), by ``tf.where``.

Mirrors tf_keras/src/backend.py (rnn, without constants).
"""

from __future__ import annotations

from simdist.framework import dtypes, nest
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import tensor_array_ops
from simdist.framework.ops.while_loop import while_loop


def _swap_batch_timestep(x):
    axes = list(range(len(x.shape)))
    axes[0], axes[1] = 1, 0
    return A.transpose(x, axes)


def rnn(step_function, inputs, initial_states, go_backwards=False, mask=None, unroll=False,
        time_major=False, zero_output_for_mask=False, return_all_outputs=True):
    """``(last_output, outputs, new_states)`` of ``step_function`` run over the time axis;
    ``inputs`` and the step's output may be nested (each flat tensor has its own
    TensorArray, the step gets the structure back).

    Raises:
      ValueError: ``inputs`` of rank below 3; ``unroll`` without a known number of steps.
    """
    flat = nest.flatten(inputs)
    for x in flat:
        if len(x.shape) < 3:
            raise ValueError(f"Input should be at least 3D. Received input shape: {x.shape}")
    if not time_major:
        flat = [_swap_batch_timestep(x) for x in flat]
    time_steps, batch = flat[0].shape[0], flat[0].shape[1]
    if mask is not None:   # (time, batch, 1) booleans
        if mask.dtype != dtypes.bool_:
            mask = A.cast(mask, dtypes.bool_)
        if len(mask.shape) == 2:
            mask = A.expand_dims(mask, -1)
        if not time_major:
            mask = _swap_batch_timestep(mask)
    steps = _Steps(step_function, inputs)
    if unroll:
        outputs, last_output, new_states = _unrolled(steps, flat, initial_states,
                                                     time_steps, go_backwards,
                                                     return_all_outputs, mask)
        if mask is not None and zero_output_for_mask:
            last_step = A.unstack(mask)[0 if go_backwards else -1]
            last_output = [A.where(last_step, o, A.zeros_like(o)) for o in last_output]
            outputs = [A.where(mask, o, A.zeros_like(o)) if return_all_outputs
                       else A.where(last_step, o, A.zeros_like(o)) for o in outputs]
    else:
        outputs, last_output, new_states = _looped(steps, flat, initial_states,
                                                   go_backwards, return_all_outputs, mask,
                                                   zero_output_for_mask)
    for o in outputs:
        o.set_shape([time_steps if return_all_outputs else 1, batch] + list(o.shape[2:]))
    if not time_major:
        outputs = [_swap_batch_timestep(o) for o in outputs]
    return (nest.pack_sequence_as(steps.output, last_output),
            nest.pack_sequence_as(steps.output, outputs), new_states)


class _Steps:
    """The step function on flat inputs and outputs: it packs each step's inputs as
    ``inputs`` and flattens its output, keeping the output's structure."""

    def __init__(self, step_function, inputs):
        self._fn, self._inputs, self.output = step_function, inputs, None

    def __call__(self, flat_x, states):
        output, new_states = self._fn(nest.pack_sequence_as(self._inputs, list(flat_x)),
                                      states)
        self.output = output
        return nest.flatten(output), new_states


def _masked(mask_t, new, old) -> tuple:
    """Each of ``new`` where the step is unmasked, else the matching one of ``old``."""
    return tuple(A.where(_expanded(mask_t, n), n, o) for n, o in zip(new, old))


def _expanded(mask_t, t):
    """``mask_t`` with trailing axes up to ``t``'s rank (TF's ``_expand_mask``; it tiles
    them, ``where`` broadcasts): a (batch, 1) mask of a 2-D mask, or a (batch, d) step of a
    (batch, time, d) mask, against an output of rank 3 and more."""
    for _ in range(len(t.shape) - len(mask_t.shape)):
        mask_t = A.expand_dims(mask_t, -1)
    return mask_t


def _unrolled(steps, flat, initial_states, time_steps, go_backwards, return_all_outputs,
              mask):
    if not time_steps:
        raise ValueError("Unrolling requires a fixed number of timesteps.")
    inputs = list(zip(*[A.unstack(x) for x in flat]))
    masks = A.unstack(mask) if mask is not None else [None] * len(inputs)
    if go_backwards:
        inputs.reverse()
        masks.reverse()
    states, outputs = tuple(initial_states), []
    for x, mask_t in zip(inputs, masks):
        output, new_states = steps(x, tuple(states))
        if mask_t is not None:
            prev = outputs[-1] if outputs else [A.zeros_like(o) for o in output]
            output = list(_masked(mask_t, output, prev))
            new_states = nest.pack_sequence_as(states, _masked(
                mask_t, nest.flatten(new_states), nest.flatten(states)))
        states = new_states
        outputs = outputs + [output] if return_all_outputs else [output]
    return [A.stack(list(o)) for o in zip(*outputs)], outputs[-1], states


def _looped(steps, flat, initial_states, go_backwards, return_all_outputs, mask=None,
            zero_output_for_mask=False):
    time_steps_t = A.shape(flat[0])[0]
    input_tas = []
    for i, x in enumerate(flat):
        ta = tensor_array_ops.TensorArray(dtype=x.dtype, size=time_steps_t,
                                          tensor_array_name=f"input_ta_{i}")
        input_tas.append(ta.unstack(A.reverse(x, [0]) if go_backwards else x))
    output_time_zero, _ = steps([x[0] for x in flat], tuple(initial_states))
    output_tas = tuple(tensor_array_ops.TensorArray(
        dtype=o.dtype, size=time_steps_t if return_all_outputs else 1,
        element_shape=o.shape, tensor_array_name=f"output_ta_{i}")
        for i, o in enumerate(output_time_zero))
    n = len(output_tas)

    if mask is not None:
        return _looped_masked(steps, input_tas, time_steps_t, output_tas,
                              output_time_zero, initial_states, mask, go_backwards,
                              return_all_outputs, zero_output_for_mask)

    def step(time, *rest):
        output, new_states = steps([ta.read(time) for ta in input_tas], tuple(rest[n:]))
        _keep_shapes(rest[n:], new_states)
        tas = tuple(ta.write(time if return_all_outputs else 0, o)
                    for ta, o in zip(rest[:n], output))
        return (time + 1,) + tas + tuple(
            nest.pack_sequence_as(initial_states, nest.flatten(new_states)))

    final = while_loop(lambda time, *_: time < time_steps_t, step,
                       (A.constant(0, dtype="int32", name="time"),) + output_tas
                       + tuple(initial_states),
                       parallel_iterations=32, swap_memory=True)
    outputs = [ta.stack() for ta in final[1:1 + n]]
    return outputs, [o[-1] for o in outputs], final[1 + n:]


def _keep_shapes(states, new_states) -> None:
    for state, new_state in zip(nest.flatten(states), nest.flatten(new_states)):
        new_state.set_shape(state.shape)


def _looped_masked(steps, input_tas, time_steps_t, output_tas, output_time_zero,
                   initial_states, mask, go_backwards, return_all_outputs,
                   zero_output_for_mask):
    """The loop with a mask: the previous outputs ride in the loop's variables (zeros at
    first), as TF's."""
    mask_ta = tensor_array_ops.TensorArray(dtype=dtypes.bool_, size=time_steps_t,
                                           tensor_array_name="mask_ta")
    mask_ta = mask_ta.unstack(A.reverse(mask, [0]) if go_backwards else mask)
    zero_output = tuple(A.zeros_like(o) for o in output_time_zero)
    n = len(output_tas)

    def step(time, *rest):
        mask_t = mask_ta.read(time)
        tas, prev_output, states = rest[:n], rest[n:2 * n], rest[2 * n:]
        output, new_states = steps([ta.read(time) for ta in input_tas], tuple(states))
        output = _masked(mask_t, output, zero_output if zero_output_for_mask else prev_output)
        _keep_shapes(states, new_states)
        final_states = _masked(mask_t, nest.flatten(new_states), nest.flatten(states))
        tas = tuple(ta.write(time if return_all_outputs else 0, o)
                    for ta, o in zip(tas, output))
        return (time + 1,) + tas + output + tuple(
            nest.pack_sequence_as(initial_states, list(final_states)))

    final = while_loop(lambda time, *_: time < time_steps_t, step,
                       (A.constant(0, dtype="int32", name="time"),) + output_tas
                       + zero_output + tuple(initial_states),
                       parallel_iterations=32, swap_memory=True)
    outputs = [ta.stack() for ta in final[1:1 + n]]
    return outputs, [o[-1] for o in outputs], final[1 + 2 * n:]

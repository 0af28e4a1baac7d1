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
    """``(last_output, outputs, new_states)`` of ``step_function`` run over the time axis.

    Raises:
      ValueError: ``inputs`` of rank below 3; ``unroll`` without a known number of steps.
    """
    if len(inputs.shape) < 3:
        raise ValueError(f"Input should be at least 3D. Received input shape: {inputs.shape}")
    if not time_major:
        inputs = _swap_batch_timestep(inputs)
    time_steps, batch = inputs.shape[0], inputs.shape[1]
    if mask is not None:   # (time, batch, 1) booleans
        if mask.dtype != dtypes.bool_:
            mask = A.cast(mask, dtypes.bool_)
        if len(mask.shape) == 2:
            mask = A.expand_dims(mask, -1)
        if not time_major:
            mask = _swap_batch_timestep(mask)
    if unroll:
        outputs, last_output, new_states = _unrolled(step_function, inputs, initial_states,
                                                     time_steps, go_backwards,
                                                     return_all_outputs, mask)
        if mask is not None and zero_output_for_mask:
            last_step = A.unstack(mask)[0 if go_backwards else -1]
            last_output = A.where(last_step, last_output, A.zeros_like(last_output))
            outputs = A.where(mask, outputs, A.zeros_like(outputs)) if return_all_outputs \
                else A.where(last_step, outputs, A.zeros_like(outputs))
    else:
        outputs, last_output, new_states = _looped(step_function, inputs, initial_states,
                                                   go_backwards, return_all_outputs, mask,
                                                   zero_output_for_mask)
    outputs.set_shape([time_steps if return_all_outputs else 1, batch]
                      + list(outputs.shape[2:]))
    if not time_major:
        outputs = _swap_batch_timestep(outputs)
    return last_output, outputs, new_states


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


def _unrolled(step_function, inputs, initial_states, time_steps, go_backwards,
              return_all_outputs, mask):
    if not time_steps:
        raise ValueError("Unrolling requires a fixed number of timesteps.")
    steps = A.unstack(inputs)
    masks = A.unstack(mask) if mask is not None else [None] * len(steps)
    if go_backwards:
        steps.reverse()
        masks.reverse()
    states, outputs = tuple(initial_states), []
    for x, mask_t in zip(steps, masks):
        output, new_states = step_function(x, tuple(states))
        if mask_t is not None:
            prev = outputs[-1] if outputs else A.zeros_like(output)
            output = A.where(_expanded(mask_t, output), output, prev)
            new_states = nest.pack_sequence_as(states, _masked(
                mask_t, nest.flatten(new_states), nest.flatten(states)))
        states = new_states
        outputs = outputs + [output] if return_all_outputs else [output]
    return A.stack(outputs), outputs[-1], states


def _looped(step_function, inputs, initial_states, go_backwards, return_all_outputs, mask=None,
            zero_output_for_mask=False):
    time_steps_t = A.shape(inputs)[0]
    input_ta = tensor_array_ops.TensorArray(dtype=inputs.dtype, size=time_steps_t,
                                            tensor_array_name="input_ta_0")
    input_ta = input_ta.unstack(A.reverse(inputs, [0]) if go_backwards else inputs)
    output_time_zero, _ = step_function(inputs[0], tuple(initial_states))
    output_ta = tensor_array_ops.TensorArray(
        dtype=output_time_zero.dtype, size=time_steps_t if return_all_outputs else 1,
        element_shape=output_time_zero.shape, tensor_array_name="output_ta_0")

    if mask is not None:
        return _looped_masked(step_function, input_ta, time_steps_t, output_ta,
                              output_time_zero, initial_states, mask, go_backwards,
                              return_all_outputs, zero_output_for_mask)

    def step(time, output_ta_t, *states):
        output, new_states = step_function(input_ta.read(time), tuple(states))
        for state, new_state in zip(nest.flatten(states), nest.flatten(new_states)):
            new_state.set_shape(state.shape)
        output_ta_t = output_ta_t.write(time if return_all_outputs else 0, output)
        return (time + 1, output_ta_t) + tuple(
            nest.pack_sequence_as(initial_states, nest.flatten(new_states)))

    final = while_loop(lambda time, *_: time < time_steps_t, step,
                       (A.constant(0, dtype="int32", name="time"), output_ta)
                       + tuple(initial_states),
                       parallel_iterations=32, swap_memory=True)
    outputs = final[1].stack()
    return outputs, outputs[-1], final[2:]


def _looped_masked(step_function, input_ta, time_steps_t, output_ta, output_time_zero,
                   initial_states, mask, go_backwards, return_all_outputs,
                   zero_output_for_mask):
    """The loop with a mask: the previous output rides in the loop's variables (zeros at
    first), as TF's."""
    mask_ta = tensor_array_ops.TensorArray(dtype=dtypes.bool_, size=time_steps_t,
                                           tensor_array_name="mask_ta")
    mask_ta = mask_ta.unstack(A.reverse(mask, [0]) if go_backwards else mask)
    zero_output = A.zeros_like(output_time_zero)

    def step(time, output_ta_t, prev_output, *states):
        mask_t = mask_ta.read(time)
        output, new_states = step_function(input_ta.read(time), tuple(states))
        (output,) = _masked(mask_t, (output,),
                            (zero_output if zero_output_for_mask else prev_output,))
        flat_states, flat_new = nest.flatten(states), nest.flatten(new_states)
        for state, new_state in zip(flat_states, flat_new):
            new_state.set_shape(state.shape)
        final_states = _masked(mask_t, flat_new, flat_states)
        output_ta_t = output_ta_t.write(time if return_all_outputs else 0, output)
        return (time + 1, output_ta_t, output) + tuple(
            nest.pack_sequence_as(initial_states, list(final_states)))

    final = while_loop(lambda time, *_: time < time_steps_t, step,
                       (A.constant(0, dtype="int32", name="time"), output_ta, zero_output)
                       + tuple(initial_states),
                       parallel_iterations=32, swap_memory=True)
    outputs = final[1].stack()
    return outputs, outputs[-1], final[3:]

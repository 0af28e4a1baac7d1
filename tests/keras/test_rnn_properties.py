"""Properties of the recurrent layers for any sizes and weights: the while_loop and the
unrolled steps give the same bits; a layer equals its cell stepped by hand; go_backwards is
the forward run over the reversed sequence; return_state's last state is the last output."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import simdist as tf

LAYERS = {"LSTM": tf.keras.layers.LSTM, "GRU": tf.keras.layers.GRU,
          "SimpleRNN": tf.keras.layers.SimpleRNN}

shapes = st.tuples(st.integers(1, 3), st.integers(1, 4), st.integers(1, 3), st.integers(1, 4))


def _sequence(shape, seed):
    """A (batch, time, features) input drawn from ``seed``, and the time and units drawn."""
    batch, time, features, units = shape
    x = np.random.RandomState(seed).normal(size=(batch, time, features)).astype(np.float32)
    return tf.constant(x), time, units


def _layer(kind, units, x, seed, **kw):
    layer = LAYERS[kind](units, **kw)
    layer(x)
    rng = np.random.RandomState(seed)
    layer.set_weights([rng.uniform(-0.5, 0.5, w.shape).astype(np.float32)
                       for w in layer.weights])
    return layer


@settings(max_examples=10)
@given(kind=st.sampled_from(sorted(LAYERS)), shape=shapes, seed=st.integers(0, 2**16))
def test_loop_unrolled_and_stepped_by_hand_agree(kind, shape, seed):
    x, time, units = _sequence(shape, seed)
    looped = _layer(kind, units, x, seed, return_sequences=True)
    unrolled = _layer(kind, units, x, seed, return_sequences=True, unroll=True)
    assert np.array_equal(looped(x).numpy(), unrolled(x).numpy())

    cell, states = looped.cell, looped.get_initial_state(x)
    outputs = []
    for t in range(time):
        out, states = cell(x[:, t], states if len(states) > 1 else states[0])
        states = states if isinstance(states, list) else [states]
        outputs.append(out.numpy())
    assert np.array_equal(np.stack(outputs, axis=1), looped(x).numpy())


@settings(max_examples=10)
@given(kind=st.sampled_from(sorted(LAYERS)), shape=shapes, seed=st.integers(0, 2**16))
def test_go_backwards_runs_the_reversed_sequence(kind, shape, seed):
    x, time, units = _sequence(shape, seed)
    backwards = _layer(kind, units, x, seed, go_backwards=True, return_state=True)
    forwards = _layer(kind, units, x, seed, return_state=True)
    back_out, *back_states = backwards(x)
    fwd_out, *fwd_states = forwards(tf.reverse(x, [1]))
    assert np.array_equal(back_out.numpy(), fwd_out.numpy())
    for a, b in zip(back_states, fwd_states):
        assert np.array_equal(a.numpy(), b.numpy())
    assert np.array_equal(back_states[0].numpy(), back_out.numpy())   # h is the output

"""simdist's random numbers are TF 2.21's bit for bit: stateless ops for shapes, dtypes and
seeds, stateful ops under ``tf.random.set_seed``, Keras's initializers and Dropout, and the
losses of seeded fits with Dropout (recorded by record_tf_random.py)."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simdist as tf
from simdist.framework.ops import philox_random
from simdist.framework.ops import random_distributions as D
from tests.array_api_subset import strict
from tests.framework.random_cases import CASES, FIT_CASES, STRATEGY_CASES, STRATEGY_FIT_CASES
from tests.framework.record_tf_random import run_case

with open(os.path.join(os.path.dirname(__file__), "fixtures", "tf_random.json")) as _f:
    RECORDED = json.load(_f)


def _values(record) -> np.ndarray:
    width = {"float32": np.uint32, "float64": np.uint64}[record["dtype"]]
    return np.asarray(record["bits"], dtype=width).view(record["dtype"])


DEVICES = ["/gpu:0", "/gpu:1"]   # TF recorded on two logical CPUs
# STRICT: marked pytest.mark.array_api by tests/array_api_subset.py.
# Also run on array_api_strict: Philox streams are host-side bookkeeping, their values go
# onto the device at one boundary (random_ops._place); float16/bfloat16 stay host arrays.
STRICT = ("stateless_uniform_float32_0", "stateless_normal_float16_0",
          "stateless_truncated_normal_bfloat16_0", "stateful_global_seed",
          "keras_GlorotUniform_seeded", "keras_dropout_noise_shape", "dataset_shuffle_fixed",
          "function_op_seeds")


def _same_bits(got, want):
    assert [(g["dtype"], g["shape"]) for g in got] == [(w["dtype"], w["shape"]) for w in want]
    for i, (g, w) in enumerate(zip(got, want)):
        diff = np.flatnonzero(np.asarray(g["bits"]) != np.asarray(w["bits"]))
        assert diff.size == 0, f"output {i}: {diff.size} of {len(w['bits'])} differ: {diff[:5]}"


def _close(got, want):
    assert [(g["dtype"], g["shape"]) for g in got] == [(w["dtype"], w["shape"]) for w in want]
    for i, (g, w) in enumerate(zip(got, want)):
        np.testing.assert_allclose(_values(g), _values(w), rtol=2e-5, atol=2e-6,
                                   err_msg=f"output {i}")


@pytest.mark.parametrize("name", strict(sorted(CASES), STRICT))
def test_random_numbers_are_tfs_bits(name):
    _same_bits(run_case(tf, CASES[name]), RECORDED["cases"][name])


@pytest.mark.parametrize("name", strict(sorted(STRATEGY_CASES), ["mirrored_run_stateful"]))
def test_random_numbers_under_mirrored_strategy_are_tfs_bits(name):
    _same_bits(run_case(tf, STRATEGY_CASES[name], DEVICES), RECORDED["strategy_cases"][name])


@pytest.mark.parametrize("name", strict(sorted(FIT_CASES),
                                        ["fit_dropout_seeded_last_batch_smaller"]))
def test_seeded_fit_with_dropout_gives_tfs_losses_and_weights(name):
    _close(run_case(tf, FIT_CASES[name]), RECORDED["fit_cases"][name])


@pytest.mark.parametrize("name", sorted(STRATEGY_FIT_CASES))
def test_seeded_fit_under_mirrored_strategy_gives_tfs_losses(name):
    _close(run_case(tf, STRATEGY_FIT_CASES[name], DEVICES),
           RECORDED["strategy_fit_cases"][name])


def test_philox_known_answer():
    # Random123's known-answer test for philox4x32-10: zero counter, zero key.
    out = philox_random.philox4x32_10(np.zeros((1, 4), np.uint32), (0, 0))[0]
    assert [hex(v) for v in out] == ["0x6627e8d5", "0xe169c58d", "0xbc57ac4c", "0x9b00dbd8"]


@settings(max_examples=30, deadline=None)
@given(counter=st.integers(0, 2**128 - 1), skip=st.integers(0, 2**70))
def test_skip_is_128_bit_counter_addition(counter, skip):
    gen = philox_random.PhiloxRandom((5, 7), counter)
    np.testing.assert_array_equal(gen.skip(skip).first_blocks(3),
                                  gen.blocks(np.arange(3, dtype=np.uint64) + np.uint64(0))
                                  if skip == 0 else
                                  philox_random.PhiloxRandom((5, 7), (counter + skip) % 2**128)
                                  .first_blocks(3))
    # each block is the counter's own encryption: block k of a state is block 0 at counter+k
    np.testing.assert_array_equal(gen.first_blocks(3)[2], gen.skip(2).first_blocks(1)[0])


@settings(max_examples=30, deadline=None)
@given(seed=st.lists(st.integers(-2**31, 2**31 - 1), min_size=2, max_size=2),
       n=st.integers(1, 40), m=st.integers(1, 40))
def test_a_longer_stateless_draw_starts_with_the_shorter(seed, n, m):
    short, long_ = sorted((n, m))
    for fn in (tf.random.stateless_uniform, tf.random.stateless_normal,
               tf.random.stateless_truncated_normal):
        a, b = fn([short], seed).numpy(), fn([long_], seed).numpy()
        np.testing.assert_array_equal(a, b[:short])


@settings(max_examples=20, deadline=None)
@given(words=st.lists(st.integers(0, 2**32 - 1), min_size=4, max_size=64))
def test_uniform_conversions_stay_in_unit_interval(words):
    x = np.asarray(words, dtype=np.uint32)
    for conv in (D.uint32_to_float, D.uint16_to_half, D.uint16_to_bfloat16):
        u = conv(x).astype(np.float64)
        assert (u >= 0).all() and (u < 1).all()
    d = D.uint64_to_double(x[0:-1:2], x[1::2])
    assert (d >= 0).all() and (d < 1).all()


def test_truncated_normal_stays_within_two_stddevs():
    z = tf.random.stateless_truncated_normal([5000], [3, 4], mean=1.0, stddev=0.5).numpy()
    assert np.abs(z - 1.0).max() < 1.0 and abs(z.std() - 0.5 * 0.8796) < 0.02


def test_bad_seed_and_alg_are_refused_with_tfs_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="shape \\[2\\]"):
        tf.random.stateless_uniform([2], [1, 2, 3])
    with pytest.raises(ValueError, match="unsupported value"):
        tf.random.stateless_uniform([2], [1, 2], alg="mersenne")
    with pytest.raises(tf.errors.InvalidArgumentError, match="minval < maxval"):
        tf.random.uniform([2], 3, 3, dtype=tf.int32)

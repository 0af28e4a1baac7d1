"""check_equivalent_to_single_device passes a loop that scales by the global batch and
rejects the two classic mistakes (per-replica mean; the unsplit dataset)."""

from __future__ import annotations

import numpy as np
import pytest

import simdist as tf
from simdist.hardware.machine import get_machine
from simdist.testing import check_equivalent_to_single_device

RNG = np.random.default_rng(0)
X = RNG.normal(size=(32, 3)).astype(np.float32)
Y = RNG.normal(size=(32, 1)).astype(np.float32)


def make_train(loss_kind="global", distribute=True, seed=1):
    def train(strategy):
        if seed is not None:
            tf.keras.utils.set_random_seed(seed)
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,))])
            opt = tf.keras.optimizers.SGD(0.1)
        ds = tf.data.Dataset.from_tensor_slices((X, Y)).batch(8)

        def step(batch):
            x, y = batch
            with tf.GradientTape() as tape:
                per_example = tf.square(model(x) - y)[:, 0]
                loss = (tf.nn.compute_average_loss(per_example, global_batch_size=8)
                        if loss_kind == "global" else tf.reduce_mean(per_example))
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))

        for batch in (strategy.experimental_distribute_dataset(ds) if distribute else ds):
            strategy.run(step, args=(batch,))
        return model.get_weights()
    return train


def test_a_loop_scaled_by_the_global_batch_passes_and_the_machine_is_kept():
    before = get_machine()
    check_equivalent_to_single_device(make_train(), num_replicas=(2, 3, 4))
    assert get_machine() is before


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("kwargs", [{"loss_kind": "per_replica_mean"},
                                    {"distribute": False}])
def test_classic_mistakes_are_rejected_with_a_hint(kwargs):
    with pytest.raises(AssertionError, match="(?s)2 replicas do not train like one device.*"
                       "compute_average_loss"):
        check_equivalent_to_single_device(make_train(**kwargs))


def test_an_unseeded_loop_is_told_to_seed():
    with pytest.raises(AssertionError, match="set_random_seed"):
        check_equivalent_to_single_device(make_train(seed=None), num_replicas=2)


def test_bad_replica_counts_are_refused():
    with pytest.raises(ValueError, match="positive integers"):
        check_equivalent_to_single_device(make_train(), num_replicas=[])

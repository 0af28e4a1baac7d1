"""An eager kernel error names the device simdist ran the op on, in TF's wrapping
(simdist/framework/eager_errors.py): TF's texts are replayed by test_tf_conformance.py
(recorded on TF's CPU; a simulated GPU k reads there as the recorder's CPU k) and
test_function_errors.py (logical CPUs). Here: the simulated GPUs TF would name, the
wrapping added once, and none where TF's graph-mode texts have none."""

import pytest

import simdist as tf

PREFIX = "{{function_node __wrapped__GatherV2_device_/job:localhost/replica:0/task:0/device:"


def _message(fn) -> str:
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        fn()
    return str(info.value)


@pytest.mark.parametrize("device", ["GPU:0", "GPU:2", "CPU:0"])
def test_the_device_scope_is_named(device):
    with tf.device(f"/{device}"):
        text = _message(lambda: tf.gather(tf.ones([2]), 5))
    assert text == PREFIX + device + "}} indices = 5 is not in [0, 2) [Op:GatherV2] name: "


def test_an_op_runs_where_its_input_is():
    with tf.device("/GPU:3"):
        x = tf.ones([2])
    assert _message(lambda: tf.gather(x, 5)).startswith(PREFIX + "GPU:3}} ")


def test_a_replica_names_its_own_device():
    strategy = tf.distribute.MirroredStrategy(["/gpu:0", "/gpu:1"])
    texts = []

    def fn():
        ctx = tf.distribute.get_replica_context()
        try:
            tf.gather(tf.ones([2]), 5 + ctx.replica_id_in_sync_group)
        except tf.errors.InvalidArgumentError as e:
            texts.append(str(e))
        return tf.constant(0)

    strategy.run(fn)
    assert sorted(texts) == [PREFIX + "GPU:0}} indices = 5 is not in [0, 2) [Op:GatherV2] "
                             "name: ", PREFIX + "GPU:1}} indices = 6 is not in [0, 2) "
                             "[Op:GatherV2] name: "]


def test_a_composite_op_wraps_its_kernel_once():
    loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    text = _message(lambda: loss(tf.constant([5]), tf.ones([1, 3])))
    assert text.count("{{function_node") == 1
    assert text.startswith("{{function_node __wrapped__SparseSoftmaxCrossEntropyWithLogits_")


def test_shape_inference_keeps_the_kernel_text():
    with pytest.raises(ValueError) as info:   # a Keras functional call: TF's graph mode
        tf.reshape(tf.keras.Input((3,)), [5, 7])
    assert "[Op:Reshape]" in str(info.value) and "{{function_node" not in str(info.value)

"""``tf.TensorArray``: tensor_array_cases.CASES replayed against TF 2.21's recording
(record_tf_function.py; each tf.function traced into a graph, no eager fallback), and its
properties: a write/read sequence gives Python list semantics (eagerly and traced, where a
traced loop's Python body runs once), and unstack then stack gives the tensor back."""

import io
import os
from contextlib import redirect_stdout

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from tensor_array_cases import CASES
from tf_snippets import conformance_tests, split_cpu

import simdist as tf
from simdist.testing.log_capture import tf_logs

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_tensor_array.json"): CASES},
    before_each=lambda: split_cpu(tf, 4), traced=True)

# (index, value) writes into an array of 6 elements
_WRITES = st.lists(st.tuples(st.integers(0, 5), st.integers(-50, 50)), max_size=10)


def _python_list(writes, size=6):
    out = [0] * size
    for i, v in writes:
        out[i] = v
    return out


@settings(max_examples=25)
@given(writes=_WRITES)
def test_eager_writes_then_stack_follow_python_list_semantics(writes):
    ta = tf.TensorArray(tf.int32, size=6, clear_after_read=False, element_shape=[])
    for i, v in writes:
        ta = ta.write(i, v)
    want = _python_list(writes)
    assert ta.stack().numpy().tolist() == want
    assert [int(ta.read(i)) for i in range(6)] == want


def test_traced_writes_in_a_graph_loop_follow_python_list_semantics():
    @tf.function
    def apply(indices, values):
        print("tracing")
        ta = tf.TensorArray(tf.int32, size=6)
        for k in tf.range(tf.size(indices)):
            ta = ta.write(indices[k], values[k])
        return ta.stack()

    printed = io.StringIO()

    @settings(max_examples=20)
    @given(writes=_WRITES.filter(lambda w: len({i for i, _ in w}) == len(w) and w))
    def check(writes):
        idx, vals = zip(*writes)
        with redirect_stdout(printed):
            got = apply(tf.constant(idx, tf.int32), tf.constant(vals, tf.int32))
        assert got.numpy().tolist() == _python_list(writes)

    with tf_logs(contains="could not trace") as fallbacks:
        check()
    assert fallbacks.messages == []
    # one trace per distinct length of the argument tensors (their shapes), Python body once
    assert printed.getvalue().count("tracing") == apply.experimental_get_tracing_count()


@settings(max_examples=25)
@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=3), traced=st.booleans())
def test_unstack_then_stack_is_the_identity(shape, traced):
    x = tf.constant(np.arange(np.prod(shape), dtype=np.float32).reshape(shape))

    def roundtrip(t):
        return tf.TensorArray(tf.float32, size=t.shape[0]).unstack(t).stack()

    got = tf.function(roundtrip)(x) if traced else roundtrip(x)
    assert got.shape == x.shape
    np.testing.assert_array_equal(got.numpy(), x.numpy())

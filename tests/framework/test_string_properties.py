"""Properties of string tensors: any text round-trips through tf.constant as its UTF-8
bytes, tf.print quotes every element and joins agree with Python's (hypothesis)."""

import os
import tempfile

from hypothesis import given, settings
from hypothesis import strategies as st

import simdist as tf
from simdist.testing.strategies import string_lists, utf8_texts

texts = string_lists()


def _utf8(v):
    return v if isinstance(v, bytes) else v.encode("utf-8")


@settings(max_examples=60, deadline=None)
@given(texts)
def test_text_round_trips_as_utf8_bytes(values):
    t = tf.constant(values)
    assert t.dtype == tf.string and t.shape == (len(values),)
    assert list(t.numpy()) == [_utf8(v) for v in values]
    assert [x.numpy() for x in t] == [_utf8(v) for v in values]


@settings(max_examples=60, deadline=None)
@given(texts, utf8_texts(max_size=2))
def test_joins_agree_with_python(values, sep):
    t = tf.constant(values)
    joined = _utf8(sep).join(_utf8(v) for v in values)
    assert tf.strings.reduce_join(t, separator=sep).numpy() == joined
    pairs = tf.strings.join([t, t], separator=sep).numpy()
    assert list(pairs) == [_utf8(v) + _utf8(sep) + _utf8(v) for v in values]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(alphabet="ab ", max_size=4), min_size=1, max_size=4))
def test_print_quotes_each_element(values):
    fd, path = tempfile.mkstemp()
    os.close(fd)
    try:
        tf.print(tf.constant(values), output_stream="file://" + path, summarize=-1)
        with open(path) as f:
            printed = f.read()
    finally:
        os.remove(path)
    assert printed == "[" + " ".join(f'"{v}"' for v in values) + "]\n"

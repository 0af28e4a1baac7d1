"""simdist.testing.log_capture keeps what the "tensorflow" logger says, only inside its block."""

import logging

import pytest

from simdist.testing.log_capture import tf_logs

LOGGER = logging.getLogger("tensorflow")


def test_filters_by_text_and_level():
    with tf_logs(contains="could not trace") as seen, tf_logs() as everything:
        LOGGER.warning("simdist could not trace tf.function 'f' into a graph")
        LOGGER.warning("5 out of the last 5 calls triggered tf.function retracing")
        LOGGER.info("below WARNING: not kept")
    assert seen.messages == ["simdist could not trace tf.function 'f' into a graph"]
    assert everything.messages == [
        "simdist could not trace tf.function 'f' into a graph",
        "5 out of the last 5 calls triggered tf.function retracing"]


def test_detached_after_the_block_even_on_error():
    with pytest.raises(ValueError), tf_logs() as seen:
        raise ValueError("the block failed")
    LOGGER.warning("after the block")
    assert seen.messages == []
    assert seen not in LOGGER.handlers

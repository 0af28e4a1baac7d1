"""TF's "Random number generation" guide (programs/random_numbers.py) runs under simdist and
prints what TF 2.21 printed (``record_tf_tutorials.py 1 random_numbers``): tf.random.Generator
seeded, reset, split and made inside tf.function, passed to tf.function (two generators,
two traces in TF 2.21, whatever the guide's text says), used by MirroredStrategy replicas
from outside and inside the strategy, and the stateless ops. No tf.function falls back to
eager."""

from test_tutorials import _replays_traced, cpu_machine  # noqa: F401 - the fixture


def test_random_numbers_guide_prints_what_tensorflow_printed(cpu_machine):  # noqa: F811
    cpu_machine(1)
    _replays_traced("random_numbers")

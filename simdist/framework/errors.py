"""``tf.errors`` where the framework layer names it (TF: tensorflow/python/framework/
errors_impl.py). The classes live in ``simdist/errors.py``, in the bottom layer, so that
every layer (the simulated hardware's out-of-memory included) raises TF's exceptions."""

from simdist.errors import *  # noqa: F403

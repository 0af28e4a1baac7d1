"""Keras backend state: float type, fuzz factor, layer-name counters and cached logits.

Glossary:
  epsilon()      -- the fuzz factor (1e-7) Keras clips probabilities with.
  floatx()       -- the default float type of new weights ('float32').
  image_data_format() -- where image layers expect the channels ('channels_last' by
                    default, or 'channels_first'); Flatten reads it.
  get_uid(name)  -- per-session counter that gives 'dense', 'dense_1', ... to layers.
  keras logits   -- a sigmoid/softmax output remembers its input (Keras sets
                    ``output._keras_logits``), so crossentropy on it is computed from logits.
                    simdist tensors have no ``__dict__``, so the link lives in a weak table.
  keras mask     -- a per-example loss may carry the mask of the examples it counts
                    (``_keras_mask``: ``ignore_class``), kept in the same kind of table.
  clear_session  -- forget the name counters.
  get_value / set_value -- read a variable as NumPy / assign it (every copy).
  random_normal / random_uniform -- ``tf.random.normal`` / ``uniform`` of floatx, whose op
                    seed, when none is given, is ``np.random.randint(10e6)``: NumPy's global
                    generator, which ``set_random_seed`` seeds (tf-keras's backend).
  dot(x, y)      -- ``tf.matmul``; above rank 2, ``x``'s last axis against ``y``'s
                    second-to-last by reshaping both to matrices (Keras's ``backend.dot``).
  seed generator -- ``tf.keras.utils.set_random_seed(s)`` leaves a ``random.Random(s)`` in
                    this thread (``_SEED_GENERATOR``); clear_session keeps it, as Keras's.
  RandomGenerator -- what Keras's initializers draw with (``rng_type="stateless"``): the
                    user's seed, or one drawn on first use from the seed generator (Python's
                    ``random`` when there is none), keys stateless ops, so the same instance
                    gives the same numbers every call. ``tf.random.set_seed`` alone does not
                    make them reproducible; ``tf.keras.utils.set_random_seed`` does.

Mirrors keras/src/backend.py and backend_config.py.
"""

from __future__ import annotations

import collections
import functools
import random
import threading
import weakref

import numpy as np

from simdist import _world
from simdist.distribute import distribution_strategy_context as ds_context
from simdist.framework import func_graph, section_plan
from simdist.framework import tensor as tensor_lib
from simdist.framework.ops import random_ops
from simdist.framework.thread_local import ThreadLocalNamespace

_EPSILON = 1e-7
_FLOATX = "float32"
_IMAGE_DATA_FORMAT = "channels_last"
_uids: collections.defaultdict = collections.defaultdict(int)
_lock = threading.Lock()
_logits: dict[int, tuple] = {}
_masks: dict[int, tuple] = {}
# Per thread, as Keras's: a replica thread has none and falls back on Python's `random`.
_SEED_GENERATOR = ThreadLocalNamespace()


def epsilon() -> float:
    """The fuzz factor used in numeric expressions (1e-7)."""
    return _EPSILON


def set_epsilon(value: float) -> None:
    global _EPSILON
    _EPSILON = float(value)


def floatx() -> str:
    """The default float type, as a string ('float32')."""
    return _FLOATX


def set_floatx(value: str) -> None:
    """Set the default float type ('float16', 'float32' or 'float64')."""
    global _FLOATX
    if value not in ("float16", "float32", "float64", "bfloat16"):
        raise ValueError(f"Unknown `floatx` value: {value}. Expected one of "
                         "{'float16', 'float32', 'float64', 'bfloat16'}")
    _FLOATX = str(value)


def image_data_format() -> str:
    """The default data format of image layers ('channels_last')."""
    return _IMAGE_DATA_FORMAT


def set_image_data_format(data_format: str) -> None:
    """Set the default data format ('channels_first' or 'channels_last').

    Raises:
      ValueError: another value.
    """
    global _IMAGE_DATA_FORMAT
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError(f"Unknown `data_format`: {data_format}. Expected one of "
                         "{'channels_first', 'channels_last'}")
    _IMAGE_DATA_FORMAT = str(data_format)


def get_uid(prefix: str = "") -> int:
    """1, 2, 3 ... per prefix in this session."""
    with _lock:
        _uids[prefix] += 1
        return _uids[prefix]


def unique_name(base: str) -> str:
    """'dense' the first time, then 'dense_1', 'dense_2' ... (Keras's layer naming)."""
    n = get_uid(base)
    return base if n == 1 else f"{base}_{n - 1}"


_observed_names: set = set()  # every layer name given since the session began


def observe_name(name: str) -> None:
    """Note a layer's name, which ``unique_object_name`` avoids."""
    _observed_names.add(name)


def unique_object_name(base: str) -> str:
    """``unique_name`` skipping names a layer already has (an op layer's name: the user
    cannot choose it, so Keras avoids a clash with ``avoid_observed_names``)."""
    name = unique_name(base)
    while name in _observed_names:
        name = unique_name(base)
    return name


@_world.register_resetter
def clear_session() -> None:
    """Reset the layer-name counters (``tf.keras.backend.clear_session``)."""
    global _FLOATX, _IMAGE_DATA_FORMAT
    with _lock:
        _uids.clear()
        _observed_names.clear()
    _logits.clear()
    _masks.clear()
    _FLOATX = "float32"
    _IMAGE_DATA_FORMAT = "channels_last"


@_world.register_resetter
def _forget_seed_generator() -> None:
    """A fresh world has no ``set_random_seed`` generator (not part of clear_session)."""
    _SEED_GENERATOR.generator = None


class RandomGenerator:
    """Draws for a Keras initializer: stateless ops keyed by ``[seed, 0]``.

    Mirrors the ``rng_type="stateless"`` kind of keras/src/backend.py's RandomGenerator, the
    one Keras 2.15's initializers use (Dropout draws from ``tf.random`` directly).
    """

    def __init__(self, seed=None):
        self._seed = seed
        self._built = False

    def make_seed_for_stateless_op(self) -> list:
        """``[seed, 0]``; an unseeded generator draws its seed on the first call, not when
        made, so which initializer gets which seed follows the order they are called in."""
        if not self._built:
            self._seed = self._create_seed(self._seed)
            self._built = True
        return [self._seed, 0]

    @staticmethod
    def _create_seed(user_specified_seed) -> int:
        if user_specified_seed is not None:
            return user_specified_seed
        # Keras writes randint(1, 1e9); the integer bound draws the same numbers without
        # Python 3.11's DeprecationWarning about a float argument.
        generator = getattr(_SEED_GENERATOR, "generator", None) or random
        return generator.randint(1, int(1e9))

    def random_normal(self, shape, mean=0.0, stddev=1.0, dtype=None):
        return random_ops.stateless_normal(shape, self.make_seed_for_stateless_op(), mean,
                                           stddev, dtype=dtype or floatx())

    def random_uniform(self, shape, minval=0.0, maxval=None, dtype=None):
        return random_ops.stateless_uniform(shape, self.make_seed_for_stateless_op(), minval,
                                            maxval, dtype=dtype or floatx())

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=None):
        return random_ops.stateless_truncated_normal(
            shape, self.make_seed_for_stateless_op(), mean, stddev, dtype=dtype or floatx())


def _set_attr(table, tensor, value) -> None:
    key = id(tensor)

    def forget(_ref, key=key):
        table.pop(key, None)

    table[key] = (weakref.ref(tensor, forget), value)
    graph = func_graph.current()
    if graph is not None and func_graph.is_symbolic(tensor):
        # In a traced tf.function the mark is a graph node too: each execution marks its
        # own tensor (TF's graph finds the logits through the op, as eager Keras does).
        graph.record(functools.partial(_set_attr, table), "stateful", None, (tensor, value),
                     {}, "keras_attr")


section_plan.register_mark(_set_attr, plain=True)   # marks an output: a section runs it after


def _get_attr(table, tensor):
    entry = table.get(id(tensor))
    if entry is None or entry[0]() is not tensor:
        return None
    return entry[1]


def set_keras_logits(output, logits) -> None:
    """Remember that ``output`` = activation(``logits``) (Keras's ``_keras_logits``)."""
    _set_attr(_logits, output, logits)


def get_keras_logits(output):
    """The logits ``output`` was computed from by sigmoid/softmax, or None."""
    return _get_attr(_logits, output)


def set_keras_mask(tensor, mask) -> None:
    """Remember which entries of ``tensor`` count (Keras's ``_keras_mask``)."""
    _set_attr(_masks, tensor, mask)


def get_keras_mask(tensor):
    """The mask set by :func:`set_keras_mask`, or None."""
    return _get_attr(_masks, tensor)


tensor_lib.KERAS_MASK_HOOKS[:] = [get_keras_mask, set_keras_mask]


def int_shape(x) -> tuple:
    return tuple(x.shape)


def dot(x, y):
    """Multiply ``x`` by ``y`` over ``x``'s last and ``y``'s second-to-last axis."""
    from simdist.framework.ops import array_ops as A
    from simdist.framework.ops import math_ops as M

    x, y = A._t(x), A._t(y)
    if len(x.shape) <= 2 and len(y.shape) <= 2:
        return M.matmul(x, y)
    x_shape = [i if i is not None else s for i, s in zip(x.shape, A.unstack(A.shape(x)))]
    y_shape = [i if i is not None else s for i, s in zip(y.shape, A.unstack(A.shape(y)))]
    perm = list(range(len(y.shape)))
    perm = [perm.pop(-2)] + perm
    xt = A.reshape(x, [-1, x_shape[-1]])
    yt = A.reshape(A.transpose(y, perm), [y_shape[-2], -1])
    return A.reshape(M.matmul(xt, yt), x_shape[:-1] + y_shape[:-2] + y_shape[-1:])


def std(x, axis=None, keepdims=False):
    """The standard deviation of ``x`` over ``axis`` (tf-keras's ``backend.std``: a
    boolean tensor is cast to floatx first)."""
    from simdist.framework.ops import array_ops as A
    from simdist.framework.ops import math_ops as M

    x = A._t(x)
    if x.dtype.is_bool:
        x = A.cast(x, floatx())
    return M.reduce_std(x, axis=axis, keepdims=keepdims)


def random_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """``tf.random.normal`` of floatx, its op seed drawn from NumPy when not given."""
    seed = np.random.randint(10e6) if seed is None else seed
    return random_ops.normal(shape, mean=mean, stddev=stddev, dtype=dtype or floatx(), seed=seed)


def random_uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """``tf.random.uniform`` of floatx, its op seed drawn from NumPy when not given."""
    seed = np.random.randint(10e6) if seed is None else seed
    return random_ops.uniform(shape, minval=minval, maxval=maxval, dtype=dtype or floatx(),
                              seed=seed)


def name_scope(name):
    import contextlib

    return contextlib.nullcontext()


def get_value(x):
    """The value of a variable or tensor as NumPy (a Python number stays as it is)."""
    return x.numpy() if hasattr(x, "numpy") else x


def set_value(x, value) -> None:
    """Assign ``value`` to the variable ``x`` (all its copies, when it is distributed)."""
    with ds_context.enter_or_assert_strategy(ds_context.strategy_of(x)):
        x.assign(value)

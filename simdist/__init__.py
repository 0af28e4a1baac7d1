"""simdist: TensorFlow's ``tf.distribute``, simulated step by step in NumPy.

``import simdist as tf`` gives the names TensorFlow code uses; this file holds names only.
"""

__version__ = "2.15.0+simdist.0.1.0"  # the TF API level simdist follows, then its own version

from simdist import framework as _framework  # noqa: I001 - order: framework before users
from simdist import errors
from simdist.framework import dtypes, nest
from simdist.framework.dtypes import (
    DType, as_dtype, bfloat16, bool_ as bool, complex64, complex128, double, float16, float32,
    float64, half, int8, int16, int32, int64, string, uint8, uint16, uint32, uint64, variant,
)
from simdist.framework.tensor import Tensor
from simdist.framework.tensor_shape import TensorShape
from simdist.framework.context import device, executing_eagerly
from simdist.framework.backprop import GradientTape, UnconnectedGradients
from simdist.framework.indexed_slices import IndexedSlices
from simdist.framework.variables import (
    Variable, VariableAggregation, VariableSynchronization, variable_creator_scope,
)
from simdist.framework import ops as _ops
from simdist.framework.ops.array_ops import convert_to_tensor
from simdist.framework.ops.array_ops import (
    broadcast_to, cast, concat, constant, expand_dims, fill, gather, identity, one_hot, ones,
    ones_like, range, rank, reshape, reverse, shape, size, split, squeeze, stack,
    stop_gradient, tile, transpose, unstack, where, zeros, zeros_like,
)
from simdist.framework.ops.math_ops import (
    abs, add, add_n, argmax, argmin, clip_by_value, divide, equal, exp, floor, greater,
    greater_equal, less, less_equal, log, logical_and, logical_not, logical_or, matmul,
    maximum, minimum, multiply, negative, norm, not_equal, pow, reduce_all, reduce_any,
    reduce_logsumexp, reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_sum, round,
    sigmoid, sign, sqrt, square, subtract, tanh, truediv,
)
from simdist.framework.ops.clip_ops import clip_by_global_norm, clip_by_norm
from simdist.framework.ops.script_ops import numpy_function, py_function
from simdist.framework.ops.selection_ops import boolean_mask, slice, unique  # noqa: A004
from simdist.framework.ops.pad_ops import pad
from simdist.framework.ops.linspace_ops import linspace
from simdist.framework.ops.scan_ops import cumsum
from simdist.framework.ops.map_fn import map_fn
from simdist.framework.ops.parallel_for import vectorized_map
from simdist.framework.ops.functional_ops import foldl, foldr, scan
from simdist.framework.ops.linalg_ops import eye
from simdist.framework.ops.special_math_ops import einsum
from simdist.framework.ops.tensordot_ops import tensordot
from simdist.framework.ops.sort_ops import argsort, sort
from simdist.framework.ops.scatter_nd_ops import (
    gather_nd,
    scatter_nd,
    tensor_scatter_nd_add,
    tensor_scatter_nd_max,
    tensor_scatter_nd_min,
    tensor_scatter_nd_sub,
    tensor_scatter_nd_update,
)
from simdist.framework.ops.check_ops import ensure_shape
from simdist.framework.ops.assert_ops import assert_equal, assert_greater, assert_less, assert_rank
from simdist.framework.ops.trig_ops import (
    acos, acosh, asin, asinh, atan, atan2, atanh, cos, cosh, sin, sinh, tan,
)
from simdist.framework.tensor_spec import TensorSpec
from simdist.framework.composite_specs import RaggedTensorSpec, SparseTensorSpec
from simdist.framework.ragged_tensor import RaggedTensor
from simdist.framework.sparse_tensor import SparseTensor
from simdist.framework.ops.tensor_array_ops import TensorArray, TensorArraySpec
from simdist.framework.name_scope import init_scope, name_scope
from simdist.framework.module import Module
from simdist.framework.ops.logging_ops import print_v2 as print  # noqa: A001 - TF's name
from simdist.framework.ops.control_flow_ops import (
    case, control_dependencies, group, switch_case,
    cond_for_tf_v2 as cond, while_loop_v2 as while_loop,
)

from simdist.framework.function import function
from simdist.framework.custom_gradient import custom_gradient
from simdist.platform.tf_logging import get_logger
from simdist import config, debugging, image, io, linalg, math, nn, random, strings
from simdist import _operators as __operators__
from simdist.framework import dispatch as _dispatch

_dispatch.export_ops(globals(), "")  # TF's ops hand Keras symbolic tensors to op layers

newaxis = None

# Loaded on first use, as TF's lazy loader does (tensorflow/python/util/lazy_loader.py):
# tf.distribute, Keras, tf.data, checkpoints and SavedModel cost most of an eager
# ``import simdist`` (``tf.distribute`` works as before: it loads on first use).
_LAZY_MODULES = ("autograph", "compat", "data", "distribute", "experimental", "faults", "keras",
                 "profiler",
                 "ragged", "saved_model", "sparse", "summary", "tpu", "train")
# TF 2's short names of Keras's modules (tf.metrics.SparseCategoricalAccuracy() ...).
_KERAS_ALIASES = ("metrics", "losses", "optimizers")


def __getattr__(name):
    import importlib

    if name in _LAZY_MODULES:
        module = importlib.import_module(f"simdist.{name}")
    elif name in _KERAS_ALIASES:
        module = getattr(importlib.import_module("simdist.keras"), name)
    else:
        raise AttributeError(f"module 'simdist' has no attribute {name!r}")
    globals()[name] = module
    return module


def __dir__():
    return sorted(set(globals()) | set(_LAZY_MODULES) | set(_KERAS_ALIASES))


def is_tensor(x) -> bool:
    """True for a Tensor or a tensor-like value (a Variable, a distributed value)."""
    return isinstance(x, Tensor) or hasattr(x, "_as_tensor")


# What an import leaves (modules, their functions and classes: ~30,000 objects with
# NumPy's) lives as long as the process. Moved to the collector's permanent generation
# (gc.freeze: CPython's advice for long-lived start-up state), it is no longer walked by
# every full collection (seed 001's 5-epoch loop: one full collection instead of two, 1.4 %
# fewer instructions in all). No tensor or other simulated object exists yet, so no
# simulated memory waits on it; ``gc.unfreeze()`` undoes it.
__import__("gc").freeze()

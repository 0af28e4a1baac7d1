"""The ``tf`` names of simdist's framework (the facade's, loaded on their first use).

Glossary:
  first use -- ``simdist.__getattr__`` imports this package the first time a program asks
               ``simdist`` for one of these names (``tf.constant``, ``from simdist import
               Variable``, ``dir(tf)``); its import of simdist.framework loads all of the
               framework, in one order, and freezes it (gc.freeze).
  publish   -- the load's last lines copy these names into ``simdist``: ``tf.constant``
               is a plain attribute from then on.

Mirrors the generated tensorflow/_api/v2/__init__.py (the names) and
tensorflow/python/util/lazy_loader.py (loading on first use).
"""

from simdist import framework as _framework  # noqa: I001 - the framework, in its order
from simdist import errors
from simdist.framework import dtypes, nest
from simdist.framework.dtypes import (
    DType, as_dtype, bfloat16, bool_ as bool, complex64, complex128, double, float16, float32,
    float64, half, int8, int16, int32, int64, resource, string, uint8, uint16, uint32, uint64,
    variant,
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


def is_tensor(x) -> bool:
    """True for a Tensor or a tensor-like value (a Variable, a distributed value)."""
    return isinstance(x, Tensor) or hasattr(x, "_as_tensor")


def _publish() -> None:
    import simdist

    for name, value in list(globals().items()):
        if not name.startswith("_") or name == "__operators__":
            simdist.__dict__.setdefault(name, value)


_publish()

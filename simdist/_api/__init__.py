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
    broadcast_to, cast, concat, constant, expand_dims, fill, gather, identity, identity_n,
    one_hot, ones, ones_like, range, rank, reshape, reverse, shape, size, split, squeeze,
    stack, stop_gradient, tile, transpose, unstack, where, zeros, zeros_like,
)
from simdist.framework.ops.math_ops import (
    abs, add, add_n, argmax, argmin, clip_by_value, divide, equal, exp, floor, greater,
    greater_equal, less, less_equal, log, logical_and, logical_not, logical_or, matmul,
    maximum, minimum, multiply, negative, norm, not_equal, pow, reduce_all, reduce_any,
    reduce_logsumexp, reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_sum, round,
    sigmoid, sign, sqrt, square, subtract, tanh, truediv,
)
from simdist.framework import dispatch as _dispatch

# The names whose module loads on their first use (``_load``): TF's less common ops, its
# composite tensors, tf.function and its control flow, the submodules' own names.
# name -> (module, its attribute there).
_LAZY: dict = {}
for _module, _names in {
    "framework.ops.clip_ops": "clip_by_global_norm clip_by_norm",
    "framework.ops.init_ops_v2": "constant_initializer=Constant ones_initializer=Ones "
                                 "random_normal_initializer=RandomNormal "
                                 "random_uniform_initializer=RandomUniform "
                                 "zeros_initializer=Zeros",
    "framework.ops.script_ops": "numpy_function py_function",
    "framework.ops.selection_ops": "boolean_mask slice unique",
    "framework.ops.pad_ops": "pad",
    "framework.ops.histogram_ops": "histogram_fixed_width histogram_fixed_width_bins",
    "framework.ops.linspace_ops": "linspace",
    "framework.ops.scan_ops": "cumsum",
    "framework.ops.map_fn": "map_fn",
    "framework.ops.parallel_for": "vectorized_map",
    "framework.ops.functional_ops": "foldl foldr scan",
    "framework.ops.linalg_ops": "eye",
    "framework.ops.special_math_ops": "einsum",
    "framework.ops.tensordot_ops": "tensordot",
    "framework.ops.sort_ops": "argsort sort",
    "framework.ops.scatter_nd_ops": "gather_nd scatter_nd tensor_scatter_nd_add "
                                    "tensor_scatter_nd_max tensor_scatter_nd_min "
                                    "tensor_scatter_nd_sub tensor_scatter_nd_update",
    "framework.ops.check_ops": "ensure_shape",
    "framework.ops.assert_ops": "assert_equal assert_greater assert_less assert_rank",
    "framework.ops.trig_ops": "acos acosh asin asinh atan atan2 atanh cos cosh sin sinh tan",
    "framework.tensor_spec": "TensorSpec",
    "framework.composite_specs": "RaggedTensorSpec SparseTensorSpec",
    "framework.ragged_tensor": "RaggedTensor",
    "framework.sparse_tensor": "SparseTensor",
    "framework.ops.tensor_array_ops": "TensorArray TensorArraySpec",
    "framework.name_scope": "init_scope name_scope",
    "framework.module": "Module",
    "framework.ops.logging_ops": "print=print_v2",
    "framework.ops.control_flow_ops": "case control_dependencies group switch_case "
                                      "cond=cond_for_tf_v2 while_loop=while_loop_v2",
    "framework.function": "function",
    "framework.custom_gradient": "custom_gradient",
    "platform.tf_logging": "get_logger",
    "_operators": "__operators__=",   # the module itself
}.items():
    for _name in _names.split():
        _tf_name, _renamed, _attribute = _name.partition("=")
        _LAZY[_tf_name] = ("simdist." + _module, _attribute if _renamed else _tf_name)


def _load(name: str):
    """The value of the lazily loaded ``tf`` name ``name`` (loading its module), published
    in ``simdist`` and made dispatching where TF's is (``dispatch.export_ops``)."""
    import importlib

    import simdist

    module, attribute = _LAZY[name]
    value = importlib.import_module(module)
    if attribute:
        value = getattr(value, attribute)
    namespace = {name: value}
    _dispatch.export_ops(namespace, "", home="simdist")   # pickled as simdist.<name>
    return simdist.__dict__.setdefault(name, namespace[name])


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

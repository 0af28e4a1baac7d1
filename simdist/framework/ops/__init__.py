"""simdist's ops: array, math, nn and random ops, their gradient rules and the operators.

Glossary:
  array_ops / math_ops / nn_ops / random_ops / linalg_ops -- the public ops (``tf.*``,
                   ``tf.math``, ``tf.nn``, ``tf.random``, ``tf.linalg``); conv_ops /
                   pooling_ops -- ``tf.nn.conv2d``, ``max_pool2d``, ``avg_pool2d``.
  *_grad         -- the gradient rules, registered in ``execute.GRADIENTS`` at import.
  scatter_nd_ops -- ``tf.gather_nd``, ``tf.scatter_nd``, ``tf.tensor_scatter_nd_*``.
  scan_ops       -- ``tf.math.cumsum``, ``cumprod``, ``cumulative_logsumexp``.
  sparse_ops     -- ``tf.sparse``'s ops; embedding_ops -- ``tf.nn.embedding_lookup``.
  fused_batch_norm_ops -- FusedBatchNormV3 and its gradient (Keras's fused normalizations).
  linalg_decompositions / linalg_impl -- ``tf.linalg.svd``, ``qr``, ``eigh``, ``slogdet``,
                   ``triangular_solve`` (kernel ops) / ``logdet``, ``pinv``, ``lstsq`` ...
                   (TF's composites of them).
  map_fn / functional_ops -- ``tf.map_fn``, ``tf.scan``, ``tf.foldl``, ``tf.foldr``: while
                   loops over TensorArrays, as TF builds them.
  numerics       -- ``tf.debugging.check_numerics``; trig_ops -- sin, cos ... atan2, expm1,
                   ceil (a table); image_ops -- ``tf.image``; special_math_ops -- ``tf.einsum``.
  image_resize_ops / image_geometry_ops / image_projective_ops -- ``tf.image.resize``,
                   crops and flips, ImageProjectiveTransformV3 (Keras's augmentation layers).
  string_ops     -- ``tf.strings`` (join, length, to_number ...); op_types -- the element
                   types each op takes, and TF's error for a string given to a numeric op.
  list_ops / tensor_array_ops -- TF's TensorList variant ops and ``tf.TensorArray`` over them
                   (graph) or over a Python list (eager).
  overloads      -- attaches ``+ - * / @ < == []`` ... to ``Tensor`` and ``Variable``.
Importing this package registers everything, and makes the public functions recorded ops
(``func_graph.recorded``: a call while tracing a tf.function becomes a graph node) before
``overloads`` binds the operators to them.

Mirrors tensorflow/python/ops/.
"""

from simdist.framework.ops import array_ops, math_ops, nn_ops, random_ops  # isort: skip
from simdist.framework.ops import conv_ops, linalg_ops, pooling_ops  # isort: skip
from simdist.framework.ops import array_grad, conv_grad, linalg_grad, math_grad  # isort: skip
from simdist.framework.ops import clip_ops, dropout_ops, losses_util  # isort: skip
from simdist.framework.ops import logging_ops, numerics, string_ops, trig_ops  # isort: skip
from simdist.framework.ops import list_ops  # isort: skip - its ops are recorded as declared
from simdist.framework.ops import check_ops, pad_ops, selection_ops, sort_ops  # isort: skip
from simdist.framework.ops import image_ops, linspace_ops, special_math_ops  # isort: skip
from simdist.framework.ops import image_geometry_ops, image_projective_ops  # isort: skip
from simdist.framework.ops import image_resize_ops  # isort: skip
from simdist.framework.ops import image_resize_grad  # isort: skip
from simdist.framework.ops import scatter_nd_ops, scan_ops, tensordot_ops  # isort: skip
from simdist.framework.ops import linalg_decompositions  # isort: skip
from simdist.framework.ops import embedding_ops, sparse_ops  # isort: skip
from simdist.framework.ops import fused_batch_norm_ops  # isort: skip
from simdist.framework import func_graph as _func_graph  # isort: skip
from simdist.framework import graph_operations as _graph_operations  # isort: skip
from simdist.framework import linspace_listing as _linspace_listing  # isort: skip
from simdist.framework import xent_listing as _xent_listing  # isort: skip
from simdist.framework import tensordot_listing as _tensordot_listing  # isort: skip

# The public ops of each module, but its helpers that are not ops (seeds, geometry ...).
_NOT_OPS = {
    random_ops: ("set_seed", "get_global_seed", "get_seed", "is_tracing", "function_scope"),
    conv_ops: ("spatial_pair", "check_format", "resolve_padding", "pad_hw", "patches",
               "col2im", "geometry"),
    pooling_ops: ("geometry",),
    numerics: ("check_numerics_spec",),
    logging_ops: ("summarize_value", "register_log_functions", "print_v2"),
    # a tensor converts to itself, no op: only a Python value is one (_converted_constant)
    array_ops: ("convert_to_tensor",),
    special_math_ops: ("explicit",),
    linalg_decompositions: ("svd_spec", "qr_spec", "eigh_spec", "eigvalsh_spec"),
}
_OP_MODULES = (array_ops, math_ops, nn_ops, random_ops, conv_ops, linalg_ops, pooling_ops,
               clip_ops, dropout_ops, losses_util, numerics, string_ops, trig_ops, image_ops,
               image_geometry_ops, image_projective_ops, image_resize_ops,
               special_math_ops, sort_ops, scatter_nd_ops, scan_ops, linalg_decompositions,
               embedding_ops, sparse_ops)
array_ops.range = _func_graph.recorded(array_ops.range, kind="spec", spec=array_ops.range_spec)
linspace_ops.linspace_of_a_tensor_num = _func_graph.recorded(
    linspace_ops.linspace_of_a_tensor_num, kind="spec", spec=linspace_ops.linspace_spec,
    name="linspace")
_graph_operations.register_listing(linspace_ops.linspace_of_a_tensor_num,
                                   _linspace_listing.list_linspace)
array_ops._converted_constant = _func_graph.recorded(array_ops._converted_constant,
                                                     name="Const")
array_ops.where = _func_graph.recorded(
    array_ops.where, kind="spec", spec=array_ops.where_spec,
    # TF's op: Where (coordinates) for the condition alone, SelectV2 with x and y
    name=lambda condition, x=None, y=None, name=None:
        ("Where",) if x is None and y is None else ("SelectV2",))
array_ops.one_hot = _func_graph.recorded(array_ops.one_hot, kind="spec",
                                         spec=array_ops.one_hot_spec)
array_ops.squeeze = _func_graph.recorded(array_ops.squeeze, kind="spec",
                                         spec=array_ops.squeeze_spec)
array_ops.cast = _func_graph.recorded(array_ops.cast, shortcut=array_ops._cast_shortcut)
nn_ops.sparse_softmax_cross_entropy_with_logits = _func_graph.recorded(
    nn_ops.sparse_softmax_cross_entropy_with_logits, name=_xent_listing.node_name)
_graph_operations.register_listing(nn_ops.sparse_softmax_cross_entropy_with_logits,
                                   _xent_listing.list_sparse_xent)
nn_ops.sigmoid_cross_entropy_with_logits = _func_graph.recorded(   # nn_impl's scope and
    nn_ops.sigmoid_cross_entropy_with_logits,                     # its last op's name
    name=lambda labels=None, logits=None, name=None: (name or "logistic_loss",))
_graph_operations.register_listing(nn_ops.sigmoid_cross_entropy_with_logits,
                                   _xent_listing.list_logistic_loss)
nn_ops.softmax_cross_entropy_with_logits = _func_graph.recorded(
    nn_ops.softmax_cross_entropy_with_logits,
    name=lambda labels, logits, axis=-1, name=None: (name or
                                                     "softmax_cross_entropy_with_logits",))
_graph_operations.register_listing(nn_ops.softmax_cross_entropy_with_logits,
                                   _xent_listing.list_softmax_xent)
selection_ops.unique = _func_graph.recorded(selection_ops.unique, kind="spec",
                                            spec=selection_ops.unique_spec, name="Unique")
selection_ops.boolean_mask = _func_graph.recorded(
    selection_ops.boolean_mask, kind="spec", spec=selection_ops.boolean_mask_spec,
    name=lambda *args, **kwargs: ("boolean_mask", "GatherV2"))   # TF's composite's scope
selection_ops.slice = _func_graph.recorded(selection_ops.slice, kind="spec",
                                           spec=selection_ops.slice_spec, name="Slice")
numerics.check_numerics = _func_graph.recorded(   # checked at execution, not on stand-ins
    numerics.check_numerics, kind="stateful", spec=numerics.check_numerics_spec,
    name="CheckNumerics")
check_ops.ensure_shape = _func_graph.recorded(check_ops.ensure_shape, kind="spec",
                                              spec=check_ops.ensure_shape_spec,
                                              name="EnsureShape")
pad_ops.pad = _func_graph.recorded(
    pad_ops.pad, kind="spec", spec=pad_ops.pad_spec,
    name=lambda tensor, paddings, mode="CONSTANT", constant_values=0, name=None:
        (pad_ops.op_type(pad_ops.pad_mode(mode), constant_values),))
_LD = linalg_decompositions
for _name, _spec in (("svd", _LD.svd_spec), ("qr", _LD.qr_spec), ("eigh", _LD.eigh_spec),
                     ("eigvalsh", _LD.eigvalsh_spec)):
    setattr(_LD, _name, _func_graph.recorded(getattr(_LD, _name), kind="spec", spec=_spec))
for _name in ("fused_batch_norm_v3", "fused_batch_norm_grad_v3"):
    setattr(fused_batch_norm_ops, _name, _func_graph.recorded(
        getattr(fused_batch_norm_ops, _name),
        name="".join(w.title() for w in _name.split("_"))))   # TF's FusedBatchNorm*V3
tensordot_ops.tensordot_node = _func_graph.recorded(
    tensordot_ops.tensordot_node, kind="spec", spec=tensordot_ops.tensordot_spec,
    name=lambda a, b, axes, name=None: (name or "Tensordot",))   # TF's scope, its Reshape
_graph_operations.register_listing(tensordot_ops.tensordot_node,
                                   _tensordot_listing.list_tensordot)
for _module in _OP_MODULES:
    _func_graph.record_module_ops(_module, exclude=_NOT_OPS.get(_module, ()))
_func_graph.relink_reexports(_OP_MODULES)
logging_ops.print_v2 = _func_graph.recorded(logging_ops.print_v2, kind="stateful")

from simdist.framework.ops import nn_grad, overloads  # noqa: E402  # isort: skip
from simdist.framework.ops import tensor_array_ops  # noqa: E402  # isort: skip

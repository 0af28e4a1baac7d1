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
Importing this package loads the core, array_ops and math_ops, makes their public
functions recorded ops (``op_recording.recorded``: a call while tracing a tf.function
becomes a graph node) and then ``overloads`` binds the operators to them. Each other op
module loads on its first use (``tf.nn``, ``tf.linalg`` ... or a library's import of it)
and records its own ops as its last line (``op_recording.record_here``); the gradient
rules (``*_grad``) load with the first gradient (backprop._load_rules).

Mirrors tensorflow/python/ops/.
"""

from simdist.framework import op_recording as _op_recording  # isort: skip
from simdist.framework.ops import array_ops, math_ops  # isort: skip

_A = array_ops
_A.range = _op_recording.recorded(_A.range, kind="spec", spec=_A.range_spec)
_A._converted_constant = _op_recording.recorded(_A._converted_constant, name="Const")
_A.where = _op_recording.recorded(
    _A.where, kind="spec", spec=_A.where_spec,
    # TF's op: Where (coordinates) for the condition alone, SelectV2 with x and y
    name=lambda condition, x=None, y=None, name=None:
        ("Where",) if x is None and y is None else ("SelectV2",))
_A.one_hot = _op_recording.recorded(_A.one_hot, kind="spec", spec=_A.one_hot_spec)
_A.squeeze = _op_recording.recorded(_A.squeeze, kind="spec", spec=_A.squeeze_spec)
_A.cast = _op_recording.recorded(_A.cast, shortcut=_A._cast_shortcut)
# a tensor converts to itself, no op: only a Python value is one (_converted_constant)
_op_recording.record_module_ops(array_ops, exclude=("convert_to_tensor",))
_op_recording.record_module_ops(math_ops)
_op_recording.relink_reexports((array_ops, math_ops))

from simdist.framework.ops import overloads  # noqa: E402  # isort: skip

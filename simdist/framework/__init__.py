"""simdist's framework: tensors, dtypes, ops, gradients, ``tf.function``.

Importing any module of it loads all of it, in this file's order (as ``import tensorflow``
loads tensorflow/python/): its modules import one another in cycles that only this order
resolves, whichever of them a program (or an unpickling) reaches first.

Glossary:
  freeze -- what the load leaves (modules, functions, classes: ~29,000 objects with NumPy's,
            alive as long as the process) moves to the collector's permanent generation
            (``gc.freeze``, CPython's advice for long-lived start-up state), so full
            collections stop walking it (seed 001's loop: one full collection instead of
            two). No Tensor or other simulated object exists before the framework loads,
            so no simulated memory waits on a frozen cycle; ``gc.unfreeze()`` undoes it.
"""

# isort: off
from simdist import errors
from simdist.framework import dtypes, nest, tensor, tensor_shape, context, backprop
from simdist.framework import indexed_slices, variables, ops
from simdist.framework.ops import (
    array_ops, math_ops, clip_ops, script_ops, selection_ops, pad_ops, linspace_ops, scan_ops,
    map_fn, parallel_for, functional_ops, linalg_ops, special_math_ops, tensordot_ops,
    sort_ops, scatter_nd_ops, check_ops, assert_ops, trig_ops,
)
from simdist.framework import tensor_spec, composite_specs, ragged_tensor, sparse_tensor
from simdist.framework.ops import tensor_array_ops
from simdist.framework import name_scope, module
from simdist.framework.ops import logging_ops, control_flow_ops
from simdist.framework import function, custom_gradient
from simdist.platform import tf_logging
from simdist.framework import dispatch
# isort: on

__import__("gc").freeze()

"""simdist's ops: array, math, nn and random ops, their gradient rules and the operators.

Glossary:
  array_ops / math_ops / nn_ops / random_ops / linalg_ops -- the public ops (``tf.*``,
                   ``tf.math``, ``tf.nn``, ``tf.random``, ``tf.linalg``); conv_ops /
                   pooling_ops -- ``tf.nn.conv2d``, ``max_pool2d``, ``avg_pool2d``.
  *_grad         -- the gradient rules, registered in ``op_def.GRADIENTS`` at import.
  numerics       -- ``tf.debugging.check_numerics``.
  string_ops     -- ``tf.strings`` (join, length, to_number ...); op_types -- the element
                   types each op takes, and TF's error for a string given to a numeric op.
  overloads      -- attaches ``+ - * / @ < == []`` ... to ``Tensor`` and ``Variable``.
Importing this package registers everything.

Mirrors tensorflow/python/ops/.
"""

from simdist.framework.ops import array_ops, math_ops, nn_ops, random_ops  # isort: skip
from simdist.framework.ops import conv_ops, linalg_ops, pooling_ops  # isort: skip
from simdist.framework.ops import array_grad, conv_grad, linalg_grad, math_grad  # isort: skip
from simdist.framework.ops import nn_grad, numerics, overloads, string_ops  # isort: skip

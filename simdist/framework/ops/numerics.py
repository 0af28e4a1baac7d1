"""``tf.debugging.check_numerics``: stop at the first tensor holding NaN or Inf.

Glossary:
  check_numerics -- the tensor itself when every element is finite; else TF's
                    InvalidArgumentError "<message> : Tensor had NaN values" (Inf, or
                    "Inf and NaN"). Floating tensors only (TF's allowed types); its
                    gradient is the incoming gradient, unchanged.

Mirrors tensorflow/core/kernels/check_numerics_op.cc.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes, errors, execute, op_recording
from simdist.hardware import array_api

_FLOATS = "bfloat16, half, float, double"


def check_numerics(tensor, message, name=None):
    """``tensor``, after checking it has no NaN or Inf.

    Raises:
      InvalidArgumentError: a NaN or Inf element, or a non-floating tensor.
    """
    t = execute.convert_to_tensor(tensor)
    if not t.dtype.is_floating:
        raise errors.InvalidArgumentError(
            None, None, f"Value for attr 'T' of {execute.kernel_dtype_name(t.dtype)} is not in "
                        f"the list of allowed values: {_FLOATS}\n\t; NodeDef: "
                        "{{node CheckNumerics}} [Op:CheckNumerics]")
    value = np.asarray(array_api.to_host(t._value),
                       dtype=np.float64 if t.dtype == dtypes.float64 else np.float32)
    found = [kind for kind, hit in (("Inf", np.isinf(value).any()),
                                    ("NaN", np.isnan(value).any())) if hit]
    if found:
        raise errors.InvalidArgumentError(
            None, None, f"{message} : Tensor had {' and '.join(found)} values "
                        "[Op:CheckNumerics]")
    return execute.execute("CheckNumerics", [t], t._value, flops=t._value.size)


@execute.RegisterGradient("CheckNumerics")
def _check_numerics_grad(op, grad):
    return grad


def check_numerics_spec(graph, tensor, message, name=None):
    """``check_numerics`` while tracing: the input's spec, with no check of the
    placeholders' values (TF's CheckNumerics checks at execution only)."""
    from simdist.framework import context, func_graph

    if not func_graph.is_symbolic(tensor) or not tensor.dtype.is_floating:
        return NotImplemented
    return graph.symbolic_like(tensor.shape, tensor.dtype, context.current_device(),
                               name or "CheckNumerics", example=tensor.shape)


# The public ops, recorded as graph nodes while a tf.function traces (op_recording).
check_numerics = op_recording.recorded(   # checked at execution, not on stand-ins
    check_numerics, kind="stateful", spec=check_numerics_spec, name="CheckNumerics")
op_recording.record_here(__name__, exclude=("check_numerics_spec",))

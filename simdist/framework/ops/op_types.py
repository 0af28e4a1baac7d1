"""Which element types an op's kernel accepts, and TF's error for a string given to a
numeric op.

Glossary:
  ALLOWED_T       -- op type -> the allowed values of its ``T`` attr, in the order TF's
                     OpDef lists them (recorded from TF 2.21's messages by
                     tests/framework/record_tf_strings.py); an op not listed is one of
                     TF's numeric ops with the common list below.
  STRING_OPS      -- ops whose kernels take ``tf.string`` (``Add`` concatenates,
                     ``Equal``/``NotEqual`` compare, the shape and selection ops move bytes).
  refuse_strings  -- raise TF's ``InvalidArgumentError`` ("Value for attr 'T' of string is
                     not in the list of allowed values: ...") when a numeric op gets a
                     ``tf.string`` input.

Mirrors tensorflow/core/framework/op_def_util.cc (ValidateAttrValue's message) and the
``T`` attrs of tensorflow/core/ops/math_ops.cc.
"""

from __future__ import annotations

from simdist.framework import errors

_ARITH = ("bfloat16, half, float, double, uint8, int8, uint16, int16, int32, uint32, uint64, "
          "int64, complex64, complex128")
_COMPARE = ("float, double, int32, uint8, int16, int8, int64, bfloat16, uint16, half, "
            "uint32, uint64")
_REDUCE = ("float, double, int32, uint8, int16, int8, complex64, int64, qint8, quint8, "
           "qint32, bfloat16, qint16, quint16, uint16, complex128, half, uint32, uint64")
_MINMAX = _COMPARE + ", qint8, quint8, qint32, qint16, quint16"
_FLOAT_COMPLEX = "bfloat16, half, float, double, complex64, complex128"
_SIGNED = "bfloat16, half, float, double, int8, int16, int32, int64, complex64, complex128"

ALLOWED_T = {
    "Sub": "bfloat16, half, float, double, uint8, int8, uint16, int16, int32, int64, "
           "complex64, complex128, uint32, uint64",
    "Mul": _ARITH, "FloorDiv": _ARITH, "RealDiv": _ARITH,
    "FloorMod": "int8, int16, int32, int64, uint8, uint16, uint32, uint64, bfloat16, half, "
                "float, double",
    "Pow": "bfloat16, float, half, double, int8, int16, int32, int64, complex64, complex128",
    "Neg": _SIGNED,
    "Abs": "bfloat16, half, float, double, int8, int16, int32, int64",
    "Less": _COMPARE, "LessEqual": _COMPARE, "Greater": _COMPARE, "GreaterEqual": _COMPARE,
    "Sum": _REDUCE, "Mean": _REDUCE, "Prod": _REDUCE, "AddN": _REDUCE + ", variant",
    "Max": _MINMAX, "Min": _MINMAX, "ArgMax": _MINMAX + ", bool", "ArgMin": _MINMAX + ", bool",
    "Sqrt": _FLOAT_COMPLEX, "Exp": _FLOAT_COMPLEX, "Log": _FLOAT_COMPLEX,
    "Rsqrt": _FLOAT_COMPLEX, "Tanh": _FLOAT_COMPLEX, "Sigmoid": _FLOAT_COMPLEX,
    "Square": "bfloat16, half, float, double, int8, int16, int32, int64, uint8, uint16, "
              "uint32, uint64, complex64, complex128",
    "MatMul": "bfloat16, half, float, double, int32, int64, uint8, uint16, uint32, uint64, "
              "complex64, complex128",
    "Maximum": "bfloat16, half, float, double, int8, uint8, int16, uint16, int32, uint32, "
               "int64, uint64",
    "OnesLike": "bfloat16, half, float, double, int8, uint8, int16, uint16, int32, uint32, "
                "int64, uint64, complex64, complex128, bool",
}
ALLOWED_T.update(dict.fromkeys(("Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh",
                                "Asinh", "Acosh", "Atanh", "Expm1"), _FLOAT_COMPLEX))
ALLOWED_T.update(dict.fromkeys(("Ceil", "Atan2", "Erfc"), "bfloat16, half, float, double"))
ALLOWED_T["Minimum"] = ALLOWED_T["Maximum"]
ALLOWED_T["BatchMatMulV2"] = ALLOWED_T["MatMul"]

STRING_OPS = frozenset({"Add", "Equal", "NotEqual"})


def refuse_strings(op_type: str, *tensors) -> None:
    """TF's error when a numeric op ``op_type`` is given a ``tf.string`` tensor.

    Raises:
      InvalidArgumentError: an input is a string tensor and ``op_type`` takes none.
    """
    if op_type in STRING_OPS or not any(t.dtype.is_string for t in tensors):
        return
    raise errors.InvalidArgumentError(
        None, None, _not_allowed(op_type, "string", ALLOWED_T.get(op_type, _ARITH)) +
        "\nString tensors hold bytes: convert them to numbers first (tf.strings.to_number, or "
        "a StringLookup layer).")


def refuse_dtype(op_type: str, tensor, allowed: str) -> None:
    """TF's error for an input whose dtype the kernel of ``op_type`` lacks (``allowed``:
    simdist's list, for an op ALLOWED_T does not list).

    Raises:
      InvalidArgumentError: always.
    """
    raise errors.InvalidArgumentError(
        None, None, _not_allowed(op_type, tensor.dtype.name, ALLOWED_T.get(op_type, allowed)))


def _not_allowed(op_type: str, dtype_name: str, allowed: str) -> str:
    return (f"Value for attr 'T' of {dtype_name} is not in the list of allowed values: "
            f"{allowed}\n\t; NodeDef: {{{{node {op_type}}}}} [Op:{op_type}]")


def check_attr_dtype(attr: str, dtype, allowed: tuple, signature: str) -> None:
    """TF's error for a type attr ``attr`` (of an op whose OpDef text ``signature`` ends
    the message) set to a ``dtype`` not among ``allowed`` (dtypes, in the OpDef's order).

    Raises:
      InvalidArgumentError: ``dtype`` is not allowed.
    """
    if dtype in allowed:
        return
    from simdist.framework import execute

    names = ", ".join(execute.kernel_dtype_name(d) for d in allowed)
    raise errors.InvalidArgumentError(
        None, None, f"Value for attr '{attr}' of {execute.kernel_dtype_name(dtype)} is not in "
                    f"the list of allowed values: {names}{signature}")

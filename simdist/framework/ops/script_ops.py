"""``tf.numpy_function`` and ``tf.py_function``: a Python function as an op.

Glossary:
  PyFunc        -- ``numpy_function``'s op: ``func`` gets NumPy arrays (a scalar is an
                   ``ndarray`` eagerly, a NumPy scalar in a graph; Python values given
                   eagerly are converted by NumPy: an int is int64) and returns arrays or
                   Python values.
  EagerPyFunc   -- ``py_function``'s op: ``func`` gets eager Tensors; its results are
                   converted to ``Tout``.
  eagerly       -- TF's PyFunc kernel run eagerly checks nothing: the results keep their own
                   dtypes and count, and an exception of ``func`` comes out as it is.
  in a graph    -- a stateful node (a tf.function, a ``Dataset.map`` function): ``func``
                   runs at every execution, never while tracing; the outputs have unknown
                   shapes (``set_shape`` / ``tf.ensure_shape`` give them one). The kernel
                   checks the results: their count and (PyFunc) dtypes, TF's
                   InvalidArgumentError naming ``pyfunc_<n>``; an exception of ``func`` is
                   TF's UnknownError with its text.

Mirrors tensorflow/python/ops/script_ops.py and tensorflow/core/kernels/py_func.cc.
"""

from __future__ import annotations

import itertools
import traceback

import numpy as np

from simdist.framework import context, dtypes, errors, execute, func_graph
from simdist.framework.execute import kernel_dtype_name
from simdist.framework.tensor import Tensor

_tokens = itertools.count()


def numpy_function(func, inp, Tout, stateful=True, name=None):  # noqa: N803 - TF's names
    """``func`` on the NumPy values of ``inp``, as an op returning ``Tout`` tensors.

    Raises:
      TypeError: ``func`` is not callable.
    """
    return _py_func("PyFunc", func, inp, Tout, name)


def py_function(func, inp, Tout, name=None):  # noqa: N803 - TF's names
    """``func`` on the eager Tensors of ``inp``, as an op returning ``Tout`` tensors.

    Raises:
      TypeError: ``func`` is not callable.
    """
    return _py_func("EagerPyFunc", func, inp, Tout, name)


def _py_func(op_type, func, inp, tout, name):
    if not callable(func):
        raise TypeError(f"Expected func to be callable, got func of type {type(func)}")
    given = list(inp) if isinstance(inp, (list, tuple)) else [inp]
    many = isinstance(tout, (list, tuple))
    types = [dtypes.as_dtype(t) for t in (tout if many else [tout])]
    token = f"pyfunc_{next(_tokens)}"
    if func_graph.current() is None:   # eager PyFunc: Python values as NumPy makes them
        return _run_eagerly(op_type, func, given if op_type == "PyFunc" else
                            [execute.convert_to_tensor(x) for x in given], types, many)
    inputs = [x if isinstance(x, Tensor) else execute.convert_to_tensor(x) for x in given]
    out = _graph_op(op_type, func, inputs, types, token, name=name or op_type)
    return out if many else out[0]


def _args(op_type, inputs):
    if op_type == "PyFunc":
        return [np.array(t.numpy()) if hasattr(t, "numpy") else np.asarray(t) for t in inputs]
    return list(inputs)


def _results(value) -> list:
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _run_eagerly(op_type, func, inputs, types, many):
    """TF's eager PyFunc / EagerPyFunc: ``func``'s exception as it is; nothing for an empty
    ``Tout``; PyFunc's results as they are (their dtypes, and one or a list as ``func``
    returned them), EagerPyFunc's converted to ``types``."""
    value = func(*_args(op_type, inputs))
    if not types:
        return None
    if op_type == "EagerPyFunc":
        out = _converted(_results(value), types)
        return out if many else out[0]
    out = [r if isinstance(r, Tensor) else execute.convert_to_tensor(np.asarray(r))
           for r in _results(value)]
    return out if isinstance(value, (list, tuple)) else out[0]


def _converted(results, types) -> list:
    try:
        return [execute.convert_to_tensor(r, dtype=t) for r, t in zip(results, types)]
    except (TypeError, ValueError) as e:
        raise errors.InvalidArgumentError(None, None, f"{type(e).__name__}: {e}") from None


def _graph_spec(graph, op_type, func, inputs, types, token, name=None):
    device = context.current_device()
    return [graph.symbolic_like(None, t, device, op_type) for t in types]


@func_graph.recorded(kind="stateful", spec=_graph_spec, name="PyFunc")
def _graph_op(op_type, func, inputs, types, token, name=None) -> list:
    """The node's execution: ``func`` run, its results checked as TF's kernel does.

    Raises:
      InvalidArgumentError: a result of another count or (PyFunc) dtype.
      UnknownError: ``func`` raised.
    """
    args = _args(op_type, inputs)
    if op_type == "PyFunc":   # the graph kernel gives a scalar as a NumPy scalar
        args = [a[()] if a.ndim == 0 else a for a in args]
    try:
        results = _results(func(*args))
    except Exception as e:  # noqa: BLE001 - TF's kernel reports any exception of func
        raise errors.UnknownError(
            None, None, f"{type(e).__name__}: {e}\n{traceback.format_exc()}") from e
    if len(results) != len(types):
        raise errors.InvalidArgumentError(
            None, None, f"{token} returns {len(results)} values, but expects to see "
                        f"{len(types)} values.")
    if op_type == "EagerPyFunc":
        return _converted(results, types)
    out = []
    for i, (r, t) in enumerate(zip(results, types)):
        value = r if isinstance(r, Tensor) else execute.convert_to_tensor(np.asarray(r))
        if value.dtype != t:
            raise errors.InvalidArgumentError(
                None, None, f"{i}-th value returned by {token} is "
                            f"{kernel_dtype_name(value.dtype)}, but expects "
                            f"{kernel_dtype_name(t)}")
        out.append(value)
    return out

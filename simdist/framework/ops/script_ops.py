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
                   InvalidArgumentError naming ``pyfunc_<n>``.
  func's error  -- an exception of ``func`` (in a graph; eagerly EagerPyFunc's too, the
                   eager op's ``{{function_node __wrapped__EagerPyFunc_Tin_<n>_Tout_<k>_
                   device_<d>}} ... [Op:EagerPyFunc] name: ``) is py_func.cc's error: its
                   code by the exception's type (ValueError, TypeError: InvalidArgument;
                   StopIteration: OutOfRange; MemoryError: ResourceExhausted;
                   NotImplementedError: Unimplemented; any other, a tf.errors one too:
                   Unknown), its text ``<Type>: <message>`` and the traceback, each entry
                   on lines of its own (from ``func``'s frame on: TF's lists its own
                   script_ops frames first). EagerPyFunc's results that ``Tout`` cannot
                   hold are the same InvalidArgumentError (TypeError: ...).

Mirrors tensorflow/python/ops/script_ops.py and tensorflow/core/kernels/py_func.cc.
"""

from __future__ import annotations

import itertools
import traceback

import numpy as np

from simdist.framework import context, dtypes, errors, execute, func_graph, held_output
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
    """TF's eager PyFunc / EagerPyFunc: PyFunc's exception as it is, EagerPyFunc's as the
    eager op's error (see the module docstring); nothing for an empty ``Tout``; PyFunc's
    results as they are (their dtypes, and one or a list as ``func`` returned them),
    EagerPyFunc's converted to ``types``."""
    if op_type == "EagerPyFunc":
        try:
            with held_output.passed():   # its printing is seen, per element too
                out = _converted(_results(func(*inputs)), types) if types else None
        except Exception as e:  # noqa: BLE001 - TF's kernel reports any exception of func
            error = e if isinstance(e, errors.OpError) and hasattr(e, "_py_func") else \
                _func_error(e)
            device = context.current_device().name
            error._message = (f"{{{{function_node __wrapped__EagerPyFunc_Tin_{len(inputs)}_"
                              f"Tout_{len(types)}_device_{device}}}}} {error.message} "
                              "[Op:EagerPyFunc] name: ")
            error.args = (error._message,)
            raise error from None
        return out if many or out is None else out[0]
    with held_output.passed():
        value = func(*_args(op_type, inputs))
    if not types:
        return None
    out = [r if isinstance(r, Tensor) else execute.convert_to_tensor(np.asarray(r))
           for r in _results(value)]
    return out if isinstance(value, (list, tuple)) else out[0]


def _converted(results, types) -> list:
    try:
        return [execute.convert_to_tensor(r, dtype=t) for r, t in zip(results, types)]
    except (TypeError, ValueError) as e:
        raise _func_error(e, skip=0) from None


# py_func.cc: the code of a Python exception of func, by its type (else UNKNOWN)
_CODES = ((ValueError, errors.InvalidArgumentError), (TypeError, errors.InvalidArgumentError),
          (StopIteration, errors.OutOfRangeError), (MemoryError, errors.ResourceExhaustedError),
          (NotImplementedError, errors.UnimplementedError))


def _func_error(error: BaseException, skip: int = 1):
    """py_func.cc's error for ``error`` raised in ``func`` (see the module docstring); the
    traceback leaves out its first ``skip`` frames (simdist's call of ``func``)."""
    kind = next((code for t, code in _CODES if isinstance(error, t)), errors.UnknownError)
    tb = error.__traceback__
    for _ in range(skip):
        tb = tb.tb_next if tb is not None else None
    lines = traceback.format_exception(type(error), error, tb)
    if tb is None:
        lines.insert(0, "Traceback (most recent call last):\n")
    new = kind(None, None, f"{type(error).__name__}: {error}\n" + "\n".join(lines) + "\n")
    new._py_func = True
    return new


def runs_python(node) -> bool:
    """Whether a graph's ``node`` is a PyFunc / EagerPyFunc (runs its Python)."""
    return getattr(node, "fn", None) is _graph_op.__wrapped__


def _graph_spec(graph, op_type, func, inputs, types, token, name=None):
    device = context.current_device()
    return [graph.symbolic_like(None, t, device, op_type) for t in types]


@func_graph.recorded(kind="stateful", spec=_graph_spec, name="PyFunc")
def _graph_op(op_type, func, inputs, types, token, name=None) -> list:
    """The node's execution: ``func`` run, its results checked as TF's kernel does.

    Raises:
      InvalidArgumentError: a result of another count or (PyFunc) dtype.
      OpError: ``func`` raised (py_func.cc's code for the exception's type).
    """
    args = _args(op_type, inputs)
    if op_type == "PyFunc":   # the graph kernel gives a scalar as a NumPy scalar
        args = [a[()] if a.ndim == 0 else a for a in args]
    try:
        with held_output.passed():   # TF runs it per element: its printing is seen
            results = _results(func(*args))
    except Exception as e:  # noqa: BLE001 - TF's kernel reports any exception of func
        raise _func_error(e) from e
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

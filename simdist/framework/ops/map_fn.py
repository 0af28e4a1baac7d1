"""``tf.map_fn``: a function applied to each element along the first dimension, as TF builds
it: the elements unstacked into TensorArrays, a ``while_loop`` that reads element i, calls
the function and writes its result i, then the results stacked.

Glossary:
  elems               -- a tensor or a nested structure of tensors with the same first
                         dimension (n); the function gets one element (the same structure).
  fn_output_signature -- the structure and dtypes of one result (a DType, a TensorSpec or a
                         nested structure of them); without it a result must have the
                         structure and dtypes of an element (TF: "TensorArray dtype is int32
                         but Op is trying to write dtype float32" otherwise).
  traced              -- inside a tf.function the function is converted by AutoGraph and
                         traced once into the loop's body (TF's StatelessWhile); eagerly it
                         runs n times.
  ragged elems       -- a RaggedTensor's rows, one call each (eagerly), the results
                         stacked as the rows of a RaggedTensor (or, with a dense signature,
                         a Tensor): ragged_array_ops.map_rows.
Sparse elements and signatures are refused (TypeError).

Mirrors tensorflow/python/ops/map_fn.py.
"""

from __future__ import annotations

from simdist.framework import dtypes, func_graph, nest
from simdist.framework.name_scope import name_scope
from simdist.framework.ops import array_ops, while_loop
from simdist.framework.ops.tensor_array_ops import TensorArray
from simdist.framework.tensor_spec import TensorSpec


def _dense_spec(d) -> TensorSpec:
    """One result's spec from a DType or a TensorSpec (TF's _dtype_to_spec)."""
    if isinstance(d, TensorSpec):
        return d
    if isinstance(d, (dtypes.DType, str, type)):
        return TensorSpec(None, dtypes.as_dtype(d))
    raise TypeError(f"fn_output_signature must be a DType, a TensorSpec or a nested structure "
                    f"of them; simdist's map_fn has no {type(d).__name__} (ragged and sparse "
                    "results are not simulated).")


def converted(fn):
    """``fn`` as AutoGraph converts it while a tf.function with AutoGraph is traced (TF's
    ``autograph.tf_convert`` under the caller's conversion status), else ``fn``."""
    graph = func_graph.current()
    if graph is None or not getattr(graph, "autograph", False):
        return fn
    from simdist.autograph.impl import api, conversion

    if api.disabled() or getattr(fn, "__ag_do_not_convert__", False):
        return fn
    return conversion.convert(fn)


def first_dimension(elems_flat):
    """n, the elements' common first dimension (a tensor when it is unknown).

    Raises:
      ValueError: a scalar element, or first dimensions that differ (TF's texts).
    """
    sizes = []
    for t in elems_flat:
        if t.shape.rank is not None and t.shape.rank < 1:
            raise ValueError("Elements in elems must be 1+ dimensional Tensors, not scalars")
        sizes.append(t.shape[0])
    known = [s for s in sizes if s is not None]
    for s in known[1:]:
        if s != known[0]:
            raise ValueError(f"Dimensions {known[0]} and {s} are not compatible")
    n_static = sizes[0]
    return n_static, (n_static if n_static is not None else array_ops.shape(elems_flat[0])[0])


def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False,
           infer_shape=True, name=None, fn_output_signature=None):
    """``fn`` applied to each element of ``elems`` along dimension 0, the results stacked
    (``tf.map_fn``).

    Raises:
      TypeError: ``fn`` not callable; a ragged or sparse signature.
      ValueError: no tensors in ``elems``, a scalar element, first dimensions that differ,
        a result whose structure is not the signature's (TF's texts).
    """
    if fn_output_signature is None:
        fn_output_signature = dtype
    if not callable(fn):
        raise TypeError(f"The provided function {fn.__name__} is not callable."
                        "fn must be callable.")
    from simdist.framework.ragged_tensor import RaggedTensor

    if isinstance(elems, RaggedTensor):
        from simdist.framework.ops import ragged_array_ops

        return ragged_array_ops.map_rows(fn, elems, fn_output_signature)
    elems_flat = nest.flatten(elems)
    if not elems_flat:
        raise ValueError("elems must be a Tensor or (possibly nested) sequence of Tensors. "
                         f"Got {elems}, which does not contain any Tensors.")
    if fn_output_signature is None:
        result_dtypes = None
        result_unflatten = lambda flat: nest.pack_sequence_as(elems, flat)  # noqa: E731
    else:
        result_dtypes = [_dense_spec(d).dtype for d in nest.flatten(fn_output_signature)]
        result_unflatten = lambda flat: nest.pack_sequence_as(  # noqa: E731
            fn_output_signature, flat)
    return _map_fn_impl(converted(fn), elems, elems_flat, fn_output_signature, result_dtypes,
                        result_unflatten, infer_shape, name)


def _map_fn_impl(fn, elems, elems_flat, signature, result_dtypes, result_unflatten,
                 infer_shape, name):
    with name_scope(name or "map"):
        elems_flat = [array_ops.convert_to_tensor(t) for t in elems_flat]
        n_static, n = first_dimension(elems_flat)
        elems_ta = [TensorArray(dtype=t.dtype, size=n, dynamic_size=False, infer_shape=True)
                    .unstack(t) for t in elems_flat]
        i = array_ops.constant(0)
        if result_dtypes is None:
            result_dtypes = [t.dtype for t in elems_flat]
        results_ta = [TensorArray(dtype=d, size=n, dynamic_size=False,
                                  infer_shape=infer_shape) for d in result_dtypes]

        def compute(i, tas):
            value = nest.pack_sequence_as(elems, [ta.read(i) for ta in elems_ta])
            result = fn(value)
            nest.assert_same_structure(signature or elems, result)
            return i + 1, [ta.write(i, v) for ta, v in zip(tas, nest.flatten(result))]

        _, tas = while_loop.while_loop(lambda i, _: i < n, compute,
                                       (i, results_ta),
                                       maximum_iterations=n)
        stacked = [ta.stack() for ta in tas]
        if n_static is not None:
            for r in stacked:
                if func_graph.is_symbolic(r) and r.shape.rank is not None:
                    r.set_shape([n_static] + list(r.shape)[1:])
        return result_unflatten(stacked)


__all__ = ["map_fn"]

"""Reduction operators: what a combine step does to two chunks.

Glossary:
  op name   -- ``sum``, ``mean``, ``min``, ``max``, ``prod`` (any case), or an object with a
               ``.value`` / ``.name`` such as TF's ``tf.distribute.ReduceOp.SUM``.
  combine   -- the elementwise binary function a reducing transfer applies at the receiver
               (``mean`` combines with ``add``: MEAN is SUM, then divided by p).
  finalize  -- what happens once the reduction is complete: MEAN divides by the number of
               replicas, as TF does after the all-reduce (tensorflow/python/distribute/
               cross_device_ops.py, ``_simple_reduce`` / ``_do_batch_all_reduce`` divide the
               summed result by ``len(devices)``).
"""

from __future__ import annotations

from simdist.hardware import array_api

REDUCE_OPS = {"sum": "add", "mean": "add", "min": "minimum", "max": "maximum",
              "prod": "multiply"}


def normalize_op(op) -> str:
    """The canonical lower-case op name for a string or a ReduceOp-like object.

    Raises:
      ValueError: for an unknown op (the message lists the known ones).
    """
    raw = op
    for attr in ("value", "name"):
        if not isinstance(raw, str) and hasattr(raw, attr):
            raw = getattr(raw, attr)
    name = str(raw).lower()
    name = {"product": "prod", "minimum": "min", "maximum": "max", "add": "sum"}.get(name, name)
    if name not in REDUCE_OPS:
        raise ValueError(f"Unknown reduce op {op!r}; use one of {sorted(REDUCE_OPS)} "
                         "(any case) or tf.distribute.ReduceOp.SUM / MEAN.")
    return name


def combine_fn(op: str, xp=None, dtype=None):
    """The in-place combine of ``op`` on namespace ``xp`` (default: the active backend) for
    NumPy ``dtype``: ``f(a, b, out=dst)`` writes ``op(a, b)`` into ``dst``
    (``array_api.combiner``: the Array API has no ``out=``)."""
    return array_api.combiner(REDUCE_OPS[op], xp, dtype)


def finalize(op: str, array, num_replicas: int):
    """MEAN divides the sum by the replica count (TF divides after summing); others: as is."""
    if op != "mean":
        return array
    # TF's ``v / n``: floats keep their dtype, integers true-divide to float64 (as NumPy
    # does; the Array API leaves ``int / int`` undefined, so the cast is explicit).
    if array_api.kind(array) in "iub":
        xp = array_api.namespace(array)
        array = xp.astype(array, array_api.backend_dtype("float64", xp))
    return array / num_replicas

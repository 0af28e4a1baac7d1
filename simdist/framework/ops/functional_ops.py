"""``tf.scan``, ``tf.foldl``, ``tf.foldr``: an accumulator carried through the elements along
dimension 0, as TF builds them (TensorArrays read in a ``while_loop``).

Glossary:
  accumulator -- ``fn(a, element)``'s result, given back as ``a`` for the next element;
                 without an ``initializer`` it starts as the first element (the last for
                 ``foldr`` / a reversed scan), which is then not passed to ``fn``.
  scan        -- every accumulator value, stacked (same structure as the initializer, or as
                 the elements); ``reverse`` runs from the last element.
  fold        -- the last accumulator value only (``foldr`` runs from the last element).

Mirrors tensorflow/python/ops/functional_ops.py.
"""

from __future__ import annotations

from simdist.framework import nest
from simdist.framework.name_scope import name_scope
from simdist.framework.ops import array_ops, while_loop
from simdist.framework.ops.tensor_array_ops import TensorArray


def _callable(fn) -> None:
    if not callable(fn):   # TF's text (an object without a __name__: its AttributeError)
        raise TypeError(f"{fn.__name__} is not callable. Please provide a callable function.")


def _unstacked(elems):
    """(n, the elements' TensorArrays in ``elems``'s structure).

    Raises:
      IndexError: a scalar element (TF reads its first dimension regardless).
    """
    flat = [array_ops.convert_to_tensor(e) for e in nest.flatten(elems)]
    n = flat[0].shape[0]
    if n is None:
        n = array_ops.shape(flat[0])[0]
    tas = [TensorArray(dtype=e.dtype, size=n, dynamic_size=False, infer_shape=True).unstack(e)
           for e in flat]
    return n, nest.pack_sequence_as(elems, tas)


def _read(tas, i):
    return nest.map_structure(lambda ta: ta.read(i), tas)


def _fold(fn, elems, initializer, name, reverse: bool):
    _callable(fn)
    with name_scope(name):
        n, tas = _unstacked(elems)
        if initializer is None:
            i = n - 1 if reverse else 1
            a = _read(tas, n - 1 if reverse else 0)
        else:
            i, a = (n if reverse else 0), initializer
        if reverse:
            def compute(i, a):
                return [i - 1, fn(a, _read(tas, i - 1))]

            cond = lambda i, a: i > 0  # noqa: E731
        else:
            def compute(i, a):
                return [i + 1, fn(a, _read(tas, i))]

            cond = lambda i, a: i < n  # noqa: E731
        _, result = while_loop.while_loop(cond, compute, [array_ops.constant(i)
                                                          if isinstance(i, int) else i, a],
                                          maximum_iterations=n)
        return result


def foldl(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
          swap_memory=False, name=None):
    """``fn(...fn(fn(initializer, e0), e1)..., e_{n-1})`` over ``elems``' first dimension
    (``tf.foldl``).

    Raises:
      TypeError: ``fn`` not callable (TF's text).
    """
    return _fold(fn, elems, initializer, name or "foldl", reverse=False)


def foldr(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
          swap_memory=False, name=None):
    """``fn`` folded from the last element to the first (``tf.foldr``).

    Raises:
      TypeError: ``fn`` not callable (TF's text).
    """
    return _fold(fn, elems, initializer, name or "foldr", reverse=True)


def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
         swap_memory=False, infer_shape=True, reverse=False, name=None):
    """Every accumulator value of ``fn`` over ``elems``' first dimension, stacked
    (``tf.scan``).

    Raises:
      TypeError: ``fn`` not callable (TF's text).
      ValueError: ``fn``'s result not in the accumulator's structure (TF's text).
    """
    _callable(fn)
    out_structure = elems if initializer is None else initializer
    with name_scope(name or "scan"):
        n, tas = _unstacked(elems)
        flat_tas = nest.flatten(tas)
        if initializer is None:
            a_flat = [ta.read(n - 1 if reverse else 0) for ta in flat_tas]
            start = 1
        else:
            a_flat = [array_ops.convert_to_tensor(v) for v in nest.flatten(initializer)]
            start = 0
        accs = [TensorArray(dtype=a.dtype, size=n, dynamic_size=False,
                            element_shape=a.shape if infer_shape else None,
                            infer_shape=infer_shape) for a in a_flat]
        if initializer is None:
            accs = [ta.write(n - 1 if reverse else 0, a) for ta, a in zip(accs, a_flat)]

        def compute(i, a_flat, accs):
            a_out = fn(nest.pack_sequence_as(out_structure, a_flat), _read(tas, i))
            nest.assert_same_structure(out_structure, a_out)
            flat_out = nest.flatten(a_out)
            accs = [ta.write(i, v) for ta, v in zip(accs, flat_out)]
            return (i - 1 if reverse else i + 1), flat_out, accs

        if reverse:
            initial, cond = n - 1 - start, (lambda i, _1, _2: i >= 0)
        else:
            initial, cond = start, (lambda i, _1, _2: i < n)
        _, _, accs = while_loop.while_loop(
            cond, compute, (array_ops.convert_to_tensor(initial), a_flat, accs),
            maximum_iterations=n)
        return nest.pack_sequence_as(out_structure, [ta.stack() for ta in accs])


__all__ = ["foldl", "foldr", "scan"]

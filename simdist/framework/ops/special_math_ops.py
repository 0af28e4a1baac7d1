"""``tf.einsum``: a sum of products over the labels of an equation.

Glossary:
  equation   -- ``"ij,jk->ik"``: one subscript per operand, then the output's; without
                ``->`` the output is the labels used once, alphabetically (NumPy's and TF's
                implicit mode); ``...`` stands for the broadcast leading dimensions.
  explicit   -- the equation with every ``...`` written as letters the equation does not
                use, so each label names one dimension.
  gradient   -- for operand ``k``: the einsum of the output's gradient with the other
                operands into ``k``'s labels; a label only ``k`` has (summed away) comes
                back through a ones operand, a label ``k`` repeats (a diagonal) through
                identity matrices, and a broadcast ``...`` dimension of size 1 is summed.
                Each is an einsum itself, so gradients of gradients work.

Mirrors tensorflow/python/ops/special_math_ops.py (einsum) and the Einsum gradient of
linalg_grad.py (_EinsumGrad), computed here with explicit equations.
"""

from __future__ import annotations

import string

import numpy as np

from simdist.framework import execute, op_recording
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.hardware import backend


def einsum(equation, *inputs, **kwargs):
    """The einsum of ``inputs`` by ``equation`` (``tf.einsum``).

    Raises:
      ValueError: an equation whose subscripts do not match the operands.
      InvalidArgumentError: operands of different dtypes (TF's kernel text).
    """
    kwargs.pop("name", None)
    kwargs.pop("optimize", None)
    if kwargs:
        raise TypeError(f"Invalid keyword arguments for this function: "
                        f"{', '.join(sorted(kwargs))}. Expected: name, optimize")
    ops = [A.convert_to_tensor(x) for x in inputs]
    for i, o in enumerate(ops[1:], 1):
        if o.dtype != ops[0].dtype:
            raise execute.input_dtype_error("Einsum", i, ops[0].dtype, o.dtype)
    subs, out = explicit(equation, [o.shape.as_list() for o in ops])
    try:
        value = backend.xp.einsum(",".join(subs) + "->" + out, *[o._value for o in ops])
    except ValueError as e:
        raise ValueError(f"Invalid einsum equation {equation!r}: {e}") from None
    return execute.execute("Einsum", ops, value.astype(ops[0]._value.dtype),
                          attrs={"subscripts": tuple(subs), "output": out})


def explicit(equation, shapes) -> tuple[list, str]:
    """The equation's operand subscripts and output with ``...`` written as letters.

    Raises:
      ValueError: as many subscripts as operands, one label per dimension, otherwise.
    """
    eq = equation.replace(" ", "")
    lhs, arrow, out = eq.partition("->")
    subs = lhs.split(",")
    if len(subs) != len(shapes):
        raise ValueError(f'Got {len(shapes)} inputs for equation "{equation}", expecting '
                         f"{len(subs)}")
    free = [c for c in string.ascii_letters if c not in eq]
    ranks = []
    for sub, shape in zip(subs, shapes):
        labels = len(sub.replace("...", ""))
        ell = len(shape) - labels if "..." in sub else 0
        if ell < 0 or ("..." not in sub and labels != len(shape)):
            raise ValueError(f"Invalid einsum equation {equation!r}: subscript {sub!r} for "
                             f"an operand of rank {len(shape)}")
        ranks.append(ell)
    width = max(ranks, default=0)
    ellipsis = "".join(free[:width])
    subs = [s.replace("...", ellipsis[width - r:]) for s, r in zip(subs, ranks)]
    if not arrow:
        counts = {}
        for c in "".join(subs):
            counts[c] = counts.get(c, 0) + 1
        out = ellipsis + "".join(sorted(c for c, n in counts.items()
                                        if n == 1 and c not in ellipsis))
    else:
        out = out.replace("...", ellipsis)
    return subs, out


def _sizes(subs, shapes) -> dict:
    sizes = {}
    for sub, shape in zip(subs, shapes):
        for c, d in zip(sub, shape):
            if d != 1 or c not in sizes:
                sizes[c] = d
    return sizes


@execute.RegisterGradient("Einsum")
def _einsum_grad(op, grad):
    subs, out = list(op.attrs["subscripts"]), op.attrs["output"]
    shapes = [list(x.shape) for x in op.inputs]
    sizes = _sizes(subs + [out], shapes + [list(grad.shape)])
    grads = []
    for k, sub in enumerate(subs):
        if not op.needs_grad(k):
            grads.append(None)
            continue
        grads.append(_operand_grad(op, grad, k, sub, out, subs, sizes, shapes[k]))
    return grads


def _operand_grad(op, grad, k, sub, out, subs, sizes, shape):
    """d(einsum)/d(operand k), as einsums (see the glossary)."""
    unique = "".join(dict.fromkeys(sub))
    terms, operands = [out], [grad]
    for j, other in enumerate(subs):
        if j != k:
            terms.append(other)
            operands.append(op.inputs[j])
    present = set("".join(terms))
    missing = "".join(c for c in unique if c not in present)
    if missing:   # summed away by this operand alone: it comes back as ones
        terms.append(missing)
        operands.append(A.ones([sizes[c] for c in missing], dtype=grad.dtype))
    g = einsum(",".join(terms) + "->" + unique, *operands)
    if len(unique) != len(sub):   # a repeated label: onto the diagonal, by identities
        free = [c for c in string.ascii_letters if c not in "".join(subs) + out]
        target, eyes, eye_subs = "", [], []
        for c in sub:
            if c in target:
                fresh = free.pop(0)
                eye_subs.append(c + fresh)
                eyes.append(A.cast(_eye(sizes[c]), grad.dtype))
                target += fresh
            else:
                target += c
        g = einsum(",".join([unique] + eye_subs) + "->" + target, g, *eyes)
    kept = [i for i, (d, c) in enumerate(zip(shape, sub)) if d == 1 and sizes[c] != 1]
    if kept:   # a broadcast dimension of size 1: its gradient summed
        g = M.reduce_sum(g, axis=kept, keepdims=True)
    return g


def _eye(n):
    return A.constant(np.eye(n))


# The public ops, recorded as graph nodes while a tf.function traces (op_recording).
op_recording.record_here(__name__, exclude=("explicit",))

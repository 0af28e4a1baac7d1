"""``tf.cond``: run ``true_fn`` or ``false_fn`` by a predicate.

Glossary:
  cond (TF 2)   -- ``cond(pred, true_fn, false_fn, name)``: the branch's result as it was
                   built (``strict``: a one-element list stays a list).
  cond (TF 1)   -- ``tf.compat.v1.cond``, also ``strict=False``: a one-element list or tuple
                   result is unpacked; ``fn1`` / ``fn2`` are old names of the branches.
  eager cond    -- the predicate becomes a tensor; only the branch its value selects runs
                   (a Python truth test on the value: a string or a nonzero number is true, a
                   tensor of several elements raises NumPy's "truth value ... ambiguous").
  graph cond    -- a symbolic predicate while tracing: the graph being traced builds both
                   branches (``FuncGraph.cond``, simdist.framework.func_graph).
Gradients need nothing of their own: eagerly the taken branch's ops are on the tape.

Mirrors tensorflow/python/ops/cond.py.
"""

from __future__ import annotations

from simdist.framework import execute
from simdist.framework.ops import control_flow_util


def _unpack_if_singleton(res):
    if isinstance(res, (list, tuple)) and len(res) == 1:
        return res[0]
    return res


def _branch(fn, alias, name: str, alias_name: str):
    """One branch given as ``name`` or as its TF 1 alias (``fn1`` / ``fn2``), not both."""
    if alias is not None:
        if fn is not None:
            raise TypeError(f"cond(): '{name}' and '{alias_name}' may not be set "
                            "simultaneously.")
        return alias
    if fn is None:
        raise TypeError(f"cond(): '{name}' argument required")
    return fn


def _check_branches(true_fn, false_fn, fn1, fn2):
    true_fn = _branch(true_fn, fn1, "true_fn", "fn1")
    false_fn = _branch(false_fn, fn2, "false_fn", "fn2")
    # TF checks both are given before it checks either is callable.
    for fn, name in ((true_fn, "true_fn"), (false_fn, "false_fn")):
        if not callable(fn):
            raise TypeError(f"'{name}' must be callable.")
    return true_fn, false_fn


def cond(pred, true_fn=None, false_fn=None, strict=False, name=None, fn1=None, fn2=None):
    """``tf.compat.v1.cond``: ``true_fn()`` if ``pred`` else ``false_fn()``.

    Raises:
      TypeError: a branch missing or not callable, or given twice (``fn1`` / ``fn2``).
      ValueError: a predicate with more than one element.
    """
    true_fn, false_fn = _check_branches(true_fn, false_fn, fn1, fn2)
    graph = control_flow_util.graph_for(pred)
    if graph is not None:
        result = graph.cond(pred, true_fn, false_fn, name)
    else:
        result = _eager_cond(pred, true_fn, false_fn)
    return result if strict else _unpack_if_singleton(result)


def _eager_cond(pred, true_fn, false_fn):
    value = execute.convert_to_tensor(pred).numpy()
    return true_fn() if value else false_fn()


def cond_for_tf_v2(pred, true_fn=None, false_fn=None, name=None):
    """``tf.cond`` (TF 2): ``true_fn()`` if ``pred`` else ``false_fn()``, results as built.

    Raises:
      TypeError: a branch missing or not callable.
      ValueError: a predicate with more than one element.
    """
    return cond(pred, true_fn=true_fn, false_fn=false_fn, strict=True, name=name)

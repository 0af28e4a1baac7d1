"""``tf.switch_case``: run the branch an integer index selects.

Glossary:
  branch_fns    -- a list of callables (the position is the key), a list of (int, callable)
                   pairs, or a dict of them; keys must be 0 .. n-1.
  out of range  -- an index below 0 or at least n runs ``default`` if given, else the branch
                   with the largest key (TF's Case op runs its last branch).
  graph case    -- a symbolic index while tracing: a chain of ``cond``s, one per key, in the
                   graph being traced (TF lowers its Case op the same way).

Mirrors tensorflow/python/ops/control_flow_switch_case.py.
"""

from __future__ import annotations

from simdist.framework import execute, func_graph
from simdist.framework.ops import cond as cond_lib
from simdist.framework.ops import control_flow_util, math_ops
from simdist.framework.tensor import Tensor


def _indexed_case_verify_and_canonicalize_args(branch_fns, default, branch_index):
    if not (isinstance(branch_index, Tensor) or func_graph.is_symbolic(branch_index)):
        raise TypeError(f"'branch_index' must be a Tensor, got {type(branch_index)}")
    if not branch_index.dtype.is_integer:
        raise TypeError(f"'branch_index' must be an integer Tensor, got {branch_index.dtype}")
    if not branch_fns:
        raise ValueError("Must provide at least one item in 'branch_fns'")
    if not isinstance(branch_fns, (list, tuple, dict)):
        raise TypeError("'branch_fns' must be a list, tuple, or dict")
    if isinstance(branch_fns, dict):
        branch_fns = branch_fns.items()
    if all(callable(fn) for fn in branch_fns):
        branch_fns = list(enumerate(branch_fns))
    for key_fn_pair in branch_fns:
        if not isinstance(key_fn_pair, tuple) or len(key_fn_pair) != 2:
            raise TypeError("Each entry in 'branch_fns' must be a 2-tuple. "
                            f"Received {key_fn_pair}.")
        key, branch_fn = key_fn_pair
        if not isinstance(key, int):
            raise TypeError(f"key must be a Python `int`, got {type(key)}")
        if not callable(branch_fn):
            raise TypeError(f"fn for key {key} must be callable.")
    keys = [p[0] for p in branch_fns]
    if min(keys) < 0 or max(keys) >= len(keys) or len(set(keys)) != len(keys):
        raise ValueError(
            "branch indices (keys) must form contiguous range of [0 to {}) but "
            "found {{{}}}".format(len(keys), ",".join(map(str, sorted(keys)))))
    actions = [p[1] for p in sorted(branch_fns, key=lambda p: p[0])]
    if default is not None:
        actions.append(default)
    return actions


def _graph_indexed_case(branch_index, branch_fns, name):
    """Nested conds on ``index == k``; the last branch takes every other index."""
    def chain(k):
        if k == len(branch_fns) - 1:
            return branch_fns[k]()
        return cond_lib.cond_for_tf_v2(math_ops.equal(branch_index, k), branch_fns[k],
                                       lambda: chain(k + 1), name)

    return chain(0)


def switch_case(branch_index, branch_fns, default=None, name="switch_case"):
    """``tf.switch_case``: ``branch_fns[branch_index]()``, out of range ``default()`` or the
    last branch.

    Raises:
      TypeError: an index that is not an integer tensor, ``branch_fns`` not a list / tuple /
        dict, an entry not a 2-tuple, a key not an int, a function not callable.
      ValueError: no branches, keys not 0 .. n-1.
    """
    branch_fns = _indexed_case_verify_and_canonicalize_args(branch_fns, default, branch_index)
    if control_flow_util.graph_for(branch_index) is not None:
        return _graph_indexed_case(branch_index, branch_fns, name)
    index = int(execute.convert_to_tensor(branch_index).numpy())
    if index < 0 or index >= len(branch_fns):
        index = len(branch_fns) - 1
    return branch_fns[index]()

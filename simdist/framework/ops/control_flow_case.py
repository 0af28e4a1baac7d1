"""``tf.case``: the branch of the first true predicate, built from ``cond`` as TF builds it.

Glossary:
  pred_fn_pairs  -- a list / tuple of (boolean scalar tensor, callable) pairs, or a dict of
                    them (eagerly only with ``exclusive=True``; an OrderedDict always).
  default        -- run when no predicate is true. Without one, the last pair becomes the
                    default, guarded by two Asserts: no other predicate true, and its own
                    predicate true ("Input error: None of conditions evaluated as True:").
  exclusive      -- every predicate is evaluated first and more than one true raises
                    InvalidArgumentError ("Input error: exclusive=True: more than 1
                    conditions ... evaluated as True:").
  strict         -- False (default): a one-element list or tuple result is unpacked, as
                    ``tf.compat.v1.cond`` does.
Each pair becomes a nested ``cond(pred, fn, <the rest>)``, so only the chosen branch runs.

Mirrors tensorflow/python/ops/control_flow_case.py.
"""

from __future__ import annotations

import collections
import functools

from simdist.framework import dtypes, func_graph
from simdist.framework.ops import array_ops, math_ops
from simdist.framework.ops import cond as cond_lib
from simdist.framework.tensor import Tensor


def _name(pred) -> str:
    """``pred.name``: undefined for a concrete (eager) tensor, as in TF."""
    if isinstance(pred, Tensor) and not func_graph.is_symbolic(pred):
        raise AttributeError("Tensor.name is undefined when eager execution is enabled.")
    return pred.name


def _name_or_unknown(pred) -> str:
    try:
        return _name(pred)
    except AttributeError:
        return "?"


def _stack(predicates):
    return array_ops.stack(list(predicates)) if predicates else array_ops.zeros([0], dtypes.bool_)


def _assert(condition, **kwargs):
    """``control_flow_ops.Assert``: that module re-exports ``case`` from this one, so it is
    imported here, at the call (either module can then be imported first)."""
    from simdist.framework.ops import control_flow_ops

    return control_flow_ops.Assert(condition, **kwargs)


def _assert_at_most_n_true(predicates, n, msg):
    preds_c = _stack(predicates)
    num_true = math_ops.reduce_sum(array_ops.cast(preds_c, dtypes.int32))
    condition = math_ops.less_equal(num_true, n)
    names = ", ".join(_name_or_unknown(p) for p in predicates)
    data = [f"{msg}: more than {n} conditions ({names}) evaluated as True:", preds_c]
    return _assert(condition, data=data, summarize=len(predicates))


def _case_create_default_action(predicates, actions):
    k = len(predicates) - 1  # TF picks the last pair
    predicate, action = predicates[k], actions[k]
    other_predicates, other_actions = predicates[:k], actions[:k]

    def default_action():
        others_msg = (f"Implementation error: selected default action #{k} was called, but "
                      "some of other predicates are True: ")
        default_msg = ("Input error: None of conditions evaluated as True:", _stack(predicates))
        _assert_at_most_n_true(other_predicates, n=0, msg=others_msg)
        _assert(predicate, data=default_msg)
        return action()

    return default_action, other_predicates, other_actions


def _case_verify_and_canonicalize_args(pred_fn_pairs, exclusive, name, allow_python_preds):
    if not isinstance(pred_fn_pairs, (list, tuple, dict)):
        raise TypeError("'pred_fn_pairs' must be a list, tuple, or dict. "
                        f"Received: {type(pred_fn_pairs)}")
    if isinstance(pred_fn_pairs, collections.OrderedDict):
        pred_fn_pairs = pred_fn_pairs.items()
    elif isinstance(pred_fn_pairs, dict):
        if not exclusive:
            raise ValueError("Unordered dictionaries are not supported for the "
                             "'pred_fn_pairs' argument when `exclusive=False` and "
                             "eager mode is enabled.")
        pred_fn_pairs = list(pred_fn_pairs.items())
    for pred_fn_pair in pred_fn_pairs:
        if not isinstance(pred_fn_pair, tuple) or len(pred_fn_pair) != 2:
            raise TypeError("Each entry in 'pred_fn_pairs' must be a 2-tuple. "
                            f"Received {pred_fn_pair}.")
        pred, fn = pred_fn_pair
        if isinstance(pred, Tensor) or func_graph.is_symbolic(pred):
            if pred.dtype != dtypes.bool_:
                raise TypeError(f"pred must be Tensor of type bool: {_name(pred)}")
        elif not allow_python_preds:
            raise TypeError(f"pred must be a Tensor, got: {pred}")
        elif not isinstance(pred, bool):
            raise TypeError(f"pred must be a Tensor or bool, got: {pred}")
        if not callable(fn):
            raise TypeError(f"fn for pred {_name(pred)} must be callable.")
    predicates, actions = zip(*pred_fn_pairs)
    return predicates, actions


def _case_helper(cond_fn, pred_fn_pairs, default, exclusive, name, allow_python_preds=False,
                 **cond_kwargs):
    predicates, actions = _case_verify_and_canonicalize_args(
        pred_fn_pairs, exclusive, name, allow_python_preds)
    if default is None:
        default, predicates, actions = _case_create_default_action(predicates, actions)
    fn = default
    # Conditions are evaluated in order: cond(c[0], a[0], cond(c[1], a[1], ...)).
    for predicate, action in reversed(list(zip(predicates, actions))):
        fn = functools.partial(cond_fn, predicate, true_fn=action, false_fn=fn, **cond_kwargs)
    if exclusive:
        _assert_at_most_n_true(predicates, n=1, msg="Input error: exclusive=True")
    return fn()


def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name="case"):
    """``tf.case``: the result of the first pair whose predicate is true, else ``default()``.

    Raises:
      TypeError: pairs not a list / tuple / dict, an entry not a 2-tuple, a predicate not a
        boolean tensor, a function not callable.
      ValueError: an unordered dict with ``exclusive=False``.
      InvalidArgumentError: several predicates true with ``exclusive=True``; none true and
        no ``default``.
    """
    return _case_helper(cond_lib.cond, pred_fn_pairs, default, exclusive, name,
                        allow_python_preds=False, strict=strict)

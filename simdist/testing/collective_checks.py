"""Property checks a correct collective must pass, whatever order it sums in.

Glossary:
  case        -- one generated input: replica count ``p``, dtype, op, one array per replica.
  float-order bound -- summing p floats in any order (a ring, a tree, one device after
                 another) is off the exact sum by at most ``(p - 1) * u * sum|x_i|``
                 (u = eps / 2, the unit round-off); the checks allow ``(p - 1) * eps *
                 sum|x_i|``, so any order passes and a lost or doubled term does not.
  same bits   -- after an all-reduce every replica must hold the *identical* bytes (NCCL
                 and TF copy the finished result; re-adding it per replica in another order
                 makes replicas drift apart, and mirrored variables with them).
  shrinking   -- on failure hypothesis looks for the smallest failing case; the
                 ``AssertionError`` names it (p, dtype, op, values) and what was wrong.
Mirrors the invariants tensorflow/python/distribute/cross_device_ops_test.py asserts, over
generated cases instead of a handful of fixed ones.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from simdist.hardware.backend import to_host
from simdist.testing import strategies as sds

_OPS = ("SUM", "MEAN", "MIN", "MAX")


def check_all_reduce(fn, *, max_examples: int = 100, ops=_OPS, dtypes=None,
                     max_replicas: int = 9, special_values: bool = True,
                     derandomize: bool = True) -> None:
    """Check ``fn(values, op) -> one array per replica`` is a correct all-reduce.

    Args:
      fn: takes a list of per-replica NumPy arrays (same shape and dtype) and an op name
        (``"SUM"``, ``"MEAN"``, ``"MIN"``, ``"MAX"``; ``"PROD"`` if listed in ``ops``).
      max_examples: how many generated cases to try.
      ops, dtypes: the ops and dtype names to draw from (default: all of them); ops may be
        names or ``tf.distribute.ReduceOp`` members, passed to ``fn`` as given.
      max_replicas: the largest replica count generated.
      special_values: also put inf, -inf, nan and -0.0 into float inputs.
      derandomize: the same cases on every run (a lesson's grader gives the same answer).

    Raises:
      AssertionError: naming the smallest failing case and what was wrong with it.
    """
    def check(case):
        p, values, op = case
        out = _call(fn, (values, op), p, case)
        _same_bits(out, case)
        _close_to_reduction(out[0], values, op, p, case, "every replica")

    _run(check, _reduce_cases(ops, dtypes, max_replicas, special_values), max_examples,
         derandomize)


def check_reduce_scatter(fn, *, max_examples: int = 100, ops=_OPS, dtypes=None,
                         max_replicas: int = 9, special_values: bool = True,
                         derandomize: bool = True) -> None:
    """Check ``fn(values, op)`` gives replica r rows r of the reduction (numpy.array_split).

    Replica r must hold slot r of axis 0 of the reduced array, as ``numpy.array_split`` cuts
    it into p slots (NCCL's and TF's reduce-scatter), in the input dtype, within the
    float-order bound. Arguments as :func:`check_all_reduce`.
    """
    def check(case):
        p, values, op = case
        out = _call(fn, (values, op), p, case)
        cuts = np.cumsum([0] + [len(s) for s in np.array_split(np.arange(len(values[0])), p)])
        for r in range(p):
            rows = [v[cuts[r]:cuts[r + 1]] for v in values]
            _close_to_reduction(out[r], rows, op, p, case, f"replica {r} (rows "
                                f"{cuts[r]}:{cuts[r + 1]})")

    _run(check, _reduce_cases(ops, dtypes, max_replicas, special_values, min_dims=1),
         max_examples, derandomize)


def check_all_gather(fn, *, max_examples: int = 100, dtypes=None, max_replicas: int = 9,
                     derandomize: bool = True) -> None:
    """Check ``fn(values)`` gives every replica ``numpy.concatenate(values)``, bit for bit.

    Raises:
      AssertionError: naming the smallest failing case.
    """
    def check(case):
        p, values, _ = case
        out = _call(fn, (values,), p, case)
        expected = np.concatenate(values)
        for r, got in enumerate(out):
            _bitwise_equal(got, expected, case, f"replica {r}: all_gather must concatenate "
                           "the replicas' arrays along axis 0 in replica order")

    _run(check, _reduce_cases(("SUM",), dtypes, max_replicas, True, min_dims=1),
         max_examples, derandomize)


def check_broadcast(fn, *, max_examples: int = 100, dtypes=None, max_replicas: int = 9,
                    derandomize: bool = True) -> None:
    """Check ``fn(values, root)`` gives every replica ``values[root]``, bit for bit."""
    def check(case):
        p, values, root = case
        out = _call(fn, (values, root), p, case)
        for r, got in enumerate(out):
            _bitwise_equal(got, values[root], case, f"replica {r}: broadcast must copy the "
                           f"root's (replica {root}'s) array")

    cases = _reduce_cases(("SUM",), dtypes, max_replicas, True).flatmap(
        lambda c: st.integers(0, c[0] - 1).map(lambda root: (c[0], c[1], root)))
    _run(check, cases, max_examples, derandomize)


def check_schedule(build, collective: str = "all_reduce", *, max_examples: int = 100,
                   **kwargs) -> None:
    """Run a user-written Schedule on simdist's executor and check it as ``collective``.

    Args:
      build: ``build(num_devices, **params) -> simdist.collectives.Schedule`` (broadcast
        schedules get ``root=``); it runs through ``simdist.collectives.<collective>``.
      collective: ``"all_reduce"``, ``"reduce_scatter"``, ``"all_gather"``, ``"broadcast"``.
      kwargs: passed on to the matching ``check_*`` (ops, dtypes, max_replicas ...).
    """
    from simdist import collectives
    from simdist.collectives.registry import Algorithm

    if collective not in _BY_COLLECTIVE:
        raise ValueError(f"check_schedule checks one of {sorted(_BY_COLLECTIVE)}, got "
                         f"{collective!r}.")
    name = getattr(build, "__name__", "user_schedule")
    algo = Algorithm(f"user:{name}", collective, "a user-written schedule", build,
                     mirrors="the user's own schedule")
    run = getattr(collectives, collective)
    if collective == "broadcast":
        fn = lambda values, root: run(values, algo, root=root).values
    elif collective == "all_gather":
        fn = lambda values: run(values, algo).values
    else:
        fn = lambda values, op: run(values, algo, op=op).values
    _BY_COLLECTIVE[collective](fn, max_examples=max_examples, **kwargs)


_BY_COLLECTIVE = {"all_reduce": check_all_reduce, "reduce_scatter": check_reduce_scatter,
                  "all_gather": check_all_gather, "broadcast": check_broadcast}


# --- generating and running cases -------------------------------------------------------
def _reduce_cases(ops, dtypes, max_replicas, special_values, min_dims=0):
    """(p, values, op) cases; PROD inputs are mapped to 1 + x/8 so products stay finite."""
    dtype_names = tuple(dtypes) if dtypes else sds.FLOAT_DTYPES + sds.INT_DTYPES
    # Made once, not in every draw: hypothesis validates each new strategy object (most of
    # a draw's time); a shared one draws the same choices.
    counts, kinds, names = (sds.replica_counts(max_replicas), st.sampled_from(dtype_names),
                            st.sampled_from(tuple(ops)))
    shapes = sds.shapes(max_size=24).filter(lambda s: len(s) >= min_dims)

    @st.composite
    def cases(draw):
        p = draw(counts)
        dtype = draw(kinds)
        op = draw(names)
        shape = draw(shapes)
        special = special_values and str(op).upper() != "PROD" and draw(st.booleans())
        values = draw(sds.per_replica_arrays(p, dtype, shape=shape, special=special))
        if str(op).upper() == "PROD":
            values = [(1 + v / 8).astype(v.dtype) if v.dtype.kind == "f" else v
                      for v in values]
        return p, values, op

    return cases()


def _run(check, cases, max_examples, derandomize):
    """Run ``check`` on generated cases; hypothesis shrinks a failure before re-raising it."""
    @settings(max_examples=max_examples, deadline=None, database=None,
              derandomize=derandomize, report_multiple_bugs=False,
              suppress_health_check=list(HealthCheck), print_blob=False,
              phases=(Phase.explicit, Phase.generate, Phase.shrink))
    @given(case=cases)
    def property_holds(case):
        check(case)

    property_holds()


def _describe(case) -> str:
    p, values, extra = case
    with np.printoptions(threshold=40, precision=6):
        shown = ", ".join(repr(v) for v in values[:4]) + (" ..." if p > 4 else "")
    return (f"p={p}, dtype={values[0].dtype}, shape={values[0].shape}, op/root={extra!r}, "
            f"values=[{shown}]")


def _fail(case, what):
    raise AssertionError(f"{what}\n  smallest failing case: {_describe(case)}")


def _call(fn, args, p, case) -> list:
    """Call the function under test; any error or a wrong-length answer is a failure."""
    try:
        out = fn(*[list(a) if isinstance(a, list) else a for a in args])
    except NotImplementedError:  # an exercise's placeholder: not answered yet
        raise
    except Exception as exc:  # the learner's code raised: report it with the case
        _fail(case, f"the function raised {type(exc).__name__}: {exc}")
    if out is None or len(out) != p:
        _fail(case, f"expected one array per replica ({p}), got "
              f"{'None' if out is None else len(out)}")
    return [np.asarray(to_host(o)) for o in out]


def _same_bits(out, case):
    first = out[0]
    for r, got in enumerate(out[1:], start=1):
        if got.dtype != first.dtype or got.shape != first.shape \
                or got.tobytes() != first.tobytes():
            _fail(case, f"replica {r} does not hold the same bits as replica 0 (after an "
                  "all-reduce every replica must hold the identical result)")


def _bitwise_equal(got, expected, case, what):
    if got.dtype != expected.dtype or got.shape != expected.shape \
            or got.tobytes() != expected.tobytes():
        _fail(case, f"{what}; got {got!r}, expected {expected!r}")


def _close_to_reduction(got, values, op, p, case, where):
    """``got`` has the reduction's dtype and shape and lies within the float-order bound."""
    name = str(getattr(op, "value", op)).upper()
    dt, shape = values[0].dtype, values[0].shape
    want_dtype = (np.zeros(1, dt) / p).dtype if name == "MEAN" else dt
    if got.dtype != want_dtype or got.shape != shape:
        _fail(case, f"{where}: expected dtype {want_dtype} and shape {shape}, got "
              f"{got.dtype} and {got.shape}")
    with np.errstate(invalid="ignore", over="ignore"):  # inf - inf is a case, not an error
        _within_bound(got, np.stack(values), name, dt, shape, p, case, where)


def _within_bound(got, stack, name, dt, shape, p, case, where):
    """Exact for MIN/MAX and ints; within the float-order bound for float SUM/MEAN/PROD."""
    if name in ("MIN", "MAX") or dt.kind != "f":
        exact = _exact_int_or_order_free(stack, name, dt, p)
        ok = (got == exact) | (np.isnan(exact) & np.isnan(got)) if got.dtype.kind == "f" \
            else got == exact
        if name == "MEAN" and dt.kind != "f":
            ok = np.abs(got - exact) <= np.finfo(got.dtype).eps * np.abs(exact)
        if not np.all(ok):
            _fail(case, f"{where}: {name} should be exactly {exact!r}, got {got!r}")
        return
    wide = stack.astype(np.float64)
    exact = wide.prod(axis=0) if name == "PROD" else wide.sum(axis=0)
    eps = float(np.finfo(dt).eps)
    # A product's rounding is relative to the product; a sum's to the sum of |terms|.
    scale = 2 * np.abs(exact) if name == "PROD" else np.abs(wide).sum(axis=0)
    bound = (p - 1) * eps * scale
    if name == "MEAN":
        exact = exact / p
        bound = bound / p + eps * np.abs(exact)
    diff = np.abs(got.astype(np.float64) - exact)
    ok = np.where(np.isfinite(exact), diff <= bound,
                  (np.isnan(exact) & np.isnan(got)) | (got == exact))
    if not np.all(ok):
        bad = np.flatnonzero(~np.asarray(ok).reshape(-1))[0]
        _fail(case, f"{where}: {name} is off the exact result by more than summing in any "
              f"order can explain (element {bad}: got {got.reshape(-1)[bad]!r}, exact "
              f"{np.asarray(exact).reshape(-1)[bad]!r}, allowed error "
              f"{np.asarray(bound).reshape(-1)[bad]:.3g})")


def _exact_int_or_order_free(stack, name, dt, p):
    """MIN/MAX (order-free), and integer SUM/PROD/MEAN (wrap-around sums are exact)."""
    if name == "MIN":
        return stack.min(axis=0)
    if name == "MAX":
        return stack.max(axis=0)
    if name == "PROD":
        return stack.prod(axis=0, dtype=dt)
    total = stack.sum(axis=0, dtype=dt)
    return total / p if name == "MEAN" else total

"""Conformance cases for the core of tf.distribute, run unchanged under TensorFlow and simdist.

Each case is a function ``case_xxx(tf)`` that takes the module (``tensorflow`` or
``simdist``), builds what it needs through the public TF API only, and returns a JSON-able
result. ``record_tf_distribute.py`` runs every case under TensorFlow and saves the results;
``test_distribute_conformance.py`` runs them under simdist and compares.

Glossary:
  CASES           -- name -> Case (fn, keywords, exact_print), in definition order.
  make_strategy   -- a MirroredStrategy over 4 logical CPUs (configured once per world).
  expect_error    -- run a callable that must fail; record the exception's type, its
                     message (informational) and the keywords the replay checks for.
  enc             -- encode any result (tensors, distributed values, variables, nests,
                     Python scalars) as JSON: tensors as {dtype, shape, value}, distributed
                     values as {type, local: [...]}, other objects as {type}.
  "str:" keys     -- printed forms (str/repr); recorded always, compared only when the
                     case is flagged ``exact_print``.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import os
from dataclasses import dataclass, field

N = 4
DEVICES = [f"/cpu:{i}" for i in range(N)]


@dataclass
class Case:
    """One conformance case: the function and how to compare its result."""

    name: str
    fn: object
    exact_print: bool = False
    keywords: list = field(default_factory=list)


CASES: dict[str, Case] = {}


def case(fn=None, *, exact_print=False, name=None):
    """Register ``fn`` (a ``case_xxx(tf)`` function) under its name without ``case_``."""

    def register(f):
        key = name or f.__name__.removeprefix("case_")
        CASES[key] = Case(key, f, exact_print)
        return f

    return register(fn) if fn is not None else register


# ----------------------------------------------------------------------------- helpers


def make_strategy(tf, n=N):
    """A MirroredStrategy over ``n`` logical CPUs; configures the CPUs the first time.

    The recording machine has no GPU; where the world has GPUs (simdist's default machine)
    they are hidden, so that unplaced tensors and variables land on CPU:0 as in TF.
    """
    if tf.config.get_visible_devices("GPU"):
        tf.config.set_visible_devices([], "GPU")
    cpus = tf.config.list_physical_devices("CPU")
    if tf.config.get_logical_device_configuration(cpus[0]) is None:
        tf.config.set_logical_device_configuration(
            cpus[0], [tf.config.LogicalDeviceConfiguration() for _ in range(n)]
        )
    return tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(n)])


def expect_error(fn, keywords=()):
    """Call ``fn``; it must raise. Returns the error's type name, message and keywords."""
    try:
        out = fn()
    except Exception as e:  # noqa: BLE001 - recording whatever TF raises is the point
        return {"error": tname(e), "message": _short(str(e)), "keywords": list(keywords)}
    return {"no_error": True, "returned": tname(out)}


def _short(message: str) -> str:
    """A message's first 300 characters; of TF's "in user code:" text, those of its frames
    and of its cause (the error's own message, after the frames)."""
    if message.startswith("in user code:"):
        frames, sep, cause = message.rpartition("\n\n    ")
        return frames[:300] + sep + cause[:300]
    return message[:300]


def tname(x):
    """``x``'s class name; every eager tensor class is called "Tensor"."""
    n = type(x).__name__
    return "Tensor" if n in ("EagerTensor", "_EagerTensorBase", "Tensor") else n


def rid(tf):
    """The current replica's id as a float32 scalar tensor."""
    ctx = tf.distribute.get_replica_context()
    return tf.cast(ctx.replica_id_in_sync_group, tf.float32)


def t(x):
    """A tensor (or anything with ``numpy``) as {dtype, shape, value}."""
    return {"dtype": x.dtype.name, "shape": [int(d) for d in x.shape], "value": x.numpy().tolist()}


def enc(tf, x, strategy=None):
    """Encode a result as JSON (see the module glossary)."""
    if isinstance(x, tf.distribute.DistributedValues):
        s = strategy or tf.distribute.get_strategy()
        return {"type": tname(x),
                "local": [enc(tf, c, s) for c in s.experimental_local_results(x)]}
    if isinstance(x, tf.Variable):
        return {"type": tname(x), **t(x)}
    if isinstance(x, tf.Tensor):
        return {"type": "Tensor", **t(x)}
    if isinstance(x, dict):
        items = {str(k): enc(tf, v, strategy) for k, v in sorted(x.items())}
        return {"type": "dict", "items": items}
    if isinstance(x, (list, tuple)):
        return {"type": tname(x), "items": [enc(tf, v, strategy) for v in x]}
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    return {"type": tname(x)}


def local(tf, strategy, x):
    """The values of ``x``'s local results, as plain nested lists."""
    return [c.numpy().tolist() for c in strategy.experimental_local_results(x)]


def devices(strategy, x):
    """The device of each of ``x``'s local results."""
    return [c.device for c in strategy.experimental_local_results(x)]


def per_replica(tf, strategy, fn):
    """A PerReplica from ``fn(replica_id) -> value`` via values_from_function."""
    return strategy.experimental_distribute_values_from_function(
        lambda ctx: fn(ctx.replica_id_in_sync_group))


def ctx_state(tf):
    """The four context functions' answers, as JSON."""
    rc = tf.distribute.get_replica_context()
    return {
        "get_strategy": tname(tf.distribute.get_strategy()),
        "has_strategy": tf.distribute.has_strategy(),
        "in_cross_replica_context": tf.distribute.in_cross_replica_context(),
        "get_replica_context": None if rc is None else tname(rc),
    }


# ----------------------------------------------------------------------------- run


@case
def case_run_tensor(tf):
    s = make_strategy(tf)
    r = s.run(lambda: tf.constant([1.0, 2.0]) * (rid(tf) + 1.0))
    return {"result": enc(tf, r, s), "devices": devices(s, r), "str:str": str(r)}


@case
def case_run_tuple(tf):
    s = make_strategy(tf)
    r = s.run(lambda: (rid(tf), tf.constant(7, tf.int32)))
    return {"result": enc(tf, r, s), "types": [tname(x) for x in r]}


@case
def case_run_dict(tf):
    s = make_strategy(tf)
    r = s.run(lambda: {"b": rid(tf) * 2.0, "a": tf.constant([1.0])})
    return {"result": enc(tf, r, s), "keys": sorted(r.keys())}


@case
def case_run_python_float(tf):
    s = make_strategy(tf)
    r = s.run(lambda: 1.5)
    return {"type": tname(r), "result": enc(tf, r, s)}


@case
def case_run_same_tensor_object(tf):
    s = make_strategy(tf)
    c = tf.constant([3.0, 4.0])
    r = s.run(lambda: c)
    return {"type": tname(r), "is_same": r is c, "result": enc(tf, r, s)}


@case
def case_run_none(tf):
    s = make_strategy(tf)
    r = s.run(lambda: None)
    return {"result": enc(tf, r, s)}


@case
def case_run_args_kwargs(tf):
    s = make_strategy(tf)
    pr = per_replica(tf, s, lambda i: tf.constant([float(i), 10.0 * i]))

    def fn(x, y, scale=1.0):
        return (x + y) * scale

    r = s.run(fn, args=(pr, tf.constant([1.0, 1.0])), kwargs={"scale": 2.0})
    return {"result": enc(tf, r, s)}


@case
def case_run_replica_id(tf):
    s = make_strategy(tf)
    r = s.run(lambda: tf.distribute.get_replica_context().replica_id_in_sync_group)
    return {"result": enc(tf, r, s)}


@case
def case_run_num_replicas(tf):
    s = make_strategy(tf)
    r = s.run(lambda: tf.distribute.get_replica_context().num_replicas_in_sync)
    return {"result": enc(tf, r, s)}


@case
def case_run_tensor_device(tf):
    s = make_strategy(tf)
    r = s.run(lambda: tf.constant(1.0) + rid(tf))
    return {"devices": devices(s, r)}


@case(exact_print=True)
def case_per_replica_print(tf):
    s = make_strategy(tf)
    r = s.run(lambda: tf.constant([1.0, 2.0, 3.0]))
    return {"str:str": str(r), "str:repr": repr(r), "type": tname(r)}


@case
def case_exception_in_one_replica(tf):
    s = make_strategy(tf)

    def fn():
        if tf.distribute.get_replica_context().replica_id_in_sync_group == 1:
            raise ValueError("boom in replica 1")
        return tf.constant(1.0)

    return {"run": expect_error(lambda: s.run(fn), ["boom"]),
            "strategy_still_works": local(tf, s, s.run(lambda: tf.constant(2.0)))}


# ----------------------------------------------------------------------------- reduce


def _reduce_case(tf, op, axis):
    s = make_strategy(tf)
    r = s.run(lambda: tf.constant([[1.0, -2.0], [3.0, 0.5]]) * (rid(tf) + 1.0))
    out = s.reduce(getattr(tf.distribute.ReduceOp, op), r, axis=axis)
    return {"result": enc(tf, out, s), "device": out.device}


@case
def case_reduce_sum_axis_none(tf):
    return _reduce_case(tf, "SUM", None)


@case
def case_reduce_mean_axis_none(tf):
    return _reduce_case(tf, "MEAN", None)


@case
def case_reduce_min_max_axis_none(tf):
    # TF 2.15's ReduceOp has only SUM and MEAN: the attribute and the string both fail.
    return {op: {"attribute": expect_error(lambda op=op: getattr(tf.distribute.ReduceOp, op),
                                           [op]),
                 "string": expect_error(lambda op=op: _reduce_case(tf, op, None), [op])}
            for op in ("MIN", "MAX")}


@case
def case_reduce_sum_axis0(tf):
    return _reduce_case(tf, "SUM", 0)


@case
def case_reduce_mean_axis0(tf):
    return _reduce_case(tf, "MEAN", 0)


@case
def case_reduce_min_max_axis0(tf):
    return {op: _try(lambda op=op: _reduce_case(tf, op, 0), [op]) for op in ("MIN", "MAX")}


def _try(fn, keywords=()):
    """fn() or its error (for behaviour that may be either)."""
    try:
        return {"ok": fn()}
    except Exception as e:  # noqa: BLE001
        return {"error": tname(e), "message": str(e)[:300], "keywords": list(keywords)}


@case
def case_reduce_mean_axis0_uneven(tf):
    s = make_strategy(tf)
    # replica i holds [1., ..., i + 1.]: sizes 1..4
    pr = per_replica(tf, s, lambda i: tf.constant([float(k + 1) for k in range(i + 1)]))
    return {"mean": enc(tf, s.reduce("MEAN", pr, axis=0), s),
            "sum": enc(tf, s.reduce("SUM", pr, axis=0), s)}


@case
def case_reduce_axis1(tf):
    return _reduce_case(tf, "SUM", 1)


@case
def case_reduce_string_op(tf):
    s = make_strategy(tf)
    r = s.run(lambda: tf.constant([1.0, 2.0]) + rid(tf))
    return {"SUM": enc(tf, s.reduce("SUM", r, axis=None), s),
            "MEAN": enc(tf, s.reduce("MEAN", r, axis=None), s),
            "lower_sum": _try(lambda: enc(tf, s.reduce("sum", r, axis=None), s), ["sum"])}


@case
def case_reduce_invalid_op(tf):
    s = make_strategy(tf)
    r = s.run(lambda: tf.constant([1.0, 2.0]))
    return {"PROD": expect_error(lambda: s.reduce("PROD", r, axis=None), ["PROD"])}


@case
def case_reduce_non_distributed(tf):
    s = make_strategy(tf)
    c = tf.constant([1.0, 2.0])
    shown = "value tf.Tensor([1. 2.], shape=(2,)"   # str(), not format(): TF's %s
    return {op: _try(lambda op=op: enc(tf, s.reduce(op, c, axis=None), s), kw)
            for op, kw in (("SUM", ["reduce", shown]), ("MEAN", []), ("MAX", ["MAX"]))}


@case
def case_reduce_non_distributed_axis0(tf):
    s = make_strategy(tf)
    c = tf.constant([1.0, 2.0])
    return {op: _try(lambda op=op: enc(tf, s.reduce(op, c, axis=0), s), [])
            for op in ("SUM", "MEAN")}


@case
def case_reduce_nested(tf):
    s = make_strategy(tf)
    r = s.run(lambda: {"a": rid(tf), "b": (rid(tf) * 2.0, tf.constant(1.0))})
    return _try(lambda: enc(tf, s.reduce("SUM", r, axis=None), s))


@case
def case_reduce_int(tf):
    s = make_strategy(tf)
    r = s.run(lambda: tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group,
                              tf.int32) + 1)
    return {"SUM": enc(tf, s.reduce("SUM", r, axis=None), s),
            "MEAN": enc(tf, s.reduce("MEAN", r, axis=None), s)}


@case
def case_reduce_missing_axis(tf):
    s = make_strategy(tf)
    r = s.run(lambda: tf.constant(1.0))
    return expect_error(lambda: s.reduce(tf.distribute.ReduceOp.SUM, r), ["axis"])


@case
def case_reduce_op_enum(tf):
    R = tf.distribute.ReduceOp
    return {"members": [[m.name, m.value] for m in R],
            "type": tname(R.SUM),
            "from_string": R("SUM") is R.SUM,
            "str": str(R.SUM),
            "has_min": hasattr(R, "MIN"), "has_max": hasattr(R, "MAX")}


# ----------------------------------------------------------------------------- gather


@case
def case_gather_axis0(tf):
    s = make_strategy(tf)
    r = s.run(lambda: tf.constant([[1.0, 2.0]]) + rid(tf) * 10.0)
    return {"result": enc(tf, s.gather(r, axis=0), s)}


@case
def case_gather_axis1(tf):
    s = make_strategy(tf)
    r = s.run(lambda: tf.constant([[1.0], [2.0]]) + rid(tf) * 10.0)
    return {"result": enc(tf, s.gather(r, axis=1), s)}


@case
def case_gather_uneven(tf):
    s = make_strategy(tf)
    pr = per_replica(tf, s, lambda i: tf.fill([i + 1], tf.cast(i, tf.float32)))
    return _try(lambda: enc(tf, s.gather(pr, axis=0), s))


@case
def case_gather_scalars(tf):
    s = make_strategy(tf)
    r = s.run(lambda: rid(tf))
    # TF fails deep inside its all-gather graph; only the error type is compared.
    return expect_error(lambda: s.gather(r, axis=0))


@case
def case_gather_non_distributed(tf):
    s = make_strategy(tf)
    return _try(lambda: enc(tf, s.gather(tf.constant([1.0, 2.0]), axis=0), s))


@case
def case_gather_axis_outside_rank(tf):
    # TF's collective all-gather permutes with range(axis) and range(axis + 1, rank): an
    # axis outside [0, rank), a negative one too, fails; int32 values are concatenated
    # (ReductionToOneDevice), where a negative axis works
    s = make_strategy(tf)
    r = s.run(lambda: tf.ones([2, 3]) * (rid(tf) + 1.0))
    words = ["Requires start <= limit when delta > 0", "allgather"]
    out = {}
    for ax in (-1, 2):
        out[f"gather {ax}"] = expect_error(lambda ax=ax: s.gather(r, axis=ax), words)
        out[f"all_gather {ax}"] = expect_error(lambda ax=ax: s.run(
            lambda: tf.distribute.get_replica_context().all_gather(tf.ones([2, 3]), axis=ax)),
            words)
    ints = s.run(lambda: tf.ones([2, 3], tf.int32))
    out["int32 gather -1"] = _try(lambda: enc(tf, s.gather(ints, axis=-1), s))
    return out


# ----------------------------------------------------------------------------- local results


@case
def case_local_results(tf):
    s = make_strategy(tf)
    r = s.run(lambda: rid(tf))
    lr = s.experimental_local_results(r)
    c = tf.constant(5.0)
    lc = s.experimental_local_results(c)
    return {"type": tname(lr), "len": len(lr), "values": [x.numpy().tolist() for x in lr],
            "non_distributed_type": tname(lc), "non_distributed_len": len(lc),
            "non_distributed_is_same": lc[0] is c,
            "nested": enc(tf, s.experimental_local_results((r, c)), s)}


@case
def case_strategy_attributes(tf):
    s = make_strategy(tf)
    return {"type": tname(s),
            "num_replicas_in_sync": s.num_replicas_in_sync,
            "worker_devices": list(s.extended.worker_devices),
            "parameter_devices": list(s.extended.parameter_devices),
            "extended_type": tname(s.extended)}


@case
def case_values_from_function(tf):
    s = make_strategy(tf)
    seen = []

    def fn(ctx):
        seen.append([tname(ctx), ctx.replica_id_in_sync_group, ctx.num_replicas_in_sync])
        return tf.constant([1.0]) * float(ctx.replica_id_in_sync_group)

    pr = s.experimental_distribute_values_from_function(fn)
    return {"result": enc(tf, pr, s), "devices": devices(s, pr), "ctx": seen}


@case
def case_values_from_function_python(tf):
    s = make_strategy(tf)
    pr = s.experimental_distribute_values_from_function(lambda ctx: ctx.replica_id_in_sync_group)
    return {"result": enc(tf, pr, s)}


@case
def case_values_from_function_into_run(tf):
    s = make_strategy(tf)
    pr = per_replica(tf, s, lambda i: tf.constant([float(i)]))
    r = s.run(lambda x: x * 2.0 + rid(tf), args=(pr,))
    return {"result": enc(tf, r, s)}


# ----------------------------------------------------------------------------- replica context


@case
def case_replica_context_in_run(tf):
    s = make_strategy(tf)

    def fn():
        ctx = tf.distribute.get_replica_context()
        return {"type": tname(ctx), "num": ctx.num_replicas_in_sync,
                "strategy_is_s": ctx.strategy is s,
                "id_type": tname(ctx.replica_id_in_sync_group)}

    seen = []
    s.run(lambda: seen.append(fn()))
    return {"seen": sorted(seen, key=str)}


@case
def case_all_reduce_sum(tf):
    s = make_strategy(tf)
    r = s.run(lambda: tf.distribute.get_replica_context().all_reduce(
        "SUM", tf.constant([1.0, 2.0]) * (rid(tf) + 1.0)))
    return {"result": enc(tf, r, s)}


@case
def case_all_reduce_mean(tf):
    s = make_strategy(tf)
    r = s.run(lambda: tf.distribute.get_replica_context().all_reduce(
        tf.distribute.ReduceOp.MEAN, tf.constant([1.0, 2.0]) * (rid(tf) + 1.0)))
    return {"result": enc(tf, r, s)}


@case
def case_all_reduce_nested(tf):
    s = make_strategy(tf)

    def fn():
        x = rid(tf) + 1.0
        return tf.distribute.get_replica_context().all_reduce(
            "SUM", {"a": x, "b": (x * tf.constant([1.0, 10.0]), tf.constant(1.0))})

    return {"result": enc(tf, s.run(fn), s)}


@case
def case_all_reduce_min_max(tf):
    s = make_strategy(tf)

    def fn(op):
        return tf.distribute.get_replica_context().all_reduce(op, rid(tf) + 1.0)

    return {op: _try(lambda op=op: enc(tf, s.run(fn, args=(op,)), s), [op])
            for op in ("MIN", "MAX")}


@case
def case_all_reduce_int(tf):
    s = make_strategy(tf)
    r = s.run(lambda: tf.distribute.get_replica_context().all_reduce(
        "SUM", tf.constant([1, 2], tf.int32)))
    return _try(lambda: enc(tf, r, s))


@case
def case_all_gather(tf):
    s = make_strategy(tf)
    r = s.run(lambda: tf.distribute.get_replica_context().all_gather(
        tf.constant([[1.0, 2.0]]) * (rid(tf) + 1.0), axis=0))
    return {"result": enc(tf, r, s)}


@case
def case_all_gather_axis1(tf):
    s = make_strategy(tf)
    r = s.run(lambda: tf.distribute.get_replica_context().all_gather(
        tf.constant([[1.0], [2.0]]) + rid(tf), axis=1))
    return {"result": enc(tf, r, s)}


@case
def case_merge_call_args(tf):
    s = make_strategy(tf)
    seen = {}

    def merge_fn(strategy, x, y=None):
        seen["strategy_type"] = tname(strategy)
        seen["strategy_is_s"] = strategy is s
        seen["x_type"] = tname(x)
        seen["x_local"] = local(tf, strategy, x)
        seen["y_type"] = tname(y)
        seen["in_cross_replica"] = tf.distribute.in_cross_replica_context()
        seen["replica_context"] = tf.distribute.get_replica_context() is None
        return "merged"

    def fn():
        out = tf.distribute.get_replica_context().merge_call(
            merge_fn, args=(rid(tf) + 1.0,), kwargs={"y": tf.constant(3.0)})
        return tf.constant(1.0) if out == "merged" else tf.constant(0.0)

    r = s.run(fn)
    return {"seen": seen, "result": enc(tf, r, s)}


@case
def case_merge_call_returns_tensor(tf):
    s = make_strategy(tf)

    def merge_fn(strategy, x):
        return strategy.reduce("SUM", x, axis=None)

    def fn():
        out = tf.distribute.get_replica_context().merge_call(merge_fn, args=(rid(tf) + 1.0,))
        return out, tname(out) == "PerReplica"

    r = s.run(fn)
    return {"result": enc(tf, r[0], s), "devices": devices(s, r[0])}


@case
def case_merge_call_returns_per_replica(tf):
    s = make_strategy(tf)

    def merge_fn(strategy, x):
        return x  # the PerReplica argument: each replica gets back its own component

    r = s.run(lambda: tf.distribute.get_replica_context().merge_call(
        merge_fn, args=(rid(tf) * 3.0,)))
    return {"result": enc(tf, r, s)}


@case
def case_merge_call_returns_mirrored(tf):
    s = make_strategy(tf)
    with s.scope():
        v = tf.Variable(0.0)
    seen = {}

    def merge_fn(strategy, x):
        m = strategy.extended.reduce_to("SUM", x, destinations=v)
        seen["type"] = tname(m)
        seen["local"] = local(tf, strategy, m)
        return m

    def fn():
        out = tf.distribute.get_replica_context().merge_call(merge_fn, args=(rid(tf) + 1.0,))
        return out * 1.0

    r = s.run(fn)
    return {"seen": seen, "result": enc(tf, r, s)}


@case
def case_merge_call_update(tf):
    s = make_strategy(tf)
    with s.scope():
        v = tf.Variable(1.0)

    def merge_fn(strategy, delta):
        reduced = strategy.extended.reduce_to("SUM", delta, destinations=v)
        return strategy.extended.update(v, lambda var, d: var.assign_add(d), args=(reduced,))

    def fn():
        out = tf.distribute.get_replica_context().merge_call(merge_fn, args=(rid(tf) + 1.0,))
        return tf.convert_to_tensor(out)

    r = s.run(fn)
    return {"var": local(tf, s, v), "returned": enc(tf, r, s)}


@case
def case_merge_call_update_per_replica_args(tf):
    s = make_strategy(tf)
    with s.scope():
        v = tf.Variable(1.0)

    def merge_fn(strategy, delta):
        strategy.extended.update(v, lambda var, d: var.assign_add(d), args=(delta,))

    s.run(lambda: tf.distribute.get_replica_context().merge_call(merge_fn, args=(rid(tf),)))
    return {"var": local(tf, s, v)}


@case
def case_merge_call_default_context(tf):
    seen = {}

    def merge_fn(strategy, x):
        seen["strategy"] = tname(strategy)
        seen["x"] = enc(tf, x)
        return x * 2.0

    out = tf.distribute.get_replica_context().merge_call(merge_fn, args=(tf.constant(2.0),))
    return {"seen": seen, "out": enc(tf, out)}


@case
def case_update_cross_replica(tf):
    s = make_strategy(tf)
    with s.scope():
        v = tf.Variable([1.0, 2.0])
    out = s.extended.update(v, lambda var, d: var.assign_add(d), args=(tf.constant([1.0, 1.0]),))
    return {"var": local(tf, s, v), "returned_type": tname(out),
            "returned": local(tf, s, out)}


@case
def case_value_container(tf):
    s = make_strategy(tf)
    with s.scope():
        v = tf.Variable(1.0)
    comps = s.experimental_local_results(v)
    c = tf.constant(1.0)
    return {"component_is_v": [s.extended.value_container(x) is v for x in comps],
            "plain_is_plain": s.extended.value_container(c) is c,
            "component_type": tname(comps[1])}


# ----------------------------------------------------------------------------- contexts


@case
def case_context_top_level(tf):
    return {**ctx_state(tf),
            "default_num_replicas": tf.distribute.get_strategy().num_replicas_in_sync,
            "default_extended_type": tname(tf.distribute.get_strategy().extended)}


@case
def case_context_in_scope(tf):
    s = make_strategy(tf)
    with s.scope():
        state = ctx_state(tf)
        state["get_strategy_is_s"] = tf.distribute.get_strategy() is s
    state["after"] = ctx_state(tf)
    return state


@case
def case_context_in_run(tf):
    s = make_strategy(tf)
    seen = []

    def fn():
        st = ctx_state(tf)
        st["get_strategy_is_s"] = tf.distribute.get_strategy() is s
        seen.append(st)

    s.run(fn)
    with s.scope():
        s.run(fn)
    return {"seen": seen, "after": ctx_state(tf)}


@case
def case_default_strategy(tf):
    d = tf.distribute.get_strategy()
    r = d.run(lambda: tf.constant([1.0, 2.0]) + 1.0)
    return {"type": tname(d), "num": d.num_replicas_in_sync,
            "run": enc(tf, r), "reduce_sum": enc(tf, d.reduce("SUM", r, axis=None)),
            "local": enc(tf, d.experimental_local_results(r)),
            "run_ctx": d.run(lambda: tname(tf.distribute.get_replica_context())),
            "is_same_object": tf.distribute.get_strategy() is d}


@case
def case_default_strategy_variable(tf):
    v = tf.Variable(1.0)
    return {"type": tname(v), "agg": v.aggregation.name, "sync": v.synchronization.name}


@case
def case_experimental_set_strategy(tf):
    s = make_strategy(tf)
    tf.distribute.experimental_set_strategy(s)
    try:
        state = ctx_state(tf)
        state["is_s"] = tf.distribute.get_strategy() is s
        v = tf.Variable(1.0)
        state["var_type"] = tname(v)
        state["set_again"] = _try(lambda: tf.distribute.experimental_set_strategy(s) is None)
    finally:
        tf.distribute.experimental_set_strategy(None)
    state["after"] = ctx_state(tf)
    return state


@case
def case_set_strategy_inside_scope(tf):
    s = make_strategy(tf)
    with s.scope():
        err = expect_error(lambda: tf.distribute.experimental_set_strategy(s), ["scope"])
    return {"error": err, "after": ctx_state(tf)}


@case
def case_nested_scope_same(tf):
    s = make_strategy(tf)
    with s.scope():
        with s.scope():
            inner = ctx_state(tf)
            v = tf.Variable(1.0)
        mid = ctx_state(tf)
    return {"inner": inner, "mid": mid, "after": ctx_state(tf), "var_type": tname(v)}


@case
def case_nested_scope_different(tf):
    s = make_strategy(tf)
    s2 = tf.distribute.MirroredStrategy(DEVICES[:2])

    def enter():
        with s2.scope():
            pass

    with s.scope():
        err = expect_error(enter, ["strategy"])
        still = tf.distribute.get_strategy() is s
    return {"error": err, "still_s": still, "after": ctx_state(tf)}


@case
def case_scope_inside_run(tf):
    s = make_strategy(tf)
    seen = []

    def fn():
        with s.scope():
            seen.append(ctx_state(tf))

    return {"run": _try(lambda: s.run(fn), ["cross-replica"]), "seen": seen}


@case
def case_run_inside_run(tf):
    s = make_strategy(tf)
    errs = []

    def fn():
        errs.append(expect_error(lambda: s.run(lambda: tf.constant(1.0)), ["cross-replica"]))

    s.run(fn)
    return {"errs": errs[:1], "n": len(errs)}


# ----------------------------------------------------------------------------- the seed (004)


def _seed_004(first, last):
    """A part of seed 004's listing, verbatim (tests/seeds/data holds the one copy)."""
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "seeds",
                        "seed_listing.py")
    spec = importlib.util.spec_from_file_location("seed_listing", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.section("004", first, last)


SEED_CONTEXT_CHECKS = _seed_004("# Strategy utilities", 'print("In replica context")')
SEED_CUSTOM_REDUCTION = _seed_004("# Custom reduction example", 'print(f"Mean: {reduced_mean}")')


@case(exact_print=True)
def case_seed_context_checks(tf):
    # seeds/004 ("Strategy utilities", "Check execution context"), run as written.
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(SEED_CONTEXT_CHECKS, {"tf": tf})  # noqa: S102 - the seed's listing
    return {"str:printed": buf.getvalue(), "lines": buf.getvalue().splitlines()}


@case(exact_print=True)
def case_seed_custom_reduction_verbatim(tf):
    # seeds/004 ("Custom reduction example") as written: reduce() without axis.
    strategy = make_strategy(tf)
    buf = io.StringIO()

    def body():
        with contextlib.redirect_stdout(buf):
            exec(SEED_CUSTOM_REDUCTION, {"tf": tf, "strategy": strategy})  # noqa: S102

    return {"error": expect_error(body, ["axis"]), "str:printed": buf.getvalue()}


@case(exact_print=True)
def case_seed_custom_reduction_axis_none(tf):
    # The seed's example with axis=None, the argument TF 2.x requires.
    strategy = make_strategy(tf)
    code = SEED_CUSTOM_REDUCTION.replace("per_replica_result)", "per_replica_result, axis=None)")
    assert code.count("axis=None") == 2, code
    scope = {"tf": tf, "strategy": strategy}
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(code, scope)  # noqa: S102 - the seed's listing, axis=None added
    return {"str:printed": buf.getvalue(), "sum": t(scope["reduced_sum"]),
            "mean": t(scope["reduced_mean"])}


# ----------------------------------------------------------------------------- variables


@case
def case_mirrored_variable_basics(tf):
    s = make_strategy(tf)
    with s.scope():
        v = tf.Variable([1.0, 2.0], name="w")
    return {"type": tname(v), "device": v.device, "devices": devices(s, v),
            "local": local(tf, s, v), "local_types": [tname(x)
                                                     for x in s.experimental_local_results(v)],
            "aggregation": v.aggregation.name, "synchronization": v.synchronization.name,
            "name": v.name, "trainable": v.trainable, "dtype": v.dtype.name,
            "shape": [int(d) for d in v.shape], "numpy": v.numpy().tolist(),
            "read_value": t(v.read_value()),
            "is_distributed": isinstance(v, tf.distribute.DistributedValues),
            "is_variable": isinstance(v, tf.Variable)}


@case
def case_mirrored_variable_in_run(tf):
    s = make_strategy(tf)
    with s.scope():
        v = tf.Variable(2.0)
    seen = []
    r = s.run(lambda: (seen.append(tname(v)), v * (rid(tf) + 1.0))[1])
    return {"types_in_run": sorted(set(seen)), "result": enc(tf, r, s),
            "devices": devices(s, r)}


@case
def case_mirrored_variable_aggregation_values(tf):
    s = make_strategy(tf)
    out = {}
    with s.scope():
        for agg in ("NONE", "SUM", "MEAN", "ONLY_FIRST_REPLICA"):
            v = tf.Variable(1.0, aggregation=getattr(tf.VariableAggregation, agg))
            out[agg] = [tname(v), v.aggregation.name]
    out["enum_values"] = [tf.VariableAggregation.NONE.value, tf.VariableAggregation.SUM.value,
                          tf.VariableAggregation.MEAN.value,
                          tf.VariableAggregation.ONLY_FIRST_REPLICA.value]
    return out


@case
def case_variable_assign_cross_replica(tf):
    s = make_strategy(tf)
    with s.scope():
        v = tf.Variable([1.0, 2.0])
    r1 = v.assign([5.0, 6.0])
    after_assign = local(tf, s, v)
    v.assign_add([1.0, 1.0])
    after_add = local(tf, s, v)
    v.assign_sub([0.5, 0.5])
    return {"after_assign": after_assign, "after_add": after_add, "after_sub": local(tf, s, v),
            "assign_returns": tname(r1)}


def _assign_in_replica(tf, agg, method, same=False):
    s = make_strategy(tf)
    with s.scope():
        v = tf.Variable(1.0, aggregation=getattr(tf.VariableAggregation, agg))

    def fn():
        val = tf.constant(5.0) if same else (rid(tf) + 1.0) * 10.0
        out = getattr(v, method)(val)
        return tf.convert_to_tensor(out) if out is not None else tf.constant(-1.0)

    res = _try(lambda: enc(tf, s.run(fn), s), ["aggregation"])
    return {"run": res, "var": local(tf, s, v), "numpy": v.numpy().tolist()}


for _agg in ("NONE", "SUM", "MEAN", "ONLY_FIRST_REPLICA"):
    for _method in ("assign", "assign_add"):
        def _mk(agg=_agg, method=_method):
            return lambda tf: _assign_in_replica(tf, agg, method)
        case(_mk(), name=f"variable_{_method}_in_replica_{_agg.lower()}")
case(lambda tf: _assign_in_replica(tf, "NONE", "assign", same=True),
     name="variable_assign_in_replica_none_same_value")
case(lambda tf: _assign_in_replica(tf, "MEAN", "assign_sub"),
     name="variable_assign_sub_in_replica_mean")


@case
def case_variable_assign_in_replica_returns(tf):
    s = make_strategy(tf)
    with s.scope():
        v = tf.Variable(1.0, aggregation=tf.VariableAggregation.MEAN)
    seen = []

    def fn():
        out = v.assign(rid(tf))
        seen.append(tname(out))
        return out.read_value() if hasattr(out, "read_value") else out

    r = s.run(fn)
    return {"types": sorted(set(seen)), "result": enc(tf, r, s)}


def _sync_on_read(tf, agg):
    s = make_strategy(tf)
    with s.scope():
        v = tf.Variable(0.0, synchronization=tf.VariableSynchronization.ON_READ,
                        aggregation=getattr(tf.VariableAggregation, agg))
    info = {"type": tname(v), "aggregation": v.aggregation.name,
            "synchronization": v.synchronization.name, "trainable": v.trainable,
            "devices": devices(s, v)}

    def fn():
        v.assign(rid(tf) + 1.0)
        return v.read_value()

    info["run"] = _try(lambda: enc(tf, s.run(fn), s))
    info["local"] = local(tf, s, v)
    info["read_value"] = _try(lambda: t(v.read_value()), ["aggregation"])
    info["numpy"] = _try(lambda: v.numpy().tolist(), ["aggregation"])
    info["convert"] = _try(lambda: t(tf.convert_to_tensor(v)), ["aggregation"])
    info["plus_one"] = _try(lambda: t(v + 1.0), ["aggregation"])

    def in_run():
        return tf.convert_to_tensor(v) * 1.0

    info["read_in_run"] = _try(lambda: enc(tf, s.run(in_run), s))
    return info


for _agg in ("SUM", "MEAN", "ONLY_FIRST_REPLICA", "NONE"):
    case(lambda tf, agg=_agg: _sync_on_read(tf, agg), name=f"sync_on_read_{_agg.lower()}")


@case
def case_sync_on_read_assign_cross_replica(tf):
    s = make_strategy(tf)
    out = {}
    with s.scope():
        for agg in ("SUM", "MEAN", "ONLY_FIRST_REPLICA"):
            v = tf.Variable(0.0, synchronization=tf.VariableSynchronization.ON_READ,
                            aggregation=getattr(tf.VariableAggregation, agg))
            v.assign(10.0)
            r = {"assign_local": local(tf, s, v), "assign_read": v.read_value().numpy().tolist()}
            r["assign_add"] = _try(lambda v=v: v.assign_add(2.0) is not None, ["assign_add"])
            r["add_local"] = local(tf, s, v)
            out[agg] = r
    return out


@case
def case_sync_on_read_assign_outside_scope(tf):
    s = make_strategy(tf)
    with s.scope():
        v = tf.Variable(0.0, synchronization=tf.VariableSynchronization.ON_READ,
                        aggregation=tf.VariableAggregation.SUM)
    v.assign(8.0)
    return {"local": local(tf, s, v), "read": v.read_value().numpy().tolist()}


@case
def case_sync_on_read_reduce(tf):
    s = make_strategy(tf)
    with s.scope():
        v = tf.Variable(0.0, synchronization=tf.VariableSynchronization.ON_READ,
                        aggregation=tf.VariableAggregation.SUM)
    s.run(lambda: v.assign(rid(tf) + 1.0))
    return {"reduce_sum": _try(lambda: t(s.reduce("SUM", v, axis=None))),
            "reduce_mean": _try(lambda: t(s.reduce("MEAN", v, axis=None)))}


@case
def case_variable_created_in_run(tf):
    s = make_strategy(tf)
    made = []

    def fn():
        v = tf.Variable(1.0)
        made.append(tname(v))
        return v.read_value()

    return {"run": _try(lambda: enc(tf, s.run(fn), s), ["variable"]), "types": sorted(set(made))}


@case
def case_variable_created_outside_scope(tf):
    s = make_strategy(tf)
    v = tf.Variable([1.0, 2.0])
    r = s.run(lambda: v * (rid(tf) + 1.0))
    return {"type": tname(v), "device": v.device, "result": enc(tf, r, s),
            "devices": devices(s, r),
            "assign_in_run": _try(lambda: enc(tf, s.run(
                lambda: tf.convert_to_tensor(v.assign_add([1.0, 1.0]))), s)),
            "after": v.numpy().tolist()}


@case
def case_variable_of_one_strategy_written_under_another(tf):
    make_strategy(tf)
    a = tf.distribute.MirroredStrategy(DEVICES[:2])
    b = tf.distribute.MirroredStrategy(DEVICES[2:])
    one = tf.distribute.OneDeviceStrategy(DEVICES[0])
    with a.scope():
        v = tf.Variable(1.0)

    def in_b_scope():
        with b.scope():
            return enc(tf, v.assign(5.0))

    mixing = ["Mixing different tf.distribute.Strategy objects"]
    return {"assign_in_other_run": _try(lambda: enc(tf, b.run(lambda: v.assign_add(1.0)), b),
                                        mixing),
            "read_in_other_run": _try(lambda: enc(tf, b.run(lambda: v + 1.0), b)),
            "assign_in_other_scope": _try(in_b_scope, mixing),
            "assign_in_one_device_run": _try(
                lambda: enc(tf, one.run(lambda: v.assign_add(1.0)), one), mixing),
            "after": v.numpy().tolist()}


@case
def case_mirrored_reduce_of_variable(tf):
    s = make_strategy(tf)
    with s.scope():
        v = tf.Variable([1.0, 2.0])
    return {"SUM": _try(lambda: t(s.reduce("SUM", v, axis=None))),
            "MEAN": _try(lambda: t(s.reduce("MEAN", v, axis=None)))}


# ----------------------------------------------------------------------------- other strategies


@case
def case_one_device_strategy(tf):
    make_strategy(tf)  # same logical-CPU world
    s = tf.distribute.OneDeviceStrategy("/cpu:1")
    with s.scope():
        v = tf.Variable([1.0, 2.0])
        inner = ctx_state(tf)
    r = s.run(lambda: v * 2.0 + rid(tf))
    return {"type": tname(s), "num": s.num_replicas_in_sync,
            "worker_devices": list(s.extended.worker_devices),
            "parameter_devices": list(s.extended.parameter_devices),
            "var_type": tname(v), "var_device": v.device,
            "run": enc(tf, r, s), "run_device": r.device,
            "reduce_sum": t(s.reduce("SUM", r, axis=None)),
            "reduce_mean_axis0": t(s.reduce("MEAN", r, axis=0)),
            "gather": _try(lambda: t(s.gather(r, axis=0))),
            "local": enc(tf, s.experimental_local_results(r), s),
            "ctx_in_scope": inner,
            "replica_ctx": s.run(lambda: tname(tf.distribute.get_replica_context()))}


@case
def case_central_storage_strategy(tf):
    make_strategy(tf)
    s = tf.distribute.experimental.CentralStorageStrategy(
        compute_devices=DEVICES, parameter_device="/cpu:0")
    with s.scope():
        v = tf.Variable([1.0, 2.0])
        w = tf.Variable(1.0, aggregation=tf.VariableAggregation.MEAN)
    r = s.run(lambda: v * (rid(tf) + 1.0))

    def step():
        w.assign_add(rid(tf))

    s.run(step)
    return {"type": tname(s), "num": s.num_replicas_in_sync,
            "worker_devices": list(s.extended.worker_devices),
            "parameter_devices": list(s.extended.parameter_devices),
            "var_type": tname(v), "var_device": v.device,
            "local_results_of_var": len(s.experimental_local_results(v)),
            "run": enc(tf, r, s), "run_devices": devices(s, r),
            "reduce_sum": t(s.reduce("SUM", r, axis=None)),
            "w_after_mean_assign_add": w.numpy().tolist()}


# ----------------------------------------------------------------------------- losses


@case
def case_compute_average_loss(tf):
    s = make_strategy(tf)

    def fn():
        per_example = tf.constant([1.0, 2.0, 3.0, 4.0]) * (rid(tf) + 1.0)
        return (tf.nn.compute_average_loss(per_example, global_batch_size=16),
                tf.nn.compute_average_loss(per_example))

    r = s.run(fn)
    return {"with_gbs": enc(tf, r[0], s), "without_gbs": enc(tf, r[1], s),
            "sum_with": t(s.reduce("SUM", r[0], axis=None)),
            "sum_without": t(s.reduce("SUM", r[1], axis=None))}


@case
def case_compute_average_loss_sample_weight(tf):
    s = make_strategy(tf)

    def fn():
        per_example = tf.constant([1.0, 2.0]) + rid(tf)
        return tf.nn.compute_average_loss(per_example, sample_weight=tf.constant([1.0, 0.5]),
                                          global_batch_size=8)

    return {"result": enc(tf, s.run(fn), s)}


@case
def case_compute_average_loss_outside_run(tf):
    return {"default": t(tf.nn.compute_average_loss(tf.constant([1.0, 2.0, 3.0]))),
            "gbs": t(tf.nn.compute_average_loss(tf.constant([1.0, 2.0, 3.0]),
                                                global_batch_size=6))}


@case
def case_scale_regularization_loss(tf):
    s = make_strategy(tf)
    r = s.run(lambda: tf.nn.scale_regularization_loss(tf.constant(8.0) + rid(tf)))
    r2 = s.run(lambda: tf.nn.scale_regularization_loss([tf.constant(1.0), tf.constant(3.0)]))
    return {"scalar": enc(tf, r, s), "list": enc(tf, r2, s),
            "outside": t(tf.nn.scale_regularization_loss(tf.constant(8.0)))}


# ----------------------------------------------------------------------------- edges


@case
def case_run_args_not_a_tuple(tf):
    s = make_strategy(tf)
    x = tf.constant([1.0, 2.0])
    return {"tensor": _try(lambda: enc(tf, s.run(lambda a: a, args=x), s), ["list or tuple"]),
            "string": _try(lambda: enc(tf, s.run(lambda *a: len(a), args="ab"), s),
                           ["list or tuple"]),
            "list": _try(lambda: enc(tf, s.run(lambda a: a * 2.0, args=[x]), s))}


@case
def case_update_in_replica_context(tf):
    s = make_strategy(tf)
    with s.scope():
        v = tf.Variable(1.0)

    def fn():
        out = s.extended.update(v, lambda var, d: var.assign_add(d), args=(rid(tf) + 1.0,))
        return tf.convert_to_tensor(out)

    r = _try(lambda: enc(tf, s.run(fn), s))
    return {"run": r, "var": local(tf, s, v)}


@case
def case_update_in_replica_context_kwargs(tf):
    s = make_strategy(tf)
    with s.scope():
        v = tf.Variable([1.0, 2.0])

    def fn():
        s.extended.update(v, lambda var, d=None: var.assign_add(d),
                          kwargs={"d": tf.constant([1.0, 1.0]) * (rid(tf) + 1.0)})
        return v.read_value()

    r = _try(lambda: enc(tf, s.run(fn), s))
    return {"run": r, "var": local(tf, s, v)}


@case
def case_all_reduce_captured_tensor(tf):
    s = make_strategy(tf)
    c = tf.constant([1.0, 2.0])

    def fn(op):
        return tf.distribute.get_replica_context().all_reduce(op, c)

    return {op: _try(lambda op=op: {"result": enc(tf, s.run(fn, args=(op,)), s),
                                    "devices": devices(s, s.run(fn, args=(op,)))},
                     ["reduce"])
            for op in ("SUM", "MEAN")}


@case
def case_collectives_of_outside_variable(tf):
    s = make_strategy(tf)
    v = tf.Variable([1.0, 2.0])

    def fn():
        ctx = tf.distribute.get_replica_context()
        x = v * (rid(tf) + 1.0)
        return ctx.all_reduce("SUM", x), ctx.all_gather(x, axis=0)

    reduced, gathered = s.run(fn)
    return {"reduce": enc(tf, reduced, s), "reduce_devices": devices(s, reduced),
            "gather": enc(tf, gathered, s), "gather_devices": devices(s, gathered)}


@case
def case_all_gather_captured_tensor(tf):
    s = make_strategy(tf)
    c = tf.constant([1.0, 2.0])
    r = _try(lambda: s.run(lambda: tf.distribute.get_replica_context().all_gather(c, axis=0)))
    if "ok" in r:
        r = {"result": enc(tf, r["ok"], s), "devices": devices(s, r["ok"])}
    return r


@case
def case_sync_on_read_assign_cross_replica_returns(tf):
    s = make_strategy(tf)
    out = {}
    with s.scope():
        for agg in ("SUM", "MEAN", "ONLY_FIRST_REPLICA", "NONE"):
            v = tf.Variable(0.0, synchronization=tf.VariableSynchronization.ON_READ,
                            aggregation=getattr(tf.VariableAggregation, agg))
            r = _try(lambda v=v: enc(tf, tf.convert_to_tensor(v.assign(6.0)), s),
                     ["aggregation"])
            out[agg] = {"assign": r, "local": local(tf, s, v)}
    return out


@case
def case_mean_aggregation_integer_variable(tf):
    s = make_strategy(tf)
    out = {}
    with s.scope():
        for sync in ("ON_WRITE", "ON_READ"):
            out[sync] = _try(lambda sync=sync: tname(tf.Variable(
                1, synchronization=getattr(tf.VariableSynchronization, sync),
                aggregation=tf.VariableAggregation.MEAN)), ["MEAN", "dtype"])
        out["SUM"] = _try(lambda: tname(tf.Variable(1, aggregation=tf.VariableAggregation.SUM)))
    return out


@case
def case_distributed_variable_host_conversions(tf):
    import numpy as np

    s = make_strategy(tf)
    with s.scope():
        m = tf.Variable(2.5)
        r = tf.Variable(0.0, synchronization=tf.VariableSynchronization.ON_READ,
                        aggregation=tf.VariableAggregation.SUM)
        r2 = tf.Variable([0.0, 0.0], synchronization=tf.VariableSynchronization.ON_READ,
                         aggregation=tf.VariableAggregation.SUM)
    s.run(lambda: r.assign(rid(tf) + 0.5))
    s.run(lambda: r2.assign([rid(tf), 1.0]))

    def conv(v):
        return {"float": _try(lambda: float(v), ["float()"]),
                "int": _try(lambda: int(v), ["int()"]), "bool": _try(lambda: bool(v)),
                "format": _try(lambda: f"{v:.2f}", ["unsupported format string"]),
                "format_empty": _try(lambda: len(f"{v}") > 0),
                "array": _try(lambda: np.array(v).tolist(), ["not producing an array"]),
                "asarray_f64": _try(lambda: np.asarray(v, dtype=np.float64).tolist())}

    with s.scope():
        z = tf.Variable(0.0)
    p = tf.Variable(2.5)
    return {"mirrored": conv(m), "sync_on_read": conv(r), "zero_bool": _try(lambda: bool(z)),
            "plain": conv(p), "plain_zero_bool": _try(lambda: bool(tf.Variable(0.0))),
            "vector_sync_on_read": _try(lambda: np.array(r2).tolist())}


@case
def case_mirrored_value_host_conversions(tf):
    import numpy as np

    s = make_strategy(tf)
    with s.scope():
        v = tf.Variable([1.0, 2.0])
    m = s.extended.reduce_to("MEAN", per_replica(tf, s, lambda i: tf.constant(0.0)),
                             destinations=v)
    m1 = s.extended.reduce_to("SUM", per_replica(tf, s, lambda i: tf.constant([1.5, 2.0])),
                              destinations=v)
    return {"type": tname(m), "float": _try(lambda: float(m), ["float()"]),
            "int": _try(lambda: int(m), ["int()"]), "bool": _try(lambda: bool(m)),
            "format": _try(lambda: f"{m:.1f}", ["unsupported format string"]),
            "array": _try(lambda: np.array(m).tolist(), ["not producing an array"]),
            "len": _try(lambda: len(m1), ["len()"]),
            "iter": _try(lambda: [x.numpy().tolist() for x in m1], ["out of bounds"]),
            "vector_len": _try(lambda: len(v), ["len()"]),
            "vector_iter": _try(lambda: [x.numpy().tolist() for x in v])}


@case
def case_batch_reduce_to_non_distributed(tf):
    s = make_strategy(tf)
    with s.scope():
        v = tf.Variable([0.0, 0.0])
    c = tf.constant([1.0, 2.0])

    def res(x):
        return {"type": tname(x), "local": local(tf, s, x), "devices": devices(s, x)}

    def batch(op, dest):
        return _try(lambda: res(s.extended.batch_reduce_to(op, [(c, dest)])[0]),
                    ["out of range"])

    return {"sum_to_own_device": batch("SUM", c), "sum_to_variable": batch("SUM", v),
            "mean_to_variable": batch("MEAN", v), "sum_to_cpu1": batch("SUM", "/cpu:1"),
            "reduce_to_sum": _try(lambda: res(s.extended.reduce_to("SUM", c, v)), ["reduce"]),
            "reduce_to_mean": _try(lambda: res(s.extended.reduce_to("MEAN", c, v)))}


@case
def case_all_reduce_values_on_one_device(tf):
    s = make_strategy(tf)

    def fn(gather):
        with tf.device("/cpu:0"):
            x = tf.constant([1.0, 2.0]) * (rid(tf) + 1.0)
        ctx = tf.distribute.get_replica_context()
        return ctx.all_gather(x, axis=0) if gather else ctx.all_reduce("SUM", x)

    out = {}
    for gather in (False, True):
        r = s.run(fn, args=(gather,))
        out["gather" if gather else "reduce"] = {"result": enc(tf, r, s),
                                                 "devices": devices(s, r)}
    return out


# ------------------------------------------- programs from TF's guides and tests (issue 24)


@case
def case_default_devices_are_all_logical_cpus(tf):
    make_strategy(tf)  # no GPU; the CPU split into 4 logical devices
    mirrored = tf.distribute.MirroredStrategy()
    multi_worker = tf.distribute.MultiWorkerMirroredStrategy()
    return {"mirrored": [mirrored.num_replicas_in_sync, list(mirrored.extended.worker_devices)],
            "multi_worker": multi_worker.num_replicas_in_sync}


@case
def case_replicas_create_differently_named_variables(tf):
    s = make_strategy(tf, 2)

    def differently_named():
        i = tf.distribute.get_replica_context().replica_id_in_sync_group
        return tf.Variable(1.0, name=f"v{i}").read_value()

    def uniquified():  # "v" and "v_1" are the same name to TF's matching
        i = tf.distribute.get_replica_context().replica_id_in_sync_group
        return tf.Variable(2.0, name="v" if i == 0 else "v_1").read_value()

    with s.scope():
        return {"different": expect_error(lambda: s.run(differently_named),
                                          ["v1", "mismatching name", "device 1"]),
                "uniquified": _try(lambda: enc(tf, s.run(uniquified), s))}


@case
def case_invalid_synchronization_value(tf):
    s = make_strategy(tf)

    def make(sync):
        return lambda: tf.Variable(1.0, synchronization=sync, name="x")

    keys = ["Invalid variable synchronization mode", "for variable: x"]
    with s.scope():
        in_scope = [expect_error(make(v), keys + [str(v)]) for v in ("bogus", 7)]
    return {"in_scope": in_scope, "no_scope": expect_error(make("bogus"), keys + ["bogus"])}


def _shapes_per_step(tf, s, dataset):
    """Each step's per-replica shapes and values, read by iterating ``dataset``."""
    return [[[list(c.shape), c.numpy().tolist()] for c in s.experimental_local_results(x)]
            for x in dataset]


@case
def case_empty_replica_batch_shape_from_spec(tf):
    import numpy as np

    s = make_strategy(tf)
    x = np.arange(48, dtype=np.float32).reshape(48, 1)

    def fn(drop, outer):
        def dataset_fn(ctx):
            ds = tf.data.Dataset.from_tensor_slices(x).batch(16, drop_remainder=drop)
            return ds.batch(1) if outer else ds
        return lambda: _shapes_per_step(tf, s, s.distribute_datasets_from_function(dataset_fn))

    # 3 batches for 4 replicas: the 4th replica's placeholder has every unknown dimension 0;
    # with fully static shapes TF does not fill in placeholders and drops the short step.
    return {"batch_of_batches": _try(fn(False, True)), "batches": _try(fn(False, False)),
            "static_batches": _try(fn(True, False)),
            "static_batch_of_batches": _try(fn(True, True))}


@case
def case_datasets_from_function_of_scalars(tf):
    s = make_strategy(tf)

    def run(n):
        dist = s.distribute_datasets_from_function(lambda ctx: tf.data.Dataset.range(n))
        return _try(lambda: _shapes_per_step(tf, s, dist))

    floats = s.distribute_datasets_from_function(
        lambda ctx: tf.data.Dataset.from_tensor_slices([1.0, 2.0, 3.0, 4.0, 5.0]))
    return {"range6": run(6), "range9": run(9), "range8": run(8),
            "floats": _try(lambda: _shapes_per_step(tf, s, floats))}


@case
def case_default_strategy_input(tf):
    """The default strategy hands the dataset back itself and calls dataset_fn once."""
    s = tf.distribute.get_strategy()
    ds = tf.data.Dataset.range(6).batch(2)
    dist = s.experimental_distribute_dataset(ds)
    it = iter(s.experimental_distribute_dataset(ds))
    made = s.distribute_datasets_from_function(
        lambda ctx: tf.data.Dataset.range(3).map(
            lambda x: x + ctx.input_pipeline_id * 10 + ctx.num_input_pipelines * 100
            + ctx.num_replicas_in_sync * 1000))
    return {"same_object": dist is ds, "batches": [b.numpy().tolist() for b in dist],
            "next": next(it).numpy().tolist(),
            "next_is_plain_tensor": tf.is_tensor(next(it)) and not isinstance(
                next(it), tf.distribute.DistributedValues),
            "from_function": [int(x) for x in made]}


@case
def case_distributed_dataset_random_kernels_restart(tf):
    """Each new iterator over a distributed dataset starts its functions' random kernels
    from their seeds, as over the dataset itself: every epoch draws the same numbers, and
    an iterator made earlier draws its own, whatever later ones drew meanwhile."""
    s = make_strategy(tf)
    tf.random.set_seed(7)
    ds = tf.data.Dataset.range(8).map(
        lambda x: tf.cast(x, tf.float32) + tf.random.uniform([])).batch(8)
    dist = s.experimental_distribute_dataset(ds)
    made = s.distribute_datasets_from_function(
        lambda ctx: tf.data.Dataset.range(4).map(lambda x: tf.random.uniform([], seed=3)))

    def passes(d):
        return [[enc(tf, step, s) for step in d] for _ in range(2)]

    it, plain = iter(dist), iter(ds.unbatch())   # live while the passes below draw
    return {"epochs": passes(dist), "from_function": passes(made),
            "iterators": [enc(tf, next(it), s), enc(tf, next(iter(dist)), s)],
            "plain": [[b.tolist() for b in ds.as_numpy_iterator()] for _ in range(2)]
            + [[float(next(plain)), float(next(plain))]]}


@case
def case_group_read_var_and_deprecated_aliases(tf):
    s = make_strategy(tf)
    with s.scope():
        mirrored = tf.Variable(3.0)
        on_read = tf.Variable(0.0, synchronization=tf.VariableSynchronization.ON_READ,
                              aggregation=tf.VariableAggregation.SUM)
    s.run(lambda: on_read.assign_add(1.0 + rid(tf)))
    pr = per_replica(tf, s, lambda i: tf.constant(float(i)))
    dist = s.experimental_distribute_datasets_from_function(
        lambda ctx: tf.data.Dataset.range(8).batch(2))
    return {"group_per_replica": _try(lambda: enc(tf, s.group(pr), s)),
            "group_tensor": _try(lambda: enc(tf, s.group(tf.constant(1.0)), s),
                                 ["eager execution"]),
            "group_named": _try(lambda: enc(tf, s.group(tf.constant(1.0), name="g"), s)),
            "read_var_mirrored": _try(lambda: enc(tf, s.extended.read_var(mirrored), s)),
            "read_var_on_read": _try(lambda: enc(tf, s.extended.read_var(on_read), s)),
            "alias": _shapes_per_step(tf, s, dist)}


# ----------------------------------------------------------------------------- cluster


@contextlib.contextmanager
def tf_config(value):
    """``TF_CONFIG`` set to ``value`` (a dict as JSON, a raw string, or None: unset) inside."""
    import json
    import os

    old = os.environ.pop("TF_CONFIG", None)
    if value is not None:
        os.environ["TF_CONFIG"] = value if isinstance(value, str) else json.dumps(value)
    try:
        yield
    finally:
        os.environ.pop("TF_CONFIG", None)
        if old is not None:
            os.environ["TF_CONFIG"] = old


def spec_view(spec):
    """What a ClusterSpec answers: jobs, tasks per job, as_dict and repr."""
    jobs = spec.jobs
    return {"jobs": list(jobs), "bool": bool(spec), "as_dict": repr(spec.as_dict()),
            "repr": repr(spec),
            "num_tasks": {j: spec.num_tasks(j) for j in jobs},
            "task_indices": {j: spec.task_indices(j) for j in jobs},
            "job_tasks": {j: spec.job_tasks(j) for j in jobs}}


def _try_some(fn, candidates):
    """fn() or its error, whose keywords are those of ``candidates`` in TF's message."""
    out = _try(fn)
    if isinstance(out, dict) and "error" in out:
        out["keywords"] = [k for k in candidates if k.lower() in out["message"].lower()]
    return out


RESOLVER_WORDS = ["Expecting", "No such job", "No task with index", "invalid literal",
                  "tasks for job", "worker"]


def resolver_view(r):
    """What a cluster resolver answers (each answer, or its error)."""
    return {"cluster_spec": _try_some(lambda: spec_view(r.cluster_spec()), RESOLVER_WORDS),
            "task_type": _try_some(lambda: r.task_type, RESOLVER_WORDS),
            "task_id": _try_some(lambda: r.task_id, RESOLVER_WORDS),
            "rpc_layer": _try_some(lambda: r.rpc_layer, RESOLVER_WORDS),
            "environment": _try_some(lambda: r.environment, RESOLVER_WORDS),
            "master": _try_some(lambda: r.master(), RESOLVER_WORDS),
            "master_worker_1": _try_some(lambda: r.master("worker", 1), RESOLVER_WORDS),
            "master_grpc": _try_some(lambda: r.master(rpc_layer="grpc"), RESOLVER_WORDS)}


CLUSTER = {"chief": ["host0:2222"], "worker": ["host1:2222", "host2:2222"],
           "ps": ["host3:2222"], "evaluator": ["host4:2222"]}


@case
def case_cluster_spec_api(tf):
    cs = tf.train.ClusterSpec
    sparse = cs({"worker": {1: "w1:2222", 3: "w3:2222"}, "ps": ["p0:2222", "p1:2222"]})
    dense = cs({"worker": ("w0:1", "w1:1"), "chief": ["c:1"]})
    return {
        "sparse": spec_view(sparse), "dense": spec_view(dense),
        "empty": spec_view(cs({})), "empty_job": _try(lambda: spec_view(cs({"ps": []})),
                                                       ["arg is an empty sequence"]),
        "copy": spec_view(cs(dense)), "from_cluster_def": spec_view(cs(dense.as_cluster_def())),
        "string_task_keys": spec_view(cs({"worker": {"0": "a:1", "2": "b:1"}})),
        "task_address": dense.task_address("worker", 1),
        "sparse_address": sparse.task_address("worker", 3),
        "eq_spec": dense == cs({"chief": ["c:1"], "worker": ["w0:1", "w1:1"]}),
        "eq_list_dict": dense == {"worker": ["w0:1", "w1:1"], "chief": ["c:1"]},
        "eq_index_dict": dense == {"worker": {0: "w0:1", 1: "w1:1"}, "chief": {0: "c:1"}},
        "ne_spec": dense != cs({"worker": ["w0:1"]}),
        "no_job_num_tasks": expect_error(lambda: dense.num_tasks("ps"), ["No such job", "ps"]),
        "no_job_address": expect_error(lambda: dense.task_address("ps", 0), ["No such job"]),
        "no_job_indices": expect_error(lambda: dense.task_indices("ps"), ["No such job"]),
        "no_job_tasks": expect_error(lambda: dense.job_tasks("ps"), ["No such job"]),
        "no_task": expect_error(lambda: dense.task_address("worker", 5),
                                ["No task with index", "worker"]),
        "sparse_missing_task": expect_error(lambda: sparse.task_address("worker", 0),
                                            ["No task with index"]),
        "bad_cluster": expect_error(lambda: cs(["a:1"]), ["must be a dictionary"]),
        "bad_tasks": expect_error(lambda: cs({"worker": "a:1"}), ["tasks for job", "worker"]),
        "bad_job_name": expect_error(lambda: cs({3: ["a:1"]}), ["Job name", "3"]),
        "bad_address": expect_error(lambda: cs({"worker": [12]}), ["Task address", "12"]),
        "bad_index": expect_error(lambda: cs({"worker": {"x": "a:1"}}), ["invalid literal"]),
    }


@case
def case_tf_config_resolver_shapes(tf):
    r = tf.distribute.cluster_resolver.TFConfigClusterResolver
    shapes = {
        "worker": {"cluster": {"worker": ["localhost:12345", "localhost:23456"]},
                   "task": {"type": "worker", "index": 1}},
        "all_jobs_chief": {"cluster": CLUSTER, "task": {"type": "chief", "index": 0}},
        "evaluator": {"cluster": CLUSTER, "task": {"type": "evaluator", "index": 0}},
        "ps": {"cluster": CLUSTER, "task": {"type": "ps", "index": 0}, "rpc_layer": "grpc"},
        "string_index": {"cluster": CLUSTER, "task": {"type": "worker", "index": "1"}},
        "no_task": {"cluster": CLUSTER},
        "no_index": {"cluster": CLUSTER, "task": {"type": "worker"}},
        "one_task": {"cluster": {"worker": ["localhost:1"]}, "task": {"type": "worker",
                                                                       "index": 0}},
        "session_master": {"cluster": CLUSTER, "task": {"type": "worker", "index": 0},
                           "session_master": "grpc://elsewhere:1"},
        "environment": {"cluster": CLUSTER, "task": {"type": "worker", "index": 0},
                        "environment": "cloud"},
        "task_not_in_cluster": {"cluster": {"worker": ["a:1"]},
                                "task": {"type": "ps", "index": 0}},
        "index_out_of_range": {"cluster": {"worker": ["a:1", "b:1"]},
                               "task": {"type": "worker", "index": 7}},
        "empty": {}, "unset": None, "empty_string": "",
    }
    out = {}
    for name, value in shapes.items():
        with tf_config(value):
            out[name] = resolver_view(r())
    return out


@case
def case_tf_config_resolver_overrides(tf):
    r = tf.distribute.cluster_resolver.TFConfigClusterResolver
    config = {"cluster": CLUSTER, "task": {"type": "worker", "index": 0}}
    with tf_config(config):
        given = r(task_type="chief", task_id=0, rpc_layer="grpc", environment="google")
        view = resolver_view(given)
        set_later = r()
        set_later.task_type, set_later.task_id, set_later.rpc_layer = "worker", "1", "grpc+ib"
        later = resolver_view(set_later)
        live = r()
    # The resolver reads TF_CONFIG when asked, not when made.
    with tf_config({"cluster": {"worker": ["x:1", "y:1"]}, "task": {"type": "worker",
                                                                   "index": 1}}):
        reread = resolver_view(live)
    return {"given": view, "set_later": later, "reread": reread,
            "given_master": given.master("ps", 0, rpc_layer="http")}


@case
def case_tf_config_malformed(tf):
    r = tf.distribute.cluster_resolver.TFConfigClusterResolver
    out = {}
    for name, raw in {"not_json": "{cluster: 1}", "truncated": '{"cluster": {"worker": [',
                      "bad_index": json_dumps({"cluster": CLUSTER,
                                               "task": {"type": "worker", "index": "one"}}),
                      "tasks_not_list": json_dumps({"cluster": {"worker": "a:1"}})}.items():
        with tf_config(raw):
            made = _try(lambda: tname(r()))
            out[name] = {"made": made, "view": resolver_view(r())}
    return out


def json_dumps(x):
    import json

    return json.dumps(x)


@case
def case_simple_cluster_resolver(tf):
    s = tf.distribute.cluster_resolver.SimpleClusterResolver
    spec = tf.train.ClusterSpec(CLUSTER)
    plain = s(spec)
    full = s(spec, master="grpc://m:1", task_type="worker", task_id=1, environment="google",
             num_accelerators={"GPU": 2}, rpc_layer="grpc")
    full.task_id = 0
    return {
        "plain": resolver_view(plain), "full": resolver_view(full),
        "plain_accelerators": dict(plain.num_accelerators()),
        "full_accelerators": dict(full.num_accelerators("ps", 0)),
        "master_of": full.master("ps", 0), "master_http": plain.master("chief", 0, "http"),
        "dict_spec": expect_error(lambda: s(CLUSTER), ["ClusterSpec"]),
        "bad_master": expect_error(lambda: s(spec, master=3), ["master", "string"]),
        "base_abstract": expect_error(lambda: tf.distribute.cluster_resolver.ClusterResolver(),
                                      ["abstract"]),
        "is_resolver": isinstance(plain, tf.distribute.cluster_resolver.ClusterResolver),
    }


@case
def case_union_resolver(tf):
    cr = tf.distribute.cluster_resolver
    spec = tf.train.ClusterSpec
    a = cr.SimpleClusterResolver(spec({"worker": ["a:1", "b:1"], "ps": {0: "p:1"}}),
                                 task_type="worker", task_id=1, rpc_layer="grpc",
                                 environment="google")
    b = cr.SimpleClusterResolver(spec({"worker": ["c:1"], "ps": {3: "q:1"},
                                       "chief": ["d:1"]}), task_type="chief", task_id=0)
    clash = cr.SimpleClusterResolver(spec({"ps": {0: "z:1"}}))
    u = cr.UnionResolver(a, b)
    own = cr.UnionResolver(b, a, task_type="ps", task_id=3, rpc_layer="http")
    return {
        "union": resolver_view(u), "own": resolver_view(own),
        "master_of": own.master("ps", 3), "num_accelerators": dict(u.num_accelerators()),
        "is_resolver": isinstance(u, cr.ClusterResolver),
        "duplicate": expect_error(lambda: cr.UnionResolver(a, clash).cluster_spec(),
                                  ["Duplicate keys"]),
        "none": expect_error(lambda: cr.UnionResolver(), ["At least one"]),
        "not_resolver": expect_error(lambda: cr.UnionResolver(a, {"worker": []}),
                                     ["ClusterResolver"]),
        "bad_kwarg": expect_error(lambda: cr.UnionResolver(a, environment="x"),
                                  ["Unexpected kwargs"]),
    }


@case
def case_tf_config_num_accelerators(tf):
    if tf.config.get_visible_devices("GPU"):
        tf.config.set_visible_devices([], "GPU")
    r = tf.distribute.cluster_resolver.TFConfigClusterResolver
    out = {}
    for name, value in {"unset": None, "worker": {"cluster": {"worker": ["a:1", "b:1"]},
                                                  "task": {"type": "worker", "index": 0}}
                        }.items():
        with tf_config(value):
            acc = r().num_accelerators()
            out[name] = {"type": tname(acc), "value": dict(acc)}
    return out


@case
def case_multi_worker_bad_clusters(tf):
    def make(config):
        with tf_config(config):
            return expect_error(lambda: tf.distribute.MultiWorkerMirroredStrategy(), words)

    words = []
    out = {}
    bad = {
        "malformed_json": ("{cluster", ["Expecting"]),
        "index_out_of_range": ({"cluster": {"worker": ["a:1"]},
                                "task": {"type": "worker", "index": 3}},
                               ["task_id", "exceeds the maximum id", "worker"]),
        "unknown_job": ({"cluster": {"trainer": ["a:1"]}, "task": {"type": "trainer",
                                                                  "index": 0}},
                        ["Disallowed task type"]),
        "two_chiefs": ({"cluster": {"chief": ["a:1", "b:1"]}, "task": {"type": "chief",
                                                                      "index": 0}},
                       ["at most one", "chief"]),
        "no_task": ({"cluster": {"worker": ["a:1", "b:1"]}}, ["task_type", "task_id"]),
        "ps_task": ({"cluster": {"worker": ["a:1"], "ps": ["b:1"]}, "task": {"type": "ps",
                                                                            "index": 0}},
                    ["There is no id", "ps"]),
        "task_not_in_cluster": ({"cluster": {"worker": ["a:1"]}, "task": {"type": "chief",
                                                                         "index": 0}},
                                ["not found in cluster_spec", "chief"]),
    }
    for name, (config, keywords) in bad.items():
        words[:] = keywords
        out[name] = make(config)
    return out


_TWO_WORKERS = {"cluster": {"worker": ["host1:2222", "host2:2222"]},
                "task": {"type": "worker", "index": 0}}


def _cpu_only(tf) -> None:
    """The recording machine's devices (no GPU), set before the context is initialized."""
    if tf.config.get_visible_devices("GPU"):
        tf.config.set_visible_devices([], "GPU")


@case
def case_multi_worker_cluster_after_startup(tf):
    """A TF_CONFIG cluster's strategy made once an op ran: TF's configure_collective_ops
    refuses (before connecting); a one-worker strategy only warns and is made."""
    _cpu_only(tf)
    float(tf.constant(1.0) + 1.0)   # the eager context is initialized
    late = ["Collective ops", "configured at program startup"]
    clusters = {"two_workers": _TWO_WORKERS,
                "one_worker": {"cluster": {"worker": ["host1:2222"]},
                               "task": {"type": "worker", "index": 0}},
                "evaluator": {"cluster": {"worker": ["host1:2222"], "evaluator": ["host2:1"]},
                              "task": {"type": "evaluator", "index": 0}}}
    out = {}
    for name, config in clusters.items():
        with tf_config(config):
            out[name] = expect_error(lambda: tf.distribute.MultiWorkerMirroredStrategy(), late)
    with tf_config(None):
        out["local"] = tf.distribute.MultiWorkerMirroredStrategy().num_replicas_in_sync
    return out


@case
def case_multi_worker_cluster_after_a_local_one(tf):
    """A local strategy made first configured the collectives (no leader): a cluster's
    strategy made later differs, TF's ValueError; another local one is made."""
    _cpu_only(tf)
    with tf_config(None):
        first = tf.distribute.MultiWorkerMirroredStrategy().num_replicas_in_sync
    with tf_config(_TWO_WORKERS):
        later = expect_error(lambda: tf.distribute.MultiWorkerMirroredStrategy(),
                             ["already configured"])
    with tf_config(None):
        again = tf.distribute.MultiWorkerMirroredStrategy().num_replicas_in_sync
    return {"first": first, "cluster": later, "again": again}


@case
def case_from_generator_distributed(tf):
    import numpy as np

    s = make_strategy(tf)

    def gen(n):
        for i in range(int(n)):
            yield np.full((2,), i, "float32"), i % 2

    f32 = tf.float32
    made = {
        "signature": lambda: tf.data.Dataset.from_generator(
            gen, args=(10,), output_signature=(tf.TensorSpec((2,), f32), tf.TensorSpec((), f32))),
        "types_and_shapes": lambda: tf.data.Dataset.from_generator(
            gen, (f32, tf.int64), ((2,), ()), args=(10,)),
        "types_only": lambda: tf.data.Dataset.from_generator(gen, (f32, tf.int32), args=(10,)),
        "unknown_dims": lambda: tf.data.Dataset.from_generator(
            gen, args=(10,), output_signature=(tf.TensorSpec((None,), f32),
                                               tf.TensorSpec(None, f32))),
    }
    out = {}
    for name, make in made.items():
        ds = make().batch(4)
        out[name] = {"spec": str(ds.element_spec), "cardinality": int(ds.cardinality()),
                     "steps": [[_shapes_per_step(tf, s, [c]) for c in x]
                               for x in s.experimental_distribute_dataset(ds)],
                     "again": len(list(ds))}
    bad = {"no_signature": lambda: tf.data.Dataset.from_generator(gen),
           "both": lambda: tf.data.Dataset.from_generator(
               gen, f32, output_signature=tf.TensorSpec((), f32)),
           "not_callable": lambda: tf.data.Dataset.from_generator([1, 2], f32),
           "wrong_shape": lambda: list(tf.data.Dataset.from_generator(
               gen, args=(3,), output_signature=(tf.TensorSpec((3,), f32),
                                                 tf.TensorSpec((), f32)))),
           "wrong_structure": lambda: list(tf.data.Dataset.from_generator(
               gen, args=(3,), output_signature=tf.TensorSpec((2,), f32)))}
    out.update({name: _try(fn) for name, fn in bad.items()})
    return out


@case
def case_variable_assign_results_and_on_read_trainable(tf):
    s = make_strategy(tf)
    with s.scope():
        on_read = tf.Variable(1.0, synchronization=tf.VariableSynchronization.ON_READ,
                              trainable=True, aggregation=tf.VariableAggregation.SUM)
    outside_on_read = _try(lambda: tname(tf.Variable(
        1.0, synchronization=tf.VariableSynchronization.ON_READ, trainable=True)))
    w = tf.Variable(1.0)
    r = s.run(lambda: w.assign_add(1.0))
    central = tf.distribute.experimental.CentralStorageStrategy(DEVICES[:2])
    with central.scope():
        c = tf.Variable(1.0, aggregation=tf.VariableAggregation.MEAN)

    def in_central():
        x = c.assign_add(1.0)
        return [tname(x), str(x)]

    locals_ = s.experimental_local_results(r)
    return {"on_read": {"type": tname(on_read), "trainable": on_read.trainable},
            "on_read_outside_scope": outside_on_read,
            "outside_assign_in_run": {"type": tname(r), "local": [tname(x) for x in locals_],
                                      "str": [str(x) for x in locals_],
                                      "after": float(w.numpy())},
            "central_assign_in_run": _try(lambda: enc(tf, central.run(in_central), central)),
            "central_after": float(c.numpy())}


@case
def case_device_empty_and_none(tf):
    """tf.device('') keeps the enclosing device; tf.device(None) goes back to the default."""
    make_strategy(tf)
    with tf.device("/cpu:1"):
        with tf.device(""):
            empty = tf.constant(1.0).device
        with tf.device(None):
            none = tf.constant(1.0).device
    return {"empty": empty, "none": none}


# ----------------------------------------------------------------------------- issue 13:
# values the replicas cannot combine. TF 2.21's MirroredStrategy all-reduces and gathers in
# replica context with its collective ops (CollectiveAllReduce, even on CPUs; int32 values
# go to ReductionToOneDevice's AddN), and reduces to the host with AddN. A failed collective
# aborts every later one in the process ("Restart your program"), so a case holds at most
# one collective failure, and it comes last.


def _two_shapes(tf, s, a, b):
    """A PerReplica of ones: shape ``a`` on even replicas, ``b`` on odd ones."""
    return per_replica(tf, s, lambda i: tf.ones(a) if i % 2 == 0 else tf.ones(b))


def _replica_all_reduce(tf, s, make):
    """strategy.run of an all_reduce(SUM) of ``make(replica_id)``."""
    return s.run(lambda: tf.distribute.get_replica_context().all_reduce(
        "SUM", make(tf.distribute.get_replica_context().replica_id_in_sync_group)))


@case
def case_all_reduce_shape_mismatch_same_size(tf):
    s = make_strategy(tf)
    return expect_error(lambda: _replica_all_reduce(
        tf, s, lambda i: tf.ones([2, 3]) if i % 2 == 0 else tf.ones([3, 2])),
        ["Shape mismatch", "[2,3]"])


@case
def case_all_reduce_shape_mismatch_smaller_on_replica0(tf):
    s = make_strategy(tf)
    return expect_error(lambda: _replica_all_reduce(
        tf, s, lambda i: tf.ones([2, 3]) if i == 0 else tf.ones([3, 3])),
        ["Shape mismatch", "[2,3]"])


@case
def case_batch_reduce_to_shape_mismatch(tf):
    s = make_strategy(tf)
    pr = _two_shapes(tf, s, [2, 3], [3, 2])
    # strategy.reduce adds on the host (AddN); batch_reduce_to all-reduces (a collective).
    return {"reduce": expect_error(lambda: s.reduce("SUM", pr, axis=None),
                                   ["same size and shape", "[2,3]", "[3,2]"]),
            "batch_reduce_to": expect_error(
                lambda: s.extended.batch_reduce_to("SUM", [(pr, pr)]), ["Shape mismatch"])}


@case
def case_all_gather_shape_mismatch(tf):
    s = make_strategy(tf)
    # TF's message starts with the traceback of its all-gather function: keep the cause.
    try:
        s.run(lambda: tf.distribute.get_replica_context().all_gather(
            tf.ones([2, 3]) if tf.distribute.get_replica_context().replica_id_in_sync_group % 2
            == 0 else tf.ones([3, 2]), axis=0))
    except Exception as e:  # noqa: BLE001
        message = str(e)[max(str(e).find("Collective ops"), 0):]
        return {"error": tname(e), "message": message[:300], "keywords": ["Shape mismatch"]}
    return {"no_error": True}


@case
def case_different_collectives_at_one_point(tf):
    s = make_strategy(tf)

    def fn():
        ctx = tf.distribute.get_replica_context()
        v = tf.ones([2, 3])
        if ctx.replica_id_in_sync_group == 0:
            return ctx.all_reduce("SUM", v)
        return ctx.all_gather(v, axis=0)

    return _try(lambda: enc(tf, s.run(fn), s), ["different collectives"])


@case
def case_reduce_mixed_and_refused_dtypes(tf):
    s = make_strategy(tf)

    def mixed(other):
        return per_replica(tf, s, lambda i: tf.constant([1.0, 2.0]) if i % 2 == 0 else other)

    f32_i32 = mixed(tf.constant([1, 2]))
    f32_f64 = mixed(tf.constant([1.0, 2.0], tf.float64))
    flags = per_replica(tf, s, lambda i: tf.constant([i % 2 == 0, False]))
    return {
        "float32_int32_SUM": expect_error(lambda: s.reduce("SUM", f32_i32, axis=None),
                                          ["AddN", "int32"]),
        "float32_int32_MEAN": expect_error(lambda: s.reduce("MEAN", f32_i32, axis=None),
                                           ["AddN", "int32"]),
        "float32_float64_SUM": expect_error(lambda: s.reduce("SUM", f32_f64, axis=None),
                                            ["AddN", "double"]),
        "bool_SUM": expect_error(lambda: s.reduce("SUM", flags, axis=None),
                                 ["bool", "allowed values"]),
        "bool_MEAN": expect_error(lambda: s.reduce("MEAN", flags, axis=None),
                                  ["bool", "allowed values"]),
    }


@case
def case_all_reduce_int32_with_float(tf):
    s = make_strategy(tf)
    return expect_error(lambda: _replica_all_reduce(
        tf, s, lambda i: tf.constant([1, 2]) if i == 0 else tf.constant([1.0, 2.0])),
        ["AddN", "int32", "float"])


@case
def case_all_reduce_float64_with_float32(tf):
    s = make_strategy(tf)
    return expect_error(lambda: _replica_all_reduce(
        tf, s, lambda i: tf.constant([1.0, 2.0]) if i % 2 == 0
        else tf.constant([1.0, 2.0], tf.float64)), ["data_type"])


@case
def case_all_reduce_bool(tf):
    s = make_strategy(tf)
    return expect_error(lambda: _replica_all_reduce(tf, s, lambda i: tf.constant([True])),
                        ["bool", "allowed values"])


@case
def case_gather_refused_and_mixed_dtypes(tf):
    s = make_strategy(tf)
    flags = per_replica(tf, s, lambda i: tf.constant([True]))
    f32_i32 = per_replica(tf, s, lambda i: tf.constant([1.0]) if i % 2 == 0 else tf.constant([1]))
    return {"bool": expect_error(lambda: s.gather(flags, axis=0), ["bool", "allowed values"]),
            "float32_int32": expect_error(lambda: s.gather(f32_i32, axis=0),
                                          ["ConcatV2", "int32"])}


@case
def case_reduce_axis_out_of_range(tf):
    s = make_strategy(tf)
    matrices = per_replica(tf, s, lambda i: tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    scalars = per_replica(tf, s, lambda i: tf.constant(1.0))
    out = {}
    for op in ("SUM", "MEAN"):
        for axis in (2, -3):
            out[f"{op}_matrix_axis_{axis}"] = expect_error(
                lambda op=op, axis=axis: s.reduce(op, matrices, axis=axis),
                ["Invalid reduction dimension", str(axis), "2 dimensions"])
        for axis in (0, -1):
            out[f"{op}_scalar_axis_{axis}"] = expect_error(
                lambda op=op, axis=axis: s.reduce(op, scalars, axis=axis),
                ["Invalid reduction dimension", "0 dimensions"])
        out[f"{op}_python_int_axis_0"] = expect_error(
            lambda op=op: s.reduce(op, 3, axis=0), ["Invalid reduction dimension"])
    return out


@case
def case_reduce_python_values(tf):
    s = make_strategy(tf)
    out = {}
    for name, value in (("float", 1.0), ("list", [1.0, 2.0]), ("none", None), ("str", "abc")):
        out[f"SUM_{name}"] = expect_error(lambda value=value: s.reduce("SUM", value, axis=None),
                                          ["non-DistributedValues", "SUM"])
        out[f"MEAN_{name}"] = _try(lambda value=value: enc(tf, s.reduce("MEAN", value,
                                                                        axis=None), s))
    return out


@case
def case_mirrored_duplicate_devices(tf):
    make_strategy(tf)
    return {"same": expect_error(lambda: tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:0"]),
                                 ["duplicates"]),
            "spelled_differently": expect_error(
                lambda: tf.distribute.MirroredStrategy(["/cpu:0", "/device:CPU:0"]),
                ["duplicates"])}


@case
def case_mirrored_gpu_names_without_gpus(tf):
    make_strategy(tf)
    out = {}
    for name, devs in (("one_gpu", ["/gpu:0"]), ("two_gpus", ["/gpu:0", "/gpu:1"]),
                       ("cpu_and_gpu", ["/cpu:0", "/gpu:0"])):
        def run(devs=devs):
            s = tf.distribute.MirroredStrategy(devs)
            r = s.run(lambda: tf.constant(1.0) + 1.0)
            with s.scope():
                v = tf.Variable(1.0)
            return {"worker_devices": list(s.extended.worker_devices),
                    "replicas": s.num_replicas_in_sync,
                    "result_devices": devices(s, r), "result": local(tf, s, r),
                    "variable_devices": [c.device for c in s.experimental_local_results(v)]}
        out[name] = _try(run)
    return out


def _cross_device_strategy(tf, name, n):
    make_strategy(tf)
    return tf.distribute.MirroredStrategy(DEVICES[:n],
                                          cross_device_ops=getattr(tf.distribute, name)())


@case
def case_hierarchical_copy_three_replicas(tf):
    s = _cross_device_strategy(tf, "HierarchicalCopyAllReduce", 3)
    pr = per_replica(tf, s, lambda i: tf.constant([1.0, 2.0]) * tf.cast(i + 1, tf.float32))
    ran = s.run(lambda: tf.distribute.get_replica_context().all_reduce(
        "SUM", tf.constant([1.0, 2.0]) * tf.cast(
            tf.distribute.get_replica_context().replica_id_in_sync_group + 1, tf.float32)))
    return {"batch_reduce_to": [local(tf, s, x) for x in
                                s.extended.batch_reduce_to("SUM", [(pr, pr)])],
            "reduce_to": local(tf, s, s.extended.reduce_to("SUM", pr, pr)),
            "all_reduce": local(tf, s, ran),
            "reduce": s.reduce("SUM", pr, axis=None).numpy().tolist()}


@case
def case_summation_order(tf):
    """1e8 + 1 - 1e8 + 1 in float32: the result depends on the order of the additions."""
    out = {}
    for name in ("HierarchicalCopyAllReduce", "ReductionToOneDevice"):
        s = _cross_device_strategy(tf, name, 4)
        parts = [1e8, 1.0, -1e8, 1.0]
        pr = per_replica(tf, s, lambda i, parts=parts: tf.constant([parts[i], 1.0]))
        out[name] = {"batch_reduce_to": [local(tf, s, x) for x in
                                         s.extended.batch_reduce_to("SUM", [(pr, pr)])],
                     "reduce_to": local(tf, s, s.extended.reduce_to("SUM", pr, pr)),
                     "reduce": s.reduce("SUM", pr, axis=None).numpy().tolist()}
    return out


@case
def case_nccl_all_reduce_on_cpus(tf):
    s = _cross_device_strategy(tf, "NcclAllReduce", 4)
    pr = per_replica(tf, s, lambda i: tf.constant([1.0, 2.0]))
    return {"reduce_to": _try(lambda: local(tf, s, s.extended.reduce_to("SUM", pr, pr))),
            "reduce": _try(lambda: s.reduce("SUM", pr, axis=None).numpy().tolist()),
            "batch_reduce_to": expect_error(
                lambda: s.extended.batch_reduce_to("SUM", [(pr, pr)]), ["NcclAllReduce", "CPU"])}


@case
def case_one_device_and_central_storage_gpu_names_without_gpus(tf):
    make_strategy(tf)

    def one_device():
        s = tf.distribute.OneDeviceStrategy("/gpu:0")
        r = s.run(lambda: tf.constant(1.0) + 1.0)
        with s.scope():
            v = tf.Variable(1.0)
        return {"worker_devices": list(s.extended.worker_devices), "result_device": r.device,
                "variable_device": v.device, "replicas": s.num_replicas_in_sync}

    def central():
        s = tf.distribute.experimental.CentralStorageStrategy(["/gpu:0", "/gpu:1"])
        return {"worker_devices": list(s.extended.worker_devices),
                "replicas": s.num_replicas_in_sync}

    return {"one_device": _try(one_device), "central_storage": _try(central)}


@case
def case_one_replica_values_are_wrapped_or_not(tf):
    make_strategy(tf)

    def shapes(s):
        data = tf.data.Dataset.from_tensor_slices(tf.range(4.0)).batch(2)
        element = next(iter(s.experimental_distribute_dataset(data)))
        from_fn = s.experimental_distribute_values_from_function(
            lambda ctx: tf.constant([float(ctx.replica_id_in_sync_group)]))
        run = s.run(lambda: tf.constant(1.0))
        return {"values_from_function": enc(tf, from_fn, s), "dataset_element": tname(element),
                "run": tname(run), "run_on_values": tname(s.run(lambda x: x * 2.0,
                                                                args=(from_fn,)))}

    return {"mirrored_one_cpu": _try(lambda: shapes(tf.distribute.MirroredStrategy(["/cpu:0"]))),
            "one_device": _try(lambda: shapes(tf.distribute.OneDeviceStrategy("/cpu:0"))),
            "default": _try(lambda: shapes(tf.distribute.get_strategy())),
            "central_storage_one_cpu": _try(lambda: shapes(
                tf.distribute.experimental.CentralStorageStrategy(["/cpu:0"])))}


@case
def case_graph_tensor_devices(tf):
    """A graph tensor's ``device`` is what its op asked for: the tf.device scopes merged
    ('' outside them and for a function's arguments), not where it runs."""
    s = make_strategy(tf)
    out = {}
    c = tf.constant([1.0, 2.0])
    with tf.device("/cpu:0"):
        v = tf.Variable(1.0)

    @tf.function
    def f(x):
        out["argument"] = x.device
        out["captured"] = c.device
        out["op_on_captured"] = (c * 2.0).device
        out["variable"] = v.device
        out["read"] = v.read_value().device
        out["constant"] = tf.constant(1.0).device
        with tf.device("/cpu:1"):
            out["cpu1"] = tf.constant(1.0).device
            with tf.device("/job:localhost"):
                out["job_over_cpu1"] = tf.constant(1.0).device
            with tf.device(None):
                out["none_clears"] = tf.constant(1.0).device
            with tf.device(""):
                out["empty_keeps"] = tf.constant(1.0).device
        with tf.device("cpu"):
            out["any_cpu"] = tf.constant(1.0).device
        with tf.device("/job:localhost/replica:0/task:0/device:CPU:2"):
            out["full"] = tf.constant(1.0).device
        return x

    @tf.function
    def g(x):
        def fn(y):
            out["replica_argument"] = y.device
            out["replica_op"] = (y * 2.0).device
            return y
        return s.run(fn, args=(x,))

    f(tf.constant(1.0))
    g(tf.constant(1.0))
    return out


def _replica_made_all_reduces(tf, s, x):
    """Each replica all-reduces tensors it made itself (from ``x``, a constant, its id)
    inside a tf.function, SUM and MEAN (the same program TPUStrategy runs on tensors
    every replica received, test_tpu_replicate.py)."""

    def fn(x):
        ctx = tf.distribute.get_replica_context()
        mine = x * 1.0
        return (ctx.all_reduce("SUM", mine), ctx.all_reduce("MEAN", mine),
                ctx.all_reduce("SUM", tf.constant(1.0)), ctx.all_reduce("SUM", rid(tf)))

    return _try(lambda: enc(tf, tf.function(lambda x: s.run(fn, args=(x,)))(x), s))


@case
def case_eight_replicas_all_reduce_tensors_they_made_in_a_function(tf):
    s = make_strategy(tf, 8)
    return _replica_made_all_reduces(tf, s, tf.constant([1.5, -2.0]))


def _replica_random_draws(tf, s):
    """Two calls of a tf.function whose replica function draws from a stateless op and
    from a tf.random.Generator made in the strategy's scope (the same program
    TPUStrategy runs, test_tpu_random.py)."""
    with s.scope():
        gen = tf.random.Generator.from_seed(7)

    def fn():
        return (tf.random.stateless_uniform([2], seed=[1, 2]), gen.normal([2]),
                gen.uniform([3], 0, 10, tf.int64))

    @tf.function   # (not a lambda: TPUStrategy names its cluster after the function)
    def step():
        return s.run(fn)

    return _try(lambda: [enc(tf, step(), s) for _ in range(2)])


@case
def case_eight_replicas_draw_random_numbers_in_a_function(tf):
    return _replica_random_draws(tf, make_strategy(tf, 8))


@case
def case_one_replica_all_reduce_of_an_outside_value_in_a_function(tf):
    make_strategy(tf)
    s = tf.distribute.MirroredStrategy(["/cpu:0"])

    def summed(*xs):
        return tf.distribute.get_replica_context().all_reduce("SUM", list(xs))

    def made_inside(x):
        return tf.distribute.get_replica_context().all_reduce("SUM", x * 1.0)

    values = s.experimental_distribute_values_from_function(lambda ctx: tf.constant([1.0, 2.0]))
    words = ["destinations", "empty"]
    return {
        "argument": expect_error(lambda: tf.function(lambda x: s.run(summed, args=(x,)))(values),
                                 words),
        "constant_outside_run": expect_error(
            lambda: tf.function(lambda: s.run(summed, args=(tf.constant([1.0]),)))(), words),
        "made_inside_the_replica": _try(lambda: enc(tf, tf.function(
            lambda x: s.run(made_inside, args=(x,)))(values), s)),
        "eager": _try(lambda: enc(tf, s.run(summed, args=(values,)), s)),
    }


@case
def case_run_of_a_function_that_makes_variables(tf):
    # strategy.run(tf.function f) traces f's replicas in one function (TF's clone of f):
    # a variable made on every trace is refused at the second trace, as outside a strategy,
    # and one made on the first call only is allowed; f's own tracing count stays 0
    s = make_strategy(tf)
    traces = []

    @tf.function
    def every_time():
        traces.append("every_time")
        return tf.Variable(1.0) + 1.0

    made = []

    @tf.function
    def first_call_only():
        traces.append("first_call_only")
        if not made:
            made.append(tf.Variable(2.0))
        return made[0] + 1.0

    words = ["singleton tf.Variables created on the first call"]
    out = {"every_time": expect_error(lambda: s.run(every_time), words)}
    out["first_call_only"] = _try(lambda: enc(tf, s.run(first_call_only), s))
    out["again"] = _try(lambda: enc(tf, s.run(first_call_only), s))
    out["traces"] = traces
    out["tracing_count"] = first_call_only.experimental_get_tracing_count()
    return out


@case
def case_distribute_a_dataset_of_ragged_batches(tf):
    # each replica gets its rows of a batch of RaggedTensors (5 rows: 2 steps, the last
    # one partial)
    s = make_strategy(tf)
    rows = tf.ragged.constant([[1], [2, 3], [4, 5, 6], [7], [8], [9, 10]])
    ds = tf.data.Dataset.from_tensor_slices(rows).batch(5)
    return [[[type(t).__name__, t.to_list()] for t in s.experimental_local_results(x)]
            for x in s.experimental_distribute_dataset(ds)]


@case(exact_print=True)
def case_distributed_dataset_element_spec_and_cardinality(tf):
    # over several replicas a step's spec is a PerReplicaSpec per leaf, usable as an
    # input_signature; the cardinality is the given dataset's, a NumPy int64
    make_strategy(tf)
    x = tf.reshape(tf.range(16.0), [8, 2])
    ds = tf.data.Dataset.from_tensor_slices((x, tf.range(8, dtype=tf.int64))).batch(4)
    ragged = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1], [2, 3]])).batch(2)
    out = {}
    for n in (1, 2, 4):
        s = tf.distribute.MirroredStrategy(DEVICES[:n])
        d = s.experimental_distribute_dataset(ds)
        fn = s.distribute_datasets_from_function(lambda ctx: ds)
        out[n] = {"str:spec": repr(d.element_spec), "str:iterator": repr(iter(d).element_spec),
                  "str:from_function": repr(fn.element_spec),
                  "str:ragged": repr(s.experimental_distribute_dataset(ragged).element_spec),
                  "cardinality": [type(d.cardinality).__name__, int(d.cardinality),
                                  int(fn.cardinality)],
                  "infinite": int(s.experimental_distribute_dataset(ds.repeat()).cardinality),
                  "unknown": int(s.experimental_distribute_dataset(
                      ds.filter(lambda a, b: True)).cardinality)}

    s = tf.distribute.MirroredStrategy(DEVICES)
    d = s.experimental_distribute_dataset(ds)

    @tf.function(input_signature=[d.element_spec])
    def step(batch):
        return s.run(lambda a, b: tf.reduce_sum(a) + tf.cast(tf.reduce_sum(b), tf.float32),
                     args=batch)

    out["steps"] = [[float(v) for v in s.experimental_local_results(step(b))] for b in d]
    out["traces"] = step.experimental_get_tracing_count()
    out["not_per_replica"] = expect_error(
        lambda: step((tf.constant([[1.0, 2.0]]), tf.constant([1], tf.int64))),
        ["Binding inputs to tf.function failed"])
    return out


@case
def case_distribute_sparse_batches_leaving_a_replica_no_rows(tf):
    # TF cannot give a replica an empty SparseTensor batch (DeserializeSparse fails); a
    # replica with rows but no values is fine
    s = make_strategy(tf)

    def dist(indices, rows, batch):
        sp = tf.sparse.SparseTensor(indices, [float(i + 1) for i in range(len(indices))],
                                    [rows, 4])
        ds = tf.data.Dataset.from_tensor_slices(sp).batch(batch)
        return s.experimental_distribute_dataset(ds)

    words = ["Serialized sparse should have at least 1 serialized tensor"]
    out = {"five_rows": expect_error(lambda: list(dist([[0, 0], [1, 2], [2, 1], [4, 3]], 5, 5)),
                                     words),
           "three_rows": expect_error(lambda: next(iter(dist([[0, 0], [1, 2], [2, 1]], 3, 3))),
                                      words)}
    x = next(iter(dist([[0, 0], [3, 2]], 4, 4)))
    out["four_rows"] = [[t.indices.numpy().tolist(), t.dense_shape.numpy().tolist()]
                        for t in s.experimental_local_results(x)]
    take = tf.function(lambda it: next(it))
    out["traced"] = expect_error(
        lambda: take(iter(dist([[0, 0], [1, 2], [2, 1]], 3, 3))), words)
    dense = tf.function(lambda it: s.run(tf.sparse.to_dense, args=(next(it),)))
    out["traced_four_rows"] = [t.numpy().tolist() for t in s.experimental_local_results(
        dense(iter(dist([[0, 0], [1, 2], [2, 1], [3, 3]], 4, 4))))]
    return out

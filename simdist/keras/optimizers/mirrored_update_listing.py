"""The operations TF's graph lists for an optimizer's cross-replica update under
MirroredStrategy (``_distributed_apply_gradients_fn``, run by ``merge_call`` after the
gradients' all-reduce), for SGD (momentum, nesterov), Adam, RMSprop, Adagrad, Adamax,
Adadelta, Ftrl, Lion, Adafactor and Nadam (its cond per copy).

Glossary:
  update_<r>     -- ``distribution.extended.update(var, fn, group=False)``: per variable,
                    per replica ``r``, a scope ``<optimizer>/update_<r>`` (made unique:
                    ``update_0_1`` for the second variable) holding the update of that
                    replica's copy with that replica's reduced gradient.
  Cast/ReadVariableOp -- ``tf.cast(self.learning_rate)`` of a mirrored learning rate reads
                    the replica's copy inside ``Cast`` (no Cast op: float32 already); the
                    update uses that read.
  iterations     -- its ``assign_add(1)`` per replica (``update_<r>_<k>``: ``Const``,
                    ``AssignAddVariableOp``), grouped (``group_deps/NoOp`` per replica, then
                    ``group_deps``), and each replica's copy read back (``Identity``).
  whole          -- another optimizer, amsgrad, clipping, weight decay, a schedule, a variable that
                    is not mirrored on every replica: one node.

Mirrors tf_keras/src/optimizers/optimizer.py (Optimizer._distributed_apply_gradients_fn),
tensorflow/python/distribute/mirrored_strategy.py (_update) and values_util.py.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes, graph_operations
from simdist.keras.optimizers import optimizer_listing, schedules
from simdist.keras.optimizers.adadelta import Adadelta
from simdist.keras.optimizers.adafactor import Adafactor
from simdist.keras.optimizers.adagrad import Adagrad
from simdist.keras.optimizers.adam import Adam
from simdist.keras.optimizers.adamax import Adamax
from simdist.keras.optimizers.clip_listing import ScopeOps
from simdist.keras.optimizers.ftrl import Ftrl
from simdist.keras.optimizers.lion import Lion
from simdist.keras.optimizers.nadam import Nadam
from simdist.keras.optimizers.optimizer import Optimizer
from simdist.keras.optimizers.rmsprop import RMSprop
from simdist.keras.optimizers.sgd import SGD


class _Replica:
    """The replica whose copies a listed update reads (graph_operations' resource keys)."""

    def __init__(self, index):
        self._replica_index = index


def _listed(opt) -> bool:
    kind = type(opt) is SGD and isinstance(opt.momentum, (int, float)) or \
        type(opt) is Adam and not opt.amsgrad or \
        type(opt) in (RMSprop, Adagrad, Adamax, Adadelta, Ftrl, Lion, Adafactor, Nadam)
    return kind and not (
        opt.clipnorm or opt.clipvalue or opt.global_clipnorm or opt.weight_decay or opt.use_ema
        or isinstance(opt._learning_rate, schedules.LearningRateSchedule))


def _copies(variable, n, dtype=dtypes.float32) -> bool:
    return hasattr(variable, "_read_local") and len(getattr(variable, "values", ())) == n \
        and variable.dtype == dtype


def _each_replica(builder, n, fn):
    """``fn(r)`` with the builder reading replica ``r``'s copies."""
    kept = builder.replica
    try:
        for r in range(n):
            builder.replica = _Replica(r)
            fn(r)
    finally:
        builder.replica = kept


def list_distributed_apply(builder, name, args, kwargs, outputs):
    """The ops of a ``_distributed_apply_gradients_fn`` node (see the module docstring),
    or None."""
    opt, _distribution, pairs = (list(args) + [None] * 3)[:3]
    if not _listed(opt) or builder.replica is not None or not pairs or kwargs:
        return None
    pairs = list(pairs)
    n = len(pairs[0][0]) if isinstance(pairs[0][0], tuple) else 0
    grads = []
    for g, v in pairs:
        parts = [builder.converted(name, None, p) for p in g] \
            if isinstance(g, tuple) and len(g) == n else []
        if not n or len(parts) != n or not all(len(p) == 1 for p in parts) or \
                not _copies(v, n):
            return None
        grads.append([p[0] for p in parts])
    if not (_copies(opt.iterations, n, dtypes.int64) and _copies(opt.learning_rate, n)):
        return None
    outer = builder.unique(opt.name) + "/"
    update = optimizer_listing._UPDATES[type(opt)]
    index = opt._index_dict
    for grad, (_, variable) in zip(grads, pairs):
        def one(r, grad=grad, variable=variable):
            s = ScopeOps(builder, builder.unique(f"{outer}update_{r}") + "/")
            s.lr = builder.read(builder.unique(s.scope + "Cast") + "/ReadVariableOp",
                                opt.learning_rate, named=True)
            update(s, opt, grad[r], variable, index[opt._var_key(variable)])
        _each_replica(builder, n, one)

    def count(r):
        s = ScopeOps(builder, builder.unique(f"{outer}update_{r}") + "/")
        s.assign("AssignAddVariableOp", opt.iterations,
                 builder.const(builder.unique(s.scope + "Const"), np.int64(1)))
    _each_replica(builder, n, count)
    group = builder.unique(outer + "group_deps")
    for _ in range(n):
        builder.add(builder.unique(group + "/NoOp"), "NoOp", (), ())
    op = builder.add(group, "NoOp", (), ())

    def read_back(r):
        identity = builder.unique(outer + "Identity")
        builder.add(identity, "Identity", [builder.read(identity, opt.iterations)],
                    [(dtypes.int64, ())])
    _each_replica(builder, n, read_back)
    return op


graph_operations.register_listing(Optimizer._distributed_apply_gradients_fn,
                                  list_distributed_apply)

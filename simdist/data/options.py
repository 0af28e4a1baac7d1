"""Dataset options: how a pipeline may be optimized and distributed (``tf.data.Options``).

Glossary:
  AutoShardPolicy   -- how a multi-worker strategy splits a dataset among workers:
                       ``OFF`` (-1, every worker reads everything), ``AUTO`` (0, FILE if the
                       pipeline reads files, else DATA), ``FILE`` (1, each worker reads a subset
                       of the files), ``DATA`` (2, every worker reads everything and keeps its
                       own share of the batches), ``HINT`` (3, shard where ``SHARD_HINT`` says).
  DistributeOptions -- ``options.experimental_distribute``: ``auto_shard_policy``,
                       ``num_devices``.
  Options           -- the bundle a dataset carries; ``with_options`` merges a new one in.

Mirrors tensorflow/python/data/ops/options.py.
"""

from __future__ import annotations

import enum


class AutoShardPolicy(enum.IntEnum):
    """How a dataset is sharded among workers (values are TF's)."""

    OFF = -1
    AUTO = 0
    FILE = 1
    DATA = 2
    HINT = 3


class _OptionsBase:
    """Options objects reject unknown attributes and record which ones were set."""

    _fields: dict = {}

    def __init__(self):
        object.__setattr__(self, "_set", {})

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if name in self._fields:
            return self._set.get(name, self._default(name))
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __setattr__(self, name, value):
        if name not in self._fields:
            raise AttributeError(
                f"Cannot set the property {name} on {type(self).__name__}. "
                f"Known options: {sorted(self._fields)}.")
        self._set[name] = self._check(name, value)

    def _default(self, name):
        default = self._fields[name]
        return default() if callable(default) and isinstance(default, type) else default

    def _check(self, name, value):
        return value

    def _merge(self, other) -> None:
        for name, value in other._set.items():
            if isinstance(value, _OptionsBase):
                # copy nested options so that merging never mutates either input
                mine = self._set.get(name)
                if not isinstance(mine, _OptionsBase):
                    mine = self._set[name] = type(value)()
                mine._merge(value)
            else:
                self._set[name] = value

    def __eq__(self, other):
        if type(self) is not type(other):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self._fields)

    __hash__ = None


class DistributeOptions(_OptionsBase):
    """``options.experimental_distribute``: how the dataset is distributed."""

    _fields = {"auto_shard_policy": AutoShardPolicy.AUTO, "num_devices": None}

    def _check(self, name, value):
        if name == "auto_shard_policy":
            try:
                return AutoShardPolicy(value)
            except ValueError:
                raise ValueError(
                    f"auto_shard_policy must be a tf.data.experimental.AutoShardPolicy, "
                    f"got {value!r}.") from None
        return value


class OptimizationOptions(_OptionsBase):
    """``options.experimental_optimization`` (accepted; simdist runs pipelines as written)."""

    _fields = {"apply_default_optimizations": None, "map_parallelization": None,
               "parallel_batch": None, "shuffle_and_repeat_fusion": None,
               "noop_elimination": None, "map_and_batch_fusion": None,
               "map_and_filter_fusion": None, "filter_fusion": None,
               "inject_prefetch": None}


class ThreadingOptions(_OptionsBase):
    """``options.threading`` (accepted; simdist pipelines run on the host in order)."""

    _fields = {"max_intra_op_parallelism": None, "private_threadpool_size": None}


class Options(_OptionsBase):
    """The options a dataset carries (``tf.data.Options``)."""

    _fields = {"deterministic": None, "experimental_deterministic": None,
               "experimental_distribute": DistributeOptions,
               "experimental_optimization": OptimizationOptions,
               "threading": ThreadingOptions, "experimental_slack": None,
               "experimental_external_state_policy": None,
               "experimental_symbolic_checkpoint": None, "experimental_warm_start": None}

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if name in self._fields and name not in self._set and isinstance(self._fields[name], type):
            self._set[name] = self._fields[name]()  # nested options are mutable in place
        return super().__getattr__(name)

    def merge(self, options) -> Options:
        """A new Options with ``options`` merged over this one (later values win)."""
        out = Options()
        out._merge(self)
        out._merge(options)
        return out

    def __repr__(self) -> str:
        return (f"Options(auto_shard_policy="
                f"{self.experimental_distribute.auto_shard_policy.name})")

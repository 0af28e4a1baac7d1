"""``tf.random.Generator``: a Philox stream whose state is a ``tf.Variable``.

Glossary:
  state        -- an int64 variable of 3 words for Philox: the 128-bit counter (words 0
                  and 1, low word first) then the 64-bit key (word 2). ``from_seed(s)``
                  chops an int seed into 64-bit words, a list seed is cut to 3 words or
                  padded with zeros on the left (``create_rng_state``).
  read and skip -- every draw first reads the state and moves its counter on by 256 per
                  value drawn (TF's RngReadAndSkip; the 256 leaves room for rejection
                  samplers), then draws with the stateless V2 kernels from the state it
                  read: the numbers are ``stateless_*`` of that key and counter.
  replica key  -- a generator created in a strategy's scope has a mirrored state; in a
                  replica it hashes its key with the replica id (one uint64 drawn from
                  (key, counter=replica id)), so replicas get different streams.
  split / make_seeds -- new keys are int64 full-range draws: generators with counter 0
                  and those keys, or ``[keys, zeros]`` seeds for the stateless ops.
  binomial     -- TF's StatefulRandomBinomial: the counter moves on by 256 x its own
                  reservation, then random_binomial.py samples from the state read (in a
                  replica too, with no key hashing: TF's op reads the state directly).
  global generator -- ``get_global_generator()``: made from OS entropy on first use
                  unless ``set_global_generator`` came first; ``reset_world`` forgets it.
ThreeFry states can be made, but drawing from them raises TF's CPU error (TF runs
ThreeFry on XLA devices only). Inside ``tf.function`` every draw is a stateful graph node
that reads and skips the state at each call.

Mirrors tensorflow/python/ops/stateful_random_ops.py, RngReadAndSkip in
tensorflow/core/kernels/stateful_random_ops.cc and StatefulRandomBinomial in
tensorflow/core/kernels/random_binomial_op.cc.
"""

from __future__ import annotations

import sys

import numpy as np

from simdist import _world
from simdist.framework import context, dtypes, errors, func_graph, name_scope, trackable
from simdist.framework import variables as variables_lib
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import random_binomial, random_ops
from simdist.framework.ops import random_distributions as D
from simdist.framework.ops.philox_random import PhiloxRandom
from simdist.framework.tensor import Tensor

_STATE_SIZE = {1: 3, 2: 2, 3: 3}     # Philox, ThreeFry, auto-select (managed as Philox)
_COUNTER_SIZE = {1: 2, 2: 1, 3: 2}
_SKIP_PER_VALUE = 256                # RngReadAndSkip's multiplier
_MASK64 = 2**64 - 1


def _alg_int(alg) -> int:
    """``alg`` (a name, an Algorithm or an int) as TF's number, TF's ValueError if unknown."""
    return random_ops.convert_alg_to_int(alg)


def _int64_words(seed) -> list[int]:
    """Python ints or an int tensor/array as int64 values (TF's _uint_to_int wrap)."""
    values = np.asarray(seed.numpy() if hasattr(seed, "numpy") else seed, dtype=object)
    return [int(v) - 2**64 if int(v) >= 2**63 else int(v) for v in values.reshape(-1)]


def _ds_context():
    """distribution_strategy_context (which strategy and replica a draw runs in), or None
    while tf.distribute is not loaded (then no strategy can exist). Looked up, not
    imported: tf.distribute sits a layer above, and need not load tf.random."""
    return sys.modules.get("simdist.distribute.distribution_strategy_context")


def _make_1d_state(state_size: int, seed) -> np.ndarray:
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        seed, words = int(seed), []
        for _ in range(state_size):
            words.append(seed & _MASK64)
            seed >>= 64
        seed = words
    words = _int64_words(seed)[:state_size]
    return np.asarray([0] * (state_size - len(words)) + words, dtype=np.int64)


def create_rng_state(seed, alg) -> Tensor:
    """The state ``Generator.from_seed(seed, alg)`` starts from (``tf.random.create_rng_state``)."""
    return A.constant(_make_1d_state(_STATE_SIZE[_alg_int(alg)], seed))


def _state_array(state, alg: int) -> np.ndarray:
    """``state`` as int64 words, TF's ValueError when its length is not ``alg``'s."""
    host = np.asarray(state.numpy() if hasattr(state, "numpy") else state, dtype=object)
    if host.ndim != 1 or host.size != _STATE_SIZE[alg]:
        raise ValueError(f"Shapes {host.shape} and [{_STATE_SIZE[alg]}] are incompatible")
    return np.asarray(_int64_words(host), dtype=np.int64)


def _philox(state: np.ndarray) -> PhiloxRandom:
    """The Philox generator of a state read from the variable."""
    lo, hi, key = (int(w) & _MASK64 for w in state)
    return PhiloxRandom((key & 0xFFFFFFFF, key >> 32), lo | (hi << 64))


def _state(gen: PhiloxRandom) -> np.ndarray:
    """The state words of a Philox generator (``_philox``'s inverse)."""
    key = gen.key[0] | (gen.key[1] << 32)
    return np.asarray(_int64_words([gen.counter & _MASK64, gen.counter >> 64, key]),
                      dtype=np.int64)


def _draw_spec(graph, generator, shape, *args, dtype=dtypes.float32, **kwargs):
    """What a draw gives while tracing (it happens at each execution)."""
    dims = [None] * int(shape.shape[0]) if isinstance(shape, Tensor) else A._ints(shape)
    return graph.symbolic_like(dims, dtype, context.current_device(), "stateful_draw")


def _binomial_spec(graph, generator, shape, counts, probs, dtype=dtypes.int32, name=None):
    dims = [None] * int(shape.shape[0]) if isinstance(shape, Tensor) else A._ints(shape)
    return graph.symbolic_like(dims, dtype, context.current_device(), "stateful_draw")


def _keys_spec(graph, generator, count=1):
    return graph.symbolic_like([2, count], dtypes.int64, context.current_device(),
                               "make_seeds")


def _skip_spec(graph, generator, delta):
    return graph.symbolic_like([_STATE_SIZE[generator.algorithm]], dtypes.int64,
                               context.current_device(), "RngReadAndSkip")


_BINOMIAL_PARAMS = ("float64", "float32", "float16")   # the kernel's T, as TF lists them
_BINOMIAL_OUTPUTS = ("int64", "int32", "float64", "float32", "float16")
_dt = dtypes.datatype_name   # DT_DOUBLE ...: as TF's kernel list prints the types
def _binomial_checks(alg, dims, counts, probs, dt) -> tuple:
    """TF's StatefulRandomBinomial checks, in its order; the parameters' broadcast shape.

    Raises:
      InvalidArgumentError: with TF's messages.
    """
    op = " [Op:StatefulRandomBinomial]"
    t = counts.dtype.name
    if t not in _BINOMIAL_PARAMS or dt.name not in _BINOMIAL_OUTPUTS:
        kernels = "".join(f"\n  device='CPU'; dtype in [{_dt(o)}]; T in [{_dt(p)}]"
                          for o in _BINOMIAL_OUTPUTS for p in _BINOMIAL_PARAMS)
        raise errors.InvalidArgumentError(
            None, None,
            "No OpKernel was registered to support Op 'StatefulRandomBinomial' used by "
            f"{{{{node StatefulRandomBinomial}}}} with these attrs: [dtype={_dt(dt.name)}, "
            f"S=DT_INT32, T={_dt(t)}]\nRegistered devices: [CPU]\nRegistered kernels:"
            f"{kernels}\n\n\t [[StatefulRandomBinomial]]{op}\ncounts and probs must be "
            "float16, float32 or float64 tensors of one dtype: write counts=5.0, not 5.")
    if probs.dtype != counts.dtype:
        raise errors.InvalidArgumentError(
            None, None, "cannot compute StatefulRandomBinomial as input #4(zero-based) was "
            f"expected to be a {_dt(t)[3:].lower()} tensor but is a "
            f"{_dt(probs.dtype.name)[3:].lower()} tensor{op}")
    try:
        batch = np.broadcast_shapes(tuple(counts.shape.as_list()),
                                    tuple(probs.shape.as_list()))
    except ValueError:
        raise errors.InvalidArgumentError(
            None, None, "counts and probs must have compatible batch dimensions: "
            f"{counts.shape.as_list()} vs. {probs.shape.as_list()}{op}") from None
    if len(batch) > len(dims) or (batch and tuple(dims[-len(batch):]) != batch):
        raise errors.InvalidArgumentError(
            None, None, f"Shape passed in must end with broadcasted shape.{op}\nThe sample "
            f"shape {list(dims)} must end with the parameters' broadcast shape "
            f"{list(batch)}.")
    if alg != 1:
        raise errors.InvalidArgumentError(None, None,
                                          f"Unsupported algorithm id: {alg}{op}")
    return batch


class Generator(trackable.Trackable):
    """A random-number generator whose state is a variable (``tf.random.Generator``)."""

    @classmethod
    def from_state(cls, state, alg):
        """A generator starting from ``state`` (a vector of the algorithm's size)."""
        return cls(state=state, alg=alg)

    @classmethod
    def from_seed(cls, seed, alg=None):
        """A generator whose state is made from ``seed`` (an int or a vector of ints)."""
        alg = _alg_int(1 if alg is None else alg)
        return cls(state=_make_1d_state(_STATE_SIZE[alg], seed), alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        """A generator seeded from the operating system's entropy."""
        alg = _alg_int(1 if alg is None else alg)
        words = np.random.SeedSequence().generate_state(_STATE_SIZE[alg], np.uint64)
        return cls(state=words.view(np.int64), alg=alg)

    @classmethod
    def from_key_counter(cls, key, counter, alg):
        """A generator with this key and counter (counter-based algorithms)."""
        return cls(state=cls._key_counter_state(key, counter, _alg_int(alg)), alg=alg)

    def __init__(self, copy_from=None, state=None, alg=None):
        ds_context = _ds_context()
        self._distribution_strategy = (ds_context.get_strategy()
                                       if ds_context is not None and ds_context.has_strategy()
                                       else None)
        if copy_from is not None:
            if state is not None or alg is not None:
                raise AssertionError("Generator(copy_from=...) takes no state or alg: "
                                     "they come from the generator copied.")
            self._alg = copy_from.algorithm
            self._state_var = self._create_variable(copy_from.state.read_value())
            return
        if state is None or alg is None:
            raise AssertionError("Generator needs copy_from, or both state and alg: use "
                                 "tf.random.Generator.from_seed(seed) to start from a seed.")
        self._alg = _alg_int(alg)
        if isinstance(state, variables_lib.Variable):
            if tuple(state.shape) != (_STATE_SIZE[self._alg],):
                raise ValueError(f"Shapes {tuple(state.shape)} and "
                                 f"[{_STATE_SIZE[self._alg]}] are incompatible")
            self._state_var = state
        else:
            self._state_var = self._create_variable(_state_array(state, self._alg))

    @staticmethod
    def _create_variable(initial):
        return variables_lib.Variable(initial, dtype=dtypes.int64, trainable=False,
                                      name="StateVar")

    @staticmethod
    def _key_counter_state(key, counter, alg: int) -> np.ndarray:
        counter = _int64_words(counter)
        if len(counter) != _STATE_SIZE[alg] - 1:
            raise ValueError(f"Shapes ({len(counter)},) and [{_STATE_SIZE[alg] - 1}] are "
                             "incompatible")
        return np.asarray(counter + _int64_words([key]), dtype=np.int64)

    def _trackable_children(self) -> dict:
        return {"_state_var": self._state_var}   # TF's checkpoint key: gen/_state_var/...

    # --- the state ----------------------------------------------------------------------
    @property
    def state(self):
        """The state variable."""
        return self._state_var

    @property
    def algorithm(self) -> int:
        """The algorithm's number (1 Philox, 2 ThreeFry, 3 auto-select)."""
        return self._alg

    @property
    def key(self) -> Tensor:
        """The key word of the state."""
        return self._state_var.read_value()[-1]

    def reset(self, state) -> None:
        """Set the state."""
        self._state_var.assign(_state_array(state, self._alg))

    def reset_from_seed(self, seed) -> None:
        """Set the state ``from_seed(seed)`` would start from."""
        self._state_var.assign(_make_1d_state(_STATE_SIZE[self._alg], seed))

    def reset_from_key_counter(self, key, counter) -> None:
        """Set the state to this key and counter."""
        self._state_var.assign(self._key_counter_state(key, counter, self._alg))

    # --- drawing ------------------------------------------------------------------------
    def skip(self, delta) -> Tensor:
        """Move the counter on as ``delta`` values would; returns the state before."""
        return A.constant(self._skip_impl(int(A._t(delta).numpy())))

    def _skip_impl(self, delta: int) -> np.ndarray:
        if self._distribution_strategy is None:
            return self._read_and_skip(delta)
        with _ds_context().enter_or_assert_strategy(self._distribution_strategy):
            return self._read_and_skip(delta)

    def _read_and_skip(self, delta: int) -> np.ndarray:
        """TF's RngReadAndSkip on the copies a draw uses; the state words read."""
        return self._advance(delta * _SKIP_PER_VALUE, "RngReadAndSkip")

    def _advance(self, counter_delta: int, op_type="StatefulRandomBinomial") -> np.ndarray:
        """Move the counter of the copies a draw uses on by ``counter_delta``; the state
        words read."""
        if self._alg == 2:
            raise errors.UnimplementedError(
                None, None, "Non-XLA devices don't support the ThreeFry algorithm. "
                            f"[Op:{op_type}]\nsimdist simulates CPUs and GPUs, as TF's "
                            "non-XLA kernels: use alg='philox'.")
        components = self._components()
        before = [c.numpy() for c in components]
        for c, words in zip(components, before):
            c.assign(_state(_philox(words).skip(counter_delta)))
        return before[0]

    def _components(self) -> list:
        """The state copies one draw reads and skips: this replica's, or all of them in
        cross-replica context (TF's strategy.extended.update)."""
        var = self._state_var
        if not hasattr(var, "_get"):
            return [var]
        if _ds_context().in_cross_replica_context():
            return list(var.values)
        return [var._get()]

    def _key_counter(self, shape) -> PhiloxRandom:
        """Read and skip the state; the Philox generator of what was read, its key hashed
        with the replica id in a replica of the generator's strategy."""
        n = int(np.prod(random_ops._shape(shape), dtype=np.int64))
        if self._distribution_strategy is None:
            return _philox(self._read_and_skip(n))
        ds_context = _ds_context()
        with ds_context.enter_or_assert_strategy(self._distribution_strategy):
            gen = _philox(self._read_and_skip(n))
            if ds_context.in_cross_replica_context():
                return gen
            replica = ds_context.get_replica_context()
            rid = int(A._t(replica.replica_id_in_sync_group).numpy())
        key = int(D.uniform_full_int(PhiloxRandom(gen.key, rid), 1, np.uint64)[0])
        return PhiloxRandom((key & 0xFFFFFFFF, key >> 32), gen.counter)

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None) -> Tensor:
        """Normal samples; the state moves on."""
        dt = random_ops._float_dtype(dtype, "normal")
        return random_ops._normal("StatelessRandomNormalV2", shape, mean, stddev, dt,
                                  gen=self._key_counter(shape))

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32,
                         name=None) -> Tensor:
        """Normal samples within two standard deviations; the state moves on."""
        dt = random_ops._float_dtype(dtype, "truncated_normal")
        return random_ops._truncated_normal("StatelessTruncatedNormalV2", shape, mean,
                                            stddev, dt, gen=self._key_counter(shape))

    def uniform(self, shape, minval=0, maxval=None, dtype=dtypes.float32, name=None) -> Tensor:
        """Samples from ``[minval, maxval)``; integers need both bounds or neither.

        Raises:
          ValueError: an integer ``dtype`` with one bound only.
        """
        dt = dtypes.as_dtype(dtype)
        if dt.is_integer and (minval is None) != (maxval is None):
            raise ValueError(f"For integer dtype {dt}, minval and maxval must be both "
                             f"`None` or both non-`None`; got minval={minval} and "
                             f"maxval={maxval}")
        return random_ops._uniform("StatelessRandomUniformV2", shape, minval, maxval, dt,
                                   gen=self._key_counter(shape))

    def uniform_full_int(self, shape, dtype=dtypes.uint64, name=None) -> Tensor:
        """Integers over the whole range of ``dtype``."""
        dt = dtypes.as_dtype(dtype)
        return random_ops._uniform("StatelessRandomUniformV2", shape, None, None, dt,
                                   gen=self._key_counter(shape))

    def binomial(self, shape, counts, probs, dtype=dtypes.int32, name=None) -> Tensor:
        """Binomial samples of ``counts`` trials with success probability ``probs``
        (broadcast together, and with the rightmost dimensions of ``shape``), drawn as
        TF's StatefulRandomBinomial kernel draws them (random_binomial.py); the state
        moves on.

        Raises:
          InvalidArgumentError: parameters that are not both half, float or double, or of
            two dtypes; ``shape`` not ending with their broadcast shape; a ThreeFry state
            (TF's messages).
        """
        dt = dtypes.as_dtype(dtype)
        counts, probs = A._t(counts), A._t(probs)
        dims = random_ops._shape(shape)
        batch = _binomial_checks(self._alg, dims, counts, probs, dt)
        num_batches = int(np.prod(batch, dtype=np.int64))
        samples_per_batch = int(np.prod(dims[:len(dims) - len(batch)], dtype=np.int64))
        gen = _philox(self._advance(random_binomial.state_skip(num_batches,
                                                               samples_per_batch)))
        c, p = (np.broadcast_to(t.numpy(), batch).reshape(-1) for t in (counts, probs))
        values = random_binomial.sample(gen, c, p, samples_per_batch).reshape(dims)
        with np.errstate(invalid="ignore"):
            return random_ops._place("StatefulRandomBinomial",
                                     values.astype(dt.as_numpy_dtype))

    def make_seeds(self, count=1) -> Tensor:
        """A [2, count] int64 tensor of seeds for the stateless ops."""
        keys = self.uniform_full_int([count], dtype=dtypes.int64)
        return A.stack([keys, A.zeros_like(keys)])

    def split(self, count=1) -> list:
        """``count`` new, independent generators; this one's state moves on."""
        keys = self.uniform_full_int([count], dtype=dtypes.int64).numpy()
        size = _STATE_SIZE[self._alg]
        return [Generator(state=[0] * (size - 1) + [int(k)], alg=self._alg) for k in keys]


func_graph.record_methods(Generator, {
    "normal": ("stateful", _draw_spec), "truncated_normal": ("stateful", _draw_spec),
    "uniform": ("stateful", _draw_spec), "uniform_full_int": ("stateful", _draw_spec),
    "binomial": ("stateful", _binomial_spec),
    "make_seeds": ("stateful", _keys_spec), "skip": ("stateful", _skip_spec)})

_global = [None]


@_world.register_resetter
def _reset() -> None:
    _global[0] = None


def get_global_generator() -> Generator:
    """The global generator, made from OS entropy the first time it is asked for."""
    if _global[0] is None:
        with name_scope.init_scope():   # made eagerly, even from inside a trace
            _global[0] = Generator.from_non_deterministic_state()
    return _global[0]


def set_global_generator(generator: Generator) -> None:
    """Make ``generator`` the global one."""
    _global[0] = generator

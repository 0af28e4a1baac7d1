"""Random ops with TensorFlow's seeding rules (``tf.random``).

Glossary:
  global seed  -- ``set_seed(s)``: makes every later sequence of random ops reproducible
                  and restarts it.
  op seed      -- ``seed=`` of one op. With a global seed and no op seed, each op call
                  takes the next ``random.Random(s).randint(0, 2**31 - 1)`` as its op
                  seed (so successive calls differ, reproducibly); with an op seed and no
                  global seed, the global seed is TF's default ``87654321``; with neither,
                  draws are not reproducible.
  stream       -- one generator per (global seed, op seed) pair that advances with each
                  call, so ``uniform([1], seed=1)`` twice gives two different values, the
                  same two after every ``set_seed``.
  stateless    -- ``stateless_uniform(shape, seed=[a, b])`` etc.: the numbers depend on the
                  two-integer seed only (same seed, same numbers; the global seed and the
                  streams are neither read nor advanced). Keras's initializers use them.
  kernel       -- a stateful op's (op, dtype, seed, seed2, device) has one Philox state,
                  as TF's eager kernel cache; each call moves it on by 256 blocks per value.
Numbers are TF's: Philox4x32-10 (``philox_random``) and TF's conversions
(``random_distributions``), bit for bit what TF's CPU kernels give (recorded in
tests/framework/fixtures/tf_random.json).
Host and device: seeds, streams, Philox counters and keys are host-side bookkeeping (uint32
arithmetic that must wrap exactly as TF's, and state shared by every backend), so the
numbers are generated and converted in NumPy on the host; each op's result crosses to the
device at one boundary, ``_place`` (``array_api.from_host``: float16/bfloat16 stay host
arrays where the backend lacks them). On CuPy that is one host-to-device copy per random op
where TF's GPU kernels would generate on the device; the bits are the same.

Mirrors tensorflow/python/ops/random_ops.py, stateless_random_ops.py and
framework/random_seed.py.
"""

from __future__ import annotations

import contextlib
import enum
import threading

import numpy as np

from simdist import _world
from simdist.framework import dtypes, errors, execute, op_recording
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import math_ops as M
from simdist.framework.ops import random_distributions as D
from simdist.framework.ops.philox_random import PhiloxRandom, key_counter_from_seed
from simdist.framework.tensor import Tensor
from simdist.hardware import array_api

DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2**31 - 1
_RESERVED_SAMPLES_PER_OUTPUT = 256


class _RandomState:
    def __init__(self):
        self.global_seed: int | None = None
        self.rng = None  # a random.Random once a global seed is set
        # The eager kernel cache: one Philox state per (op, dtype, seed, seed2) kernel.
        self.kernels: dict[tuple, PhiloxRandom] = {}
        self.function: FunctionRandomState | None = None   # the traced function running
        self.generation = 0   # set_seed's count: it restarts functions' kernels too
        self.lock = threading.Lock()


class FunctionRandomState:
    """The random state of one trace of a ``tf.function`` (one FuncGraph): its ops' seeds,
    fixed when traced, and its stateful kernels, which keep moving from call to call.

    While tracing (the first call), an op without an op seed takes the next of 0, 1, 2, ...
    (TF's per-graph counter) with the global seed of that moment; later calls give the k-th
    random op the k-th traced seeds, whatever Python passes then, as the graph's ops would.
    ``set_seed`` restarts the kernels (TF clears its caches) but not the traced seeds.
    """

    def __init__(self):
        self.traced = False
        self.global_seed: int | None = None
        self.counter = 0
        self.seeds: list = []
        self.position = 0
        self.kernels: dict[tuple, PhiloxRandom] = {}
        self.generation = 0

    def next_seeds(self, op_seed) -> tuple:
        if self.position < len(self.seeds):
            seeds = self.seeds[self.position]
        else:   # tracing: TF's graph-mode get_seed
            g = self.global_seed
            if g is not None and op_seed is None:
                op_seed, self.counter = self.counter, self.counter + 1
            seeds = _seed_pair(g, op_seed)
            self.seeds.append(seeds)
        self.position += 1
        return seeds


_state = _RandomState()


@_world.register_resetter
def _reset() -> None:
    global _state
    _state = _RandomState()


def set_seed(seed) -> None:
    """Set the global random seed and restart every random sequence (``tf.random.set_seed``):
    op seeds are drawn again from ``random.Random(seed)`` and the kernels' states are
    dropped, as TF's eager context clears its kernel cache."""
    import random  # Python's generator: loaded by the first seed, not by ``import simdist``

    with _state.lock:
        _state.global_seed = None if seed is None else int(seed)
        _state.rng = None if seed is None else random.Random(int(seed))
        _state.kernels.clear()
        _state.generation += 1


def get_global_seed() -> int | None:
    """The seed last given to :func:`set_seed` (None when unset)."""
    return _state.global_seed


def _seed_pair(global_seed, op_seed) -> tuple:
    if global_seed is not None:
        seeds = global_seed % _MAXINT32, int(op_seed) % _MAXINT32
    elif op_seed is not None:
        seeds = DEFAULT_GRAPH_SEED, int(op_seed) % _MAXINT32
    else:
        return None, None
    return (0, _MAXINT32) if seeds == (0, 0) else seeds


def get_seed(op_seed):
    """The (seed, seed2) pair an op uses, as TF's ``random_seed.get_seed``: eagerly, op seeds
    from ``random.Random(global seed)``; in a traced function, its graph's seeds."""
    if _state.function is not None:
        return _state.function.next_seeds(op_seed)
    g = _state.global_seed
    if g is not None and op_seed is None:
        with _state.lock:
            op_seed = _state.rng.randint(0, _MAXINT32)
    return _seed_pair(g, op_seed)


def is_tracing() -> bool:
    """False while a traced function replays its graph (Python-side seed bookkeeping, such
    as Keras's legacy seeds, happens once per trace)."""
    f = _state.function
    return f is None or not f.traced


@contextlib.contextmanager
def function_scope(state: FunctionRandomState):
    """Run one call of a traced function: the first call traces (fixes the seeds), later
    ones replay them; its kernels are the function's own."""
    with _graph_scope(state, _state.global_seed):
        yield state


@contextlib.contextmanager
def eager_scope():
    """Leave the traced function's random state for a block (``tf.init_scope``): its random
    ops take eager op seeds, as TF's init_scope runs them eagerly."""
    outer = _state.function
    _state.function = None
    try:
        yield
    finally:
        _state.function = outer


@contextlib.contextmanager
def subgraph_scope(state: FunctionRandomState):
    """Run a traced while loop's body (one iteration) or a cond's branch: TF builds each as
    a graph of its own, so its random ops take op seeds counted from 0 there (with the
    function's global seed), and each op is one kernel for every iteration and every call
    (``state`` is the body's or branch's, kept with its node). Outside a traced function's
    execution, nothing changes."""
    outer = _state.function
    if outer is None:
        yield state
        return
    with _graph_scope(state, outer.global_seed):
        yield state


@contextlib.contextmanager
def _graph_scope(state: FunctionRandomState, global_seed):
    outer = _state.function
    if not state.traced:
        state.global_seed = global_seed
    if state.generation != _state.generation:   # set_seed cleared TF's kernels since
        state.kernels.clear()
        state.generation = _state.generation
    state.position = 0
    _state.function = state
    try:
        yield state
    finally:
        _state.function = outer
        state.traced = True


def _reserve(op_type, dtype, seed, reserve) -> PhiloxRandom:
    """The state a stateful kernel draws from now, then moved ``reserve`` blocks on (TF's
    GuardedPhiloxRandom). Eagerly the kernel is shared by every call with the same op,
    dtype, seeds and device (TF's kernel cache: each replica's device has its own); in a
    traced function each op has its own.
    Unseeded ops get a kernel of their own with fresh seeds."""
    s1, s2 = get_seed(seed)
    if s1 is None:
        s1, s2 = (int(x) for x in np.random.SeedSequence().generate_state(2, np.uint64))
        return PhiloxRandom.from_seeds(s1, s2)
    fn = _state.function
    if fn is None:
        device = execute.placement([])
        kernels, key = _state.kernels, (op_type, dtypes.as_dtype(dtype).name, s1, s2,
                                        getattr(device, "name", str(device)))
    else:   # a graph has a kernel per op node, even for two ops with the same seeds
        kernels, key = fn.kernels, fn.position
    with _state.lock:
        gen = kernels.get(key) or PhiloxRandom.from_seeds(s1, s2)
        kernels[key] = gen.skip(reserve)
    return gen


def _stateful(op_type, shape, dtype, seed) -> tuple:
    n = int(np.prod(shape, dtype=np.int64))
    return _reserve(op_type, dtype, seed, n * _RESERVED_SAMPLES_PER_OUTPUT), n


def _generator(seed) -> np.random.Generator:
    """A NumPy generator for host-side shuffles that are not TF kernels, seeded by the
    op's (seed, seed2) (fresh entropy without seeds)."""
    g, o = get_seed(seed)
    if g is None:
        return np.random.default_rng()
    return np.random.default_rng([g & 0xFFFFFFFF, o & 0xFFFFFFFF])


def _shape(shape, op_type=None, dtype=None) -> tuple:
    """The draw's shape; with ``op_type``, TF's OOM error first if it cannot fit."""
    dims = tuple(A._ints(shape))
    if op_type is not None:
        execute.check_output_fits(op_type, dims, dtype)
    return dims


def _place(op_type, host) -> Tensor:
    return execute.execute(op_type, [], array_api.from_host(host))  # the one boundary


def _float_dtype(dtype, what) -> dtypes.DType:
    dt = dtypes.as_dtype(dtype)
    if not dt.is_floating:
        raise TypeError(f"Cannot convert 0.0 to EagerTensor of dtype {dt.name}")
    return dt


def _scaled(op_type, z, mean, stddev, dt) -> Tensor:
    """``rnd * stddev + mean`` in the dtype, as TF's Python wrappers."""
    mean_t = execute.convert_to_tensor(mean, dtype=dt)
    std_t = execute.convert_to_tensor(stddev, dtype=dt)
    return M.add(M.multiply(_place(op_type, z), std_t), mean_t)


def _draw(dist, op_type, shape, dtype, gen=None, seed=None):
    """``dist`` (a random_distributions function) filled into ``shape``: from ``gen`` for a
    stateless op, else from the stateful kernel of ``seed``."""
    shape = _shape(shape, op_type, dtype)
    if gen is None:
        gen, n = _stateful(op_type, shape, dtype, seed)
    else:
        n = int(np.prod(shape, dtype=np.int64))
    return dist(gen, n, dtype.as_numpy_dtype).reshape(shape)


def _normal(op_type, shape, mean, stddev, dtype, gen=None, seed=None) -> Tensor:
    dt = _float_dtype(dtype, "normal")
    return _scaled(op_type, _draw(D.normal, op_type, shape, dt, gen, seed), mean, stddev, dt)


def _truncated_normal(op_type, shape, mean, stddev, dtype, gen=None, seed=None) -> Tensor:
    dt = _float_dtype(dtype, "truncated_normal")
    z = _draw(D.truncated_normal, op_type, shape, dt, gen, seed)
    return _scaled(op_type, z, mean, stddev, dt)


def _uniform_int(op_type, shape, minval, maxval, dt, gen=None, seed=None) -> Tensor:
    if minval is None:  # a stateless draw without bounds covers the whole dtype
        host = _draw(D.uniform_full_int, op_type + "FullInt", shape, dt, gen, seed)
        return _place(op_type + "FullInt", host)
    lo, hi = int(A._t(minval)), int(A._t(maxval))
    if lo >= hi:
        raise errors.InvalidArgumentError(
            None, None, f"Need minval < maxval: {lo} >= {hi}\nGive a maxval above minval.")

    def dist(g, n, np_dtype):
        return D.uniform_int(g, n, np_dtype, lo, hi)

    return _place(op_type + "Int", _draw(dist, op_type + "Int", shape, dt, gen, seed))


def _uniform(op_type, shape, minval, maxval, dtype, gen=None, seed=None) -> Tensor:
    dt = dtypes.as_dtype(dtype)
    if dt.is_integer:
        return _uniform_int(op_type, shape, minval, maxval, dt, gen, seed)
    if not dt.is_floating:
        raise ValueError(f"Invalid dtype {dt!r} for tf.random.uniform: use a float or int dtype.")
    u = _place(op_type, _draw(D.uniform, op_type, shape, dt, gen, seed))
    # TF skips the arithmetic for the Python ints 0 and 1, and only scales for minval 0.
    minval_is_zero = isinstance(minval, int) and minval == 0
    maxval_is_one = maxval is None or (isinstance(maxval, int) and maxval == 1)
    if gen is None and minval_is_zero:
        return u if maxval_is_one else M.multiply(u, execute.convert_to_tensor(maxval, dtype=dt))
    lo = execute.convert_to_tensor(minval, dtype=dt)
    hi = execute.convert_to_tensor(1 if maxval is None else maxval, dtype=dt)
    return M.add(M.multiply(u, M.subtract(hi, lo)), lo)


def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None) -> Tensor:
    """Samples from a normal distribution (``tf.random.normal``)."""
    return _normal("RandomStandardNormal", shape, mean, stddev, dtype, seed=seed)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None,
                     name=None) -> Tensor:
    """Normal samples more than two standard deviations from the mean are redrawn."""
    return _truncated_normal("TruncatedNormal", shape, mean, stddev, dtype, seed=seed)


def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None,
            name=None) -> Tensor:
    """Samples from ``[minval, maxval)`` (``maxval`` defaults to 1 for floats).

    Raises:
      ValueError: an integer ``dtype`` without ``maxval``.
    """
    if dtypes.as_dtype(dtype).is_integer and maxval is None:
        raise ValueError(f"Must specify maxval for integer dtype {dtypes.as_dtype(dtype)!r}")
    return _uniform("RandomUniform", shape, minval, maxval, dtype, seed=seed)


# --- stateless ops: the numbers are a function of (seed, shape) only ---------------------
class Algorithm(enum.Enum):
    """``tf.random.Algorithm``: the numbers match framework/rng_alg.h."""

    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


def _unsupported_alg(alg) -> ValueError:
    names = {int: ("1", "2", "3"), str: ("philox", "threefry", "auto_select")}.get(
        type(alg), ("Algorithm.PHILOX", "Algorithm.THREEFRY", "Algorithm.AUTO_SELECT"))
    return ValueError(f"Argument `alg` got unsupported value {alg}. Supported values are "
                      f"{names[0]} for the Philox algorithm, {names[1]} for the ThreeFry "
                      f"algorithm, and {names[2]} for auto-selection.")


def convert_alg_to_int(alg) -> int:
    """``alg`` (an Algorithm, its name or its number) as TF's number (random_ops_util)."""
    if isinstance(alg, Algorithm):
        return alg.value
    if isinstance(alg, (int, np.integer)) and not isinstance(alg, bool):
        if int(alg) not in (1, 2, 3):
            raise _unsupported_alg(int(alg))
        return int(alg)
    if isinstance(alg, str):
        canon = alg.strip().lower().replace("-", "").replace("_", "")
        if canon not in ("philox", "threefry", "autoselect"):
            raise _unsupported_alg(alg)
        return {"philox": 1, "threefry": 2, "autoselect": 3}[canon]
    raise TypeError(f"Can't convert argument `alg` (of value {alg} and type {type(alg)}) "
                    "to int.")


def _check_alg(alg) -> None:
    """Philox and auto-select (Philox on CPU) run; ThreeFry is not simulated."""
    if convert_alg_to_int(3 if alg is None else alg) == 2:
        raise NotImplementedError("simdist runs TF's Philox only: use alg='philox' or "
                                  "'auto_select' (what TF picks on CPU and GPU).")


def _stateless_generator(seed, alg=None) -> PhiloxRandom:
    """The Philox state keyed by the shape-[2] ``seed`` (TF's StatelessRandomGetKeyCounter):
    the same seed gives the same numbers every call, and no state of the stateful ops above
    is read or advanced."""
    if isinstance(seed, (list, tuple)) and any(isinstance(s, Tensor) for s in seed):
        seed = execute.convert_to_tensor(seed)   # packed, as TF converts (c, c) of a Counter
    # a tensor's own value: a traced seed (a Generator's make_seeds) is its placeholder here
    pair = np.asarray(array_api.to_host(seed._value) if isinstance(seed, Tensor) else seed)
    if not np.issubdtype(pair.dtype, np.integer):
        raise errors.InvalidArgumentError(
            None, None, "Value for attr 'Tseed' of "
                        f"{'float' if pair.dtype.kind == 'f' else pair.dtype} is not in the "
                        "list of allowed values: int32, int64\nPass two integers, e.g. "
                        "seed=[1, 2].")
    if pair.shape != (2,):
        raise errors.InvalidArgumentError(
            None, None, f"seed must have shape [2], not {list(pair.shape)}\nPass two "
                        "integers, e.g. seed=[1, 2].")
    _check_alg(alg)
    return key_counter_from_seed(int(pair[0]), int(pair[1]))


def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32,
                     name=None, alg="auto_select") -> Tensor:
    """Normal samples determined by ``seed`` alone (``tf.random.stateless_normal``)."""
    return _normal("StatelessRandomNormalV2", shape, mean, stddev, dtype,
                   gen=_stateless_generator(seed, alg))


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32,
                               name=None, alg="auto_select") -> Tensor:
    """Truncated normal samples determined by ``seed`` alone."""
    return _truncated_normal("StatelessTruncatedNormalV2", shape, mean, stddev, dtype,
                             gen=_stateless_generator(seed, alg))


def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=dtypes.float32,
                      name=None, alg="auto_select") -> Tensor:
    """Uniform samples determined by ``seed`` alone (``tf.random.stateless_uniform``).

    Raises:
      ValueError: an integer ``dtype`` without both ``minval`` and ``maxval``.
    """
    dt = dtypes.as_dtype(dtype)
    if dt.is_integer and (minval is None) != (maxval is None):
        raise ValueError(f"For integer `dtype` argument {dt!r}, argument `minval` and "
                         "`maxval` must be both None or not None. Got `minval`="
                         f"{minval} and `maxval`={maxval}.")
    return _uniform("StatelessRandomUniformV2", shape, minval, maxval, dtype,
                    gen=_stateless_generator(seed, alg))


def uniform_by(seed, stateless: bool):
    """``draw(shape, ...)``: ``stateless_uniform`` by the two-integer ``seed``, or the
    stateful ``uniform`` by op seed ``seed``, given the rest of the arguments as they are
    (the image ops' random adjustments, flips and crops and their stateless forms)."""
    if stateless:
        return lambda shape, *args, **kwargs: stateless_uniform(shape, seed, *args, **kwargs)
    return lambda shape, *args, **kwargs: uniform(shape, *args, **kwargs, seed=seed)


def split(seed, num=2, alg="auto_select") -> Tensor:
    """``num`` new seeds, a [num, 2] tensor of ``seed``'s dtype (``tf.random.split``)."""
    seed = execute.convert_to_tensor(seed)
    return stateless_uniform([num, 2], seed, minval=None, maxval=None, dtype=seed.dtype,
                             alg=alg)


def fold_in(seed, data, alg="auto_select") -> Tensor:
    """A new seed made of ``seed`` and the integer ``data`` (``tf.random.fold_in``)."""
    data = execute.convert_to_tensor(data)
    first = stateless_uniform([], seed, minval=None, maxval=None, dtype=data.dtype, alg=alg)
    return A.stack([first, data])


def _shuffle_permutation(gen: PhiloxRandom, size: int) -> np.ndarray:
    """TF's RandomShuffle: Fisher-Yates from the front, swapping i with
    ``i + word % (size - i)``, one 32-bit word per swap in Philox order."""
    words = gen.first_blocks(-(-(size - 1) // 4)).reshape(-1)[:size - 1].tolist()
    perm = list(range(size))
    for i, w in enumerate(words):
        j = i + w % (size - i)
        perm[i], perm[j] = perm[j], perm[i]
    return np.asarray(perm, dtype=np.int64)


def shuffle(value, seed=None, name=None) -> Tensor:
    """``value`` with its first dimension randomly permuted (``tf.random.shuffle``)."""
    x = A._t(value)
    size = int(x.shape[0]) if x.ndim else 0
    moves = size > 1 and int(np.prod(x.shape)) > 1
    # The kernel reserves size - 1 32-bit words (whole blocks) when it shuffles.
    gen = _reserve("RandomShuffle", x.dtype, seed, (size + 2) // 4 if moves else 0)
    if not moves:
        return x
    return A.gather(x, A.constant(_shuffle_permutation(gen, size).astype(np.int32)))


for _op in ("RandomStandardNormal", "TruncatedNormal", "RandomUniform", "RandomUniformInt",
            "StatelessRandomNormalV2", "StatelessTruncatedNormalV2", "StatelessRandomUniformV2",
            "StatelessRandomUniformV2Int", "StatelessRandomUniformV2FullInt",
            "RandomShuffle"):
    execute.NotDifferentiable(_op)


# The public ops, recorded as graph nodes while a tf.function traces (op_recording).
op_recording.record_here(__name__, exclude=("set_seed", "get_global_seed", "get_seed",
                                            "is_tracing", "function_scope", "uniform_by"))

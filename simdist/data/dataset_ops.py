"""``Dataset``: a lazy, re-iterable input pipeline whose elements are host Tensors.

Glossary:
  Dataset        -- a node of the pipeline graph; transformations (``batch``, ``map`` ...)
                    return a new node over their input. Nothing runs until iteration.
  iteration      -- ``iter(ds)`` starts a fresh pass (a new shuffle order when reshuffling);
                    each element is a structure of Tensors on the host CPU device.
  _values()      -- the private generator every node implements: elements as structures
                    of backend arrays (no Tensor per element inside the pipeline).
  _index_stream()-- the fast path: nodes that only reorder or select rows of a slicable
                    source (``from_tensor_slices``, ``range`` through ``shuffle``, ``take``,
                    ``skip``, ``shard``, ``repeat``, ``prefetch``, ``cache``) return
                    ``(source, iterator of row indices)``, so ``batch`` gathers whole batches
                    with one fancy-index per batch instead of stacking per-element arrays.
  cardinality    -- number of elements, or ``INFINITE_CARDINALITY`` (-1) /
                    ``UNKNOWN_CARDINALITY`` (-2).
  in a tf.function -- a dataset made while tracing is made once, outside the graph
                    (``outside_the_graph``), a source of a symbolic tensor as a
                    ``TracedSource`` bound at each execution (also ``from_generator``'s
                    ``args``), a map / filter / interleave / flat_map function reading a
                    tensor of the trace fed its value by the iterator (``function_captures``);
                    ``iter()`` there is a node
                    starting a fresh
                    pass at each execution, ``next()`` a stateful node, ``reduce`` and
                    AutoGraph's ``for x in ds`` a graph loop (simdist.data.optional_ops);
                    simdist's own Python loops over a dataset make the function run eagerly.

Mirrors tensorflow/python/data/ops/dataset_ops.py and iterator_ops.py.
"""

from __future__ import annotations

import functools

from simdist import warnings as teach
from simdist.data import optional_ops, structure
from simdist.data.iterator_pass import iterator_pass
from simdist.data.iterator_state import CheckpointableIterator
from simdist.data.options import Options
from simdist.framework import errors, func_graph, nest


def outside_the_graph(fn):
    """``fn`` (a source made from values, an element spec read off a first element) run
    while a function traces: once, outside the graph -- its values are constants of the
    graph, as TF's Const inputs of a dataset made in a tf.function are. A symbolic input
    has no value yet: a source made from one is a ``TracedSource``, any other use makes the
    function run eagerly (NotTraceable)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if func_graph.current() is None:
            return fn(*args, **kwargs)
        if any(func_graph.is_symbolic(x) for x in nest.flatten((args, kwargs))):
            if getattr(fn, "_dataset_source", False):
                return TracedSource(fn, args, kwargs)
            raise func_graph.NotTraceable("a tf.data dataset made from a symbolic tensor")
        from simdist.framework import function_variables

        try:
            with func_graph.captured_by_use(func_graph.current()), \
                    function_variables.lifted():
                return fn(*args, **kwargs)   # a map's captures: func_graph.captured_now
        except TypeError as e:   # a tensor of the trace read where no capture was traced
            if _OUT_OF_SCOPE not in str(e):
                raise
            raise func_graph.NotTraceable("a tf.data function that uses a tensor of the "
                                          "function being traced outside its map, filter "
                                          "or interleave") from None

    return wrapper


_OUT_OF_SCOPE = "is out of scope and cannot be used here"   # SymbolicTensor's TypeError


def _source(fn):
    """Mark a source constructor: made from a symbolic tensor it is a TracedSource."""
    fn._dataset_source = True
    return fn


AUTOTUNE = -1
INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2


class DatasetV2:
    """A potentially large set of elements (``tf.data.Dataset``)."""

    _tf_name = None   # TF's class name, for repr, where it is not "_" + simdist's

    def __init__(self, inputs=(), element_spec=None):
        self._inputs = tuple(inputs)
        self._element_spec = element_spec

    # --- private protocol ---------------------------------------------------------------
    def _values(self):
        """Generate the elements as structures of backend arrays (override this ...)."""
        stream = self._index_stream()
        if stream is None:
            raise NotImplementedError(type(self).__name__)
        source, indices = stream
        for i in indices:
            yield source._row(i)

    def _index_stream(self):
        """... or this: ``(source, iterator of row indices)``, or None when not row-based."""
        return None

    def _cardinality(self) -> int:
        return UNKNOWN_CARDINALITY

    # --- introspection ------------------------------------------------------------------
    @property
    def element_spec(self):
        """The structure of :class:`TensorSpec` describing one element."""
        return self._element_spec

    def cardinality(self):
        """The number of elements as an int64 scalar Tensor (-1 infinite, -2 unknown); in a
        trace a node counting at each execution (TF's DatasetCardinality op)."""
        if func_graph.current() is not None:
            sources = traced_sources(self)
            return _traced_cardinality(self, sources,
                                       *[t for src in sources for t in src._captured])
        return _cardinality_tensor(self)

    def __len__(self) -> int:
        n = self._cardinality()
        if n == INFINITE_CARDINALITY:
            raise TypeError("The dataset is infinite.")
        if n == UNKNOWN_CARDINALITY:
            raise TypeError("The dataset length is unknown.")
        return n

    def __bool__(self) -> bool:
        return True  # a dataset is truthy even when empty, as in TF

    def _tracing_key(self):
        """tf.function traces once for datasets of one element spec (TF's DatasetSpec)."""
        return structure.spec_key(self.element_spec)

    def options(self) -> Options:
        """The options of this dataset and everything upstream, merged."""
        out = Options()
        for ds in self._inputs:
            out = out.merge(ds.options())
        return out

    def __repr__(self) -> str:
        name = self._tf_name or "_" + type(self).__name__
        return f"<{name} element_spec={self.element_spec}>"

    # --- iteration ----------------------------------------------------------------------
    def __iter__(self):
        if func_graph.current() is not None:   # simdist's own loops need the values
            func_graph._library_refuses("iterated a tf.data.Dataset in Python")
        return OwnedIterator(self)

    def as_numpy_iterator(self):
        """Iterate elements as NumPy values (scalars for rank 0), structure preserved."""
        for values in iterator_pass(self):
            yield structure.to_numpy(values)

    # --- sources ------------------------------------------------------------------------
    @staticmethod
    @outside_the_graph
    @_source
    def from_tensor_slices(tensors, name=None):
        """One element per row of the leading dimension of every component.

        Raises:
          ValueError: when components disagree on the leading dimension, or are scalars.
        """
        from simdist.data.sources import TensorSliceDataset

        return TensorSliceDataset(tensors)

    @staticmethod
    @outside_the_graph
    @_source
    def from_generator(generator, output_types=None, output_shapes=None, args=None,
                       output_signature=None, name=None):
        """The elements ``generator(*args)`` yields, of the given signature (unknown
        cardinality; see simdist/data/from_generator.py)."""
        from simdist.data.from_generator import from_generator

        return from_generator(generator, output_types, output_shapes, args, output_signature)

    @staticmethod
    def list_files(file_pattern, shuffle=None, seed=None, name=None):
        """The files matching the glob pattern(s), shuffled unless ``shuffle=False``
        (see simdist/data/readers.py).

        Raises:
          InvalidArgumentError: no file matches.
        """
        from simdist.data.readers import list_files

        return list_files(file_pattern, shuffle=shuffle, seed=seed)

    @staticmethod
    @outside_the_graph
    @_source
    def from_tensors(tensors, name=None):
        """A dataset of exactly one element, ``tensors``."""
        from simdist.data.sources import TensorDataset

        return TensorDataset(tensors)

    @staticmethod
    @outside_the_graph
    @_source
    def range(*args, output_type=None, name=None, dtype=None):
        """``range(stop)``, ``range(start, stop[, step])`` as int64 scalars (or ``output_type``).

        Raises:
          InvalidArgumentError: when ``step`` is 0.
        """
        from simdist.data.sources import RangeDataset

        return RangeDataset(*args, output_type=output_type if output_type is not None else dtype)

    @staticmethod
    def counter(start=0, step=1, dtype=None, name=None):
        """``start``, ``start + step``, ... without end (TF builds it as a scan)."""
        from simdist.framework import dtypes
        from simdist.framework.ops import array_ops

        dtype = dtypes.int64 if dtype is None else dtype
        start = array_ops.convert_to_tensor(start, dtype=dtype)
        step = array_ops.convert_to_tensor(step, dtype=dtype)
        return DatasetV2.from_tensors(0).repeat(None).scan(
            start, lambda state, _: (state + step, state))

    @staticmethod
    def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
        """The element of ``datasets[i]`` for each ``i`` of ``choice_dataset`` (see
        simdist/data/directed_interleave.py)."""
        from simdist.data.directed_interleave import choose_from_datasets

        return choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset)

    @staticmethod
    def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                             rerandomize_each_iteration=None):
        """Elements of ``datasets`` drawn at random by ``weights``, in TF's order for a
        seed (see simdist/data/sampling.py).

        Raises:
          ValueError: no datasets, or weights of the wrong length / shape.
          TypeError: weights that are not float32 / float64; incompatible element specs.
        """
        from simdist.data.sampling import sample_from_datasets

        return sample_from_datasets(datasets, weights, seed, stop_on_empty_dataset,
                                    rerandomize_each_iteration)

    def bucket_by_sequence_length(self, element_length_func, bucket_boundaries,
                                  bucket_batch_sizes, padded_shapes=None, padding_values=None,
                                  pad_to_bucket_boundary=False, no_padding=False,
                                  drop_remainder=False, name=None):
        """Batches of elements whose lengths fall in the same bucket, padded (see
        simdist/data/bucketing.py).

        Raises:
          ValueError: ``bucket_batch_sizes`` is not one longer than ``bucket_boundaries``.
        """
        from simdist.data.bucketing import bucket_by_sequence_length

        return bucket_by_sequence_length(self, element_length_func, bucket_boundaries,
                                         bucket_batch_sizes, padded_shapes, padding_values,
                                         pad_to_bucket_boundary, no_padding, drop_remainder)

    def save(self, path, compression=None, shard_func=None, checkpoint_args=None):
        """Write the elements under ``path`` (see simdist/data/save_load.py).

        Raises:
          InvalidArgumentError: ``shard_func`` returns something else than an int64 scalar.
        """
        from simdist.data.save_load import save

        save(self, path, compression, shard_func, checkpoint_args)

    @staticmethod
    def load(path, element_spec=None, compression=None, reader_func=None, wait=False):
        """The dataset saved under ``path`` (see simdist/data/save_load.py).

        Raises:
          NotFoundError: nothing was saved there.
        """
        from simdist.data.save_load import load

        return load(path, element_spec, compression, reader_func)

    def rejection_resample(self, class_func, target_dist, initial_dist=None, seed=None,
                           name=None):
        """``(class, element)`` pairs resampled toward ``target_dist`` by TF's rejection
        sampler and mixing (see simdist/data/resampling.py)."""
        from simdist.data.resampling import rejection_resample

        return rejection_resample(self, class_func, target_dist, initial_dist, seed)

    @staticmethod
    def random(seed=None, rerandomize_each_iteration=None, name=None):
        """Endless pseudorandom int64 values in [0, 2**32), TF's for a seed (see
        simdist/data/random_dataset.py)."""
        from simdist.data.random_dataset import RandomDataset

        return RandomDataset(seed, rerandomize_each_iteration)

    @staticmethod
    def zip(*datasets, name=None):
        """Elements of several datasets side by side, until the shortest ends."""
        from simdist.data.slicing import ZipDataset

        if len(datasets) == 1:
            datasets = datasets[0]
        return ZipDataset(datasets)

    # --- transformations ----------------------------------------------------------------
    def concatenate(self, dataset, name=None):
        """This dataset's elements, then ``dataset``'s.

        Raises:
          TypeError: their elements differ in structure or dtype.
        """
        from simdist.data.slicing import ConcatenateDataset

        return ConcatenateDataset(self, dataset)

    def map(self, map_func, num_parallel_calls=None, deterministic=None, name=None):
        """Apply ``map_func`` to each element (tuples are unpacked as positional args)."""
        from simdist.data.mapping import MapDataset

        out = MapDataset(self, map_func)
        if num_parallel_calls is not None:
            out._tf_name = "_ParallelMapDataset"
        return out

    def interleave(self, map_func, cycle_length=None, block_length=None,
                   num_parallel_calls=None, deterministic=None, name=None):
        """The datasets ``map_func`` makes of the elements, ``cycle_length`` at a time and
        ``block_length`` elements from each in turn (see simdist/data/interleave.py)."""
        from simdist.data.interleave import InterleaveDataset

        out = InterleaveDataset(self, map_func, cycle_length, block_length)
        if num_parallel_calls is not None:
            out._tf_name = "_ParallelInterleaveDataset"
        return out

    def flat_map(self, map_func, name=None):
        """The elements of the dataset ``map_func`` makes of each element, one after another."""
        from simdist.data.interleave import InterleaveDataset

        out = InterleaveDataset(self, map_func, cycle_length=1, block_length=1)
        out._tf_name = "_FlatMapDataset"
        return out

    def scan(self, initial_state, scan_func, name=None):
        """The outputs of ``scan_func(state, element) -> (new_state, output)``, the state
        carried from element to element (see simdist/data/scanning.py).

        Raises:
          TypeError: ``scan_func`` does not return a pair, or changes the state's dtypes.
        """
        from simdist.data.scanning import ScanDataset

        return ScanDataset(self, initial_state, scan_func)

    def group_by_window(self, key_func, reduce_func, window_size=None,
                        window_size_func=None, name=None):
        """Group the elements by ``key_func``'s int64 key; each window of ``window_size``
        elements of a key (or ``window_size_func(key)``) becomes the elements of
        ``reduce_func(key, window)`` (see simdist/data/grouping.py).

        Raises:
          ValueError: neither or both of ``window_size`` and ``window_size_func``; a key
            or size that is not an int64 scalar.
          TypeError: ``reduce_func`` does not return a dataset.
        """
        from simdist.data.grouping import group_by_window

        return group_by_window(self, key_func, reduce_func, window_size, window_size_func)

    def filter(self, predicate, name=None):
        """Keep the elements for which ``predicate`` returns a scalar ``True``.

        Raises:
          ValueError: when ``predicate`` does not return a scalar bool.
        """
        from simdist.data.mapping import FilterDataset

        return FilterDataset(self, predicate)

    def take_while(self, predicate, name=None):
        """The elements up to the first for which ``predicate`` is ``False``.

        Raises:
          ValueError: when ``predicate`` does not return a scalar bool.
        """
        from simdist.data.take_while import TakeWhileDataset

        return TakeWhileDataset(self, predicate)

    def unique(self, name=None):
        """Each distinct element once, where it first comes.

        Raises:
          TypeError: an element that is not int32, int64 or string.
        """
        from simdist.data.unique import UniqueDataset

        return UniqueDataset(self)

    def get_single_element(self, name=None):
        """The dataset's one element (in a trace, read at each execution).

        Raises:
          InvalidArgumentError: the dataset is empty or has more than one element.
        """
        return OwnedIterator(self)._single_element()

    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None,
              deterministic=None, name=None):
        """Stack consecutive elements into batches of ``batch_size``.

        Raises:
          InvalidArgumentError: when ``batch_size`` is not positive.
        """
        from simdist.data.batching import BatchDataset

        return BatchDataset(self, batch_size, drop_remainder)

    def ragged_batch(self, batch_size, drop_remainder=False, row_splits_dtype=None,
                     name=None):
        """Batches of ``batch_size`` elements of any shapes as the rows of RaggedTensors
        (see simdist/data/ragged_batching.py).

        Raises:
          InvalidArgumentError: when ``batch_size`` is not positive.
        """
        from simdist.data.ragged_batching import RaggedBatchDataset

        return RaggedBatchDataset(self, batch_size, drop_remainder)

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None,
                     drop_remainder=False, name=None):
        """Batches of ``batch_size`` elements, each component padded to one shape (see
        simdist/data/padding.py).

        Raises:
          ValueError: a component of unknown rank without ``padded_shapes``, or a padded
            shape that does not fit the component's.
          TypeError: a padding value of another dtype than its component's.
          InvalidArgumentError: ``batch_size`` is not positive.
        """
        from simdist.data.padding import PaddedBatchDataset

        return PaddedBatchDataset(self, batch_size, padded_shapes, padding_values,
                                  drop_remainder)

    def window(self, size, shift=None, stride=1, drop_remainder=False, name=None):
        """Windows of ``size`` elements (``stride`` apart, one starting every ``shift``),
        each a dataset -- per component for structured elements (see
        simdist/data/windowing.py).

        Raises:
          InvalidArgumentError: ``size``, ``shift`` or ``stride`` is not positive.
        """
        from simdist.data.windowing import WindowDataset

        return WindowDataset(self, size, shift, stride, drop_remainder)

    def unbatch(self, name=None):
        """Split every element along its leading dimension.

        Raises:
          ValueError: for scalar components.
        """
        from simdist.data.batching import UnbatchDataset

        return UnbatchDataset(self)

    def rebatch(self, batch_size, drop_remainder=False, name=None):
        """Re-slice the stream of batched rows into batches of ``batch_size`` (a size or a
        cycle of sizes); output batches may span input batches, as TF's RebatchDatasetV2."""
        from simdist.data.batching import RebatchDataset

        return RebatchDataset(self, batch_size, drop_remainder)

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True, name=None):
        """Shuffle with a buffer of ``buffer_size`` elements (TF's buffer semantics).

        Raises:
          InvalidArgumentError: when ``buffer_size`` is not positive.
        """
        from simdist.data.shuffling import ShuffleDataset

        return ShuffleDataset(self, buffer_size, seed, reshuffle_each_iteration)

    def repeat(self, count=None, name=None):
        """Repeat the dataset ``count`` times (forever for None or -1)."""
        from simdist.data.slicing import RepeatDataset

        return RepeatDataset(self, count)

    def take(self, count, name=None):
        """At most ``count`` elements (all for -1)."""
        from simdist.data.slicing import TakeDataset

        return TakeDataset(self, count)

    def skip(self, count, name=None):
        """All but the first ``count`` elements (none for -1)."""
        from simdist.data.slicing import SkipDataset

        return SkipDataset(self, count)

    def shard(self, num_shards, index, name=None):
        """Every ``num_shards``-th element starting at ``index``.

        Raises:
          InvalidArgumentError: when ``num_shards < 1`` or ``index`` is out of range.
        """
        from simdist.data.slicing import ShardDataset

        return ShardDataset(self, num_shards, index)

    def enumerate(self, start=0, name=None):
        """Pair each element with its int64 position: ``(i, element)``."""
        from simdist.data.slicing import ZipDataset

        return ZipDataset((DatasetV2.range(start, 2**63 - 1), self))

    def prefetch(self, buffer_size, name=None):
        """Prepare later elements while the current one is consumed (``AUTOTUNE`` = -1).

        Raises:
          InvalidArgumentError: when ``buffer_size < -1``.
        """
        from simdist.data.pipeline import PrefetchDataset

        return PrefetchDataset(self, buffer_size)

    def cache(self, filename="", name=None):
        """Remember the elements of the first complete pass and replay them afterwards."""
        from simdist.data.pipeline import CacheDataset

        return CacheDataset(self)

    def with_options(self, options, name=None):
        """This dataset with ``options`` merged over its current options."""
        from simdist.data.pipeline import OptionsDataset

        if not isinstance(options, Options):
            raise AttributeError(
                f"'{type(options).__name__}' object has no attribute '_to_proto': "
                "with_options expects a tf.data.Options.")
        return OptionsDataset(self, options)

    def apply(self, transformation_func):
        """``transformation_func(self)``, which must return a Dataset."""
        out = transformation_func(self)
        if not isinstance(out, DatasetV2):
            raise TypeError("`transformation_func` must return a `tf.data.Dataset` object.")
        return out

    def reduce(self, initial_state, reduce_func, name=None):
        """Fold the elements into ``initial_state`` with ``reduce_func(state, element)``
        (in a trace: TF's graph loop, optional_ops.fold)."""
        if func_graph.current() is not None:
            from simdist.data import traced_reduce

            return traced_reduce.fold(self, initial_state, reduce_func)
        state, elements = initial_state, iter(self)
        elements._reduced = len(structure.flatten(initial_state))   # its errors' ReduceDataset
        checked = False
        for element in elements:
            with structure.dataset_function():
                new_state = reduce_func(state, element)
            if not checked:
                _check_new_state(initial_state, new_state, elements._reduced)
                checked = True
            state = new_state
        return state


Dataset = DatasetV2


def _check_new_state(initial_state, new_state, count: int) -> None:
    """TF's checks of a reduce function's output against the initial state: the element
    types first (its trace, over the components both have), then the number of components
    (ReduceDataset's kernel).

    Raises:
      TypeError: a component of another dtype (TF's text).
      InvalidArgumentError: another number of components (TF's kernel text).
    """
    from simdist.framework import dtypes
    from simdist.framework import nest as tf_nest
    from simdist.framework.ops.array_ops import convert_to_tensor

    def dtype_of(value):   # a NumPy scalar's dtype as TF's DType, a Python number converted
        dtype = getattr(value, "dtype", None)
        return dtypes.as_dtype(dtype) if dtype is not None else convert_to_tensor(value).dtype

    old = structure.flatten(initial_state)
    new = structure.flatten(new_state)
    if any(dtype_of(a) != dtype_of(b) for a, b in zip(old, new)):
        raise TypeError("The element types for the new state must match the initial state. "
                        f"Expected {tf_nest.map_structure(dtype_of, initial_state)} but got "
                        f"{tf_nest.map_structure(dtype_of, new_state)}.")
    if len(new) != count:
        from simdist.data import iterator_errors

        raise iterator_errors.op_error(
            "ReduceDataset", "The number of components of the initial state and the reduce "
            f"function output does not match. (initial_state={count}, output={len(new)}).",
            node=f"ReduceDataset_Targuments_0_Tstate_{count}_output_types_{count}") from None


def int64_argument(value) -> int:
    """A count or size argument as TF converts it to an int64 tensor.

    Raises:
      TypeError: a float, a string ...: TF's "Cannot convert 'a' to EagerTensor of dtype
        int64".
    """
    if isinstance(value, (float, str, bytes)) or \
            getattr(getattr(value, "dtype", None), "is_floating", False):
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype int64")
    return int(value)


def _cardinality_tensor(dataset):
    from simdist.framework.tensor import Tensor
    from simdist.hardware import backend

    return Tensor(backend.xp.asarray(dataset._cardinality(), dtype="int64"),
                  structure.host_device())


def _cardinality_spec(graph, dataset, sources=(), *captured):
    from simdist.framework import dtypes

    return graph.symbolic_like([], dtypes.int64, structure.host_device(), "DatasetCardinality")


@func_graph.recorded(kind="stateful", spec=_cardinality_spec, name="DatasetCardinality")
def _traced_cardinality(dataset, sources=(), *captured):
    """``cardinality()`` at an execution: what it counts (a traced source, a dataset
    argument) is known then only; its traced sources are made of this execution's
    ``captured`` tensors first, as an iterator's MakeIterator node does."""
    values = iter(captured)
    for src in sources:
        src.bind([next(values) for _ in src._captured])
    return _cardinality_tensor(dataset)


class TracedSource(DatasetV2):
    """A source made while tracing from symbolic tensors (``from_tensor_slices(x)`` of a
    tf.function's argument): its element spec comes from the placeholders (sizes they do
    not agree on unknown), its values from the call's tensors, bound at each execution by
    the node that starts an iterator over a pipeline holding it (``bind``); while tracing,
    what reads a first element (a map's spec) reads the placeholders' zeros."""

    def __init__(self, make, args, kwargs):
        self._make, self._args, self._kwargs = make, args, kwargs
        self._captured = [x for x in nest.flatten((args, kwargs))
                          if func_graph.is_symbolic(x)]
        made = []
        for variant in (0, 1):
            with func_graph.recorded_op_scope(variant):
                made.append(make(*args, **kwargs))
        super().__init__((), structure.relax_spec(*(d.element_spec for d in made)))
        self._bound = made[0]   # the zeros, until an execution binds the call's values
        self._tf_name = made[0]._tf_name or "_" + type(made[0]).__name__   # TF's source

    def bind(self, values) -> None:
        """Make the source of this execution from the captured tensors' ``values``."""
        self._bound = self._made_of(values)

    def _made_of(self, values):
        by_id = {id(t): v for t, v in zip(self._captured, values)}
        args, kwargs = nest.map_structure(lambda x: by_id.get(id(x), x),
                                          (self._args, self._kwargs))
        return self._make(*args, **kwargs)

    def _source(self):
        """The source of now: made of the bound tensors where a traced dataset function's
        execution binds them (simdist.data.bound_dataset), else the last one bound."""
        bound = func_graph.bound_values()
        if bound and self._captured and self._captured[0]._id in bound:
            return self._made_of([bound[t._id] for t in self._captured])
        return self._bound

    def _cardinality(self) -> int:
        if func_graph.current() is not None:   # known only at execution
            return UNKNOWN_CARDINALITY
        return self._source()._cardinality()

    def _values(self):
        return self._source()._values()

    def _index_stream(self):
        return self._source()._index_stream()


def pipeline(dataset):
    """``dataset`` and every dataset upstream of it, each after the one it feeds (its
    inputs last first)."""
    stack = [dataset]
    while stack:
        ds = stack.pop()
        yield ds
        stack.extend(getattr(ds, "_inputs", ()))


def traced_sources(dataset) -> list:
    """The TracedSources of ``dataset``'s pipeline."""
    return [ds for ds in pipeline(dataset) if isinstance(ds, TracedSource)]


def function_captures(dataset) -> list:
    """The tensors of the trace that ``dataset``'s pipeline functions (its maps, filters)
    read, each once."""
    out = []
    for ds in pipeline(dataset):
        for t in getattr(ds, "_captured", ()) if not isinstance(ds, TracedSource) else ():
            if all(t is not u for u in out):
                out.append(t)
    return out


Optional = optional_ops.Optional


def _element_spec_outputs(graph, spec):
    """An iterator's next element while tracing: symbolic tensors of its element_spec, on
    the host (the execution takes the element)."""
    from simdist.data.structured_function import symbolic_leaf
    from simdist.hardware import machine

    host = machine.get_machine().devices_of_type("CPU")[0]
    return nest.map_structure(lambda s: symbolic_leaf(graph, host, s, "IteratorGetNext"),
                              spec)


class OwnedIterator(CheckpointableIterator):
    """An iterator over a dataset (``iter(ds)``): one pass, elements as host Tensors. Made
    while tracing, a node starts its pass afresh at each execution (TF makes the iterator
    inside the graph). A checkpoint saves its position (iterator_state)."""

    def __init__(self, dataset: DatasetV2):
        self._dataset = dataset
        self._gen = iterator_pass(dataset)
        self._binding = None
        if func_graph.current() is not None:
            sources = traced_sources(dataset)
            dataset.element_spec   # noqa: B018 - traces the map functions: their captures
            uses = function_captures(dataset)
            self._use_ids = [t._id for t in uses]
            self._start(dataset, sources, *[t for src in sources for t in src._captured],
                        uses=uses)

    @func_graph.recorded(kind="stateful", spec=lambda graph, it, dataset, *_, **__: None,
                         name="MakeIterator")
    def _start(self, dataset, sources=(), *captured, uses=()):
        values = iter(captured)
        for src in sources:
            src.bind([next(values) for _ in src._captured])
        self._binding = dict(zip(self._use_ids, uses)) if uses else None
        self._dataset = dataset
        self._gen = iterator_pass(dataset)
        self._consumed = 0

    @property
    def element_spec(self):
        return self._dataset.element_spec

    def _tracing_key(self):
        return structure.spec_key(self.element_spec)

    def __iter__(self):
        return self

    def __next__(self):
        optional_ops.count_traced_next(self)
        if func_graph.current() is not None:
            return self._get_next()
        try:
            return self._get_next()
        except errors.OpError as e:   # as TF's eager IteratorGetNext words it
            from simdist.data import iterator_errors

            raise iterator_errors.get_next_error(
                e, self._dataset, structure.host_device().name,
                getattr(self, "_reduced", None)) from None

    @func_graph.recorded(kind="stateful", spec=lambda graph, it: it._symbolic_next(graph),
                         name="IteratorGetNext")
    def _get_next(self):
        if self._binding is None:
            values = next(self._gen)
        else:   # its map functions read this execution's tensors of the trace
            with func_graph.bound_captures(self._binding):
                values = next(self._gen)
        self._consumed += 1
        element = structure.to_tensors(values)
        if teach.enabled():  # a strategy warns if this reaches strategy.run undistributed
            for t in nest.flatten(element):
                teach.tag(t, "dataset_element")
        return element

    @func_graph.recorded(kind="stateful", spec=lambda graph, it: it._symbolic_next(graph),
                         name="DatasetToSingleElement")
    def _single_element(self):
        """The pass's only element (``Dataset.get_single_element``)."""
        with func_graph.bound_captures(self._binding or {}):
            first = next(self._gen, None)
            if first is None:
                raise errors.InvalidArgumentError(None, None, "Dataset was empty.")
            if next(self._gen, None) is not None:
                raise errors.InvalidArgumentError(None, None,
                                                  "Dataset had more than one element.")
        return structure.to_tensors(first)

    def _symbolic_next(self, graph):
        return _element_spec_outputs(graph, self.element_spec)

    def _dummy(self):
        """An empty Optional's stand-in (never read: get_value raises)."""
        return optional_ops.zeros_of(self.element_spec, structure.host_device())

    def get_next(self):
        """The next element. Raises OutOfRangeError at the end, as TF does."""
        try:
            return next(self)
        except StopIteration:
            raise errors.OutOfRangeError(None, None, "End of sequence") from None

    def get_next_as_optional(self) -> Optional:
        """The next element wrapped in an :class:`Optional` (empty at the end; in a trace
        whether it has one is known at each execution)."""
        return optional_ops.get_next_as_optional(self)

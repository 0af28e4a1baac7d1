"""An error raised while an eager iterator makes an element, as TF's IteratorGetNext words it.

Glossary:
  get-next text    -- ``{{function_node __wrapped__IteratorGetNext_output_types_<k>_device_
                      <host>}} <error> [Op:IteratorGetNext] name: ``: ``<k>`` the number of
                      the element's components, ``<host>`` the iterator's CPU.
  function context -- an error raised in a ``map`` or ``filter`` function starts ``Error in
                      user-defined function passed to <dataset>:<n> transformation with
                      iterator: <prefix>: ``: ``<dataset>`` the function's dataset
                      (``MapDataset``, ``ParallelMapDatasetV2`` for a map given
                      ``num_parallel_calls``, ``FilterDataset``), ``<n>`` a count of the
                      process's datasets (TF's differs: it counts every dataset op), and
                      ``<prefix>`` its iterator's place in the pipeline (below).
  prefix           -- ``Iterator::Root``, then each iterator from the top of the pipeline
                      down to the function's: ``Shuffle``, ``FiniteTake``,
                      ``FiniteRepeat[0]`` (the repetition being made), ``Zip[1]`` (its input),
                      ``Map`` ..., as the pipeline runs after TF's default optimizations:
                      ``skip(0)`` removed (noop elimination); a ``map`` whose function has no
                      stateful op runs as ``ParallelMapV2`` (map parallelization); a
                      ``Prefetch`` on top (autotune's injected prefetch) unless the top is a
                      ``ParallelMapV2``; a ``map`` right under a ``batch`` fused into one
                      MapAndBatch, whose errors carry no function context.
  batch error      -- ``Cannot batch tensors with different shapes in component 0. First
                      element had shape [1] and element 1 had shape [2].`` (BatchV2); after
                      a fused map: MapAndBatch's ``Cannot add tensor to the batch: number of
                      elements does not match. Shapes are: [tensor]: [2], [batch]: [1]``.

Mirrors tensorflow/core/data/captured_function.cc (the function context),
core/kernels/data/iterator_ops.cc, core/data/dataset_utils.cc and core/grappler/optimizers/
data/ (noop_elimination, map_parallelization, inject_prefetch, map_and_batch_fusion).
"""

from __future__ import annotations

import itertools

from simdist.data import structure

_DATASETS = itertools.count(1)   # the "<n>" of a function's dataset
# stateful ops a function's graph may list (TF's map_parallelization leaves them serial)
_STATEFUL = {"CheckNumerics", "PrintV2", "EagerPyFunc", "PyFunc", "RandomUniform",
             "RandomStandardNormal", "TruncatedNormal", "RandomUniformInt"}


def number() -> int:
    """A new function dataset's count (the ``<n>`` of its context)."""
    return next(_DATASETS)


def in_function(error, dataset):
    """Mark ``error`` (an OpError) as raised by the function of ``dataset``."""
    if getattr(error, "_tf_data_function", None) is None:
        error._tf_data_function = dataset
    return error


def _stateless(dataset) -> bool:
    """Whether a map's traced function has no stateful op (TF parallelizes it)."""
    from simdist.framework import graph_operations, op_def_table

    graph = dataset._function.graph
    if graph is None:
        return False
    for op in graph_operations.operations(graph):
        opdef = op_def_table.get(op.type)
        if op.type in _STATEFUL or (opdef is not None and opdef.is_stateful):
            return False
    return True


def _name(dataset, child: int):
    """The iterator name of ``dataset`` in a prefix (None: optimized away)."""
    kind = type(dataset).__name__
    if kind == "MapDataset":
        parallel = dataset._tf_name == "_ParallelMapDataset" or _stateless(dataset)
        return "ParallelMapV2" if parallel else "Map"
    if kind == "RepeatDataset":
        return "ForeverRepeat[0]" if dataset._count < 0 else "FiniteRepeat[0]"
    if kind == "SkipDataset":
        return "FiniteSkip" if dataset._count != 0 else None
    if kind in ("ZipDataset", "ConcatenateDataset"):
        return f"{kind[:-len('Dataset')]}[{child}]"
    return {"TakeDataset": "FiniteTake", "CacheDataset": "MemoryCacheImpl",
            "BatchDataset": "BatchV2", "PaddedBatchDataset": "PaddedBatchV2",
            "OptionsDataset": None}.get(kind, kind[:-len("Dataset")] if
                                        kind.endswith("Dataset") else kind)


def _path(top, target):
    """The (dataset, input index) pairs from ``top`` down to ``target``, or None."""
    if top is target:
        return [(top, 0)]
    for i, child in enumerate(getattr(top, "_inputs", ())):
        below = _path(child, target)
        if below is not None:
            return [(top, i)] + below
    return None


def _context(top, dataset) -> str:
    """The function context of an error in ``dataset``'s function ('' when fused)."""
    path = _path(top, dataset)
    if path is None:
        return ""
    if len(path) > 1 and type(path[-2][0]).__name__ == "BatchDataset" and \
            type(dataset).__name__ == "MapDataset":
        return ""   # MapAndBatch
    names = [_name(d, child) for d, child in path]
    names = [n for n in names if n is not None]
    if names[0] not in ("ParallelMapV2", "Prefetch"):
        names.insert(0, "Prefetch")
    label = ("ParallelMapDatasetV2" if dataset._tf_name == "_ParallelMapDataset"
             else type(dataset).__name__)
    return (f"Error in user-defined function passed to {label}:{dataset._tf_data_number} "
            f"transformation with iterator: Iterator::Root::{'::'.join(names)}: ")


def get_next_error(error, dataset, host: str, reduced=None):
    """``error`` (an OpError raised making an element of ``dataset``), worded as TF's eager
    IteratorGetNext raises it (see the module docstring), or, for ``Dataset.reduce`` of a
    state of ``reduced`` components, its ReduceDataset (``ReduceIterator::Root``); returns
    it."""
    if getattr(error, "_tf_data_worded", False):
        return error
    source = getattr(error, "_tf_data_function", None)
    context = _context(dataset, source) if source is not None else ""
    if reduced is None:
        k = len(structure.flatten(dataset.element_spec))
        op, node = "IteratorGetNext", f"IteratorGetNext_output_types_{k}"
    else:
        op, node = "ReduceDataset", f"ReduceDataset_Targuments_0_Tstate_{reduced}_output_types_" \
                                    f"{reduced}"
        context = context.replace("iterator: Iterator::", "iterator: ReduceIterator::")
    text = (f"{{{{function_node __wrapped__{node}_device_{host}}}}} "
            f"{context}{error.message} [Op:{op}] name: ")
    error._message, error.args, error._tf_data_worded = text, (text,), True
    return error


def op_error(op: str, message: str, node: str | None = None):
    """An eager dataset op's InvalidArgumentError as TF words it: ``{{function_node
    __wrapped__<node>_device_<cpu>}} <message> [Op:<op>] name: `` (the node's name is the
    op's, or its name with its attrs: ``ReduceDataset_Targuments_0_Tstate_1...``)."""
    from simdist.framework import errors

    host = structure.host_device().name
    return errors.InvalidArgumentError(
        None, None, f"{{{{function_node __wrapped__{node or op}_device_{host}}}}} {message} "
                    f"[Op:{op}] name: ")


def batch_error(component: int, first, index: int, shape, fused: bool):
    """TF's error for element ``index`` of a batch whose shape differs from the first's
    (``fused``: a MapAndBatch's)."""
    from simdist.framework import errors

    if fused:
        text = (f"Cannot add tensor to the batch: number of elements does not match. "
                f"Shapes are: [tensor]: {list(shape)}, [batch]: {list(first)}")
    else:
        text = (f"Cannot batch tensors with different shapes in component {component}. First "
                f"element had shape {list(first)} and element {index} had shape "
                f"{list(shape)}.")
    return errors.InvalidArgumentError(None, None, text)

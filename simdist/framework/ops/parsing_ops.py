"""``tf.io.parse_example`` and ``parse_single_example``: serialized ``tf.train.Example``s read
into tensors by feature configurations (parsing_config).

Glossary:
  serialized   -- a string vector (a batch: outputs get a first dimension of its length) or
                  scalar (parse_single_example: no batch dimension).
  raw outputs  -- what TF's ParseExampleV2 kernel gives, in its order: each sparse key's
                  indices, then their values, then their dense shapes, the dense values,
                  each ragged key's values, then their row splits (over the batch).
  composite    -- each RaggedFeature's RaggedTensor built from the raw ragged values and
                  its partitions' int64 features, innermost partition first (TF's
                  _construct_tensors_for_composite_features); the raw keys that are no
                  feature of their own are dropped.
  kernel errors -- TF's texts: a missing FixedLenFeature without a default, a feature
                  of another type, a count that does not fit the shape, bytes that are not
                  an Example (InvalidArgumentError, in TF's eager wrapping).
While a tf.function traces, a call is one node whose outputs have TF's static shapes (the
values' and partitions' lengths unknown; the batch's size from the input's shape).

Mirrors tensorflow/python/ops/parsing_ops.py, parsing_config.py and
core/util/example_proto_fast_parsing.cc (the kernel's texts).
"""

from __future__ import annotations

import numpy as np

from simdist.framework import context, dtypes, errors, execute, func_graph
from simdist.framework.ops.parsing_config import ParseOpParams, RaggedFeature
from simdist.framework.proto_wire import DecodeError
from simdist.framework.ragged_tensor import RaggedTensor
from simdist.framework.sparse_tensor import SparseTensor
from simdist.framework.tensor_shape import TensorShape

_KINDS = {dtypes.int64: "int64_list", dtypes.float32: "float_list", dtypes.string: "bytes_list"}
_KIND_NAMES = {"int64_list": "int64", "float_list": "float", "bytes_list": "string"}
_NUMPY = {dtypes.int64: np.int64, dtypes.float32: np.float32, dtypes.string: object}


def parse_example(serialized, features, name=None, example_names=None):
    """Parse a batch of serialized Examples into a dict of Tensors, SparseTensors and
    RaggedTensors, one per key of ``features``.

    Raises:
      ValueError: no features, or a feature configuration TF refuses.
      InvalidArgumentError: an example the features do not fit (see the glossary).
    """
    if not features:
        raise ValueError(f"Argument `features` cannot be None or falsy. Got {features}")
    return _parse_example(serialized, features, example_names)


def parse_single_example(serialized, features, name=None, example_names=None):
    """Parse one serialized Example (a scalar): ``parse_example`` without the batch
    dimension.

    Raises:
      ValueError: no features, or ``serialized`` not a scalar.
    """
    if not features:
        raise ValueError("Invalid argument: features cannot be None.")
    return _parse_example(serialized, features, example_names, single=True)


def _parse_example(serialized, features, example_names, single=False):
    params = ParseOpParams(features)
    t = execute.convert_to_tensor(serialized, dtype=dtypes.string)
    if single and t.shape.rank not in (0, None):
        raise ValueError(f"Input serialized must be a scalar (got shape {t.shape})")
    if func_graph.is_symbolic(t):
        raw = _raw_spec(params, t)
    else:
        names = None if example_names is None else execute.convert_to_tensor(example_names)
        raw = _raw_outputs(params, t, names)
    return _composites(features, params, raw, batched=t.shape.rank != 0)


# --- the kernel ---------------------------------------------------------------------------
def _invalid(params, t, text):
    device = execute.placement([t]).name
    return errors.InvalidArgumentError(
        None, None, f"{{{{function_node __wrapped__ParseExampleV2_{params.attrs()}_device_"
                    f"{device}}}}} {text} [Op:ParseExampleV2]")


def _examples(params, t, names):
    """Each serialized example's features: {key: (kind, values)}."""
    from simdist.framework.example_pb2 import Example

    out = []
    for data in np.asarray(t._value, dtype=object).reshape(-1):
        try:
            example = Example.FromString(data)
        except DecodeError:
            shown = data.decode("latin-1")
            raise _invalid(params, t, f"Could not parse example input, value: '{shown}'") \
                from None
        feats = {}
        for key, feature in example.features.feature.items():
            kind = feature.WhichOneof("kind")
            feats[key] = (kind, list(getattr(feature, kind).value) if kind else [])
        out.append(feats)
    return out


def _values(params, t, examples, names, key, dtype, i, dense=False):
    """Example ``i``'s values of ``key`` (None where it has none), of ``dtype``."""
    kind, values = examples[i].get(key, (None, None))
    if values is None:
        return None
    if kind is not None and kind != _KINDS[dtype]:
        got, want = _KIND_NAMES[kind], _KIND_NAMES[_KINDS[dtype]]
        text = (f"Data type: {got} but expected type: {want}" if dense
                else f"Expected type: {want}, Actual type: {got}")   # (the kernel's two texts)
        raise _invalid(params, t, f"Name: {_name(names, i)}, Key: {key}, Index: {i}.  Data "
                                  f"types don't match. {text}")
    return values


def _name(names, i) -> str:
    if names is None or not np.asarray(names._value).size:
        return "<unknown>"
    return np.asarray(names._value, dtype=object).reshape(-1)[i].decode()


def _raw_outputs(params, t, names):
    """The kernel's outputs as arrays: {key: ("sparse" | "dense" | "ragged", arrays)}."""
    examples = _examples(params, t, names)
    batch = len(examples)
    raw = {}
    for key, dtype in params.sparse.items():
        rows = [_values(params, t, examples, names, key, dtype, i) or [] for i in range(batch)]
        indices = [[i, j] for i, row in enumerate(rows) for j in range(len(row))]
        longest = max((len(r) for r in rows), default=0)
        if t.shape.rank == 0:
            parts = (np.array([[j] for _, j in indices], np.int64).reshape(-1, 1),
                     np.array([longest], np.int64))
        else:
            parts = (np.array(indices, np.int64).reshape(-1, 2),
                     np.array([batch, longest], np.int64))
        raw[key] = ("sparse", (parts[0], _array([v for r in rows for v in r], dtype), parts[1]))
    for key, feature in params.dense.items():
        raw[key] = ("dense", (_dense(params, t, examples, names, key, feature),))
    for key, (dtype, split_dtype) in params.ragged.items():
        rows = [_values(params, t, examples, names, key, dtype, i) or [] for i in range(batch)]
        splits = np.cumsum([0] + [len(r) for r in rows]).astype(split_dtype.as_numpy_dtype)
        raw[key] = ("ragged", (_array([v for r in rows for v in r], dtype), splits))
    return raw


def _array(values, dtype):
    if dtype == dtypes.string:
        out = np.empty(len(values), dtype=object)
        out[:] = values
        return out
    return np.array(values, dtype=_NUMPY[dtype]).reshape(-1)


def _dense(params, t, examples, names, key, feature):
    dtype = dtypes.as_dtype(feature.dtype)
    shape = TensorShape(feature.shape).as_list()
    sequence = shape[:1] == [None] or not isinstance(feature, _fixed_len())
    inner = shape[1:] if sequence and shape[:1] == [None] else shape
    size = int(np.prod(inner, dtype=np.int64))
    rows = []
    for i in range(len(examples)):
        values = _values(params, t, examples, names, key, dtype, i, dense=True)
        if values is None and not sequence:
            if feature.default_value is None:
                raise _invalid(params, t, f"Name: {_name(names, i)}, Feature: {key} (data type: "
                                          f"{dtype.name}) is required but could not be found.")
            values = np.broadcast_to(np.asarray(feature.default_value, _NUMPY[dtype]),
                                     inner).reshape(-1).tolist()
        values = values or []
        if (not sequence and len(values) != size) or (sequence and size and len(values) % size):
            word = "bytes" if dtype == dtypes.string else _KIND_NAMES[_KINDS[dtype]]
            raise _invalid(params, t, f"Name: {_name(names, i)}, Key: {key}, Index: {i}.  "
                                      f"Number of {word} values != expected.  Values size: "
                                      f"{len(values)} but output shape: "
                                      f"[{','.join(str(d) for d in inner)}]")
        rows.append(_array(values, dtype).reshape([-1] + inner))
    if sequence:
        longest = max((len(r) for r in rows), default=0)
        pad = feature.default_value
        pad = (b"" if dtype == dtypes.string else 0) if pad is None else pad
        rows = [np.concatenate([r, np.full([longest - len(r)] + inner, pad,
                                           dtype=_NUMPY[dtype])]) for r in rows]
        out = np.stack(rows) if rows else np.zeros([0, 0] + inner, _NUMPY[dtype])
    else:
        out = np.stack(rows).reshape([len(rows)] + inner) if rows else np.zeros(
            [0] + inner, _NUMPY[dtype])
    return out[0] if t.shape.rank == 0 else out


def _fixed_len():
    from simdist.framework.ops.parsing_config import FixedLenFeature

    return FixedLenFeature


# --- the outputs while tracing ------------------------------------------------------------
def _raw_spec(params, t):
    """Symbolic raw outputs with TF's static shapes."""
    graph = func_graph.current()
    device = context.current_device()
    batch = [] if t.shape.rank == 0 else list(t.shape)[:1]
    raw = {}

    def sym(shape, dtype):
        return graph.symbolic_like(shape, dtype, device, "ParseExampleV2")

    rank = len(batch) + 1
    indices = {k: sym([None, rank], dtypes.int64) for k in params.sparse}
    values = {k: sym([None], d) for k, d in params.sparse.items()}
    for k in params.sparse:
        raw[k] = ("sparse", (indices[k], values[k], sym([rank], dtypes.int64)))
    for k, f in params.dense.items():
        shape = TensorShape(f.shape).as_list()
        shape = shape if isinstance(f, _fixed_len()) else [None] + shape[1:] if \
            shape[:1] == [None] else [None] + shape
        raw[k] = ("dense", (sym(batch + shape, f.dtype),))
    ragged_values = {k: sym([None], d) for k, (d, _) in params.ragged.items()}
    n = None if not batch or batch[0] is None else batch[0] + 1
    for k, (_, split_dtype) in params.ragged.items():
        raw[k] = ("ragged", (ragged_values[k], sym([n], split_dtype)))
    return raw


# --- composites ---------------------------------------------------------------------------
def _composites(features, params, raw, batched):
    """The dict TF returns: raw outputs as tensors, RaggedFeatures nested by partitions."""
    tensors = {}
    for key, (kind, parts) in raw.items():
        parts = _tensors(parts, kind)
        if kind == "sparse":
            tensors[key] = SparseTensor(*parts)
        elif kind == "dense":
            tensors[key] = parts[0]
        else:
            tensors[key] = RaggedTensor(parts[0], parts[1], internal=True) if batched \
                else parts[0]
    updates = {}
    for key in sorted(features):
        feature = features[key]
        if isinstance(feature, RaggedFeature):
            rt = tensors[feature.value_key or key]
            for partition in reversed(feature.partitions):
                rt = _partitioned(rt, partition, tensors, feature, batched)
            updates[key] = rt
    tensors.update(updates)
    return {k: v for k, v in tensors.items() if k in features}


def _tensors(parts, kind):
    if func_graph.is_symbolic(parts[0]):
        return parts
    return execute.execute_multi("ParseExampleV2", [], parts)


def _partitioned(rt, partition, tensors, feature, batched):
    """``rt`` (a batch's RaggedTensor, or one example's values) split by ``partition``."""
    if isinstance(partition, RaggedFeature.UniformRowLength):
        return _uniform(rt, partition.length, batched)
    part = tensors[partition.key]
    if not batched:
        return _split(rt, part, partition, feature.row_splits_dtype)
    inner = rt.values if isinstance(rt, RaggedTensor) else rt
    return _split_batch(inner, rt, part, partition, feature.row_splits_dtype)


def _uniform(rt, length, batched):
    """Rows of ``length``: a dense dimension of the values, or a uniform ragged one."""
    from simdist.framework.ops import array_ops

    values = rt.values if batched else rt
    if func_graph.is_symbolic(rt.values if isinstance(rt, RaggedTensor) else rt):
        make, device = func_graph.current().symbolic_like, context.current_device()
        if isinstance(values, RaggedTensor):
            return RaggedTensor(values, make([None], rt.row_splits.dtype, device,
                                              "RaggedFromUniformRowLength"), internal=True,
                                uniform_row_length=length) if not batched else RaggedTensor(
                RaggedTensor(values.values, make([None], rt.row_splits.dtype, device,
                                                 "RaggedFromUniformRowLength"), internal=True,
                             uniform_row_length=length), rt.row_splits, internal=True)
        shaped = make([None, length] + list(values.shape)[1:], values.dtype, device, "Reshape")
        return shaped if not batched else RaggedTensor(shaped, make(
            rt.row_splits.shape, rt.row_splits.dtype, device, "floordiv"), internal=True)
    if not batched:
        if isinstance(rt, RaggedTensor):
            return RaggedTensor.from_uniform_row_length(rt, length, validate=False)
        return array_ops.reshape(rt, [-1, length] + list(rt.shape)[1:])
    if isinstance(values, RaggedTensor):
        return RaggedTensor.from_row_splits(
            RaggedTensor.from_uniform_row_length(values.values, length, validate=False),
            rt.row_splits // length, validate=False)
    values = array_ops.reshape(values, [-1, length] + list(values.shape)[1:])
    return RaggedTensor.from_row_splits(values, rt.row_splits // length, validate=False)


def _splits_of(partition, p, nvals):
    """One example's partition values as row splits."""
    p = np.asarray(p, np.int64)
    if isinstance(partition, RaggedFeature.RowSplits):
        return p
    if isinstance(partition, RaggedFeature.RowLengths):
        return np.concatenate([[0], np.cumsum(p)])
    if isinstance(partition, RaggedFeature.RowStarts):
        return np.concatenate([p, [nvals]])
    if isinstance(partition, RaggedFeature.RowLimits):
        return np.concatenate([[0], p])
    nrows = int(p.max()) + 1 if p.size else 0   # ValueRowIds
    return np.concatenate([[0], np.cumsum(np.bincount(p, minlength=nrows))])


def _nrows(rt) -> int:
    return rt.nrows_int() if isinstance(rt, RaggedTensor) else int(rt.shape[0])


def _split(rt, part, partition, split_dtype):
    """One example's ``rt`` split into rows by its partition tensor ``part``."""
    if func_graph.is_symbolic(part):
        splits = func_graph.current().symbolic_like([None], split_dtype,
                                                    context.current_device(), "RaggedFromSplits")
    else:
        splits = execute.execute("Cast", [part], _splits_of(partition, part._value, _nrows(rt))
                                 .astype(split_dtype.as_numpy_dtype))
    return RaggedTensor(rt, splits, internal=True)


def _split_batch(inner, rt, part, partition, split_dtype):
    """A batch's ``rt`` whose each example's rows are split by its partition row."""
    if func_graph.is_symbolic(part.values):
        make, device = func_graph.current().symbolic_like, context.current_device()
        splits = make([None], split_dtype, device, "RaggedFromRowLimits")
        return RaggedTensor(RaggedTensor(inner, splits, internal=True),
                            make(part.row_splits.shape, split_dtype, device, "RaggedFromRowLimits"),
                            internal=True)
    rows = np.asarray(rt.row_splits._value, np.int64)
    p_vals, p_splits = np.asarray(part.values._value), np.asarray(part.row_splits._value)
    nested, outer = [], [0]
    for b in range(len(rows) - 1):
        s = _splits_of(partition, p_vals[p_splits[b]:p_splits[b + 1]], rows[b + 1] - rows[b])
        nested.append(s[1:] + rows[b] if nested else s + rows[b])
        outer.append(outer[-1] + len(s) - 1)
    dt = split_dtype.as_numpy_dtype
    inner_splits = np.concatenate(nested).astype(dt) if nested else np.zeros(1, dt)
    tensors = execute.execute_multi("RaggedTensorFromPartitions", [part.values],
                                    (inner_splits, np.array(outer, dt)))
    return RaggedTensor(RaggedTensor(inner, tensors[0], internal=True), tensors[1],
                        internal=True)


def _spec(fn):
    """``fn`` (the op's own function) as a spec: while tracing, it makes the outputs with
    TF's static shapes (the raw outputs named ``ParseExampleV2:<k>`` in TF's order)."""
    return lambda graph, *args, **kwargs: fn(*args, **kwargs)


# While a tf.function traces, a call is one node (TF's ParseExample/ParseExampleV2).
parse_example = func_graph.recorded(
    parse_example, kind="spec", spec=_spec(parse_example),
    name=lambda *args, **kwargs: ("ParseExample", "ParseExampleV2"))
parse_single_example = func_graph.recorded(
    parse_single_example, kind="spec", spec=_spec(parse_single_example),
    name=lambda *args, **kwargs: ("ParseSingleExample", "ParseExample", "ParseExampleV2"))

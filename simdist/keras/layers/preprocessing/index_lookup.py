"""``IndexLookup``: the vocabulary table behind ``StringLookup`` and ``IntegerLookup``.

Glossary:
  vocabulary    -- the tokens, given (a list, array, tensor or a file with one per line)
                   or learned by ``adapt`` (most frequent first, ties broken by the larger
                   token, at most ``max_tokens`` with the special tokens).
  special tokens -- index 0 is ``mask_token`` (when set and ``output_mode='int'``), then
                   ``num_oov_indices`` indices for ``oov_token``; the tokens follow
                   (``_token_start_index``).
  lookup        -- token -> index; a masked input -> 0; an unknown token -> the OOV index
                   (several OOV indices: an integer's ``floormod``, a string's FarmHash
                   bucket as ``tf.strings.to_hash_bucket_fast``); ``num_oov_indices=0``:
                   TF's failed Assert.
  invert        -- index -> token; an unknown index -> ``oov_token``, 0 -> ``mask_token``.
  output_mode   -- 'int' (int64 indices), or 'one_hot' / 'multi_hot' / 'count' (float32
                   bincounts of depth ``vocabulary_size()``, or ``max_tokens`` with
                   ``pad_to_max_tokens``; a masked input is dropped), or 'tf_idf' (the counts
                   times ``idf_weights``). ``sparse=True`` (a tf.SparseTensor) is refused.
  idf_weights   -- tf_idf's weight per index: given with the vocabulary (the special
                   tokens' weight their mean unless given) or learned by ``adapt`` (a row of
                   the data is a document), zeros up to ``max_tokens`` when padding; a
                   non-trainable variable of shape (None,), the layer's one weight.
  table         -- a dict standing for TF's StaticHashTable: None until a vocabulary is
                   set or adapted (then a lookup is TF's "Table not initialized").
Lookup layers have no weights; under a strategy's scope they work as outside it.
The table is host-side, as TF's lookup tables live on the CPU: a lookup reads its input on
the host (``array_api.to_host``, the one boundary) and its result goes back to the device
when it becomes a tensor (``execute``). In a traced function (a fit's step) the lookup and
the bincount are graph nodes (TF's LookupTableFindV2 and DenseBincount) that read the
values at execution, so the function traces.

Mirrors tf_keras/src/layers/preprocessing/index_lookup.py and preprocessing_utils.py
(encode_categorical_inputs).
"""

from __future__ import annotations

import collections
import os

import numpy as np

from simdist.framework import dtypes, errors, execute, farmhash, func_graph
from simdist.framework import variables as variables_lib
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import control_flow_ops, logging_ops
from simdist.framework.ops import math_ops as M
from simdist.hardware import array_api
from simdist.keras import backend
from simdist.keras.engine.base_preprocessing_layer import PreprocessingLayer

INT, ONE_HOT, MULTI_HOT, COUNT, TF_IDF = "int", "one_hot", "multi_hot", "count", "tf_idf"
_MODES = (INT, ONE_HOT, MULTI_HOT, COUNT, TF_IDF)
_DEPRECATED_MODES = {"binary": MULTI_HOT, "tf-idf": TF_IDF}


class IndexLookup(PreprocessingLayer):
    """Maps tokens to indices through a vocabulary (the base of the lookup layers)."""

    def __init__(self, max_tokens, num_oov_indices, mask_token, oov_token, vocabulary_dtype,
                 vocabulary=None, idf_weights=None, invert=False, output_mode=INT,
                 sparse=False, pad_to_max_tokens=False, **kwargs):
        if max_tokens is not None and max_tokens <= 1:
            raise ValueError("If set, `max_tokens` must be greater than 1. "
                             f"Received: max_tokens={max_tokens}")
        if pad_to_max_tokens and max_tokens is None:
            raise ValueError("If pad_to_max_tokens is True, must set `max_tokens`. "
                             f"Received: max_tokens={max_tokens}")
        if num_oov_indices < 0:
            raise ValueError("`num_oov_indices` must be greater than or equal to 0. "
                             f"Received: num_oov_indices={num_oov_indices}")
        output_mode = _DEPRECATED_MODES.get(output_mode, output_mode)
        if output_mode not in _MODES:
            raise ValueError(f"Unkown value for `output_mode` argument of layer "
                             f"{type(self).__name__}. Allowed values are: or one of the "
                             f"following values: {_MODES}. Received: {output_mode}")
        if invert and output_mode != INT:
            raise ValueError("`output_mode` must be `'int'` when `invert` is true. "
                             f"Received: output_mode={output_mode}")
        if sparse and output_mode == INT:
            raise ValueError("`sparse` may only be true if `output_mode` is `'one_hot'`, "
                             "`'multi_hot'`, `'count'` or `'tf_idf'`. Received: "
                             f"sparse={sparse} and output_mode={output_mode}")
        if idf_weights is not None and output_mode != TF_IDF:
            raise ValueError("`idf_weights` should only be set if `output_mode` is "
                             f"`'tf_idf'`. Received: idf_weights={idf_weights} and "
                             f"output_mode={output_mode}")
        if sparse:
            raise NotImplementedError(
                f"sparse=True makes {type(self).__name__} return a tf.SparseTensor, which "
                "simdist does not simulate. Use sparse=False: the same values as a dense "
                f"tensor (output_mode={output_mode!r}).")
        self.invert, self.max_tokens = invert, max_tokens
        self.num_oov_indices, self.mask_token, self.oov_token = (
            num_oov_indices, mask_token, oov_token)
        self.output_mode, self.sparse, self.pad_to_max_tokens = (
            output_mode, sparse, pad_to_max_tokens)
        self.vocabulary_dtype = vocabulary_dtype
        self._frozen_vocab_size = kwargs.pop("vocabulary_size", None)
        self.input_vocabulary, self.input_idf_weights = vocabulary, idf_weights
        self._has_input_vocabulary = kwargs.pop("has_input_vocabulary", vocabulary is not None)
        kwargs.pop("has_static_table", None)
        kwargs.setdefault("dtype", "int64" if output_mode == INT else backend.floatx())
        super().__init__(**kwargs)
        if output_mode == INT and not dtypes.as_dtype(self.compute_dtype).is_integer:
            raise ValueError("When `output_mode='int'`, `dtype` should be an integer type. "
                             f"Received: dtype={kwargs['dtype']}")
        self._table = None  # TF's uninitialized StaticHashTable
        self._token_counts = collections.Counter()
        self._document_counts, self._num_documents = collections.Counter(), 0
        if output_mode == TF_IDF:
            # TF's non-trainable tf.Variable of shape (None,): a weight of the layer.
            self.idf_weights = variables_lib.Variable(
                np.zeros(self._token_start_index(), self.compute_dtype), shape=(None,),
                trainable=False, dtype=self.compute_dtype)
            self._non_trainable_weights.append(self.idf_weights)
        if vocabulary is not None:
            self.set_vocabulary(vocabulary, idf_weights)

    # --- the vocabulary -----------------------------------------------------------------
    def _oov_start_index(self) -> int:
        return 1 if self.mask_token is not None and self.output_mode == INT else 0

    def _token_start_index(self) -> int:
        return self._oov_start_index() + self.num_oov_indices

    def vocabulary_size(self) -> int:
        """The number of indices, the special ones included."""
        return len(self._table or ()) + self._token_start_index()

    def get_vocabulary(self, include_special_tokens=True) -> list:
        """The token of each index (``include_special_tokens=False``: the tokens only)."""
        by_index = ({i: t for t, i in self._table.items()} if self._table and
                    not self.invert else dict(self._table or {}))
        tokens = self._tokens_to_numpy([by_index[i] for i in sorted(by_index)])
        lookup = collections.defaultdict(lambda: self.oov_token,
                                         zip(sorted(by_index), tokens))
        vocab = [lookup[i] for i in range(self.vocabulary_size())]
        if self.mask_token is not None and self.output_mode == INT:
            vocab[0] = self.mask_token
        return vocab if include_special_tokens else vocab[self._token_start_index():]

    def save_assets(self, dir_path) -> None:
        """Write an adapted vocabulary, special tokens first, to ``vocabulary.txt`` (what
        a saved model keeps of it; a vocabulary given to the layer is in its config)."""
        if self._has_input_vocabulary:
            return
        with open(os.path.join(dir_path, "vocabulary.txt"), "w") as f:
            f.write("\n".join(str(w) for w in self.get_vocabulary()))

    def load_assets(self, dir_path) -> None:
        """Set the vocabulary ``save_assets`` wrote (tokens as the vocabulary's dtype)."""
        path = os.path.join(dir_path, "vocabulary.txt")
        if self._has_input_vocabulary or not os.path.exists(path):
            return
        with open(path) as f:
            lines = f.read().split("\n")
        string = dtypes.as_dtype(self.vocabulary_dtype) == dtypes.string
        values = [str(line) if string else int(line) for line in lines]
        if self.output_mode == TF_IDF:
            raise NotImplementedError("simdist does not save a tf_idf lookup's adapted "
                                      "idf_weights; set them with set_vocabulary.")
        self.set_vocabulary(values)

    def set_vocabulary(self, vocabulary, idf_weights=None) -> None:
        """Use ``vocabulary`` (a list, array, 1-D tensor, or a file with one token a line).

        Raises:
          ValueError: an empty vocabulary, a missing file, repeated tokens, a special token
            out of place, or more than ``max_tokens`` indices (TF's messages).
        """
        if self.output_mode == TF_IDF and idf_weights is None:
            raise ValueError("`idf_weights` must be set if output_mode is TF_IDF")
        if self.output_mode != TF_IDF and idf_weights is not None:
            raise ValueError("`idf_weights` should only be set if output_mode is `'tf_idf'`. "
                             f"Received: output_mode={self.output_mode} and "
                             f"idf_weights={idf_weights}")
        if isinstance(vocabulary, str):
            if self.output_mode == TF_IDF and os.path.exists(vocabulary):
                raise ValueError("output_mode `'tf_idf'` does not support loading a "
                                 "vocabulary from file.")
            vocabulary = self._read_vocabulary_file(vocabulary)
        elif hasattr(vocabulary, "numpy") and hasattr(vocabulary, "dtype"):
            vocabulary = np.array(self._tokens_to_numpy(list(vocabulary.numpy())))
        elif isinstance(vocabulary, (list, tuple)):
            vocabulary = np.array(vocabulary)
        if vocabulary.size == 0:
            raise ValueError(f"Cannot set an empty vocabulary, you passed {vocabulary}.")
        token_start = self._token_start_index()
        special = ([self.mask_token] * self._oov_start_index()
                   + [self.oov_token] * self.num_oov_indices)
        tokens = vocabulary[token_start:] if np.array_equal(
            special, vocabulary[:token_start]) else vocabulary
        repeated = [t for t, n in collections.Counter(tokens).items() if n > 1]
        if repeated:
            raise ValueError("The passed vocabulary has at least one repeated term. Please "
                             f"uniquify your dataset. The repeated terms are {repeated}")
        for name, token, check in (("mask_token", self.mask_token, True),
                                   ("oov_token", self.oov_token, self.invert)):
            if check and token is not None and token in tokens:
                where = np.argwhere(vocabulary == token)[-1]
                raise ValueError(
                    f"Found reserved {'mask' if name == 'mask_token' else 'OOV'} token at "
                    "unexpected location in `vocabulary`. Note that passed `vocabulary` does "
                    "not need to include the OOV and mask tokens. Either remove all mask and "
                    "OOV tokens, or include them only at the start of the vocabulary in "
                    f"precisely this order: {special}. Received: {name}={token} at "
                    f"vocabulary index {where}")
        size = token_start + len(tokens)
        if self.max_tokens is not None and size > self.max_tokens:
            raise ValueError("Attempted to set a vocabulary larger than the maximum vocab "
                             f"size. Passed vocab size is {size}, max vocab size is "
                             f"{self.max_tokens}.")
        self._set_table([self._key(t) for t in tokens])
        self._record_vocabulary_size()
        if self.output_mode == TF_IDF:
            self._set_idf_weights(vocabulary, idf_weights, len(tokens) != len(vocabulary))

    def _set_idf_weights(self, vocabulary, idf_weights, found_special_tokens) -> None:
        """Keep ``idf_weights``, the special tokens' in front (their mean when not given) and
        zeros up to ``max_tokens`` with ``pad_to_max_tokens``.

        Raises:
          ValueError: weights not one per token of ``vocabulary``, or not 1-D.
        """
        if hasattr(idf_weights, "numpy") and hasattr(idf_weights, "dtype"):
            idf_weights = idf_weights.numpy()
        if len(vocabulary) != len(idf_weights):
            raise ValueError("`idf_weights` must be the same length as vocabulary. "
                             f"len(idf_weights) is {len(vocabulary)}, len(vocabulary) is "
                             f"{len(idf_weights)}")  # sic: TF names the lengths swapped
        weights = np.asarray(idf_weights)
        if weights.ndim != 1:
            raise ValueError("TF-IDF data must be a 1-index array, but received "
                             f"{type(weights)}")
        front = 0 if found_special_tokens else self._token_start_index()
        self._assign_idf(weights, front, np.average(weights))

    def _assign_idf(self, weights, front, front_value) -> None:
        back = (self.max_tokens - front - len(weights)
                if self.pad_to_max_tokens and self.max_tokens is not None else 0)
        padded = np.pad(weights.astype(np.float64), (front, back), "constant",
                        constant_values=(front_value, 0))
        self.idf_weights.assign(padded.astype(self.compute_dtype))

    def _read_vocabulary_file(self, path):
        if not os.path.exists(path):
            raise ValueError(f"Vocabulary file {path} does not exist.")
        with open(path, encoding="utf-8") as f:
            lines = [line.rstrip("\n") for line in f]
        return np.array(lines if self._is_string else [int(x) for x in lines])

    def _set_table(self, keys) -> None:
        start = self._token_start_index()
        pairs = {k: start + i for i, k in enumerate(keys)}
        self._table = {i: k for k, i in pairs.items()} if self.invert else pairs

    def _record_vocabulary_size(self) -> None:
        size = self.vocabulary_size()
        if (self.output_mode != INT and not self.pad_to_max_tokens
                and self._frozen_vocab_size is not None and size != self._frozen_vocab_size):
            raise RuntimeError(
                f"When using `output_mode={self.output_mode}` and `pad_to_max_tokens=False`, "
                "the vocabulary size cannot be changed after the layer is called. Old vocab "
                f"size is {self._frozen_vocab_size}, new vocab size is {size}")
        self._frozen_vocab_size = size

    # --- adapt --------------------------------------------------------------------------
    def reset_state(self):
        if not self._has_input_vocabulary:
            self._token_counts.clear()
            self._document_counts.clear()
            self._num_documents = 0

    def update_state(self, data):
        self._refuse_adapt_with_vocabulary()
        values = array_api.to_host(self._ensure_tensor(data, self._vocab_dtype)._value)
        rows = values.reshape(1, -1) if values.ndim < 2 else values   # a rank-0 or 1 input:
        self._count(values.reshape(-1),                                # one document
                    _documents(rows) if self.output_mode == TF_IDF else ())

    def update_state_rows(self, rows) -> None:
        """Adapt on rows of tokens of any lengths, each a tf_idf document (TextVectorization's
        split strings: TF's ragged batch, whose rows ``tf.unique`` takes one by one)."""
        self._refuse_adapt_with_vocabulary()
        self._count([t for row in rows for t in row], rows)

    def _refuse_adapt_with_vocabulary(self) -> None:
        if self._has_input_vocabulary:
            raise ValueError(f"Cannot adapt {type(self).__name__} layer after setting a static "
                             "vocabulary via init argument or `set_vocabulary`.")

    def _count(self, tokens, rows) -> None:
        self._token_counts.update(self._key(v) for v in tokens)
        if self.output_mode == TF_IDF:  # a row is a document
            for row in rows:
                self._document_counts.update({self._key(v) for v in row})
            self._num_documents += len(rows)

    def finalize_state(self):
        if self._has_input_vocabulary or not self._token_counts:
            self._record_vocabulary_size()
            return
        for special in (self.mask_token, self.oov_token):
            if special is not None:
                self._token_counts.pop(self._key(special), None)
        # Keras sorts by (count, token) and reverses: most frequent first, ties by the token.
        ranked = sorted(self._token_counts.items(), key=lambda kv: (kv[1], kv[0]),
                        reverse=True)
        if self.max_tokens:
            ranked = ranked[:self.max_tokens - self._token_start_index()]
        self._set_table([t for t, _ in ranked])
        if self.output_mode == TF_IDF:
            # idf = log(1 + documents / (1 + documents with the token)); the OOV index gets
            # their mean: one pass cannot count it.
            idf = np.log(1 + self._num_documents / (1 + np.array(
                [self._document_counts[t] for t, _ in ranked], np.float64)))
            idf = idf.astype(self.compute_dtype)
            self._assign_idf(idf, self._token_start_index(), np.mean(idf))
        self.reset_state()
        self._record_vocabulary_size()

    # --- calling ------------------------------------------------------------------------
    def _maybe_cast(self, x):
        return x  # ensure_tensor converts to the key dtype

    def compute_output_shape(self, input_shape):
        if self.output_mode == INT:
            return tuple(input_shape)
        depth = self.max_tokens if self.pad_to_max_tokens else self._frozen_vocab_size
        return (tuple(input_shape)[0], depth)

    def call(self, inputs):
        if self.output_mode != INT and not self.pad_to_max_tokens \
                and self._frozen_vocab_size is None:
            raise RuntimeError(
                f"When using `output_mode={self.output_mode}` and `pad_to_max_tokens=False`, "
                "you must set the layer's vocabulary before calling it. Either pass a "
                "`vocabulary` argument to the layer, or call `adapt` with some sample data.")
        key_dtype = dtypes.int64 if self.invert else self._vocab_dtype
        x = self._ensure_tensor(inputs, key_dtype)
        lookups = self._lookup(x)
        if self.output_mode == INT:
            return lookups
        depth = self.max_tokens if self.pad_to_max_tokens else self._frozen_vocab_size
        idf = A._t(self.idf_weights) if self.output_mode == TF_IDF else None
        return encode_categorical_inputs(lookups, self.output_mode, depth, self.compute_dtype,
                                         idf_weights=idf)

    def _infer_outputs(self, args, kwargs):
        """Symbolic outputs as TF's graph gives them: a rank-1 Input is one sample of
        multi_hot / count / tf_idf ((None,) -> (depth,)) but a batch for one_hot."""
        from simdist.keras.engine import node

        return node.outputs_from_two_sizes(self, self, args, kwargs)

    @property
    def _value_dtype(self):
        return self._vocab_dtype if self.invert else (
            dtypes.as_dtype(self.compute_dtype) if self.output_mode == INT else dtypes.int64)

    def _lookup(self, x):
        """``_lookup_dense``: indices (or tokens when inverting) with masking and OOV."""
        if execute.in_shape_inference():  # a symbolic call: Keras does not look up either
            return A.zeros_like(x, dtype=self._value_dtype)
        return self._find(x)

    def _find_spec(graph, self, x):
        """The lookup's output while tracing: ``x``'s shape, the value dtype."""
        return graph.symbolic_like(x.shape, self._value_dtype, x._device, "LookupTableFindV2")

    @func_graph.recorded(kind="stateful", spec=_find_spec, name="LookupTableFindV2")
    def _find(self, x):
        """The table's lookup of ``x``'s values on the host: a graph node while tracing
        (TF's LookupTableFindV2 reads its table at execution), so a lookup layer in a
        traced step (a fit) traces."""
        value_dtype = self._value_dtype
        keys = array_api.to_host(x._value).reshape(-1)
        key = int if self.invert else self._key
        if self._table is None:
            raise errors.FailedPreconditionError(
                None, None, "Table not initialized. [Op:LookupTableFindV2]\nSet a vocabulary "
                            "(the `vocabulary` argument or `set_vocabulary`) or call `adapt`.")
        default = self.oov_token if self.invert else (
            self._oov_start_index() if self.num_oov_indices == 1 else -1)
        found = [self._table.get(key(k), default) for k in keys]
        if self.mask_token is not None:
            mask_key = 0 if self.invert else self._key(self.mask_token)
            mask_value = self.mask_token if self.invert else (
                0 if self.output_mode == INT else np.iinfo(np.int64).max)
            found = [mask_value if key(k) == mask_key else v
                     for k, v in zip(keys, found)]
        if self.invert:
            return execute.convert_to_tensor(
                np.array(self._tokens_to_numpy(found)).reshape(x._value.shape),
                dtype=value_dtype)
        out = np.array(found, dtype=np.int64).reshape(x._value.shape)
        if self.num_oov_indices == 0:
            self._assert_no_oov(x, out)
        elif self.num_oov_indices > 1:
            out = self._hash_oov(keys, out)
        return A.cast(execute.convert_to_tensor(out), value_dtype)

    def _assert_no_oov(self, x, out):
        oov = array_api.to_host(x._value)[out == -1]
        msg = ("When `num_oov_indices=0` all inputs should be in vocabulary, found OOV "
               f"values {logging_ops.summarize_value(oov)}, consider setting "
               "`num_oov_indices=1`.")
        control_flow_ops.Assert(A.constant(oov.size == 0), [A.constant(msg)])

    def _hash_oov(self, keys, out):
        oov = out.reshape(-1) == -1
        if not oov.any():
            return out
        flat = out.reshape(-1).copy()
        hashed = np.array([farmhash.fingerprint64(self._key(k)) if self._is_string
                           else int(k) for k in keys], dtype=np.uint64 if self._is_string
                          else np.int64) % self.num_oov_indices
        flat[oov] = hashed[oov] + self._oov_start_index()
        return flat.reshape(out.shape)

    def get_config(self):
        config = super().get_config()
        config.update(
            invert=self.invert, max_tokens=self.max_tokens,
            num_oov_indices=self.num_oov_indices, oov_token=self.oov_token,
            mask_token=self.mask_token, output_mode=self.output_mode, sparse=self.sparse,
            pad_to_max_tokens=self.pad_to_max_tokens, vocabulary_dtype=self.vocabulary_dtype,
            idf_weights=_listify(self.input_idf_weights),
            vocabulary=_listify(self.input_vocabulary),
            vocabulary_size=self._frozen_vocab_size)
        return config

    # --- the token type (StringLookup / IntegerLookup) ------------------------------------
    @property
    def _vocab_dtype(self):
        return dtypes.as_dtype(self.vocabulary_dtype)

    @property
    def _is_string(self) -> bool:
        return self._vocab_dtype.is_string

    def _key(self, token):
        """The table's key of a token: bytes for strings, a Python int for integers."""
        raise NotImplementedError

    def _tokens_to_numpy(self, keys) -> list:
        """Table keys as ``get_vocabulary`` gives them."""
        raise NotImplementedError

    def _ensure_tensor(self, inputs, dtype):
        """``utils.ensure_tensor``: convert, then cast to ``dtype`` (TF's Cast errors)."""
        t = execute.convert_to_tensor(inputs, dtype_hint=dtype)
        return t if t.dtype == dtype else A.cast(t, dtype)


def encode_categorical_inputs(inputs, output_mode, depth, dtype="float32", idf_weights=None):
    """Indices -> one-hot / multi-hot / count vectors of length ``depth`` (indices out of
    ``[0, depth)`` are dropped, as TF's bincount with ``maxlength``); tf_idf: the counts
    times ``idf_weights``. The ranks come from the static shape, as TF's.

    Raises:
      ValueError: an output of rank above 2.
    """
    original_shape = inputs.shape
    rank = max(len(original_shape), 1)   # a scalar is one sample
    # A symbolic call's rank-1 input is its batch dimension, unknown to Keras (not 1).
    batch_only = execute.in_shape_inference() and len(original_shape) == 1
    last = tuple(original_shape)[-1] if len(original_shape) else 1
    expand = output_mode == ONE_HOT and (last != 1 or batch_only)
    if rank + expand > 2:
        shown = (None,) + tuple(original_shape)[1:] if execute.in_shape_inference() \
            else original_shape  # a symbolic call's batch dimension is unknown
        raise ValueError("When output_mode is not `'int'`, maximum supported output rank is "
                         f"2. Received output_mode {output_mode} and input shape "
                         f"{shown}, which would result in output rank {rank + expand}.")
    counts = _dense_bincount(inputs, expand, output_mode, depth, dtype)
    if output_mode != TF_IDF:
        return counts
    return M.multiply(counts, idf_weights)


def _bincount_spec(graph, inputs, expand, output_mode, depth, dtype):
    """DenseBincount's output while tracing: (rows, depth) for a rank-2 input (after
    ``expand``), else (depth,)."""
    rank = max(len(inputs.shape), 1) + expand
    rows = tuple(inputs.shape)[0] if len(inputs.shape) else 1
    shape = (rows, depth) if rank == 2 else (depth,)
    return graph.symbolic_like(shape, dtype, inputs._device, "DenseBincount")


@func_graph.recorded(kind="spec", spec=_bincount_spec, name="DenseBincount")
def _dense_bincount(inputs, expand, output_mode, depth, dtype):
    """TF's DenseBincount of the (host) indices: a graph node while tracing."""
    x = array_api.to_host(inputs._value)
    if x.ndim == 0:
        x = x.reshape(1)
    if expand:
        x = x[..., None]
    rows = x.reshape(-1, x.shape[-1]) if x.ndim == 2 else x.reshape(1, -1)
    out = np.zeros((rows.shape[0], depth), dtype=dtypes.as_dtype(dtype).as_numpy_dtype)
    for r, row in enumerate(rows):
        for index in row:
            if 0 <= index < depth:
                out[r, index] = 1 if output_mode in (ONE_HOT, MULTI_HOT) else out[r, index] + 1
    return execute.execute("DenseBincount", [inputs], out if x.ndim == 2 else out[0])


def _listify(value):
    if value is None:
        return None
    if hasattr(value, "numpy") and hasattr(value, "dtype"):
        value = value.numpy()
    return value.tolist() if isinstance(value, np.ndarray) else value


def _documents(rows):
    """The rows of a tf_idf ``adapt`` batch, refused where TF 2.21's adapt fails: it takes
    each row's distinct tokens with ``tf.map_fn(tf.unique)``, which needs rank-1 rows and
    stacks the results, so every row of a batch must hold as many distinct tokens."""
    if rows.ndim > 2:
        raise ValueError(
            f"Shape must be rank 1 but is rank {rows.ndim - 1} for 'Unique': tf_idf's adapt "
            "counts each row of a batch as one document, so its data must have rank 1 or "
            f"2, not {rows.ndim}. Reshape it to [documents, tokens].")
    sizes = [len(set(row.tolist())) for row in rows]
    if any(n != sizes[0] for n in sizes):
        other = next(n for n in sizes if n != sizes[0])
        raise errors.InvalidArgumentError(
            None, None, f"PartialTensorShape: Incompatible shapes during merge: [{sizes[0]}] "
                        f"vs. [{other}]\ntf_idf's adapt (as TF 2.21's) stacks each row's "
                        "distinct tokens, so the rows of one batch must hold as many "
                        f"distinct tokens each; these hold {sizes}. Adapt with batch_size=1, "
                        "or a Dataset batched by 1.")
    return rows

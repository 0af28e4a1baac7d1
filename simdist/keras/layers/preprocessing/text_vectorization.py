"""``TextVectorization``: strings -> standardized, split into tokens -> vocabulary indices.

Glossary:
  standardize -- 'lower_and_strip_punctuation' (``tf.strings.lower``, then TF's punctuation
                 regex removed), 'lower', 'strip_punctuation', None, or a callable on the
                 string tensor (a tutorial's ``custom_standardization``).
  split       -- 'whitespace' (runs of ASCII whitespace, ``tf.strings.split``), 'character'
                 (UTF-8 characters), or None (each string is one token). A (batch, 1) input
                 is squeezed first; any other last dimension is TF's ValueError.
  vocabulary  -- a ``StringLookup`` with mask token '' (index 0) and '[UNK]' (index 1),
                 adapted on the split tokens: most frequent first, ties by the larger token
                 (``get_vocabulary``), at most ``max_tokens``.
  output_sequence_length -- 'int' output padded with 0 or cut to this many tokens (else
                 to the longest row of the batch); int64 indices.
  one op      -- standardize, split, lookup and pad run as one host-side node in a trace
                 (a dataset ``map``'s or a fit's step), on the values at execution, as TF's
                 string kernels and LookupTableFindV2 run on the host.
Not simulated: ``ngrams``, other output modes than 'int', ``ragged`` / ``sparse`` outputs, a
callable ``split`` (refused, saying so).

Mirrors tf_keras/src/layers/preprocessing/text_vectorization.py.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes, execute, func_graph
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import string_ops
from simdist.hardware import array_api
from simdist.keras.engine.base_preprocessing_layer import PreprocessingLayer
from simdist.keras.layers.preprocessing.string_lookup import StringLookup

LOWER_AND_STRIP_PUNCTUATION = "lower_and_strip_punctuation"
STRIP_PUNCTUATION, LOWER = "strip_punctuation", "lower"
WHITESPACE, CHARACTER, INT = "whitespace", "character", "int"
DEFAULT_STRIP_REGEX = r'[!"#$%&()\*\+,-\./:;<=>?@\[\\\]^_`{|}~\']'


def _validate(value, allowed, arg_name):
    """tf-keras's validate_string_arg."""
    if value is None or callable(value) or value in allowed:
        return
    raise ValueError(
        f"Unkown value for `{arg_name}` argument of layer TextVectorization. If restoring a "
        f"model and `{arg_name}` is a custom callable, please ensure the callable is "
        "registered as a custom object. See https://www.tensorflow.org/guide/keras/"
        "save_and_serialize#registering_the_custom_object for details. Allowed values are: "
        f"`None`, a `Callable`, or one of the following values: {allowed}. "
        f"Received: {value}")


class TextVectorization(PreprocessingLayer):
    """A preprocessing layer mapping text to integer sequences
    (``tf.keras.layers.TextVectorization``).

    Raises:
      ValueError: an unknown ``standardize`` / ``split`` / ``output_mode``,
        ``output_sequence_length`` with a mode other than 'int', a bad ``max_tokens``.
      NotImplementedError: what simdist does not simulate (see the module glossary).
    """

    def __init__(self, max_tokens=None, standardize=LOWER_AND_STRIP_PUNCTUATION,
                 split=WHITESPACE, ngrams=None, output_mode=INT, output_sequence_length=None,
                 pad_to_max_tokens=False, vocabulary=None, idf_weights=None, sparse=False,
                 ragged=False, encoding="utf-8", **kwargs):
        _validate(standardize, (LOWER_AND_STRIP_PUNCTUATION, LOWER, STRIP_PUNCTUATION),
                  "standardize")
        _validate(split, (WHITESPACE, CHARACTER), "split")
        if output_mode == "binary":
            output_mode = "multi_hot"
        if output_mode == "tf-idf":
            output_mode = "tf_idf"
        _validate(output_mode, (INT, "count", "multi_hot", "tf_idf"), "output_mode")
        if output_sequence_length is not None and output_mode != INT:
            raise ValueError("`output_sequence_length` must not be set if `output_mode` is "
                             f"not 'int'. Received output_sequence_length="
                             f"{output_sequence_length}.")
        if ngrams is not None or output_mode not in (INT, None) or ragged or sparse \
                or callable(split):
            raise NotImplementedError(
                "simdist's TextVectorization simulates output_mode='int' (dense) with "
                "'whitespace', 'character' or no split, without ngrams.")
        kwargs.pop("vocabulary_size", None)
        kwargs.pop("dtype", None)
        super().__init__(dtype="int64", **kwargs)
        self._standardize, self._split = standardize, split
        self._ngrams, self._output_mode = ngrams, output_mode
        self._output_sequence_length = output_sequence_length
        self._encoding = encoding
        self._lookup_layer = StringLookup(
            max_tokens=max_tokens, vocabulary=vocabulary, idf_weights=idf_weights,
            pad_to_max_tokens=pad_to_max_tokens, mask_token="",
            output_mode=output_mode if output_mode is not None else INT, sparse=sparse,
            has_input_vocabulary=vocabulary is not None, encoding=encoding)
        self._pad_to_max_tokens = pad_to_max_tokens

    # --- the vocabulary -----------------------------------------------------------------
    def get_vocabulary(self, include_special_tokens=True) -> list:
        """The vocabulary's tokens in index order ('' and '[UNK]' first)."""
        return [str(t) for t in self._lookup_layer.get_vocabulary(include_special_tokens)]

    def vocabulary_size(self) -> int:
        return self._lookup_layer.vocabulary_size()

    def set_vocabulary(self, vocabulary, idf_weights=None) -> None:
        self._lookup_layer.set_vocabulary(vocabulary, idf_weights=idf_weights)

    # --- adapt --------------------------------------------------------------------------
    def reset_state(self):
        self._lookup_layer.reset_state()

    def update_state(self, data):
        rows = self._tokens(self._standardized(data))
        self._lookup_layer.update_state(np.array([t for row in rows for t in row] or [b""],
                                                 dtype=object) if rows else [])

    def finalize_state(self):
        self._lookup_layer.finalize_state()

    def build(self, input_shape):
        super().build(input_shape)

    # --- calling ------------------------------------------------------------------------
    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        if self._split is None:
            return tuple(shape[:-1]) + (self._output_sequence_length or shape[-1],) \
                if shape else ()
        if len(shape) > 1 and shape[-1] == 1:
            shape = shape[:-1]
        return tuple(shape[:1]) + (self._output_sequence_length,)

    def call(self, inputs):
        if isinstance(inputs, (list, tuple, np.ndarray)):
            inputs = execute.convert_to_tensor(inputs)
        t = inputs if getattr(inputs, "dtype", None) == dtypes.string else \
            execute.convert_to_tensor(inputs, dtype_hint=dtypes.string)
        self._check_rank(t)
        if execute.in_shape_inference():   # a symbolic call: no lookup
            shape = self.compute_output_shape(t.shape)
            return A.zeros([1 if d is None else d for d in shape], dtype="int64")
        return self._vectorize(t)

    def _check_rank(self, t) -> None:
        if self._split is not None and t.ndim > 1 and t.shape[-1] != 1:
            raise ValueError("When using `TextVectorization` to tokenize strings, the input "
                             "rank must be 1 or the last shape dimension must be 1. Received: "
                             f"inputs.shape={t.shape} with rank={t.ndim}")

    def _vectorize_spec(graph, self, t):
        shape = self.compute_output_shape(t.shape.as_list())
        return graph.symbolic_like(shape, dtypes.int64, t._device, "TextVectorization")

    @func_graph.recorded(kind="stateful", spec=_vectorize_spec, name="TextVectorization")
    def _vectorize(self, t):
        """Standardize, split, look up and pad ``t``'s strings on the host: one node in a
        trace, run at execution."""
        rows = self._tokens(self._standardized(t))
        flat = [tok for row in rows for tok in row]
        ids = array_api.to_host(self._lookup_layer(np.array(flat or [b""], dtype=object))
                                ._value).reshape(-1) if flat else np.zeros(0, np.int64)
        length = self._output_sequence_length
        if self._split is None:   # a token per string: the input's shape, the last axis cut
            ids = ids.reshape(t.shape)   # or padded to output_sequence_length
            if length is not None and ids.ndim:
                ids = ids[..., :length]
                ids = np.pad(ids, [(0, 0)] * (ids.ndim - 1) + [(0, length - ids.shape[-1])])
            return execute.convert_to_tensor(ids.astype(np.int64))
        if length is None:
            length = max((len(r) for r in rows), default=0)
        out = np.zeros((len(rows), length), np.int64)
        start = 0
        for i, row in enumerate(rows):
            n = min(len(row), length)
            out[i, :n] = ids[start:start + n]
            start += len(row)
        return execute.convert_to_tensor(out[0] if t.ndim == 0 else out)   # one string

    def _standardized(self, data):
        """The strings after ``standardize`` (a string tensor)."""
        t = data if getattr(data, "dtype", None) == dtypes.string else \
            execute.convert_to_tensor(data, dtype_hint=dtypes.string)
        if self._standardize in (LOWER, LOWER_AND_STRIP_PUNCTUATION):
            t = string_ops.lower(t)
        if self._standardize in (STRIP_PUNCTUATION, LOWER_AND_STRIP_PUNCTUATION):
            t = string_ops.regex_replace(t, DEFAULT_STRIP_REGEX, "")
        if callable(self._standardize):
            t = self._standardize(t)
        return t

    def _tokens(self, t) -> list:
        """One list of token bytes per string (a row of the batch)."""
        self._check_rank(t)
        values = array_api.to_host(t._value)
        if self._split is not None and values.ndim > 1:
            values = values.reshape(values.shape[:-1])
        flat = values.reshape(-1) if values.ndim else values.reshape(1)
        if self._split == WHITESPACE:
            return [bytes(v).split() for v in flat]
        if self._split == CHARACTER:
            return [[c.encode("utf-8") for c in bytes(v).decode("utf-8")] for v in flat]
        return [[bytes(v)] for v in flat]

    def get_config(self):
        cfg = super().get_config()
        vocab = self._lookup_layer.input_vocabulary
        cfg.update(max_tokens=self._lookup_layer.max_tokens, standardize=self._standardize,
                   split=self._split, ngrams=self._ngrams, output_mode=self._output_mode,
                   output_sequence_length=self._output_sequence_length,
                   pad_to_max_tokens=self._pad_to_max_tokens, sparse=False, ragged=False,
                   vocabulary=None if vocab is None else list(vocab), idf_weights=None,
                   encoding=self._encoding,
                   vocabulary_size=self._lookup_layer._frozen_vocab_size)
        return cfg

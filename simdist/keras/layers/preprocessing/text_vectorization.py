"""``TextVectorization``: strings -> standardized, split into tokens -> vocabulary indices.

Glossary:
  standardize -- 'lower_and_strip_punctuation' (``tf.strings.lower``, then TF's punctuation
                 regex removed), 'lower', 'strip_punctuation', None, or a callable on the
                 string tensor (a tutorial's ``custom_standardization``).
  split       -- 'whitespace' (runs of ASCII whitespace, ``tf.strings.split``), 'character'
                 (UTF-8 characters), None (each string is one token), or a callable on the
                 string tensor returning a RaggedTensor (or a dense tensor) of tokens. A
                 (batch, 1) input is squeezed first; any other last dimension is TF's
                 ValueError.
  ngrams      -- an int n (widths 1 .. n) or a tuple of widths: each row's tokens become its
                 n-grams joined by ' ', all of the first width, then the next
                 (``tf.strings.ngrams``), in the vocabulary and the outputs.
  vocabulary  -- a ``StringLookup`` with mask token '' (index 0) and '[UNK]' (index 1),
                 adapted on the split tokens: most frequent first, ties by the larger token
                 (``get_vocabulary``), at most ``max_tokens``.
  output_sequence_length -- 'int' output padded with 0 or cut to this many tokens (else
                 to the longest row of the batch); int64 indices.
  output_mode -- 'int', or 'multi_hot' ('binary'), 'count', 'tf_idf' ('tf-idf'): a float32
                 row of ``vocabulary_size()`` (``max_tokens`` with ``pad_to_max_tokens``)
                 per string, the StringLookup's encoding of its tokens ('' and
                 padding dropped); tf_idf's adapt counts each string as a document.
  one op      -- standardize, split, lookup and pad run as one host-side node in a trace
                 (a dataset ``map``'s or a fit's step), on the values at execution, as TF's
                 string kernels and LookupTableFindV2 run on the host.
  ragged      -- 'int' output as a RaggedTensor of each string's indices, unpadded.
  output_mode=None -- the standardized strings; split, a RaggedTensor of their tokens.
Not simulated (refused, saying so): ``sparse``, ``ngrams`` with ``split=None``.

Mirrors tf_keras/src/layers/preprocessing/text_vectorization.py.
"""

from __future__ import annotations

import numpy as np

from simdist.framework import dtypes, execute, func_graph
from simdist.framework.ops import array_ops as A
from simdist.framework.ops import string_ops
from simdist.framework.ragged_tensor import RaggedTensor
from simdist.hardware import array_api
from simdist.keras.engine.base_preprocessing_layer import PreprocessingLayer
from simdist.keras.layers.preprocessing.string_lookup import StringLookup

LOWER_AND_STRIP_PUNCTUATION = "lower_and_strip_punctuation"
STRIP_PUNCTUATION, LOWER = "strip_punctuation", "lower"
WHITESPACE, CHARACTER, INT = "whitespace", "character", "int"
DEFAULT_STRIP_REGEX = r'[!"#$%&()\*\+,-\./:;<=>?@\[\\\]^_`{|}~\']'


def _validate(value, allowed, arg_name, allow_callables=True):
    """tf-keras's validate_string_arg (None allowed)."""
    if value is None or (allow_callables and callable(value)) or (
            isinstance(value, str) and value in allowed):
        return
    note = (f"If restoring a model and `{arg_name}` is a custom callable, please ensure the "
            "callable is registered as a custom object. See https://www.tensorflow.org/guide/"
            "keras/save_and_serialize#registering_the_custom_object for details. "
            if allow_callables else "")
    raise ValueError(
        f"Unkown value for `{arg_name}` argument of layer TextVectorization. {note}Allowed "
        f"values are: `None`, {'a `Callable`, ' if allow_callables else ''}or one of the "
        f"following values: {allowed}. Received: {value}")


def _ngrams(tokens: list, widths: tuple) -> list:
    """``tf.strings.ngrams(tokens, widths, separator=' ')`` of one row: every n-gram of the
    first width, then of the next (none for a row shorter than a width)."""
    return [b" ".join(tokens[i:i + n]) for n in widths for i in range(len(tokens) - n + 1)]


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
        _validate(output_mode, (INT, "count", "multi_hot", "tf_idf"), "output_mode",
                  allow_callables=False)
        if not (ngrams is None or isinstance(ngrams, int) or isinstance(ngrams, tuple)
                and all(isinstance(item, int) for item in ngrams)):
            raise ValueError("`ngrams` must be None, an integer, or a tuple of integers. "
                             f"Received: ngrams={ngrams}")
        if output_sequence_length is not None and output_mode != INT:
            raise ValueError("`output_sequence_length` must not be set if `output_mode` is "
                             f"not 'int'. Received output_sequence_length="
                             f"{output_sequence_length}.")
        if ragged and output_mode != INT:
            raise ValueError("`ragged` must not be true if `output_mode` is `'int'`. "
                             f"Received: ragged={ragged} and output_mode={output_mode}")
        if ragged and output_sequence_length is not None:
            raise ValueError("`output_sequence_length` must not be set if ragged is True. "
                             f"Received: ragged={ragged} and output_sequence_length="
                             f"{output_sequence_length}")
        if ngrams is not None and split is None:
            raise NotImplementedError(
                "simdist's TextVectorization does not simulate ngrams of unsplit strings.")
        kwargs.pop("vocabulary_size", None)
        kwargs.pop("dtype", None)
        super().__init__(dtype="int64", **kwargs)
        self._standardize, self._split = standardize, split
        self._ngrams_arg, self._output_mode = ngrams, output_mode
        self._ngrams = tuple(range(1, ngrams + 1)) if isinstance(ngrams, int) else ngrams
        self._output_sequence_length = output_sequence_length
        self._ragged = bool(ragged)
        self._encoding = encoding
        self._lookup_layer = StringLookup(
            max_tokens=max_tokens, vocabulary=vocabulary, idf_weights=idf_weights,
            pad_to_max_tokens=pad_to_max_tokens, mask_token="",
            output_mode=output_mode if output_mode is not None else INT, sparse=sparse,
            has_input_vocabulary=vocabulary is not None, encoding=encoding)
        self._pad_to_max_tokens = pad_to_max_tokens

    # --- the vocabulary -----------------------------------------------------------------
    def get_vocabulary(self, include_special_tokens=True) -> list:
        """The vocabulary's tokens in index order ('' and '[UNK]' first): the StringLookup's
        own list, so the tokens are NumPy ``str_`` and the two special tokens ``str``, as
        TF's."""
        return self._lookup_layer.get_vocabulary(include_special_tokens)

    def vocabulary_size(self) -> int:
        return self._lookup_layer.vocabulary_size()

    def set_vocabulary(self, vocabulary, idf_weights=None) -> None:
        self._lookup_layer.set_vocabulary(vocabulary, idf_weights=idf_weights)

    # --- adapt --------------------------------------------------------------------------
    def reset_state(self):
        self._lookup_layer.reset_state()

    def update_state(self, data):
        self._lookup_layer.update_state_rows(self._tokens(self._standardized(data)))

    def finalize_state(self):
        self._lookup_layer.finalize_state()

    def build(self, input_shape):
        super().build(input_shape)

    # --- calling ------------------------------------------------------------------------
    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        if self._output_mode != INT:
            return self._lookup_layer.compute_output_shape(tuple(shape[:1]) + (None,))
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
            return A.zeros([1 if d is None else d for d in shape], dtype=self._output_dtype())
        return self._vectorize(t)

    def _check_rank(self, t) -> None:
        if self._split is not None and t.ndim > 1 and t.shape[-1] != 1:
            raise ValueError("When using `TextVectorization` to tokenize strings, the input "
                             "rank must be 1 or the last shape dimension must be 1. Received: "
                             f"inputs.shape={t.shape} with rank={t.ndim}")

    def _output_dtype(self):
        return dtypes.int64 if self._output_mode == INT else \
            dtypes.as_dtype(self._lookup_layer.compute_dtype)

    def _vectorize_spec(graph, self, t):
        if self._ragged_output(t):   # rows of any lengths: a RaggedTensor's components
            dtype = dtypes.string if self._output_mode is None else dtypes.int64
            values = graph.symbolic_like([None], dtype, t._device, "TextVectorization")
            splits = graph.symbolic_like([None], dtypes.int64, t._device, "TextVectorization")
            return RaggedTensor(values, splits, internal=True)
        shape = self.compute_output_shape(t.shape.as_list())
        dtype = dtypes.string if self._output_mode is None else self._output_dtype()
        return graph.symbolic_like(shape, dtype, t._device, "TextVectorization")

    def _ragged_output(self, t) -> bool:
        """Whether a call gives a RaggedTensor: split strings of a batch, with ragged=True
        or output_mode=None."""
        return (self._ragged or self._output_mode is None) and self._split is not None \
            and t.ndim > 0

    @func_graph.recorded(kind="stateful", spec=_vectorize_spec, name="TextVectorization")
    def _vectorize(self, t):
        """Standardize, split, look up and pad ``t``'s strings on the host: one node in a
        trace, run at execution."""
        if self._output_mode is None:   # the standardized strings, or their tokens
            return self._preprocessed(t)
        if self._output_mode != INT and self._split is None:   # TF looks the strings up
            return self._lookup_layer(self._standardized(t))   # as they are
        rows = self._tokens(self._standardized(t))
        if self._output_mode != INT:
            return self._encoded(rows, scalar=t.ndim == 0)
        flat = [tok for row in rows for tok in row]
        ids = array_api.to_host(self._lookup_layer(np.array(flat or [b""], dtype=object))
                                ._value).reshape(-1) if flat else np.zeros(0, np.int64)
        length = self._output_sequence_length
        if self._ragged_output(t):   # each string's indices, a row each
            return _ragged_rows(ids.astype(np.int64), rows)
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

    def _preprocessed(self, t):
        """output_mode=None: the standardized strings (split: a RaggedTensor of each
        string's tokens; a scalar's, a vector)."""
        standardized = self._standardized(t)
        if self._split is None:
            return standardized
        rows = self._tokens(standardized)
        flat = np.array([tok for row in rows for tok in row], dtype=object).reshape(-1)
        if not self._ragged_output(t):
            return execute.convert_to_tensor(flat, dtype=dtypes.string)
        return _ragged_rows(flat, rows)

    def _encoded(self, rows: list, scalar: bool):
        """multi_hot / count / tf_idf rows: the StringLookup called on the rows' tokens
        padded with '' (its mask token: dropped, as TF drops a ragged row's end)."""
        width = max([len(r) for r in rows] + [1])
        padded = np.array([list(r) + [b""] * (width - len(r)) for r in rows] or [[b""]],
                          dtype=object)
        out = self._lookup_layer(padded)
        return out[0] if scalar else out

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
            rows = [bytes(v).split() for v in flat]
        elif self._split == CHARACTER:
            rows = [[c.encode("utf-8") for c in bytes(v).decode("utf-8")] for v in flat]
        elif callable(self._split):
            rows = self._split_rows(values, t)
        else:
            return [[bytes(v)] for v in flat]
        if self._ngrams is not None:
            rows = [_ngrams(row, self._ngrams) for row in rows]
        return rows

    def _split_rows(self, values, t) -> list:
        """A callable ``split``'s tokens, one list per string: it gets the (squeezed)
        string tensor and returns a RaggedTensor (``tf.strings.split``) or a dense one."""
        squeezed = t if values.ndim == t.ndim else A.squeeze(t, axis=-1)
        tokens = self._split(squeezed)
        listed = tokens.to_list() if hasattr(tokens, "to_list") else \
            array_api.to_host(execute.convert_to_tensor(tokens)._value).tolist()
        if squeezed.ndim == 0:
            listed = [listed]
        return [[bytes(tok) for tok in row] for row in listed]

    def get_config(self):
        cfg = super().get_config()
        vocab = self._lookup_layer.input_vocabulary
        cfg.update(max_tokens=self._lookup_layer.max_tokens, standardize=self._standardize,
                   split=self._split, ngrams=self._ngrams_arg, output_mode=self._output_mode,
                   output_sequence_length=self._output_sequence_length,
                   pad_to_max_tokens=self._pad_to_max_tokens, sparse=False,
                   ragged=self._ragged,
                   vocabulary=None if vocab is None else list(vocab), idf_weights=None,
                   encoding=self._encoding,
                   vocabulary_size=self._lookup_layer._frozen_vocab_size)
        return cfg


def _ragged_rows(flat, rows) -> RaggedTensor:
    """The flat values (indices or tokens) of ``rows`` as a RaggedTensor of those rows."""
    lengths = np.asarray([len(r) for r in rows], np.int64)
    return RaggedTensor.from_row_lengths(execute.convert_to_tensor(flat), lengths,
                                         validate=False)

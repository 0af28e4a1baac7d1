"""Keras layers and models give what TF recorded (record_tf_layers.py): layer_cases.CASES
(TF 2.15: batch norm's fused path, empty replicas and axes, weight names, Sequential shapes,
get_config, Flatten and Dropout), cnn_layer_cases.CASES (TF 2.21: convolution and pooling ops
and layers with their gradients, Reshape, Embedding, Add, Concatenate, LayerNormalization, CNN
summaries, a CNN fit on 4 replicas), functional_cases.CASES (TF 2.21: several inputs and
outputs, shared layers, summaries, fit on 4 replicas), saving_cases.CASES (TF 2.21: whole
models saved and loaded), preprocessing_cases.CASES (TF 2.21: StringLookup, IntegerLookup,
Normalization), op_layer_cases.CASES (TF 2.21: TF ops and operators on KerasTensors as
TFOpLambda / SlicingOpLambda layers), rnn_cell_cases.CASES (TF 2.21: LSTMCell),
rnn_layer_cases.CASES (TF 2.21: RNN, LSTM, GRU, SimpleRNN and their cells) and
lambda_cases.CASES (TF 2.21: Lambda layers, their configs, a .keras file with one),
masking_cases.CASES (TF 2.21: Embedding mask_zero, Masking, masks through RNNs, pooling,
models and a fit's loss), text_cases.CASES (TF 2.21: TextVectorization,
text_dataset_from_directory), time_distributed_cases.CASES (TF 2.21: TimeDistributed),
rnn_constants_cases.CASES (TF 2.21: RNN constants, a tensor training),
text_mode_cases.CASES (TF 2.21: TextVectorization's multi_hot, count, tf_idf, ngrams, a
callable split), attention_cases.CASES (TF 2.21: Attention, AdditiveAttention),
multi_head_attention_cases.CASES (TF 2.21: MultiHeadAttention, EinsumDense),
image_preprocessing_cases.CASES (TF 2.21: Rescaling, Resizing, crops, the seeded
augmentation layers and the tf.image ops under them),
categorical_preprocessing_cases.CASES (TF 2.21: CategoryEncoding, Hashing,
Discretization), image_dataset_cases.CASES (TF 2.21: decode_png,
image_dataset_from_directory), timeseries_cases.CASES (TF 2.21:
timeseries_dataset_from_array), image_adjust_cases.CASES (TF 2.21: tf.image's colour
adjustments, crops, pads, rot90, RandomBrightness, RandomHeight / RandomWidth); and the
batch-norm options simdist refuses rather than ignores."""

import os

import attention_cases
import categorical_preprocessing_cases
import cnn_layer_cases
import functional_cases
import image_adjust_cases
import image_dataset_cases
import image_preprocessing_cases
import lambda_cases
import layer_cases
import masking_cases
import multi_head_attention_cases
import op_layer_cases
import preprocessing_cases
import pytest
import rnn_cell_cases
import rnn_constants_cases
import rnn_layer_cases
import saving_cases
import text_cases
import text_mode_cases
import time_distributed_cases
import timeseries_cases
from tf_snippets import conformance_tests

import simdist as tf

_FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
GROUPS = {"tf_layers.json": layer_cases.CASES, "tf_cnn_layers.json": cnn_layer_cases.CASES,
          "tf_functional.json": functional_cases.CASES, "tf_saving.json": saving_cases.CASES,
          "tf_preprocessing.json": preprocessing_cases.CASES,
          "tf_op_layers.json": op_layer_cases.CASES, "tf_rnn_cells.json": rnn_cell_cases.CASES,
          "tf_rnn_layers.json": rnn_layer_cases.CASES,
          "tf_lambda.json": lambda_cases.CASES, "tf_masking.json": masking_cases.CASES,
          "tf_text.json": text_cases.CASES,
          "tf_time_distributed.json": time_distributed_cases.CASES,
          "tf_rnn_constants.json": rnn_constants_cases.CASES,
          "tf_text_modes.json": text_mode_cases.CASES,
          "tf_attention.json": attention_cases.CASES,
          "tf_multi_head_attention.json": multi_head_attention_cases.CASES,
          "tf_image_preprocessing.json": image_preprocessing_cases.CASES,
          "tf_categorical_preprocessing.json": categorical_preprocessing_cases.CASES,
          "tf_image_dataset.json": image_dataset_cases.CASES,
          "tf_timeseries.json": timeseries_cases.CASES,
          "tf_image_adjust.json": image_adjust_cases.CASES}

# STRICT: marked pytest.mark.array_api by tests/array_api_subset.py.
# Also run on array_api_strict (tests/hardware/test_backends.py): convolutions and pooling
# with their gradients, preprocessing lookups (host-side tables) and Normalization,
# Embedding, Dropout, a CNN fit under a strategy.
STRICT = ("conv2d SAME strides 2 dilations 2", "conv2d explicit padding",
          "conv2d gradient of gradient", "max_pool gradient of gradient",
          "avg_pool2d SAME k 3 s [1, 2]", "Conv2D kernel gradient",
          "a small CNN fit from fixed weights on 4 replicas", "Embedding in a Sequential",
          "StringLookup one_hot, multi_hot and count", "IntegerLookup inverted and encoded",
          "StringLookup tf_idf in a model under a strategy", "Normalization adapts per feature",
          "a model starting with StringLookup fits string arrays under a strategy",
          "Dropout tensor rate", "init: Dropout's masks still follow tf.random.set_seed")

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(_FIXTURES, name): cases for name, cases in GROUPS.items()},
    before_each=tf.keras.backend.clear_session, strict=STRICT)


@pytest.mark.parametrize("option", [dict(renorm=True), dict(virtual_batch_size=2),
                                    dict(adjustment=lambda shape: (1.0, 0.0)),
                                    dict(gamma_constraint="non_neg")])
def test_batch_norm_refuses_what_it_does_not_simulate(option):
    with pytest.raises(NotImplementedError, match="not simulated by simdist"):
        tf.keras.layers.BatchNormalization(**option)


@pytest.mark.parametrize("mode", ["one_hot", "multi_hot", "count", "tf_idf"])
def test_lookup_layers_refuse_sparse_outputs(mode):
    """TF returns a tf.SparseTensor, which simdist does not simulate: refused, saying what to
    use instead (the 'int' mode's own ValueError is recorded from TF)."""
    for cls, vocab in ((tf.keras.layers.StringLookup, ["a"]),
                       (tf.keras.layers.IntegerLookup, [3])):
        kwargs = {"idf_weights": [1.0]} if mode == "tf_idf" else {}
        with pytest.raises(NotImplementedError, match="tf.SparseTensor.*Use sparse=False"):
            cls(vocabulary=vocab, output_mode=mode, sparse=True, **kwargs)

"""Record what TF gives for a group of layer cases into its fixture.

Groups: ``core`` (layer_cases.CASES -> fixtures/tf_layers.json, recorded with TF 2.15),
``cnn`` (cnn_layer_cases.CASES -> fixtures/tf_cnn_layers.json), ``functional``
(functional_cases.CASES -> fixtures/tf_functional.json), ``saving`` (saving_cases.CASES ->
fixtures/tf_saving.json) and ``preprocessing`` (preprocessing_cases.CASES ->
fixtures/tf_preprocessing.json), ``op_layers`` (op_layer_cases.CASES ->
fixtures/tf_op_layers.json), ``rnn`` (rnn_cell_cases.CASES -> fixtures/tf_rnn_cells.json),
``rnn_layers`` (rnn_layer_cases.CASES -> fixtures/tf_rnn_layers.json),
``lambda`` (lambda_cases.CASES -> fixtures/tf_lambda.json) and ``masking``
(masking_cases.CASES -> fixtures/tf_masking.json), ``text`` (text_cases.CASES ->
fixtures/tf_text.json), ``time_distributed`` (time_distributed_cases.CASES ->
fixtures/tf_time_distributed.json), ``rnn_constants`` (rnn_constants_cases.CASES ->
fixtures/tf_rnn_constants.json), ``text_modes`` (text_mode_cases.CASES ->
fixtures/tf_text_modes.json), ``attention`` (attention_cases.CASES ->
fixtures/tf_attention.json), ``multi_head_attention``
(multi_head_attention_cases.CASES -> fixtures/tf_multi_head_attention.json), ``image_preprocessing``
(image_preprocessing_cases.CASES -> fixtures/tf_image_preprocessing.json),
``categorical_preprocessing`` (categorical_preprocessing_cases.CASES ->
fixtures/tf_categorical_preprocessing.json),
``functional_construction`` (functional_construction_cases.CASES ->
fixtures/tf_functional_construction.json), ``add_metric`` (add_metric_cases.CASES ->
fixtures/tf_add_metric.json), ``functional_config`` (functional_config_cases.CASES ->
fixtures/tf_functional_config.json), ``up_sampling`` (up_sampling_cases.CASES ->
fixtures/tf_up_sampling.json), ``image_dataset`` (image_dataset_cases.CASES
-> fixtures/tf_image_dataset.json), ``timeseries`` (timeseries_cases.CASES ->
fixtures/tf_timeseries.json), ``image_adjust`` (image_adjust_cases.CASES ->
fixtures/tf_image_adjust.json), recorded
with TF 2.21 and tf-keras, oneDNN off so that TF's reference CPU kernels give the values.
Run with the TensorFlow interpreter (not simdist's venv):
    TF_USE_LEGACY_KERAS=1 TF_ENABLE_ONEDNN_OPTS=0 TF_CPP_MIN_LOG_LEVEL=3 \\
        /tmp/tfvenv/bin/python tests/keras/record_tf_layers.py [core|cnn|functional|saving]
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # tests/, for tf_snippets

from tf_snippets import recorder_main  # noqa: E402

GROUPS = {"core": ("layer_cases", "tf_layers.json"),
          "cnn": ("cnn_layer_cases", "tf_cnn_layers.json"),
          "functional": ("functional_cases", "tf_functional.json"),
          "saving": ("saving_cases", "tf_saving.json"),
          "preprocessing": ("preprocessing_cases", "tf_preprocessing.json"),
          "op_layers": ("op_layer_cases", "tf_op_layers.json"),
          "rnn": ("rnn_cell_cases", "tf_rnn_cells.json"),
          "rnn_layers": ("rnn_layer_cases", "tf_rnn_layers.json"),
          "lambda": ("lambda_cases", "tf_lambda.json"),
          "masking": ("masking_cases", "tf_masking.json"),
          "text": ("text_cases", "tf_text.json"),
          "time_distributed": ("time_distributed_cases", "tf_time_distributed.json"),
          "rnn_constants": ("rnn_constants_cases", "tf_rnn_constants.json"),
          "text_modes": ("text_mode_cases", "tf_text_modes.json"),
          "attention": ("attention_cases", "tf_attention.json"),
          "multi_head_attention": ("multi_head_attention_cases",
                                   "tf_multi_head_attention.json"),
          "image_preprocessing": ("image_preprocessing_cases",
                                  "tf_image_preprocessing.json"),
          "categorical_preprocessing": ("categorical_preprocessing_cases",
                                        "tf_categorical_preprocessing.json"),
          "functional_construction": ("functional_construction_cases",
                                      "tf_functional_construction.json"),
          "add_metric": ("add_metric_cases", "tf_add_metric.json"),
          "functional_config": ("functional_config_cases", "tf_functional_config.json"),
          "up_sampling": ("up_sampling_cases", "tf_up_sampling.json"),
          "image_dataset": ("image_dataset_cases", "tf_image_dataset.json"),
          "timeseries": ("timeseries_cases", "tf_timeseries.json"),
          "image_adjust": ("image_adjust_cases", "tf_image_adjust.json")}

if __name__ == "__main__":
    recorder_main(HERE, GROUPS, sys.argv[1:])

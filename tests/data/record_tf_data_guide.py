"""Record what TF 2.21 gives for the pieces of TF's tf.data guide (guide/data.ipynb):
sampling_cases into fixtures/tf_sampling.json, csv_cases into fixtures/tf_csv.json,
bucket_cases into fixtures/tf_bucketing.json,
save_cases into fixtures/tf_saving.json,
none_cases into fixtures/tf_none.json.

Run with the TensorFlow interpreter (not simdist's venv); naming cases re-records only them:
    TF_USE_LEGACY_KERAS=1 /tmp/tfvenv/bin/python tests/data/record_tf_data_guide.py
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # tests/, for tf_snippets

from tf_snippets import recorder_main  # noqa: E402

GROUPS = {"sampling": ("sampling_cases", "tf_sampling.json"),
          "csv": ("csv_cases", "tf_csv.json"),
          "bucketing": ("bucket_cases", "tf_bucketing.json"),
          "saving": ("save_cases", "tf_saving.json"),
          "none": ("none_cases", "tf_none.json")}

if __name__ == "__main__":
    recorder_main(HERE, GROUPS, sys.argv[1:], cpus=None, clear_session=False)

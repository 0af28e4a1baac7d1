"""The pieces of TF's tf.data guide give what TF 2.21 gave (recorded by
record_tf_data_guide.py): Dataset.random, sample_from_datasets, stateless_categorical;
CsvDataset and make_csv_dataset; rejection_resample; bucket_by_sequence_length; save and load;
None components (TF's NoneTensor)."""

import os

from bucket_cases import CASES as BUCKETING
from csv_cases import CASES as CSV
from none_cases import CASES as NONE
from sampling_cases import CASES as SAMPLING
from save_cases import CASES as SAVING
from tf_snippets import conformance_tests

import simdist as tf

_FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")

test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(_FIXTURES, "tf_sampling.json"): SAMPLING,
         os.path.join(_FIXTURES, "tf_csv.json"): CSV,
         os.path.join(_FIXTURES, "tf_bucketing.json"): BUCKETING,
         os.path.join(_FIXTURES, "tf_saving.json"): SAVING,
         os.path.join(_FIXTURES, "tf_none.json"): NONE})

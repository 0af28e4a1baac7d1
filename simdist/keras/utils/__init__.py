"""Keras utilities (names only)."""

import types as _types

from simdist.keras.utils.dataset_creator import DatasetCreator
from simdist.keras.utils.progbar import Progbar
from simdist.keras.utils.sequence_utils import pad_sequences
from simdist.keras.utils.text_dataset import text_dataset_from_directory
from simdist.keras.utils.tf_utils import set_random_seed

experimental = _types.SimpleNamespace(DatasetCreator=DatasetCreator)

"""Keras utilities (names only)."""

import types as _types

from simdist.keras.utils.dataset_creator import DatasetCreator
from simdist.keras.utils.image_dataset import image_dataset_from_directory
from simdist.keras.utils.np_utils import normalize, to_categorical
from simdist.keras.utils.progbar import Progbar
from simdist.keras.utils.sequence_utils import pad_sequences
from simdist.keras.utils.text_dataset import text_dataset_from_directory
from simdist.keras.utils.tf_utils import set_random_seed
from simdist.keras.utils.timeseries_dataset import timeseries_dataset_from_array
from simdist.keras.utils.vis_utils import model_to_dot, plot_model

experimental = _types.SimpleNamespace(DatasetCreator=DatasetCreator)

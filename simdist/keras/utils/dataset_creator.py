"""``tf.keras.utils.experimental.DatasetCreator``: a dataset function for ``model.fit``.

Glossary:
  dataset_fn    -- ``dataset_fn(input_context)`` -> a ``tf.data.Dataset``; with
                   ParameterServerStrategy every worker calls it to build its own pipeline.
  input_options -- a ``tf.distribute.InputOptions`` for the distributed datasets.

Mirrors tf_keras/src/utils/dataset_creator.py.
"""

from __future__ import annotations


class DatasetCreator:
    """Object that returns a ``tf.data.Dataset`` when called.

    Raises:
      TypeError: ``dataset_fn`` is not callable, ``input_options`` is not InputOptions, or
        the function returns something other than a Dataset (TF's messages).
    """

    def __init__(self, dataset_fn, input_options=None):
        from simdist.distribute.input_lib import InputOptions

        if not callable(dataset_fn):
            raise TypeError("`dataset_fn` for `DatasetCreator` must be a `callable`. "
                            f"Received: {dataset_fn}")
        if input_options and not isinstance(input_options, InputOptions):
            raise TypeError("`input_options` for `DatasetCreator` must be a "
                            f"`tf.distribute.InputOptions`. Received: {input_options}")
        self.dataset_fn = dataset_fn
        self.input_options = input_options

    def __call__(self, *args, **kwargs):
        from simdist.data.dataset_ops import DatasetV2

        dataset = self.dataset_fn(*args, **kwargs)
        if not isinstance(dataset, DatasetV2):
            raise TypeError("The `callable` provided to `DatasetCreator` must return a "
                            f'Dataset. It returns "{dataset}"')
        return dataset

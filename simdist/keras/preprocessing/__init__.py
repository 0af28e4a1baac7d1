"""``tf.keras.preprocessing`` (Keras 2's legacy preprocessing namespace): ``sequence``'s
``pad_sequences`` (names only).

Mirrors keras/api/_v2/keras/preprocessing/__init__.py.
"""

import types as _types

from simdist.keras.utils.sequence_utils import pad_sequences

sequence = _types.SimpleNamespace(pad_sequences=pad_sequences)

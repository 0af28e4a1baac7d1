"""``tf.distribute.experimental``: the experimental strategies and options."""

from simdist.distribute.central_storage_strategy import CentralStorageStrategy
from simdist.distribute.distribute_lib import ValueContext

__all__ = ["CentralStorageStrategy", "ValueContext"]

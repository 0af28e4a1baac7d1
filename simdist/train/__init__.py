"""``tf.train``: checkpoints (names only)."""

from simdist.train.checkpoint import Checkpoint
from simdist.train.checkpoint_management import CheckpointManager, latest_checkpoint

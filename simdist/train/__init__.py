"""``tf.train``: checkpoints (names only)."""

from simdist.train.checkpoint import Checkpoint
from simdist.train.checkpoint_management import (
    CheckpointManager,
    get_checkpoint_state,
    latest_checkpoint,
)
from simdist.train.checkpoint_utils import list_variables, load_variable

"""``tf.train``: checkpoints, cluster specs and Example protocol buffers (names only)."""

from simdist.distribute.cluster_spec import ClusterDef, ClusterSpec, JobDef
from simdist.distribute.server_lib import Server, ServerDef
from simdist.framework.example_pb2 import (
    BytesList,
    Example,
    Feature,
    FeatureList,
    FeatureLists,
    Features,
    FloatList,
    Int64List,
    SequenceExample,
)
from simdist.train.checkpoint import Checkpoint
from simdist.train.checkpoint_management import (
    CheckpointManager,
    get_checkpoint_state,
    latest_checkpoint,
)
from simdist.train.checkpoint_utils import list_variables, load_variable
from simdist.train.py_checkpoint_reader import CheckpointReader, load_checkpoint

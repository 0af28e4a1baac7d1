"""``tf.config``: what the simulated machine has, and how its devices are split (names only)."""

from simdist.framework.config import *  # noqa: F401,F403
from simdist.framework.config import experimental  # noqa: F401

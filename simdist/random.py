"""``tf.random``: TF's Philox random numbers, stateful, stateless and generators (names only)."""

import types

from simdist.framework.ops.random_categorical import stateless_categorical  # noqa: F401
from simdist.framework.ops.random_ops import (  # noqa: F401
    Algorithm,
    fold_in,
    normal,
    set_seed,
    shuffle,
    split,
    stateless_normal,
    stateless_truncated_normal,
    stateless_uniform,
    truncated_normal,
    uniform,
)
from simdist.framework.ops.stateful_random_ops import (  # noqa: F401
    Generator,
    create_rng_state,
    get_global_generator,
    set_global_generator,
)

experimental = types.SimpleNamespace(
    Algorithm=Algorithm, Generator=Generator, create_rng_state=create_rng_state,
    get_global_generator=get_global_generator, set_global_generator=set_global_generator,
    stateless_fold_in=fold_in, stateless_split=split)

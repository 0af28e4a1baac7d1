"""Every collective algorithm; importing this package fills collectives.ALGORITHMS."""

from simdist.collectives.algorithms import (
    all_to_all,
    halving_doubling,
    hierarchical_copy,
    parameter_server,
    reduce_broadcast,
    ring,
    rooted,
    scatter_gather,
    tree,
    two_level,
)

"""Helpers for the collectives tests: algorithm lists and their extra parameters."""

from __future__ import annotations

from simdist.collectives import ALGORITHMS

ALL_REDUCE = sorted(n for n, a in ALGORITHMS.items() if a.collective == "all_reduce")


def params_for(name, p, n):
    """Extra parameters that exercise each algorithm's options, picked from (p, n) so the
    generated cases (replica count p, element count n) vary them too."""
    if name == "tree":
        return {"pipeline": 1 + n % 3}
    if name == "parameter_server":
        return {"num_ps": 1 + n % 3}
    if name == "hierarchical_copy":
        return {"pack_index": n % (2 * p + 1)}
    if name == "reduce_broadcast":
        return {"root": n % p}
    if name == "two_level":
        divisors = [d for d in range(1, p + 1) if p % d == 0]
        return {"local_size": divisors[n % len(divisors)]}
    return {}

"""Helpers for the collectives tests: algorithm lists and their parameters, both read from
the registry entries (``Algorithm.supports`` and ``Algorithm.param_space``)."""

from __future__ import annotations

from simdist.collectives import ALGORITHMS

ALL_REDUCE = sorted(n for n, a in ALGORITHMS.items() if a.collective == "all_reduce")


def params_for(name, p, n):
    """One value of each of the algorithm's parameters on p ranks, picked from (p, n) so the
    generated cases (replica count p, element count n) vary them too."""
    space = ALGORITHMS[name].param_space(p)
    return {key: list(values)[n % len(values)] for key, values in space.items()}


def algorithms_for(collective, p):
    """The names of ``collective``'s algorithms that run on p ranks."""
    return sorted(a.name.split(".")[-1] for a in ALGORITHMS.values()
                  if a.collective == collective and a.supports(p))

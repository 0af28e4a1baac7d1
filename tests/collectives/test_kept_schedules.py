"""A schedule kept for a small rank count (registry._built) is the one a fresh build
gives, for every algorithm and parameter the registry allows, and each call gets its own
Schedule and step list: changing one leaves the next call's as built."""

from hypothesis import given, settings
from hypothesis import strategies as st

from simdist import collectives
from simdist.collectives import registry
from simdist.testing.strategies import algorithm_params


@st.composite
def _cases(draw):
    name = draw(st.sampled_from(sorted(collectives.ALGORITHMS)))
    algorithm = collectives.ALGORITHMS[name]
    p = draw(st.integers(1, 9).filter(algorithm.supports))
    return algorithm, p, draw(algorithm_params(algorithm, p))


@settings(max_examples=40, deadline=None)
@given(case=_cases())
def test_a_kept_schedule_is_a_fresh_build(case):
    algorithm, p, params = case
    fresh = algorithm.build(p, **params)
    fresh.params = dict(params)
    first = algorithm.schedule(p, **params)
    first.steps.clear()   # a caller's own copy: the kept steps stay
    again = algorithm.schedule(p, **params)
    assert again == fresh
    assert again.steps is not first.steps


def test_parameters_that_are_not_plain_values_are_built_afresh():
    assert registry._frozen({"rings": [[0, 1], [1, 0]], "n": 2}) is not None
    assert registry._frozen({"f": object()}) is None
    assert registry._frozen({"rings": [[0, object()]]}) is None

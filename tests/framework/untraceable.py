"""A stand-in for a construct simdist's graphs cannot record, for the tests of the eager
fallback (func_graph.NotTraceable part-way through a trace): ``GradientTape.reset`` made
untraceable again (``reset_untraceable``, a pytest fixture). TF traces reset, and so does
simdist (function_tape_cases); the fallback tests use it because their TF recordings
(function_fallback_cases) call it, so what TF does with the same Python is recorded."""

import pytest

from simdist.framework import backprop, func_graph

REASON = "GradientTape.reset (a test's stand-in for an untraceable construct)"


@pytest.fixture
def reset_untraceable(monkeypatch):
    reset = backprop.GradientTape.reset

    def untraceable_reset(self):
        if func_graph.current() is not None:
            raise func_graph.NotTraceable(REASON)
        return reset(self)

    monkeypatch.setattr(backprop.GradientTape, "reset", untraceable_reset)

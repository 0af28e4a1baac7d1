"""float32 tf.exp and tf.nn.softmax give TF 2.21's CPU bits for eigen_exp_cases, and
reduce_sum / reduce_mean / cumsum for eigen_sum_cases, tf.pow for eigen_pow_cases, tf.tanh
and tf.sigmoid for eigen_unary_cases, log1p, expm1, softplus and erf for eigen_log1p_cases,
erfc and gelu for eigen_erf_cases, sin and cos for eigen_trig_cases, maximum and minimum
for eigen_minmax_cases, rsqrt for eigen_rsqrt_cases, the cross-entropies from logits
(losses and gradients) for eigen_xent_cases, Keras's fused normalizations' gradients
(FusedBatchNormGradV3) for eigen_fbn_cases (recorded by record_tf_eigen_math.py;
simdist/framework/ops/eigen_cpu.py,
eigen_pow.py, eigen_unary.py, eigen_log1p.py, eigen_erf.py, eigen_trig.py, eigen_minmax.py,
eigen_rsqrt.py, eigen_xent.py): every bit.
Softmax too, where TF multiplies by ``1 / sum`` from the CPU's approximate reciprocal (rcpps
and a Newton step) for the rows in whole packets of 8: simdist holds the rcpps table of the
CPU the fixtures were recorded on (eigen_rcpps.py), and its rsqrtps table (eigen_rsqrt.py)."""

import importlib
import json
import os

import eigen_exp_cases
import numpy as np
import pytest
from record_tf_eigen_math import GROUPS
from tf_snippets import conformance_tests, scope_for

import simdist as tf

_FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")
# Every group the recorder writes (its GROUPS table: module of CASES, fixture) but softmax,
# whose halves are compared as bits below
_REPLAYED = {os.path.join(_FIXTURES, fixture): importlib.import_module(module).CASES
             for group, (module, fixture) in GROUPS.items() if group != "softmax"}
test_every_case_was_recorded, test_same_bits_as_tensorflow = conformance_tests(tf, _REPLAYED)

with open(os.path.join(_FIXTURES, "tf_eigen_softmax.json")) as f:
    _SOFTMAX = json.load(f)["results"]


def _floats(hi, lo):
    """The float32 array of upper and lower 16-bit halves."""
    hi, lo = (np.asarray(part, dtype=np.uint64) for part in (hi, lo))
    return ((hi << 16) | lo).astype(np.uint32).view(np.float32)


def _recorded(pair):
    return _floats(*(part["values"] for part in pair))


def test_every_softmax_case_was_recorded():
    assert set(_SOFTMAX) == set(eigen_exp_cases.SOFTMAX_CASES)


@pytest.mark.parametrize("name", sorted(eigen_exp_cases.SOFTMAX_CASES))
def test_softmax_same_bits_as_tensorflow(name):
    scope = scope_for(tf, None)
    exec(eigen_exp_cases.SOFTMAX_CASES[name], scope)  # noqa: S102 - the recorded cases
    got_x, got = (_floats(*pair) for pair in scope["out"])
    x, want = (_recorded(pair) for pair in _SOFTMAX[name]["value"])
    assert got_x.tobytes() == x.tobytes()
    assert got.tobytes() == want.tobytes(), name

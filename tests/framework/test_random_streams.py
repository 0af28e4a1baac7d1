"""simdist's random numbers are TF 2.21's bit for bit: stateless ops for shapes, dtypes and
seeds, stateful ops under ``tf.random.set_seed`` (recorded by record_tf_random.py)."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import simdist as tf
from simdist.framework.ops import philox_random, random_distributions
from tests.framework.random_cases import CASES
from tests.framework.record_tf_random import run_case

with open(os.path.join(os.path.dirname(__file__), "fixtures", "tf_random.json")) as _f:
    RECORDED = json.load(_f)["cases"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_random_numbers_are_tfs_bits(name):
    got = run_case(tf, CASES[name])
    want = RECORDED[name]
    assert [(g["dtype"], g["shape"]) for g in got] == [(w["dtype"], w["shape"]) for w in want]
    for i, (g, w) in enumerate(zip(got, want)):
        diff = np.flatnonzero(np.asarray(g["bits"]) != np.asarray(w["bits"]))
        assert diff.size == 0, f"output {i}: {diff.size} of {len(w['bits'])} differ, first {diff[:5]}"

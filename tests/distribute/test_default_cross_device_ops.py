"""MirroredStrategy's default cross-device ops on logical CPUs: default_ops_cases.CASES
replayed against TF 2.21's recording (record_tf_default_ops.py), on 4 logical CPUs as the
recorder has them (on simdist's "cpu" machine: TF's has no GPU). The sums' bits are compared
exactly (sha256 prefixes). A property pins the ring_reducer algorithm's order element by
element."""

import os

import numpy as np
from default_ops_cases import CASES
from hypothesis import given, settings
from hypothesis import strategies as st
from tf_snippets import conformance_tests, split_cpu

import simdist as tf
from simdist import collectives
from simdist.collectives.algorithms import ring_reducer
from simdist.testing import reset_world


def cpu_machine():
    reset_world("cpu")
    split_cpu(tf, 4)


test_every_case_was_recorded, test_same_result_as_tensorflow = conformance_tests(
    tf, {os.path.join(os.path.dirname(__file__), "fixtures", "tf_default_ops.json"): CASES},
    before_each=cpu_machine)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 6), st.integers(0, 300), st.sampled_from([np.float16, np.float32,
                                                                 np.float64]),
       st.integers(0, 2**32 - 1))
def test_ring_sums_each_element_in_rank_order_from_its_chunks_rank(p, n, dtype, seed):
    rng = np.random.default_rng(seed)
    arrays = [(rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4, n)).astype(dtype)
              for _ in range(p)]
    step = ring_reducer.chunk_elts(np.dtype(dtype).itemsize, n, p)
    assert step * p >= n and (step * np.dtype(dtype).itemsize) % 64 == 0
    got = [np.asarray(v) for v in collectives.all_reduce(arrays, "ring_reducer").values]
    assert len(got) == p and all(g.tobytes() == got[0].tobytes() for g in got)
    for i in range(n):   # element by element: the chunk's rank adds first
        start = i // step
        acc = arrays[start][i]
        for k in range(1, p):
            acc = dtype(acc + arrays[(start + k) % p][i])
        assert got[0][i].tobytes() == acc.tobytes(), i

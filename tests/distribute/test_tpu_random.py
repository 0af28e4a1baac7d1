"""TPUStrategy: what each replica draws from random ops in a replica function traced once
for all replicas (simdist/distribute/tpu_replicate.py).

What TF does, from its source (TF 2.21):
- tensorflow/python/ops/stateless_random_ops.py: a stateless op's values are a function of
  its seed and shape alone, so every core running the one op of the replicated
  computation (tensorflow/python/tpu/tpu.py, ``split_compile_and_replicate``: the
  computation is built once) draws the same numbers.
- tensorflow/python/ops/stateful_random_ops.py, ``Generator._prepare_key_counter``: a
  Generator made in a strategy's scope hashes its key with ``get_replica_id()`` (the
  replica context's ``replica_id_in_sync_group``; on TPU the int32 input of each core,
  tpu_strategy.py ``_tpu_function_creator``), so each replica draws its own stream,
  whatever the strategy.
Both rules are the same under MirroredStrategy, so the TPU program's values are compared
with TF 2.21's MirroredStrategy on 8 CPUs (cases_distribute.py,
``eight_replicas_draw_random_numbers_in_a_function``).
Not checked: a stateful op (``tf.random.uniform``) is one op of the replicated computation
with one (seed, seed2); what each core draws from it is XLA's RNG (C++, not in TF's
Python); simdist gives each replica the op seed MirroredStrategy's own op would have.
"""

import json
import os
import sys

from tpu_world import tpu_strategy

import simdist as tf

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "conformance"))
from cases_distribute import _replica_random_draws  # noqa: E402

_FIXTURE = os.path.join(os.path.dirname(__file__), "..", "conformance", "fixtures",
                        "tf_distribute.json")


def test_each_core_draws_what_tfs_replicas_draw():
    """Stateless: the same numbers on every core; a Generator: each replica its own
    stream, two calls in a row, the TPU program traced once."""
    with open(_FIXTURE) as f:
        want = json.load(f)["cases"]["eight_replicas_draw_random_numbers_in_a_function"]
    got = _replica_random_draws(tf, tpu_strategy())
    assert got == want
    stateless, normal, _ = want["ok"][0]["items"]
    assert len({str(p["value"]) for p in stateless["local"]}) == 1
    assert len({str(p["value"]) for p in normal["local"]}) == 8

"""Properties of TF's batch splitting (simdist.data.distribute_rules), for any dataset size,
global batch, replica and worker count.

TF's actual invariants (recorded, see test_distribute_rules_conformance.py):
  * AUTO / DATA: over an epoch every element reaches exactly one replica, once.
  * OFF: every worker reads the whole dataset, so each element reaches exactly one replica
    of *each* worker, once.
  * Per-replica sizes in a step do NOT always differ by at most one: the legacy split gives
    every replica ``ceil(b / R)`` rows until the rows run out, so 4 rows on 3 replicas are
    2, 2, 0. What holds: the sizes are non-increasing in replica order, all full chunks have
    the same size ``c = ceil(b / R)``, at most one chunk is partial, and the rest are empty.
    With DATA sharding the same holds for the chunks in TF's chunk order (replica ``j`` of
    worker ``w`` holds chunk ``w + j * W``).
"""

from hypothesis import given
from hypothesis import strategies as st

from simdist.data import distribute_rules as rules
from simdist.data.options import AutoShardPolicy
from simdist.testing.strategies import input_layouts as layouts


def _legacy_shape(sizes):
    """Full chunks of one size c, then at most one partial chunk, then empty ones."""
    if not any(sizes):
        return True
    c = sizes[0]
    k = 0
    while k < len(sizes) and sizes[k] == c:
        k += 1
    rest = sizes[k:]
    return all(s == 0 for s in rest[1:]) and (not rest or rest[0] < c)


@given(layouts(), st.sampled_from([AutoShardPolicy.AUTO, AutoShardPolicy.DATA]))
def test_data_sharding_delivers_every_element_exactly_once(layout, policy):
    plan = rules.plan_distribution(**layout, policy=policy)
    got = sorted(e for step in plan.elements() for replica in step for e in replica)
    n, g = layout["dataset_size"], layout["global_batch"]
    expected = (n // g) * g if layout["drop_remainder"] else n
    assert got == list(range(expected))


@given(layouts(), st.sampled_from([AutoShardPolicy.AUTO, AutoShardPolicy.DATA]))
def test_step_sizes_follow_the_legacy_split(layout, policy):
    plan = rules.plan_distribution(**layout, policy=policy)
    W, R = plan.num_workers, plan.num_replicas
    rpw = R // W
    for step in plan.steps:
        sizes = [rb.size for rb in step]
        # chunk k sits on worker k % W, local replica k // W
        chunk_order = [sizes[(k % W) * rpw + k // W] for k in range(R)]
        assert _legacy_shape(chunk_order)
        b = sum(sizes)
        assert b <= layout["global_batch"]
        # TF's legacy rebatch: chunks of ceil(b / R), the last short, then empty ones
        c = -(-b // R)
        assert chunk_order == [min(c, max(b - k * c, 0)) for k in range(R)]


@given(layouts())
def test_off_policy_gives_each_worker_the_whole_dataset_once(layout):
    plan = rules.plan_distribution(**layout, policy=AutoShardPolicy.OFF)
    n, g = layout["dataset_size"], layout["global_batch"]
    expected = list(range((n // g) * g if layout["drop_remainder"] else n))
    for w in range(plan.num_workers):
        got = sorted(e for step in plan.steps for rb in step if rb.worker == w
                     for e in rb.elements)
        assert got == expected


@given(st.integers(0, 100), st.integers(1, 4), st.integers(1, 4))
def test_even_split_differs_by_at_most_one_and_sums_to_global_batch(g, workers, per_worker):
    all_sizes = [rules.batch_sizes_for_worker(g, workers, per_worker, w)
                 for w in range(workers)]
    for sizes in all_sizes:
        assert len(sizes) == workers * per_worker and sum(sizes) == g
        assert max(sizes) - min(sizes) <= 1
    # TF's constraint (C): the first per_worker sizes of all workers together are one
    # rotation-free cover of the global batch, so a global step consumes g elements
    assert sum(all_sizes[w][j] for w in range(workers) for j in range(per_worker)) == g


@given(st.integers(0, 100), st.integers(1, 16))
def test_legacy_split_conserves_rows(b, r):
    sizes = rules.legacy_split(b, r)
    assert len(sizes) == r and sum(sizes) == b and _legacy_shape(sizes)
    assert sizes == sorted(sizes, reverse=True)

"""The rank order of TF's ring on 12 logical CPUs (record_tf_ring_order.py records,
test_ring_order.py replays): TF 2.21 adds each chunk in replica order from its own rank,
not in the lexicographic order of the device names (``CPU:10`` before ``CPU:2``) that
CollectiveParamResolverLocal sorts its group members by. The data are floats of mixed
magnitudes, so the order shows in the bits (sha256 prefixes of the bytes).

The strategy ``S`` is a MirroredStrategy on 12 logical CPUs. Snippets as in
tests/tf_snippets.py.
"""

CASES = {
    "all_reduce SUM on 12 CPUs: each chunk in replica order from its rank": """
import hashlib
out = []
for n in (12, 100, 1000):
    rng = np.random.RandomState(n)
    a = (rng.randn(12, n) * 10.0 ** rng.randint(-4, 4, (12, n))).astype(np.float32)
    pr = S.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(a[ctx.replica_id_in_sync_group]))
    r = S.run(lambda x: tf.distribute.get_replica_context().all_reduce("SUM", x), args=(pr,))
    got = [np.ascontiguousarray(t.numpy()) for t in S.experimental_local_results(r)]
    out.append([n, S.num_replicas_in_sync, len({g.tobytes() for g in got}),
                hashlib.sha256(got[0].tobytes()).hexdigest()[:16]])
""",
}

"""MirroredStrategy's default cross-device ops on logical CPUs, as TF 2.21 runs them
(record_tf_default_ops.py records, test_default_cross_device_ops.py replays).

TF's MirroredExtended._make_collective_ops_with_fallbacks picks a CollectiveAllReduce with
the RING implementation when every device is a CPU; _get_cross_device_ops hands int32 values
to ReductionToOneDevice. What a user sees of it: the ops' class and implementation, the
devices results land on, and the float bits of a sum, which depend on the order the
replicas' values are added in. The ring (core/common_runtime/ring_reducer.cc) cuts a tensor
into one chunk per replica (AlignedChunkElts: sizes rounded up to 64 bytes) and adds chunk
``c`` in rank order starting at rank ``c``; ReductionToOneDevice adds the replicas in rank
order on one device. In eager TF all-reduces each tensor alone; inside a tf.function it
concatenates a pack first, which moves the chunk boundaries. The data are floats of
mixed magnitudes, so the order shows in the bits (results as sha256 prefixes of the bytes).

The strategy is ``S``: a MirroredStrategy on 4 logical CPUs. Snippets as in
tests/tf_snippets.py.
"""

SETUP = """
import hashlib
def data(n, seed=0, dtype=np.float32):
    rng = np.random.RandomState(seed)
    return (rng.randn(4, n) * 10.0 ** rng.randint(-4, 4, (4, n))).astype(dtype)
def bits(t):
    return hashlib.sha256(np.ascontiguousarray(t.numpy()).tobytes()).hexdigest()[:16]
def per_replica(a):
    # replica i holds row i of ``a``
    return S.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(a[ctx.replica_id_in_sync_group]))
def local(v):
    return list(S.experimental_local_results(v))
def shown(v):
    # every local result: (device, bits)
    return [[t.device, bits(t)] for t in local(v)]
def in_order(a, start, rows=4):
    # a's rows added one by one in rank order from ``start`` (numpy, the same dtype)
    acc = a[start % rows].copy()
    for k in range(1, rows):
        acc = (acc + a[(start + k) % rows]).astype(a.dtype)
    return acc
def all_reduce(op, *arrays):
    def fn(*xs):
        return tf.distribute.get_replica_context().all_reduce(op, list(xs))
    return S.run(fn, args=tuple(per_replica(a) for a in arrays))
"""

CASES = {
    "the default ops: CollectiveAllReduce with RING, ReductionToOneDevice for int32": SETUP + """
ops = S.extended._cross_device_ops
out = [type(ops).__name__, str(ops._options.implementation),
       type(S.extended._get_cross_device_ops(tf.constant(1))).__name__,
       type(S.extended._get_cross_device_ops(tf.constant(1.0))).__name__,
       type(S.extended._get_cross_device_ops(tf.constant(1, tf.int64))).__name__]
""",
    "all_reduce SUM in eager: one ring per tensor, chunks of 64 bytes": SETUP + """
out = []
for n in (3, 10, 16, 64, 1000, 4099):
    a = data(n, seed=n)
    r = all_reduce("SUM", a)[0]
    first = local(r)[0].numpy()
    out.append([n, shown(r), bool((first == in_order(a, 0)).all())])
""",
    "a tensor whose ring chunks pass 4 MiB: still one ring (all_reduce_v2 does not subdivide)":
        SETUP + """
# TF's RingAlg would split chunks over 4 MiB into subdivisions (ring_alg.cc), but
# all_reduce_v2 passes max_subdivs_per_device=-1: one ring. 4 chunks just over 4 MiB.
rng = np.random.RandomState(11)   # data()'s mixed magnitudes, by lookup (pow is slow here)
n = 2**22 + 7
a = rng.randn(4, n).astype(np.float32) * (
    10.0 ** np.arange(-4, 4)).astype(np.float32)[rng.randint(0, 8, (4, n))]
r = all_reduce("SUM", a)[0]
first = local(r)[0].numpy()
step = -(-a.shape[1] // 4)
step += (-step) % 16   # 64-byte chunks of float32
expected = np.concatenate([in_order(a[:, c * step:(c + 1) * step], c) for c in range(4)])
out = [shown(r), bool((first == expected).all())]
""",
    "all_reduce MEAN in eager divides the ring's sum": SETUP + """
a = data(1000, seed=7)
out = shown(all_reduce("MEAN", a)[0])
""",
    "all_reduce of two tensors in eager: each reduced alone": SETUP + """
a, b = data(10, seed=1), data(1000, seed=2)
out = [shown(r) for r in all_reduce("SUM", a, b)]
""",
    "all_reduce of two tensors in a tf.function: one packed ring": SETUP + """
a, b = data(10, seed=1), data(1000, seed=2)
@tf.function
def step(x, y):
    def fn(x, y):
        return tf.distribute.get_replica_context().all_reduce("SUM", [x, y])
    return S.run(fn, args=(x, y))
out = [shown(r) for r in step(per_replica(a), per_replica(b))]
""",
    "float16 all_reduce: chunks of 32 halves, added in half": SETUP + """
a = data(200, seed=3, dtype=np.float16)
out = shown(all_reduce("SUM", a)[0])
""",
    "strategy.reduce to the CPU: ReductionToOneDevice adds in rank order": SETUP + """
a = data(1000, seed=4)
r = S.reduce("SUM", per_replica(a), axis=None)
out = [r.device, bits(r), bool((r.numpy() == in_order(a, 0)).all())]
""",
    "reduce_to the replicas' CPUs goes to ReductionToOneDevice (TF's _reduce_to)": SETUP + """
a = data(1000, seed=5)
v = per_replica(a)
out = shown(S.extended.reduce_to("SUM", v, v))
""",
    "batch_reduce_to with a CPU destination still all-reduces every pair": SETUP + """
a, b = data(1000, seed=6), data(1000, seed=8)
# on the replicas' devices (values_from_function leaves them all on CPU:0, which matches
# a "/cpu:0" destination as a set of devices)
va, vb = [S.run(tf.identity, args=(per_replica(x),)) for x in (a, b)]
ra, rb = S.extended.batch_reduce_to("SUM", [(va, va), (vb, "/cpu:0")])
va0 = per_replica(a)
rc, = S.extended.batch_reduce_to("SUM", [(va0, "/cpu:0")])
out = [shown(ra), [rb.device, bits(rb)], shown(rc),
       [isinstance(x, tf.distribute.DistributedValues) for x in (rb, rc)]]
""",
    "int32 values are reduced on one device and wrap around": SETUP + """
big = np.array([[2147483000, -5], [1000, 7], [-3, 2147480000], [2000, 11]], np.int32)
v = per_replica(big)
r = S.reduce("SUM", v, axis=None)
ar = S.run(lambda x: tf.distribute.get_replica_context().all_reduce("SUM", x), args=(v,))
out = [r.device, r.numpy().tolist(),
       [[t.device, t.numpy().tolist()] for t in local(ar)]]
""",
    "batch_reduce_to refuses int32 beside float32": SETUP + """
vi = per_replica(np.arange(8, dtype=np.int32).reshape(4, 2))
vf = per_replica(data(2, seed=9))
out = S.extended.batch_reduce_to("SUM", [(vf, vf), (vi, vi)])
""",
    "batch_reduce_to of two int32 values: each gets its own ReductionToOneDevice": SETUP + """
vi = per_replica(np.arange(8, dtype=np.int32).reshape(4, 2))
out = S.extended.batch_reduce_to("SUM", [(vi, vi), (vi, vi)])
""",
    "batch_reduce_to of one int32 value": SETUP + """
vi = per_replica(np.arange(8, dtype=np.int32).reshape(4, 2))
r = S.extended.batch_reduce_to("SUM", [(vi, vi)])[0]
out = [[t.device, t.numpy().tolist()] for t in local(r)]
""",
}

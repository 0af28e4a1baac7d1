"""tf.data's file pieces as TF 2.21 gives them, recorded by record_tf_files.py into
fixtures/tf_files.json and replayed by test_files_tf_conformance.py: list_files,
TextLineDataset, interleave / flat_map orders, cardinality constants, options, and which
elements each worker gets under FILE / AUTO / DATA auto-sharding (asked of each framework's
own auto-shard step: TF's ``input_ops.auto_shard_dataset``, simdist's ``auto_shard`` with the
policy ``distribute_rules.resolve_policy`` picks). Paths are printed relative to the files'
temporary directory. Snippets as in tests/tf_snippets.py."""

FILES = """
import os, tempfile
d = tempfile.mkdtemp()
for i in range(4):
    with open(os.path.join(d, f"f{i}.txt"), "w") as f:
        f.write("".join(f"file{i}-line{j}\\n" for j in range(3)))
with open(os.path.join(d, "other.csv"), "w") as f:
    f.write("x\\r\\ny")
P = os.path.join(d, "f*.txt")
NAMES = [os.path.join(d, f"f{i}.txt") for i in range(4)]

def rel(x):
    x = x.decode() if isinstance(x, bytes) else x
    return x.replace(d, "D") if isinstance(x, str) else x

def error_of(fn, upto=None):
    # the error type and text, paths relative, TF kernel prefix and suffix cut
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error is the result
        text = rel(str(e)).split("}} ")[-1].split(" [Op:")[0].split(" goo.gle")[0]
        return [type(e).__name__, text if upto is None else text[:text.index(upto)]]
    return None

def items(ds):
    return [rel(x) if not isinstance(x, np.ndarray) else [rel(y) for y in x]
            for x in ds.as_numpy_iterator()]

files = tf.data.Dataset.list_files(P, shuffle=False)
"""

SHARD = FILES + """
def shards(ds, policy, n=2):
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = policy
    ds = ds.with_options(options)
    try:
        from tensorflow.python.distribute import input_ops
        return [items(input_ops.auto_shard_dataset(ds, n, i, n)) for i in range(n)]
    except ImportError:  # simdist
        from simdist.data import auto_shard, distribute_rules
        chosen = distribute_rules.resolve_policy(policy, n, auto_shard.reads_files(ds))
        if chosen == tf.data.experimental.AutoShardPolicy.FILE:
            return [items(auto_shard.shard_files(ds, n, i)) for i in range(n)]
        return [items(ds.shard(n, i)) for i in range(n)]

A = tf.data.experimental.AutoShardPolicy
"""

CASES = {
    "list_files sorted": FILES + """
out = [items(files), repr(files.element_spec), files.cardinality(),
       items(tf.data.Dataset.list_files([NAMES[1], NAMES[0]], shuffle=False)),
       items(tf.data.Dataset.list_files([os.path.join(d, '*.csv'), P], shuffle=False))]
""",
    "list_files shuffles its names": FILES + """
out = sorted(items(tf.data.Dataset.list_files(P, seed=3)))
""",
    "list_files matching nothing": FILES + """
out = error_of(lambda: tf.data.Dataset.list_files(os.path.join(d, '*.zzz')))
""",
    "TextLineDataset reads lines": FILES + """
out = [items(tf.data.TextLineDataset(NAMES[0])), items(tf.data.TextLineDataset(NAMES[2:0:-1])),
       items(tf.data.TextLineDataset(os.path.join(d, 'other.csv'))),
       items(tf.data.TextLineDataset(files)), items(tf.data.TextLineDataset(NAMES[0]).skip(1)),
       repr(tf.data.TextLineDataset(NAMES[0]).element_spec),
       tf.data.TextLineDataset(NAMES[0]).cardinality(),
       items(tf.data.TextLineDataset(tf.constant(NAMES[3])).batch(2))]
""",
    "TextLineDataset of a missing file": FILES + """
out = error_of(lambda: items(tf.data.TextLineDataset(os.path.join(d, 'nope.txt'))))
""",
    "interleave orders": FILES + """
out = [items(files.interleave(tf.data.TextLineDataset, cycle_length=2)),
       items(files.interleave(tf.data.TextLineDataset, cycle_length=2, block_length=2)),
       items(files.interleave(tf.data.TextLineDataset, cycle_length=3,
                              num_parallel_calls=tf.data.AUTOTUNE, deterministic=True)),
       items(files.interleave(tf.data.TextLineDataset, cycle_length=1)),
       items(files.flat_map(tf.data.TextLineDataset)),
       list(tf.data.Dataset.range(1, 4).interleave(
           lambda x: tf.data.Dataset.from_tensors(x).repeat(3), cycle_length=2,
           block_length=2).as_numpy_iterator()),
       list(tf.data.Dataset.range(1, 6).interleave(
           lambda x: tf.data.Dataset.range(x), cycle_length=3).as_numpy_iterator()),
       files.interleave(tf.data.TextLineDataset, cycle_length=2).cardinality(),
       repr(files.interleave(tf.data.TextLineDataset, cycle_length=2).element_spec)]
""",
    "cardinality constants": """
out = [tf.data.INFINITE_CARDINALITY, tf.data.UNKNOWN_CARDINALITY,
       tf.data.experimental.INFINITE_CARDINALITY, tf.data.experimental.UNKNOWN_CARDINALITY,
       tf.data.Dataset.range(3).repeat().cardinality(),
       tf.data.Dataset.range(3).filter(lambda x: x > 0).cardinality(),
       tf.data.experimental.cardinality(tf.data.Dataset.range(5).batch(2)),
       tf.data.Dataset.range(5).batch(2, drop_remainder=True).cardinality()]
""",
    "distribute options": """
options = tf.data.Options()
options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA
ds = tf.data.Dataset.range(4).with_options(options)
out = [repr(tf.data.Options().experimental_distribute.auto_shard_policy),
       repr(tf.data.experimental.AutoShardPolicy.FILE),
       [int(p) for p in tf.data.experimental.AutoShardPolicy],
       repr(ds.options().experimental_distribute.auto_shard_policy),
       repr(ds.map(lambda x: x).batch(2).options().experimental_distribute.auto_shard_policy),
       repr(tf.data.experimental.DistributeOptions().auto_shard_policy)]
""",
    "FILE sharding gives each worker whole files": SHARD + """
pipe = files.interleave(tf.data.TextLineDataset, cycle_length=2).batch(2)
out = [shards(pipe, A.FILE), shards(pipe, A.AUTO), shards(pipe, A.DATA),
       shards(tf.data.TextLineDataset(NAMES), A.FILE),
       shards(files.interleave(tf.data.TextLineDataset, cycle_length=2), A.FILE, 3),
       shards(tf.data.Dataset.range(8), A.AUTO)]
""",
    "FILE sharding of in-memory data": SHARD + """
out = error_of(lambda: shards(tf.data.Dataset.range(8), A.FILE), upto=":")
""",
    "FILE sharding of file names never read": SHARD + """
out = error_of(lambda: shards(files.map(lambda x: x), A.FILE), upto=":")
""",
    # TF's message counts 1 file here whatever the number: only its start is compared.
    "FILE sharding over fewer files than workers": SHARD + """
out = error_of(lambda: shards(tf.data.TextLineDataset(NAMES[:2]), A.FILE, 3), upto=" only")
""",
}

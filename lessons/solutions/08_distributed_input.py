"""Solutions to lesson 8's exercises (tests/lessons/test_exercises.py checks them)."""

_FN = '''
def my_dataset_fn(ctx):
    ds = tf.data.Dataset.range(64)SHARD
    return ds.batch(BATCH)
'''
_SHARD = ".shard(ctx.num_input_pipelines, ctx.input_pipeline_id)"

SOLUTIONS = {
    # Every worker reads the whole dataset.
    "8a": "times_each_element = 2",
    "8b": _FN.replace("SHARD", _SHARD).replace("BATCH", "ctx.get_per_replica_batch_size(16)"),
}

WRONG = {
    "8a": ["times_each_element = 1", "times_each_element = 4"],
    "8b": [
        # The global batch size per replica: 4 x 16 rows per step.
        _FN.replace("SHARD", _SHARD).replace("BATCH", "16"),
        # Each replica's batch read twice: repeat() doubles the epoch.
        _FN.replace("SHARD", _SHARD + ".repeat(2)").replace(
            "BATCH", "ctx.get_per_replica_batch_size(16)"),
    ],
}

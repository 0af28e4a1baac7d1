"""Bad arguments to tf.data's transformations, as TF 2.21 refuses them (record_tf_specs.py
records the "argument_errors" group, test_dataset_argument_errors.py replays): a count or
size that is not an integer (TF's conversion to an int64 tensor: TypeError "Cannot convert
'a' to EagerTensor of dtype int64"); a batch size or shuffle buffer that is not positive
(the eager op's InvalidArgumentError, ``{{function_node __wrapped__BatchDatasetV2_device_
...}} ... [Op:BatchDatasetV2] name: ``); a function that is not callable (StructuredFunction
Wrapper's ValueError); a list given to ``zip``. Each case returns the error's type and
text."""

SETUP = """
ds = tf.data.Dataset.range(3)
def text(fn):
    try:
        fn()
        return ["no error"]
    except Exception as e:
        return [type(e).__name__, str(e)]
"""

CASES = {
    "a count that is a string: take, skip, repeat, batch, shuffle, shard": SETUP + """
out = [text(lambda: ds.take("a")), text(lambda: ds.skip("a")), text(lambda: ds.repeat("a")),
       text(lambda: ds.batch("a")), text(lambda: ds.shuffle("a")), text(lambda: ds.shard("a", 0)),
       text(lambda: ds.take(1.5))]
""",
    "a batch size and a shuffle buffer that are not positive": SETUP + """
out = [text(lambda: ds.batch(0)), text(lambda: ds.batch(-1)), text(lambda: ds.shuffle(0))]
""",
    "a function that is not callable: map, filter, flat_map, interleave, scan": SETUP + """
out = [text(lambda: ds.map(3)), text(lambda: ds.filter("f")), text(lambda: ds.flat_map(None)),
       text(lambda: ds.interleave(3)), text(lambda: ds.scan(0, 3))]
""",
    "a list given to zip, at the top and inside a tuple": SETUP + """
out = [text(lambda: tf.data.Dataset.zip([ds, ds])),
       text(lambda: tf.data.Dataset.zip((ds, [1, 2])))]
""",
}

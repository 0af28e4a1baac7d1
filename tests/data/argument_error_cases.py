"""Bad arguments to tf.data's transformations, as TF 2.21 refuses them (record_tf_specs.py
records the "argument_errors" group, test_dataset_argument_errors.py replays): a count or
size that is not an integer (TF's conversion to an int64 tensor: TypeError "Cannot convert
'a' to EagerTensor of dtype int64"); a batch size or shuffle buffer that is not positive
(the eager op's InvalidArgumentError, ``{{function_node __wrapped__BatchDatasetV2_device_
...}} ... [Op:BatchDatasetV2] name: ``); a function that is not callable (StructuredFunction
Wrapper's ValueError); a list given to ``zip``; what a function returns that TF refuses (a
map returning no tensor: MapDataset's InvalidArgumentError; an object: "Unsupported return
value"; a tensor from flat_map / interleave: TF 2.21's AttributeError; a reduce function
changing the state's dtypes or its number of components). Each case returns the error's type and
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
    "a map function returning nothing or what no tensor holds": SETUP + """
import re
class Thing:
    def __repr__(self):
        return "Thing()"
def empty(fn):   # TF names either attr, from one run to the next
    kind, message = text(fn)
    return [kind, re.sub("'output_(types|shapes)'", "'output_*'", message)]
out = [empty(lambda: ds.map(lambda x: None)), empty(lambda: ds.map(lambda y: ())),
       empty(lambda: ds.map(lambda z: {})), text(lambda: ds.map(lambda v: Thing())),
       text(lambda: ds.filter(lambda w: None))]
""",
    "flat_map and interleave functions returning a tensor": SETUP + """
out = [text(lambda: ds.flat_map(lambda x: x)), text(lambda: ds.interleave(lambda y: y * 2))]
""",
    "a reduce function changing the state's dtype or its number of components": SETUP + """
out = [text(lambda: ds.reduce(np.int64(0), lambda s, x: tf.cast(s + x, tf.float32))),
       text(lambda: ds.reduce((np.int64(0), 1.0),
                              lambda s, x: (s[0] + x, tf.cast(s[0], tf.float64)))),
       text(lambda: ds.reduce(np.int64(0), lambda s, x: (s, x))),
       ds.reduce(tf.constant([0], tf.int64), lambda s, x: tf.concat([s, [x]], 0))]
""",
    "a list given to zip, at the top and inside a tuple": SETUP + """
out = [text(lambda: tf.data.Dataset.zip([ds, ds])),
       text(lambda: tf.data.Dataset.zip((ds, [1, 2])))]
""",
}

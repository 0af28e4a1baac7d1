"""Errors raised while an eager iterator makes an element, as TF 2.21 words them
(record_tf_specs.py records the "iteration_errors" group, test_iteration_errors.py
replays): IteratorGetNext's ``{{function_node __wrapped__IteratorGetNext_output_types_<k>
_device_...}} ... [Op:IteratorGetNext] name: ``; an op's error in a ``map`` or ``filter``
function with TF's "Error in user-defined function passed to MapDataset:<n> transformation
with iterator: Iterator::Root::Prefetch::Map: " context, its iterator's place in the
pipeline as TF's default optimizations leave it (an injected Prefetch; a stateless map
parallelized; a map fused into the batch after it, without the context); a batch of
elements of different shapes (BatchV2's text, MapAndBatch's after a map); and
``Dataset.reduce``'s ReduceDataset text. Each case returns the error's type and text, the
dataset's count masked (``MapDataset:N``: TF counts the process's dataset ops)."""

SETUP = """
import re
inf_check = lambda x: tf.debugging.check_numerics(1 / x, "inf!")
src = tf.data.Dataset.from_tensor_slices([1.0, 0.0])
def ragged():
    return tf.data.Dataset.from_generator(lambda: iter([[1], [1, 2], [1, 2, 3]]),
                                          output_signature=tf.TensorSpec([None], tf.int32))
def text(fn):
    try:
        fn()
        return ["no error"]
    except Exception as e:
        return [type(e).__name__, re.sub(r"(Dataset(?:V2)?):\\d+", r"\\1:N", str(e))]
"""

CASES = {
    "an op's error in a map function: the function's context": SETUP + """
out = text(lambda: list(src.map(inf_check)))
""",
    "a stateless map runs parallelized: ParallelMapV2, no Prefetch on top": SETUP + """
out = text(lambda: list(tf.data.Dataset.range(3).map(lambda i: tf.gather([1, 2], i))))
""",
    "num_parallel_calls: ParallelMapDatasetV2": SETUP + """
out = text(lambda: list(src.map(inf_check, num_parallel_calls=2)))
""",
    "a filter predicate's error: FilterDataset": SETUP + """
out = text(lambda: list(src.filter(lambda x: inf_check(x) > 0)))
""",
    "the iterator's prefix through the transformations above the map": SETUP + """
m = lambda: src.map(inf_check)
out = [text(lambda: list(ds)) for ds in [
    m().shuffle(2), m().repeat(2), m().repeat().take(3), m().skip(0), m().skip(1),
    m().cache(), tf.data.Dataset.zip((m(), src)), m().concatenate(src),
    src.batch(1).map(inf_check).unbatch(), m().padded_batch(2), m().enumerate(),
    m().filter(lambda x: x > 0), m().prefetch(1)]]
""",
    "a map right before a batch is fused into it: no function context": SETUP + """
out = text(lambda: list(src.map(inf_check).batch(2)))
""",
    "tuple elements, next() on an iterator, a for loop": SETUP + """
pairs = tf.data.Dataset.from_tensor_slices(([1.0, 0.0], [1, 2]))
def step():
    it = iter(src.map(inf_check))
    next(it)
    next(it)
def loop():
    for _ in src.map(inf_check):
        pass
out = [text(lambda: list(pairs.map(lambda x, y: (inf_check(x), y)))), text(step), text(loop)]
""",
    "a batch of elements of different shapes: BatchV2's text": SETUP + """
out = [text(lambda: list(ragged().batch(3))), text(lambda: list(ragged().batch(2))),
       text(lambda: list(ragged().filter(lambda x: True).batch(2)))]
""",
    "a batch of different shapes after a map: MapAndBatch's text": SETUP + """
out = text(lambda: list(ragged().map(lambda x: x * 2).batch(2)))
""",
    "Dataset.reduce over a failing map: ReduceDataset": SETUP + """
out = text(lambda: src.map(inf_check).reduce(0.0, lambda s, x: s + x))
""",
}

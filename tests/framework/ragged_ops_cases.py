"""Ops on ragged and sparse tensors as TF 2.21 gives them (recorded by record_tf_strings.py
into fixtures/tf_ragged_ops.json, replayed by test_strings_tf_conformance.py): element-wise
ops and operators, reductions over every kind of axis, row partitions, conversions, concat,
stack, expand_dims, boolean_mask, indexing, broadcasting and its errors, map_flat_values,
ragged.range, gradients through ragged reductions and broadcasts, tf.functions and datasets
of RaggedTensors and SparseTensors, DynamicRaggedShape, and tf.sparse's ops (reorder, add,
concat, slice, transpose, reductions, sparse_dense_matmul, products with dense values) with
their errors.
Snippets as in tests/tf_snippets.py."""

# Results as TF prints them (RaggedTensors, SparseTensors and shapes are not arrays).
TEXT = "def _text(items):\n    return [str(x) for x in items]\n"
R = "r = tf.ragged.constant([[3, 1, 4], [], [5, 9], [2]])\n"
F = "f = tf.ragged.constant([[1.5, -2.0], [0.25], [], [4.0, 9.0, 1.0]])\n"
T = "t = tf.ragged.constant([[[1, 2], [3]], [], [[4, 5, 6], [], [7]]])\n"
S = ("s = tf.sparse.SparseTensor(indices=[[1, 2], [0, 1], [2, 0]], values=[5., 2., 7.],"
     " dense_shape=[3, 4])\n")

CASES = {
    "ragged unary ops and operators": R + F + """
out = _text([tf.math.abs(f), tf.math.exp(f), tf.math.sqrt(tf.abs(f)), -r, abs(-r), r * 2, 2 - r,
       r // 2, r % 3, r ** 2, r < 3, r >= 3, tf.cast(r, tf.float32), tf.math.square(f),
       tf.nn.relu(f), tf.strings.as_string(r), tf.ones_like(r), tf.zeros_like(f)])
""",
    "ragged binary ops between ragged tensors and with dense ones": R + F + """
out = _text([r + r, tf.maximum(r, 2), tf.math.multiply(r, r), r / 2, f - 1.0, 10 * f,
       tf.math.truediv(r, r), tf.equal(r, 1), tf.logical_and(r > 1, r < 5)])
""",
    "ragged reductions over every axis": R + F + T + """
out = _text([tf.reduce_sum(r, axis=0), tf.reduce_sum(r, axis=1), tf.reduce_sum(r),
       tf.reduce_max(r, axis=0), tf.reduce_max(r, axis=1), tf.reduce_min(r, axis=-1),
       tf.reduce_prod(r, axis=1), tf.reduce_mean(f, axis=1), tf.reduce_mean(f, axis=0),
       tf.reduce_mean(r), tf.reduce_sum(t, axis=0), tf.reduce_sum(t, axis=1),
       tf.reduce_sum(t, axis=2), tf.reduce_max(t, axis=[1, 2]),
       tf.reduce_any(r > 4, axis=1), tf.reduce_all(r > 0, axis=1)])
""",
    "ragged reduction refuses an axis out of range": R + """
tf.reduce_sum(r, axis=2)
""",
    "ragged row partitions": R + T + """
out = _text([r.row_lengths(), r.value_rowids(), r.row_starts(), r.row_limits(), r.nrows(),
       t.nested_row_lengths(), t.row_lengths(axis=2), t.nested_row_splits,
       r.with_flat_values(tf.range(6) * 10),
       tf.RaggedTensor.from_value_rowids([1, 2, 3], [0, 0, 2], nrows=4),
       tf.RaggedTensor.from_row_lengths([1, 2, 3], [2, 0, 1]).to_list()])
""",
    "ragged conversions to and from dense and sparse tensors": R + T + """
x = tf.constant([[1, 0, 0], [2, 3, 0], [0, 0, 0]])
out = _text([tf.RaggedTensor.from_tensor(x), tf.RaggedTensor.from_tensor(x, padding=0),
       tf.RaggedTensor.from_tensor(x, lengths=[1, 3, 0]),
       tf.RaggedTensor.from_tensor(tf.reshape(tf.range(8), [2, 2, 2]), ragged_rank=2),
       r.to_tensor(), r.to_tensor(default_value=-1, shape=[3, 2]), t.to_tensor(),
       t.to_sparse(), tf.RaggedTensor.from_sparse(r.to_sparse())])
""",
    "ragged concat, stack and tile": R + T + """
out = _text([tf.concat([r, r], axis=0), tf.concat([r, r * 10], axis=1),
       tf.concat([t, t], axis=1), tf.concat([t, t], axis=2), tf.stack([r, r[:2]]),
       tf.tile(r, [2, 2]), tf.reverse(r, [0]), tf.reverse(r, [1])])
""",
    "ragged concat refuses different row counts along axis 1": R + """
tf.concat([r, r[:2]], axis=1)
""",
    "ragged boolean_mask": R + T + """
out = _text([tf.ragged.boolean_mask(r, r > 2), tf.ragged.boolean_mask(t, t > 3),
             tf.ragged.boolean_mask(r, [True, False, True, False])])
""",
    "boolean_mask refuses ragged data (tf.ragged.boolean_mask takes it)": R + """
tf.boolean_mask(r, r > 2)
""",
    "ragged indexing": R + T + """
out = _text([r[-1], r[1:3], r[::2], r[:, 1:], r[:, :-1], r[2, 1], r[-2:, -1:], t[2, 0],
             t[:, 1:],       t[:, :, :1], t[0, 0, 1]])
""",
    "ragged indexing refuses an int in a ragged dimension": R + """
r[:, 0]
""",
    "ragged broadcasting": R + T + """
d = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
out = _text([r + tf.constant([[100], [200], [300], [400]]), d * tf.constant([10, 100]),
       d + tf.constant([[1], [2]]), t + tf.constant([[[1]], [[2]], [[3]]]), t * 0.5])
""",
    "ragged broadcasting refuses rows of other lengths": R + """
r + tf.ragged.constant([[1, 2, 3], [], [4], [5]])
""",
    "ragged broadcasting refuses a dense dimension of another size": R + """
r + tf.constant([[1, 2], [3, 4], [5, 6], [7, 8]])
""",
    "ragged map_flat_values and range": R + """
out = _text([tf.ragged.map_flat_values(tf.add, r, r), tf.ragged.map_flat_values(tf.ones_like, r),
       tf.ragged.range([3, 0, 2]), tf.ragged.range([0, 5], [4, 1], [2, -2]),
       tf.ragged.range(tf.constant([2, 3], tf.int64))])
""",
    "ragged map_flat_values refuses different row partitions": R + """
tf.ragged.map_flat_values(tf.add, r, tf.ragged.constant([[1], [2, 3], [4, 5], [6]]))
""",
    "ragged map_fn and strings": """
w = tf.ragged.constant([['a', 'bc'], ['def']])
out = _text([tf.map_fn(tf.reduce_sum, tf.ragged.constant([[1, 2], [3]]),
                       fn_output_signature=tf.int32),
       tf.strings.length(w), tf.strings.upper(w), tf.strings.join([w, w], separator='-'),
       tf.strings.to_hash_bucket_fast(w, 10)])
""",
    "ragged shapes: DynamicRaggedShape": T + """
s = tf.shape(t)
out = _text([s, s[0], s[:1], s.rank, tf.ones(s, tf.int32), tf.reshape(tf.range(7), s),
       tf.experimental.DynamicRaggedShape.from_lengths([2, (1, 2), 3])])
""",
    "sparse reorder, add and concat": S + """
t = tf.sparse.SparseTensor(indices=[[0, 1], [2, 3]], values=[1., -7.], dense_shape=[3, 4])
out = _text([tf.sparse.reorder(s), tf.sparse.add(tf.sparse.reorder(s), t),
       tf.sparse.add(tf.sparse.reorder(s), t, threshold=1.5),
       tf.sparse.add(t, tf.ones([3, 4])), tf.sparse.concat(0, [t, t]),
       tf.sparse.concat(1, [t, tf.sparse.reorder(s)])])
""",
    "sparse add refuses different shapes": S + """
tf.sparse.add(s, tf.sparse.SparseTensor(indices=[[0, 0]], values=[1.], dense_shape=[3, 3]))
""",
    "sparse slice, transpose and reductions": S + """
s = tf.sparse.reorder(s)
out = _text([tf.sparse.slice(s, [0, 1], [2, 5]), tf.sparse.transpose(s),
       tf.sparse.reduce_sum(s), tf.sparse.reduce_sum(s, axis=0),
       tf.sparse.reduce_sum(s, axis=1, keepdims=True), tf.sparse.reduce_max(s, axis=1),
       tf.sparse.reduce_max(s)])
""",
    "sparse products with dense tensors": S + """
s = tf.sparse.reorder(s)
b = tf.reshape(tf.range(8, dtype=tf.float32), [4, 2])
out = _text([tf.sparse.sparse_dense_matmul(s, b),
       tf.sparse.sparse_dense_matmul(s, tf.transpose(b), adjoint_b=True),
       tf.sparse.sparse_dense_matmul(tf.sparse.transpose(s), tf.ones([4, 1]), adjoint_a=True),
       s * 2.0, s * tf.constant([1., 10., 100., 1000.]), s / 2.0,
       tf.sparse.map_values(tf.multiply, s, s)])
""",
    "sparse_dense_matmul refuses an inner dimension of another size": S + """
tf.sparse.sparse_dense_matmul(s, tf.ones([3, 2]))
""",
}
CASES.update({
    "tf.function of RaggedTensors: a trace per RaggedTensorSpec": R + """
traces = []
@tf.function
def f(x):
    traces.append(repr(x.shape))
    return x * 2
a = f(r)
b = f(tf.ragged.constant([[1], [2, 3, 4], [], [5, 6]]))
c = f(tf.ragged.constant([[1], [2]]))
d = f(tf.ragged.constant([[1.5], [2.5]]))
out = _text([a, b, c, d, f.experimental_get_tracing_count(), traces])
""",
    "tf.function with a RaggedTensorSpec input_signature": R + """
@tf.function(input_signature=[tf.RaggedTensorSpec(shape=[None, None], dtype=tf.int32)])
def g(x):
    return tf.reduce_sum(x, axis=1), x.row_lengths(), x[:, :1]
cf = g.get_concrete_function()
out = _text([g(r), g(tf.ragged.constant([[7, 8, 9]])), g.experimental_get_tracing_count(),
             cf.structured_input_signature])
""",
    "a RaggedTensorSpec input_signature refuses a float RaggedTensor": R + """
@tf.function(input_signature=[tf.RaggedTensorSpec(shape=[None, None], dtype=tf.int32)])
def g(x):
    return x
g(tf.ragged.constant([[1.5]]))
""",
    "tf.function of SparseTensors: a trace per dense shape": S + """
@tf.function
def h(x):
    return tf.sparse.reduce_sum(x, axis=1), tf.sparse.to_dense(x * 2.0)
t = tf.sparse.SparseTensor(indices=[[0, 0]], values=[4.], dense_shape=[3, 4])
u = tf.sparse.SparseTensor(indices=[[0, 0]], values=[4.], dense_shape=[2, 2])
out = _text([h(tf.sparse.reorder(s)), h(t), h.experimental_get_tracing_count(), h(u),
             h.experimental_get_tracing_count(),
             h.get_concrete_function(t).structured_input_signature])
""",
    "an empty row's max and min: the dtype's lowest and highest; a sparse group's: 0": """
r = tf.ragged.constant([[1.5], []])
s = tf.sparse.SparseTensor(indices=[[0, 0]], values=[1.], dense_shape=[2, 2])
out = _text([tf.reduce_max(r, axis=1), tf.reduce_min(r, axis=1),
             tf.reduce_max(tf.ragged.constant([[1.5], []], dtype=tf.float64), axis=1),
             tf.reduce_max(tf.ragged.constant([[1], []]), axis=1),
             tf.sparse.reduce_max(s, axis=1), tf.sparse.reduce_sum(s, axis=0)])
""",
    "ragged constants and factories inside a tf.function": R + """
@tf.function
def g(x):
    c = tf.ragged.constant([[1, 2], [3]])
    return (tf.reduce_sum(c, axis=1) + x,
            tf.RaggedTensor.from_row_lengths(tf.range(x), [1, x - 1]),
            tf.RaggedTensor.from_value_rowids(tf.range(x), [0, 2, 2], nrows=4),
            tf.RaggedTensor.from_tensor(tf.reshape(tf.range(x * 2), [x, 2]), lengths=[1, 0, 2]))
out = _text([g(tf.constant(3)), g.experimental_get_tracing_count()])
""",
    "gradients through ragged ops; expand_dims and keepdims": T + """
v = tf.Variable([1.0, 2.0, 3.0, 4.0])
with tf.GradientTape(persistent=True) as tape:
    rt = tf.RaggedTensor.from_row_lengths(v * 1.0, [3, 1])
    ys = [tf.reduce_sum(rt * rt, axis=1), tf.reduce_max(rt, axis=1),
          tf.reduce_min(tf.RaggedTensor.from_row_lengths(v * 0.0 + 1.0, [2, 2]), axis=1),
          tf.reduce_mean(rt, axis=0), tf.reduce_sum(rt + tf.constant([[1.0], [2.0]]))]
out = _text([tape.gradient(y, v) for y in ys] + [
    tf.expand_dims(t, 0), tf.expand_dims(t, 1), tf.expand_dims(t, 2), tf.expand_dims(t, -1),
    tf.expand_dims(t, 1).shape, tf.reduce_sum(t, axis=2, keepdims=True),
    tf.reduce_max(t, axis=1, keepdims=True)])
""",
    "datasets of RaggedTensors and SparseTensors: element specs": R + S + """
ds = tf.data.Dataset.from_tensor_slices(r)
rb = tf.data.Dataset.range(1, 5).map(tf.range).ragged_batch(3, drop_remainder=True)
sp = tf.data.Dataset.from_tensor_slices(tf.sparse.reorder(s))
out = _text([ds.element_spec, ds.batch(2).element_spec, list(ds.batch(3)), rb.element_spec,
             list(rb), sp.element_spec, sp.batch(2).element_spec,
             [tf.sparse.to_dense(x) for x in sp.batch(2)]])
""",
})
# ragged24: comparison, selection, n-grams, stack along inner axes, tile of two ragged dims
ERR = ("def _error(fn):\n    try:\n        fn()\n    except Exception as e:\n"
       "        return type(e).__name__ + ': ' + str(e)\n    return 'no error'\n")
CASES.update({
    "ragged == and != compare element-wise, or not at all": R + """
q = tf.ragged.constant([[3, 1], [5]])
t = tf.constant([[1, 2], [3, 4]])
u = tf.ragged.constant([[1, 2], [3, 4]])
out = _text([r == r, r == 3, r != 1, 3 == r, q == r, r == t, t == r, u == t, t != u, r != q,
             r == None, r != None])
""",
    "hashing a RaggedTensor": R + ERR + """
out = [_error(lambda: hash(r)), _error(lambda: {r: 1})]
""",
    "ragged tf.where": R + F + ERR + """
out = _text([tf.where(r > 2, r, r * 10), tf.where(r > 2), tf.where(f > 0.5, f, 0.0),
             tf.where(r > 2, 1, 0), tf.where(tf.ragged.constant([[[True], [False]], [[True]]])),
             tf.where(r > 2, r, tf.constant([[100], [200], [300], [400]])),
             _error(lambda: tf.where(r > 2, r, tf.ragged.constant([[1], [2], [3], [4]])))])
""",
    "ragged tf.gather and tf.gather_nd": R + T + """
out = _text([tf.gather(r, [2, 0, 0]), tf.gather(r, tf.ragged.constant([[2, 0], [], [3]])),
             tf.gather(tf.constant([10, 20, 30]), tf.ragged.constant([[2, 0], [1]])),
             tf.gather(t, [2, 1]), tf.gather(r, [[0, 3], [2, 2]]),
             tf.gather_nd(r, [[0, 1], [2, 0]]), tf.gather_nd(r, [[2], [0]]),
             tf.gather_nd(t, [[2, 0], [0, 1]]), tf.gather_nd(t, [[2, 0, 1]]),
             tf.gather(r, [2, 0]).shape, tf.gather(r, [[0, 3], [2, 2]]).shape])
""",
    "tf.strings.ngrams": ERR + """
words = tf.ragged.constant([['a', 'b', 'c', 'd'], ['e'], [], ['f', 'g']])
out = _text([tf.strings.ngrams(words, 2), tf.strings.ngrams(words, (1, 3), separator='_'),
             tf.strings.ngrams(words, 2, pad_values=('<', '>')),
             tf.strings.ngrams(words, 3, pad_values='#', padding_width=1),
             tf.strings.ngrams(words, 3, preserve_short_sequences=True),
             tf.strings.ngrams(words, 4, pad_values=('<', '>'), padding_width=2,
                               preserve_short_sequences=True),
             tf.strings.ngrams(tf.constant(['x', 'y', 'z']), 2),
             tf.strings.ngrams(tf.constant([['x', 'y', 'z'], ['u', 'v', 'w']]), 2),
             tf.strings.ngrams(tf.ragged.constant([[['a', 'b'], ['c']], [['d', 'e', 'f']]]), 2),
             _error(lambda: tf.strings.ngrams(words, 0)),
             _error(lambda: tf.strings.ngrams(words, 2, padding_width=1)),
             _error(lambda: tf.strings.ngrams(words, 2, pad_values=3)),
             _error(lambda: tf.strings.ngrams(tf.constant('x'), 2))])
""",
    "ragged stack along inner axes": R + T + ERR + """
s1, s2 = tf.stack([r, r * 10], axis=1), tf.ragged.stack([r, r * 10], axis=2)
s3 = tf.stack([t, t], axis=-1)
out = _text([s1, s1.shape, s2, s2.shape, s3, s3.shape, tf.ragged.stack([t, t], axis=1),
             _error(lambda: tf.stack([r, r], axis=3))])
""",
    "ragged tile of two ragged dimensions": T + """
u = tf.ragged.constant([[[1.5], [2.5, 3.5]], [[4.5]]], ragged_rank=2)
a, b = tf.tile(t, [2, 2, 1]), tf.tile(t, [1, 2, 3])
out = _text([a, a.shape, b, b.shape, tf.tile(t, [0, 1, 1]), tf.tile(u, [1, 1, 2])])
""",
    "a map's RaggedTensors and SparseTensors batched": """
ds = tf.data.Dataset.from_tensor_slices(['a b', 'c d e', 'f'])
words = ds.map(lambda s: tf.strings.split([s]))
ranges = tf.data.Dataset.range(1, 4).map(lambda n: tf.ragged.range(tf.range(n)))
sparse = tf.data.Dataset.range(1, 4).map(
    lambda n: tf.sparse.SparseTensor([[0, n - 1]], [n * 10], [1, n]))
out = _text(list(words.batch(2)) + list(ranges.batch(2)) + list(ranges.batch(2).unbatch())
            + [tf.sparse.to_dense(x) for x in sparse.batch(2)])
""",
})
CASES["ragged indexing with Ellipsis"] = T + ERR + """
out = _text([t[0:2, ...], t[..., 0:1], t[1, ...], t[...], t[:, ...], t[:, 1:, ...],
             t[2, ..., 1:]])
out += [_error(lambda: t[..., 0]), _error(lambda: t[..., ..., 0]),
        _error(lambda: t[0, 0, 0, ...]),
        _error(lambda: t[0, 0, 0, 0, ...]).split(":")[0]]   # a dense row's error (a device)
"""
CASES = {name: TEXT + code for name, code in CASES.items()}

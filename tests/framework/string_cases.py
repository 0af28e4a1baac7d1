"""String tensors as TF 2.21 gives them (recorded by record_tf_strings.py into
fixtures/tf_strings.json, replayed by test_strings_tf_conformance.py): tf.constant of str /
bytes / lists, numpy() as bytes, repr and str, tf.print's quoting (printed to a file), the
ops that move strings, tf.strings, and the errors of numeric ops given strings.
Snippets as in tests/tf_snippets.py."""

PRINTED = """
import os, tempfile
def printed(*args, **kwargs):
    fd, path = tempfile.mkstemp()
    os.close(fd)
    tf.print(*args, output_stream="file://" + path, **kwargs)
    with open(path, "rb") as f:
        text = f.read().decode("utf-8")
    os.remove(path)
    return text
"""

U = "u = tf.constant([b'a', 'bc'])\n"

CASES = {
    "constant of str is bytes": """
t = tf.constant('h\u00e9llo')
out = [t, t.numpy(), repr(t.numpy()), t.dtype.name, str(t.shape), t.shape.rank]
""",
    "repr and str of string tensors": """
out = [repr(tf.constant('h\u00e9llo')), str(tf.constant('x')),
       repr(tf.constant([b'a', 'bc'])), str(tf.constant([b'a', 'bc'])),
       repr(tf.constant([['a', 'b'], ['c', 'd']])), str(tf.constant([['a', 'b'], ['c', 'd']])),
       repr(tf.constant([], dtype=tf.string)), repr(tf.Variable(['a', 'b']))]
""",
    "the string dtype": """
out = [repr(tf.string), str(tf.string), tf.string.name, tf.string.size,
       tf.string.is_floating, tf.string.is_integer, tf.string.as_numpy_dtype is object,
       tf.as_dtype(np.object_) == tf.string, tf.as_dtype('string') == tf.string,
       tf.as_dtype(np.str_) == tf.string, tf.dtypes.string == tf.string,
       repr(tf.TensorSpec([None], tf.string))]
""",
    "NumPy text arrays convert to strings": """
out = [tf.constant(np.array(['a', 'b'])), tf.convert_to_tensor(np.array([b'a', b'bc'])),
       tf.constant(np.array([b'a', 'b'], dtype=object)), tf.constant(np.str_('abc')),
       tf.constant(np.array(['\u00e9'])).numpy(), tf.constant(b'\\xff').numpy()]
""",
    "mixing str and bytes is fine": "out = tf.constant(['a', b'b'])",
    "mixing text and numbers is refused": "out = tf.constant(['a', 1])",
    "non-rectangular text is refused": "out = tf.constant([['a'], ['b', 'c']])",
    "text for a float dtype is refused": "out = tf.constant('a', dtype=tf.float32)",
    "a number for the string dtype is refused": "out = tf.constant(1.0, dtype=tf.string)",
    "an empty string tensor": "out = [tf.constant([], dtype=tf.string), tf.zeros([2], tf.string)]",
    "ops that move strings": U + """
out = [tf.reshape(u, [2, 1]), tf.concat([u, u], 0), tf.stack([u, u]), tf.gather(u, [1, 0]),
       tf.tile(u, [2]), tf.expand_dims(u, 0), tf.transpose([u]), tf.squeeze([u]), u[1:], u[0],
       tf.where([True, False], u, tf.constant(['x', 'y'])), tf.identity(u),
       tf.fill([2], 'x'), tf.zeros_like(u), tf.shape(u), tf.size(u), len(u),
       [x.numpy() for x in u]]
""",
    "strings compare and concatenate": U + """
out = [tf.equal(u, 'a'), u != 'a', tf.constant('a') == 'a', tf.add(u, u), u + 'x',
       bool(tf.constant('a'))]
""",
    "adding a number to a string": U + "out = u + 1",
    "string minus string": U + "out = u - u",
    "string times string": U + "out = u * u",
    "string divided by string": U + "out = u / u",
    "string floordiv": U + "out = u // u",
    "string mod": U + "out = u % u",
    "string pow": U + "out = u ** u",
    "negative string": U + "out = -u",
    "abs of a string": U + "out = abs(u)",
    "string less than": U + "out = u < u",
    "string greater or equal": U + "out = u >= u",
    "reduce_sum of strings": U + "out = tf.reduce_sum(u)",
    "reduce_mean of strings": U + "out = tf.reduce_mean(u)",
    "reduce_max of strings": U + "out = tf.reduce_max(u)",
    "sqrt of strings": U + "out = tf.sqrt(u)",
    "square of strings": U + "out = tf.square(u)",
    "matmul of strings": U + "out = tf.matmul([u], [u])",
    "maximum of strings": U + "out = tf.maximum(u, u)",
    "argmax of strings": U + "out = tf.argmax(u)",
    "add_n of strings": U + "out = tf.add_n([u, u])",
    "ones_like of strings": U + "out = tf.ones_like(u)",
    "cast string to float": U + "out = tf.cast(u, tf.float32)",
    "cast int to string": "out = tf.cast(tf.constant(1), tf.string)",
    "tf.print quotes string elements": PRINTED + """
s = tf.constant('a"b\\n\\'c\\\\\u00e9\\x01\\x7f\\t')
out = [printed(s), printed([s]), printed(tf.stack([s, 'x'])),
       printed(tf.constant([str(i) for i in range(10)])), printed(tf.constant('')),
       printed(tf.constant([''])), printed('lit', tf.constant('t')),
       printed(tf.constant([[['a']]])), printed({'k': tf.constant(['v'])}),
       printed(tf.constant(['a', 'b', 'c']), summarize=1)]
""",
    "tf.strings element-wise": """
u = tf.constant(['Hello', ' World '])
out = [tf.strings.join([u, 'x'], separator='-'), tf.strings.join(['a', 'b']),
       tf.strings.length(tf.constant(['\u00e9', 'ab'])),
       tf.strings.length(tf.constant(['\u00e9', 'ab']), unit='UTF8_CHAR'),
       tf.strings.lower(u), tf.strings.upper(u), tf.strings.strip(u),
       tf.strings.regex_full_match(u, 'H.*'), tf.strings.regex_replace(u, 'o', '0'),
       tf.strings.regex_replace(u, 'o', '0', replace_global=False),
       tf.strings.substr(u, 1, 3)]
""",
    "tf.strings.reduce_join": """
x = [['a', 'b'], ['c', 'd']]
out = [tf.strings.reduce_join(x, axis=1, separator=','), tf.strings.reduce_join(x),
       tf.strings.reduce_join(x, axis=0, keepdims=True)]
""",
    "tf.strings.to_number and as_string": """
out = [tf.strings.to_number(['1.5', '2']), tf.strings.to_number(['3', '-2'], out_type=tf.int64),
       tf.strings.as_string([1.5, 2.0]), tf.strings.as_string([1, 22]),
       tf.strings.as_string([1.25], precision=1), tf.strings.as_string([True, False])]
""",
    "tf.strings.to_hash_bucket_fast (FarmHash)": """
words = ['', 'a', 'ab', 'avenger', 'hello world!', 'x' * 17, 'y' * 33, 'z' * 64,
         'the quick brown fox jumps over the lazy dog ' * 3, '\u00e9' * 100]
out = [tf.strings.to_hash_bucket_fast(words, 1000), tf.strings.to_hash_bucket_fast(words, 7),
       tf.strings.to_hash_bucket_fast('avenger', 2 ** 40),
       tf.strings.to_hash_bucket_fast(tf.constant([['p', 'q'], ['r', 's']]), 3)]
""",
    "to_number of text that is no number": "out = tf.strings.to_number(['x'])",
    "to_number of a float as an int": "out = tf.strings.to_number(['1.5'], out_type=tf.int32)",
    "tf.strings.join of a number": "out = tf.strings.join([tf.constant(['a']), tf.constant([1])])",
    "tf.strings.lower of a float": "out = tf.strings.lower(tf.constant(1.0))",
    "tf.strings.join of different shapes": """
out = tf.strings.join([tf.constant(['a', 'b']), tf.constant(['a', 'b', 'c'])])
""",
    "string datasets": """
ds = tf.data.Dataset.from_tensor_slices({'f': [['a', 'b'], ['c', 'd']]})
out = [list(tf.data.Dataset.from_tensor_slices(['a', 'b']).as_numpy_iterator()),
       repr(ds.element_spec), [e['f'] for e in ds], list(ds.batch(2).as_numpy_iterator())[0]['f']]
""",
    "string variables": """
v = tf.Variable('abc')
v.assign('de')
out = [v.dtype.name, v.numpy(), v.trainable, repr(v.read_value())]
""",
}

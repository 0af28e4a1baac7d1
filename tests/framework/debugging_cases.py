"""tf.debugging.check_numerics and the assert_* family as TF 2.21 gives them (recorded by
record_tf_strings.py group ``debugging`` into fixtures/tf_debugging.json, replayed by
test_strings_tf_conformance.py): each assert's whole message, eager, traced (a graph Assert
checked at execution; constants checked while tracing) and static (rank, type, scalar).
Snippets as in tests/tf_snippets.py."""

# [type, message] of what fn raises, the eager kernel wrapper TF adds ({{function_node
# __wrapped__...}} ... name: ) and a graph execution error's frames left out
_ERR = """
import re
def err(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error is the result
        text = re.sub(r"^\\{\\{function_node [^}]*\\}\\} ", "", str(e))
        text = re.sub(r" name: $", "", text)
        if text.startswith("Graph execution error:"):
            text = [line for line in text.splitlines()
                    if line.strip() and not line.strip().startswith("[[")][-1]
        return [type(e).__name__, text]
    return None
"""

CASES = {
    "check_numerics passes finite tensors through": """
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = tf.debugging.check_numerics(x * 3.0, 'ok')
out = [y, tape.gradient(y, x), tf.debugging.check_numerics(1.0, 'py')]
""",
    "check_numerics of a NaN": """
out = tf.debugging.check_numerics(tf.constant([1.0, float('nan')]), 'bad loss')
""",
    "check_numerics of an Inf": """
out = tf.debugging.check_numerics(tf.constant([1.0, float('inf')]), 'm')
""",
    "check_numerics of Inf and NaN": """
out = tf.debugging.check_numerics(tf.constant([float('-inf'), float('nan')], tf.float64), 'm')
""",
    "check_numerics of integers": "out = tf.debugging.check_numerics(tf.constant([1, 2]), 'm')",
    "assert_* eagerly: None, or TF's message": _ERR + """
x = tf.constant([1, 2, 3, 4])
y = tf.constant([1, 0, 3, 0])
checks = [lambda: tf.debugging.assert_equal(x, x), lambda: tf.debugging.assert_equal(x, y),
          lambda: tf.debugging.assert_equal(x, y, message="bad", summarize=1),
          lambda: tf.debugging.assert_equal(1, 2), lambda: tf.debugging.assert_equal(x, 1),
          lambda: tf.debugging.assert_less(x, 3),
          lambda: tf.debugging.assert_less_equal(x, tf.constant([1, 2, 3, 3])),
          lambda: tf.debugging.assert_greater(x, 0),
          lambda: tf.debugging.assert_greater_equal(tf.constant([[1.5, 2.0], [0.0, 3.0]]), 1.0),
          lambda: tf.debugging.assert_none_equal(x, y),
          lambda: tf.debugging.assert_positive(tf.constant([-1, 2])),
          lambda: tf.debugging.assert_negative(tf.constant([-1.0, 2.0]), message="m"),
          lambda: tf.debugging.assert_non_negative(tf.constant([-1, 2])),
          lambda: tf.debugging.assert_non_positive(tf.constant([1])),
          lambda: tf.debugging.assert_equal(tf.zeros([2, 3]), tf.ones([2, 3])),
          lambda: tf.debugging.assert_less(tf.range(10), 5, summarize=-1),
          lambda: tf.debugging.assert_near(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.5])),
          lambda: tf.debugging.assert_near(tf.constant([1.0]), tf.constant([1.05]), rtol=0.1),
          lambda: tf.debugging.assert_all_finite(tf.constant([1.0, float("nan")]), "finite"),
          lambda: tf.assert_equal(x, y), lambda: tf.assert_less(x, 0),
          lambda: tf.assert_greater(x, 9)]
out = [err(f) for f in checks]
""",
    "assert_rank, assert_type, assert_scalar: static checks": _ERR + """
x = tf.constant([1, 2, 3, 4])
@tf.function
def k(a):
    tf.debugging.assert_rank(a, 2)
    return a
@tf.function
def t(a):
    tf.debugging.assert_type(a, tf.float32, message="types")
    return a
@tf.function
def s(a):
    return tf.debugging.assert_scalar(a)
out = [err(lambda: tf.debugging.assert_rank(x, 1)), err(lambda: tf.debugging.assert_rank(x, 2)),
       err(lambda: tf.debugging.assert_rank(x, 2, message="rank")),
       err(lambda: tf.assert_rank(x, 1)),
       err(lambda: tf.debugging.assert_type(x, tf.int32)),
       err(lambda: tf.debugging.assert_type(x, tf.float32)),
       err(lambda: tf.debugging.assert_scalar(x)), tf.debugging.assert_scalar(tf.constant(2.0)),
       err(lambda: k(tf.constant([1, 2]))), err(lambda: t(tf.constant([1, 2]))),
       err(lambda: s(tf.constant([1, 2]))), s(tf.constant(3))]
""",
    "assert_* in a tf.function: checked at each execution": _ERR + """
@tf.function
def g(a, b):
    tf.debugging.assert_equal(a, b)
    tf.debugging.assert_positive(a, message="pos")
    tf.debugging.assert_near(tf.cast(a, tf.float32), tf.cast(b, tf.float32))
    return a + b
@tf.function
def h():
    tf.debugging.assert_equal(tf.constant(1), tf.constant(2), message="static")
    return 1
@tf.function
def ok():
    tf.debugging.assert_less(tf.constant(1), 2)
    return 1
out = [g(tf.constant([1, 2]), tf.constant([1, 2])), err(lambda: g(tf.constant([1, 2]),
                                                              tf.constant([1, 3]))),
       err(lambda: g(tf.constant([-1, 2]), tf.constant([-1, 2]))),
       g.experimental_get_tracing_count(), err(h), ok()]
""",
}

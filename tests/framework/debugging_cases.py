"""tf.debugging.check_numerics as TF 2.21 gives it (recorded by record_tf_strings.py group
``debugging`` into fixtures/tf_debugging.json, replayed by test_strings_tf_conformance.py).
Snippets as in tests/tf_snippets.py."""

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
}

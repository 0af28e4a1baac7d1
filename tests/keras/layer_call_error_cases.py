"""An error raised inside a Keras layer's ``call``, as tf-keras 2.21 words it
(record_tf_keras.py records, test_layer_call_errors.py replays): "Exception encountered
when calling layer 'bad' (type Bad).", the original message, then the call's arguments
("Call arguments received by layer ..."), added by the innermost failing layer only.
Each case returns the error's type and its whole text (inside a tf.function: the text
from the layer's own line on, TF's frames before it being tf-keras's files). Snippets as
in tests/tf_snippets.py."""

SETUP = """
class Bad(tf.keras.layers.Layer):
    def call(self, x, scale=2, extra=None, training=None):
        raise ValueError("bad input")
class NoMessage(Exception):
    def __init__(self):
        super().__init__()
class Odd(tf.keras.layers.Layer):
    def call(self, x):
        raise NoMessage()
class Outer(tf.keras.layers.Layer):
    def __init__(self, **kw):
        super().__init__(**kw)
        self.inner = Bad(name="inner_bad")
    def call(self, x):
        return self.inner(x * 2.0)
def text(fn):
    try:
        fn()
        return ["no error"]
    except Exception as e:
        return [type(e).__name__, str(e)]
"""

CASES = {
    "a layer's error with its call arguments": SETUP + """
out = text(lambda: Bad(name="bad")(tf.ones([2, 3]), 3))
""",
    "arguments: a list of tensors, a NumPy array, a keyword, a string": SETUP + """
out = text(lambda: Bad(name="bad")([tf.ones([2]), tf.zeros([1, 4], tf.int32)],
                                   np.arange(3), extra="why", training=True))
""",
    "only the innermost failing layer adds its arguments": SETUP + """
out = text(lambda: Outer(name="outer")(tf.ones([2, 3])))
""",
    "an error type that takes no message becomes a RuntimeError": SETUP + """
out = text(lambda: Odd(name="odd")(tf.ones([1])))
""",
    "a failing layer inside a Sequential model": SETUP + """
m = tf.keras.Sequential([tf.keras.layers.Dense(2, name="d"), Bad(name="bad")])
out = text(lambda: m(np.ones((1, 3), np.float32)))
""",
    "a failing layer called in a tf.function: the arguments part": SETUP + """
layer = Bad(name="bad")
f = tf.function(lambda x: layer(x))
r = text(lambda: f(tf.ones([4, 3])))
out = [r[0], r[1].split("Call arguments received by ")[-1]]
""",
}

"""An unknown loss or metric given to ``compile``, as tf-keras 2.21 treats it
(record_tf_keras.py records the "compile_errors" group, test_compile_errors.py replays):
``compile`` accepts any name; the first ``fit`` / ``evaluate`` / ``train_on_batch`` step
builds the compiled loss and metrics in its trace and raises there: an unknown loss name
TF's ValueError ("Unknown loss function: 'msee'. Please ensure ..."); an unknown metric
name is kept as the string itself (``tf.keras.metrics.get`` returns an unknown name
unchanged) and wrapped as a metric function, so the step's update raises TypeError "'str'
object is not callable". Names that Keras picks a function for from the shapes:
"accuracy"/"acc" and "crossentropy"/"ce", in any case ("Accuracy").

Each case returns the error's type and its cause, the last line of TF's "in user code:"
text without the type's name (the frames before it are tf-keras's files)."""

SETUP = """
x = np.arange(12, dtype="float32").reshape(4, 3) / 10
y = np.array([[0.], [1.], [1.], [0.]], "float32")
def model(units=1):
    m = tf.keras.Sequential([tf.keras.layers.Dense(units, input_shape=(3,))])
    m.set_weights([np.full((3, units), 0.1, "float32"), np.zeros(units, "float32")])
    return m
def cause(fn):
    try:
        fn()
        return ["no error"]
    except Exception as e:
        last = str(e).rstrip().split("\\n")[-1].strip()
        prefix = type(e).__name__ + ": "
        return [type(e).__name__, last[len(prefix):] if last.startswith(prefix) else last]
"""

CASES = {
    "an unknown loss name: compile accepts it, fit raises TF's ValueError": SETUP + """
m = model()
m.compile("sgd", loss="msee")
out = ["compiled", cause(lambda: m.fit(x, y, epochs=1, verbose=0))]
""",
    "an unknown loss name: evaluate raises it too": SETUP + """
m = model()
m.compile("sgd", loss="nope")
out = cause(lambda: m.evaluate(x, y, verbose=0))
""",
    "an unknown loss name: train_on_batch raises it": SETUP + """
m = model()
m.compile("sgd", loss="nope")
out = cause(lambda: m.train_on_batch(x, y))
""",
    "a loss that is not a name nor a callable: at fit": SETUP + """
m = model()
m.compile("sgd", loss=3)
out = cause(lambda: m.fit(x, y, epochs=1, verbose=0))
""",
    "an unknown metric name: compile accepts it, fit raises TypeError": SETUP + """
m = model()
m.compile("sgd", loss="mse", metrics=["acuracy"])
out = ["compiled", cause(lambda: m.fit(x, y, epochs=1, verbose=0))]
""",
    "an unknown metric name: evaluate raises it too": SETUP + """
m = model()
m.compile("sgd", loss="mse", metrics=["mae", "nope"])
out = cause(lambda: m.evaluate(x, y, verbose=0))
""",
    "an unknown loss and an unknown metric: the loss's error comes first": SETUP + """
m = model()
m.compile("sgd", loss="nope", metrics=["nope"])
out = cause(lambda: m.fit(x, y, epochs=1, verbose=0))
""",
    "a metric that is not a name nor a callable: TF's ValueError at fit": SETUP + """
m = model()
m.compile("sgd", loss="mse", metrics=[3])
out = cause(lambda: m.fit(x, y, epochs=1, verbose=0))
""",
    "tf.keras.metrics.get and losses.get of unknown names": SETUP + """
out = [tf.keras.metrics.get("acuracy"), cause(lambda: tf.keras.losses.get("msee")),
       cause(lambda: tf.keras.metrics.get(3))]
""",
    "'Accuracy', 'ce' and 'crossentropy' as metric names: picked from the shapes": SETUP + """
m = model()
m.compile("sgd", loss="mse", metrics=["Accuracy", "ce", "crossentropy", "ACC"])
h = m.fit(x, y, epochs=1, verbose=0)
m2 = model(2)
m2.compile("sgd", loss="mse", metrics=["ce"])
h2 = m2.fit(x, np.eye(2, dtype="float32")[[0, 1, 1, 0]], epochs=1, verbose=0)
out = [sorted((k, round(v[0], 5)) for k, v in h.history.items()),
       sorted((k, round(v[0], 5)) for k, v in h2.history.items())]
""",
}

"""Keras's step functions as TF 2.21 (tf-keras) traces them (record_tf_keras.py records the
"fit_trace" group into fixtures/tf_fit_trace.json; test_fit_trace.py replays): ``fit``,
``evaluate`` and ``predict`` call ``model.train_function`` / ``test_function`` /
``predict_function``, each a ``tf.function(reduce_retracing=True)`` over the data iterator
made once per compile. What the programs show: the tracing counts across epochs, validation,
a partial last batch (the iterator's batch dimension is None: no retrace) and
``steps_per_execution > 1``; a ``print`` in ``call`` / ``train_step`` (once per trace, and
``tf.executing_eagerly()`` False there); ``run_eagerly=True`` and
``tf.config.run_functions_eagerly(True)`` (Python at every step); ``make_train_function
(force=True)``; the ``*_on_batch`` methods; ``compile`` dropping the functions; a fit under a
4-replica MirroredStrategy (the replica function traced once per replica, the compiled
metrics built in the first trace) and under a CentralStorageStrategy (traced too);
StringLookup layers (int and multi_hot) in a fit under MirroredStrategy (traced: the
table's lookup and the bincount are graph ops);
``predict`` with ``steps_per_execution`` (several batches per call, concatenated; under a
MirroredStrategy too); the ``_train_counter`` / ``_test_counter`` / ``_predict_counter``
values (under CentralStorageStrategy too); ``dynamic=True``
(eager, and TF's ValueError for ``run_eagerly=False``); a model made outside a strategy
and fit in its scope (TF's errors); and the losses, metrics and predictions themselves.

Each program runs as a module file of its own (tf_snippets.MODULE), as AutoGraph
reads the source of what it converts. ``quiet`` captures what ``print`` writes."""

from tf_snippets import MODULE

SETUP = """
import contextlib, io
printed = io.StringIO()
rng = np.random.RandomState(0)
X = rng.normal(size=(10, 3)).astype("float32")
Y = rng.normal(size=(10, 1)).astype("float32")
W = [rng.uniform(-0.5, 0.5, size=(3, 1)).astype("float32"), np.zeros(1, "float32")]


class Noisy(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(1)

    def call(self, x, training=None):
        print("call", tf.executing_eagerly(), x.shape.as_list(), training)
        return self.dense(x)


def quiet(fn, *a, **k):
    with contextlib.redirect_stdout(printed):
        return fn(*a, **k)


def make(cls=None, **compile_kwargs):
    m = (cls or Noisy)()
    with contextlib.redirect_stdout(io.StringIO()):
        m(X[:1])
    m.set_weights(W)
    m.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"],
              **compile_kwargs)
    return m


def count(f):
    if f is None:
        return None
    if hasattr(f, "experimental_get_tracing_count"):
        return f.experimental_get_tracing_count()
    return type(f).__name__


def counts(m):
    return [count(m.train_function), count(m.test_function), count(m.predict_function)]


def lines():
    return printed.getvalue().splitlines()


def hist(h):
    return {k: [round(float(v), 5) for v in vs] for k, vs in h.history.items()}
"""

PROGRAMS = {
    "fit: two epochs with validation and a partial last batch, traced once each": """
m = make()
before = counts(m)
h = quiet(m.fit, X, Y, batch_size=4, epochs=2, validation_data=(X, Y), shuffle=False,
          verbose=0)
out = [before, counts(m), lines(), hist(h), [w.tolist() for w in m.get_weights()]]
""",
    "evaluate and predict: traced once, a partial last batch, called twice": """
m = make()
e1 = quiet(m.evaluate, X, Y, batch_size=4, verbose=0)
e2 = quiet(m.evaluate, X[:7], Y[:7], batch_size=3, verbose=0)
p1 = quiet(m.predict, X, batch_size=4, verbose=0)
p2 = quiet(m.predict, X[:5], batch_size=5, verbose=0)
out = [counts(m), lines(), e1, e2, p1, p2]
""",
    "fit with steps_per_execution=3: a partial execution at the epoch's end": """
m = make(steps_per_execution=3)
h = quiet(m.fit, X, Y, batch_size=2, epochs=2, shuffle=False, verbose=0)
e = quiet(m.evaluate, X, Y, batch_size=2, verbose=0)
out = [counts(m), lines(), hist(h), e, m.optimizer.iterations.numpy()]
""",
    "run_eagerly=True: no tf.function, the Python runs at every step": """
m = make(run_eagerly=True)
h = quiet(m.fit, X, Y, batch_size=4, epochs=1, shuffle=False, verbose=0)
p = quiet(m.predict, X, batch_size=5, verbose=0)
out = [counts(m), lines(), hist(h), p, m.run_eagerly]
""",
    "tf.config.run_functions_eagerly(True): the step functions run their Python": """
m = make()
tf.config.run_functions_eagerly(True)
try:
    h = quiet(m.fit, X, Y, batch_size=4, epochs=1, shuffle=False, verbose=0)
finally:
    tf.config.run_functions_eagerly(False)
h2 = quiet(m.fit, X, Y, batch_size=4, epochs=1, shuffle=False, verbose=0)
out = [counts(m), lines(), hist(h), hist(h2)]
""",
    "make_train_function(force=True) makes a new function; compile drops them": """
m = make()
quiet(m.fit, X, Y, batch_size=5, epochs=1, shuffle=False, verbose=0)
first = m.train_function
same = m.make_train_function() is first
again = m.make_train_function(force=True)
new = again is not first and m.train_function is again
c0 = counts(m)
quiet(m.fit, X, Y, batch_size=5, epochs=1, shuffle=False, verbose=0)
c1 = counts(m)
m.compile(optimizer="sgd", loss="mse")
out = [same, new, c0, c1, counts(m), lines()]
""",
    "train_on_batch, test_on_batch and predict_on_batch use the step functions": """
m = make()
t1 = quiet(m.train_on_batch, X[:4], Y[:4])
t2 = quiet(m.train_on_batch, X[:3], Y[:3])
s1 = quiet(m.test_on_batch, X[:4], Y[:4])
s2 = quiet(m.test_on_batch, X[:2], Y[:2])
p1 = quiet(m.predict_on_batch, X[:4])
p2 = quiet(m.predict_on_batch, X[:6])
out = [counts(m), lines(), t1, t2, s1, s2, p1, p2]
""",
    "a custom train_step prints once per trace": """
class Custom(Noisy):
    def train_step(self, data):
        x, y = data
        print("train_step", tf.executing_eagerly(), x.shape.as_list())
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self(x, training=True) - y))
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"loss": loss}

m = make(Custom)
h = quiet(m.fit, X, Y, batch_size=4, epochs=3, shuffle=False, verbose=0)
out = [counts(m), lines(), hist(h)]
""",
    "a custom train_step returns compute_metrics, which the model overrides": """
class Custom(Noisy):
    def __init__(self):
        super().__init__()
        self.pred_mean = tf.keras.metrics.Mean(name="pred_mean")

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x=x, y=y, y_pred=y_pred)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return self.compute_metrics(x, y, y_pred, None)

    def compute_metrics(self, x, y, y_pred, sample_weight):
        print("compute_metrics", tf.executing_eagerly(), [m.name for m in self.metrics])
        results = super().compute_metrics(x, y, y_pred, sample_weight)
        print("super gave", sorted(results))
        self.pred_mean.update_state(y_pred)
        results["pred_mean"] = self.pred_mean.result()
        return results

m = Custom()
quiet(m, X[:1])
m.dense.set_weights(W)
m.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
h = quiet(m.fit, X, Y, batch_size=4, epochs=2, shuffle=False, verbose=0)
e = quiet(m.evaluate, X, Y, batch_size=4, verbose=0, return_dict=True)
out = [counts(m), lines(), hist(h), e, len(m.weights), len(m.trainable_weights)]
""",
    "fit under a 4-replica MirroredStrategy: the replica function traced per replica": """
S = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1", "/cpu:2", "/cpu:3"])
with S.scope():
    m = make()
h = quiet(m.fit, X, Y, batch_size=8, epochs=2, shuffle=False, verbose=0)
p = quiet(m.predict, X, batch_size=8, verbose=0)
out = [counts(m), sorted(lines()), hist(h), p]
""",
    "fit under a 2-replica CentralStorageStrategy: traced, the metrics aggregated": """
CS = tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])
with CS.scope():
    m = make()
h = quiet(m.fit, X, Y, batch_size=4, epochs=2, shuffle=False, verbose=0)
e = quiet(m.evaluate, X, Y, batch_size=4, verbose=0)
p = quiet(m.predict, X, batch_size=4, verbose=0)
out = [counts(m), sorted(lines()), hist(h), e, p, [w.tolist() for w in m.get_weights()]]
""",
    "predict with steps_per_execution=3: several batches per predict_function call": """
class Seen(tf.keras.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.seen = []

    def on_predict_batch_begin(self, batch, logs=None):
        self.seen.append(["begin", batch])

    def on_predict_batch_end(self, batch, logs=None):
        self.seen.append(["end", batch, list(logs["outputs"].shape)])

m = make(steps_per_execution=3)
seen = Seen()
p1 = quiet(m.predict, X, batch_size=2, verbose=0, callbacks=[seen])
n1 = count(m.predict_function)
p2 = quiet(m.predict, X[:4], batch_size=4, verbose=0)
p3 = quiet(m.predict, X, batch_size=3, verbose=0, callbacks=[seen])
out = [n1, counts(m), lines(), p1, p2, p3, seen.seen]
""",
    "the batch counters: _train_counter, _test_counter, _predict_counter": """
def counters(m):
    return [int(c.numpy()) for c in (m._train_counter, m._test_counter, m._predict_counter)]

m = make()
c = [counters(m), type(m._train_counter).__name__, m._train_counter.dtype.name,
     m._train_counter.aggregation.name, m._train_counter.trainable,
     any(v is m._train_counter for v in m.variables)]
quiet(m.fit, X, Y, batch_size=3, epochs=2, validation_data=(X[:6], Y[:6]),
      validation_batch_size=4, shuffle=False, verbose=0)
c.append(counters(m))
quiet(m.fit, X, Y, batch_size=5, epochs=1, shuffle=False, verbose=0)
c.append(counters(m))
quiet(m.evaluate, X, Y, batch_size=5, verbose=0)
quiet(m.predict, X, batch_size=4, verbose=0)
c.append(counters(m))
quiet(m.train_on_batch, X[:2], Y[:2])
quiet(m.test_on_batch, X[:2], Y[:2])
quiet(m.predict_on_batch, X[:2])
c.append(counters(m))
m2 = make(steps_per_execution=2)
quiet(m2.fit, X, Y, batch_size=2, epochs=1, shuffle=False, verbose=0)
quiet(m2.evaluate, X, Y, batch_size=4, verbose=0)
quiet(m2.predict, X, batch_size=2, verbose=0)
c.append(counters(m2))
S2 = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
with S2.scope():
    ms = make()
quiet(ms.fit, X, Y, batch_size=4, epochs=1, shuffle=False, verbose=0)
quiet(ms.predict, X, batch_size=4, verbose=0)
c.append(counters(ms))
c.append(type(ms._train_counter).__name__)
out = c
""",
    "Model(dynamic=True) runs eagerly: dynamic, run_eagerly, prints at every step": """
class Dyn(Noisy):
    def __init__(self):
        tf.keras.Model.__init__(self, dynamic=True)
        self.dense = tf.keras.layers.Dense(1)

m = make(Dyn)
flags = [m.dynamic, m.run_eagerly, m._run_eagerly]
h = quiet(m.fit, X, Y, batch_size=4, epochs=1, shuffle=False, verbose=0)
p = quiet(m.predict, X, batch_size=5, verbose=0)
made = counts(m)
m.compile(optimizer="sgd", loss="mse", run_eagerly=False)
try:
    err = m.run_eagerly
except ValueError as e:
    err = [type(e).__name__, str(e)]
seq = tf.keras.Sequential([tf.keras.layers.Dense(1, dynamic=True)])
seq2 = tf.keras.Sequential([tf.keras.layers.Dense(1)])
out = [flags, made, lines(), hist(h), p, err, [seq.dynamic, seq.run_eagerly],
       [seq2.dynamic, seq2.run_eagerly]]
""",
    "a model fit outside any strategy, fit again in a strategy's scope: TF's AssertionError": """
m = make()
quiet(m.fit, X, Y, batch_size=4, epochs=1, shuffle=False, verbose=0)
S2 = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
with S2.scope():
    quiet(m.fit, X, Y, batch_size=4, epochs=1, shuffle=False, verbose=0)
out = None
""",
    "a model made outside any strategy, first fit in a strategy's scope: TF's ValueError": """
m = make()
S2 = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
with S2.scope():
    quiet(m.fit, X, Y, batch_size=4, epochs=1, shuffle=False, verbose=0)
out = None
""",
    "a model trained outside, fit in a OneDeviceStrategy's scope: its function traced again": """
m = make()
quiet(m.fit, X, Y, batch_size=5, epochs=1, shuffle=False, verbose=0)
first = m.train_function
n0 = count(first)
with tf.distribute.OneDeviceStrategy("/cpu:0").scope():
    h = quiet(m.fit, X, Y, batch_size=5, epochs=1, shuffle=False, verbose=0)
out = [m.train_function is first, n0, count(m.train_function), lines(), hist(h)]
""",
    "fit on a shuffled dataset: an unread iterator before the first epoch draws a seed": """
def shuffled():
    tf.keras.utils.set_random_seed(1)
    return tf.data.Dataset.from_tensor_slices((X, Y)).shuffle(10).batch(4)

m = make()
h = quiet(m.fit, shuffled(), epochs=2, verbose=0)
S2 = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
with S2.scope():
    ms = make()
h2 = quiet(ms.fit, shuffled(), epochs=2, verbose=0)
ds = shuffled()
m3 = make()
h3 = quiet(m3.fit, ds, epochs=1, steps_per_epoch=2, verbose=0)
out = [hist(h), hist(h2), hist(h3), [list(y.numpy().ravel()) for _, y in ds]]
""",
    "predict with steps_per_execution=3 under a 4-replica MirroredStrategy": """
class Seen(tf.keras.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.seen = []

    def on_predict_batch_end(self, batch, logs=None):
        self.seen.append([batch, list(logs["outputs"].shape)])

S = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1", "/cpu:2", "/cpu:3"])
with S.scope():
    m = make(steps_per_execution=3)
seen = Seen()
p1 = quiet(m.predict, X, batch_size=4, verbose=0, callbacks=[seen])
n1 = count(m.predict_function)
p2 = quiet(m.predict, X, batch_size=8, verbose=0, callbacks=[seen])
p3 = quiet(m.predict, X[:6], batch_size=2, verbose=0, callbacks=[seen])
out = [n1, counts(m), sorted(lines()), p1, p2, p3, seen.seen,
       int(m._predict_counter.numpy())]
""",
    "the batch counters under a 2-replica CentralStorageStrategy": """
def counters(m):
    return [int(c.numpy()) for c in (m._train_counter, m._test_counter, m._predict_counter)]

CS = tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])
with CS.scope():
    m = make()
c = [counters(m), type(m._train_counter).__name__, m._train_counter.aggregation.name,
     m._train_counter.device]
quiet(m.fit, X, Y, batch_size=4, epochs=2, validation_data=(X[:6], Y[:6]), shuffle=False,
      verbose=0)
c.append(counters(m))
quiet(m.evaluate, X, Y, batch_size=3, verbose=0)
quiet(m.predict, X, batch_size=4, verbose=0)
c.append(counters(m))
quiet(m.train_on_batch, X[:4], Y[:4])
quiet(m.test_on_batch, X[:4], Y[:4])
quiet(m.predict_on_batch, X[:4])
c.append(counters(m))
with CS.scope():
    m2 = make(steps_per_execution=2)
quiet(m2.fit, X, Y, batch_size=2, epochs=1, shuffle=False, verbose=0)
quiet(m2.evaluate, X, Y, batch_size=4, verbose=0)
quiet(m2.predict, X, batch_size=2, verbose=0)
c.append(counters(m2))
out = c
""",
    "StringLookup layers in a fit under a 2-replica MirroredStrategy: traced": """
vocab = ["a", "b", "c", "d"]
words = np.array([["a", "b"], ["c", "z"], ["d", "a"], ["b", "b"], ["z", "c"], ["a", "d"],
                  ["c", "c"], ["d", "z"], ["b", "a"], ["z", "z"]])
S2 = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
with S2.scope():
    inp = tf.keras.Input(shape=(2,), dtype=tf.string)
    ids = tf.keras.layers.StringLookup(vocabulary=vocab)(inp)
    emb = tf.keras.layers.Embedding(
        5, 2, embeddings_initializer=tf.keras.initializers.Constant(0.1))(ids)
    hot = tf.keras.layers.StringLookup(vocabulary=vocab, output_mode="multi_hot")(inp)
    both = tf.keras.layers.Concatenate()([tf.keras.layers.Flatten()(emb), hot])
    out = tf.keras.layers.Dense(1, kernel_initializer="ones")(both)
    m = tf.keras.Model(inp, out)
    m.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
h = quiet(m.fit, words, Y, batch_size=4, epochs=2, shuffle=False, verbose=0)
e = quiet(m.evaluate, words, Y, batch_size=4, verbose=0)
p = quiet(m.predict, words, batch_size=4, verbose=0)
out = [counts(m), hist(h), e, p, [w.tolist() for w in m.get_weights()]]
""",
}

CASES = {name: MODULE + f"out = run_module('fit_case_{i}', {SETUP + src!r})\n"
         for i, (name, src) in enumerate(PROGRAMS.items())}

"""tf.Module programs whose results TF 2.21 recorded (record_tf_saved_module.py) and simdist
must reproduce (test_saved_module_tf_conformance.py): a module's SavedModel (its files,
the loaded object, its restored functions called, matched and refused), a module restored
from a checkpoint before it made its variables, tf.summary's graph trace in an event file,
the profiler's errors, and Keras's registry of serializable classes.

Each case is code run with ``tf``, ``np``, ``L`` and ``S`` in scope (tests/tf_snippets.py)
that leaves its result in ``out``. ``D`` is a fresh temporary directory.
"""

PRELUDE = """
import os, tempfile
from event_records import fields, records   # tests/event_records.py
D = tempfile.mkdtemp()

class Dense(tf.Module):
  def __init__(self, in_features, out_features, name=None):
    super().__init__(name=name)
    self.w = tf.Variable(tf.reshape(tf.range(in_features * out_features, dtype=tf.float32),
                                    [in_features, out_features]) / 10.0 - 0.3, name='w')
    self.b = tf.Variable(tf.ones([out_features]), name='b')
  def __call__(self, x):
    return tf.nn.relu(tf.matmul(x, self.w) + self.b)

class Seq(tf.Module):
  def __init__(self, name=None):
    super().__init__(name=name)
    self.dense_1 = Dense(3, 3)
    self.dense_2 = Dense(3, 2)
  @tf.function
  def __call__(self, x):
    return self.dense_2(self.dense_1(x))

class Mul(tf.Module):
  def __init__(self, value):
    self.weight = tf.Variable(value)
  @tf.function
  def multiply(self, x):
    return x * self.weight

def events(logdir):
    (name,) = [f for f in os.listdir(logdir) if f.startswith('events.out.tfevents.')]
    return name.endswith('.v2'), records(os.path.join(logdir, name))

def traced_graphs(event):
    value = fields(fields(fields(event)[5][0])[1][0])
    plugin = fields(fields(value[9][0])[1][0])
    run_metadata = fields(value[8][0])[8][0]
    graphs = []   # TF's eager constants' one-op functions (_EagerConst) left out: simdist
    for fg in fields(run_metadata).get(4, []):   # has none
        graph = fields(fields(fg)[2][0])
        ops = sorted(fields(n)[2][0].decode() for n in graph.get(1, []))
        if '_EagerConst' not in ops:
            graphs.append(ops)
    return value[1][0].decode(), plugin[1][0].decode(), plugin[2][0].decode(), graphs
"""

CASES = {
    "saved_module_files_and_loaded_object": PRELUDE + """
m = Mul(3)
y = m.multiply(tf.constant([1, 2, 3]))
tf.saved_model.save(m, os.path.join(D, 'saved'))
r = tf.saved_model.load(os.path.join(D, 'saved'))
out = [y, r.multiply(tf.constant([1, 2, 3])), sorted(os.listdir(os.path.join(D, 'saved'))),
       sorted(os.listdir(os.path.join(D, 'saved', 'variables'))), type(r).__name__,
       isinstance(r, Mul), isinstance(r, tf.Module), r.weight.name, r.weight.trainable,
       r.weight, hasattr(r, 'variables'), len(r.signatures), type(r.multiply).__name__,
       len(r.multiply.concrete_functions), r.multiply(x=tf.constant([4, 5, 6]))]
""",
    "saved_module_refuses_another_dtype": PRELUDE + """
m = Mul(3)
m.multiply(tf.constant([1, 2, 3]))
tf.saved_model.save(m, os.path.join(D, 'saved'))
r = tf.saved_model.load(os.path.join(D, 'saved'))
out = r.multiply(tf.constant([1., 2, 3]))
""",
    "saved_module_refuses_another_shape": PRELUDE + """
m = Mul(3)
m.multiply(tf.constant([1, 2, 3]))
tf.saved_model.save(m, os.path.join(D, 'saved'))
r = tf.saved_model.load(os.path.join(D, 'saved'))
out = r.multiply(tf.constant([[1, 2, 3]]))
""",
    "saved_module_of_python_list_calls": PRELUDE + """
m = Seq(name='the_model')
a = m([[2.0, 2.0, 2.0]])
b = m([[[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]])
tf.saved_model.save(m, os.path.join(D, 'saved'))
r = tf.saved_model.load(os.path.join(D, 'saved'))
out = [a, b, r([[2.0, 2.0, 2.0]]), r([[[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]]),
       r.dense_1.w, r.dense_2.b.name, len(r.__call__.concrete_functions)]
""",
    "saved_module_refuses_an_untraced_list": PRELUDE + """
m = Seq(name='the_model')
m([[2.0, 2.0, 2.0]])
tf.saved_model.save(m, os.path.join(D, 'saved'))
r = tf.saved_model.load(os.path.join(D, 'saved'))
out = r([[1.0, 2.0, 3.0]])
""",
    "saved_module_traces_an_input_signature_at_save": PRELUDE + """
class Sig(tf.Module):
  def __init__(self):
    self.v = tf.Variable([1.0, 2.0])
  @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
  def f(self, x):
    return tf.reduce_sum(x * self.v, axis=1)
m = Sig()
tf.saved_model.save(m, os.path.join(D, 'saved'))
r = tf.saved_model.load(os.path.join(D, 'saved'))
out = [r.f(tf.constant([[1.0, 1.0], [2.0, 3.0], [0.0, 1.0]])),
       r.f(tf.constant([[5.0, 5.0]])), len(r.f.concrete_functions)]
""",
    "saved_module_variable_updated_after_load": PRELUDE + """
m = Mul(3)
m.multiply(tf.constant([1, 2, 3]))
tf.saved_model.save(m, os.path.join(D, 'saved'))
r = tf.saved_model.load(os.path.join(D, 'saved'))
r.weight.assign(10)
out = [r.multiply(tf.constant([1, 2, 3])), m.weight]
""",
    "saved_module_leaves_out_a_defaulted_argument": PRELUDE + """
class Scale(tf.Module):
  @tf.function
  def f(self, x, k=2, label='a'):
    return x * k
m = Scale()
m.f(tf.constant(1.0))
tf.saved_model.save(m, os.path.join(D, 'saved'))
r = tf.saved_model.load(os.path.join(D, 'saved'))
out = [r.f(tf.constant(3.0)), r.f(tf.constant(3.0), 2), r.f(tf.constant(3.0), label='a'),
       r.f(x=tf.constant(4.0), k=2)]
""",
    "saved_module_refuses_another_default": PRELUDE + """
class Scale(tf.Module):
  @tf.function
  def f(self, x, k=2):
    return x * k
m = Scale()
m.f(tf.constant(1.0))
tf.saved_model.save(m, os.path.join(D, 'saved'))
out = tf.saved_model.load(os.path.join(D, 'saved')).f(tf.constant(3.0), 3)
""",
    "saved_module_calls_a_nested_function": PRELUDE + """
class Linear(tf.Module):
  def __init__(self):
    self.built = False
  @tf.function
  def __call__(self, x, shift=0.5):
    if not self.built:
      self.w = tf.Variable(tf.reshape(tf.range(x.shape[-1], dtype=tf.float32), [-1, 1]))
      self.built = True
    return tf.squeeze(tf.matmul(x, self.w), axis=1) + shift
class Export(tf.Module):
  def __init__(self, model):
    self.model = model
  @tf.function(input_signature=[tf.TensorSpec(shape=[None, None], dtype=tf.float32)])
  def __call__(self, x):
    return self.model(x * 2.0) + 1.0
lin = Linear()
first = lin(tf.ones([1, 3]))
e = Export(lin)
tf.saved_model.save(e, os.path.join(D, 'saved'))
r = tf.saved_model.load(os.path.join(D, 'saved'))
x = tf.constant([[1.0, 2.0, 3.0], [0.0, 1.0, 0.0]])
out = [first, r(x), e(x),
       len(r.model.__call__.concrete_functions), r.model.w]
""",
    "saved_model_save_refuses_a_plain_object": PRELUDE + """
tf.saved_model.save(object(), os.path.join(D, 'saved'))
""",
    "module_restores_variables_it_makes_later": PRELUDE + """
class Lazy(tf.Module):
  def __init__(self, name=None):
    super().__init__(name=name)
    self.built = False
  def __call__(self, x):
    if not self.built:
      self.w = tf.Variable(tf.zeros([x.shape[-1], 2]), name='w')
      self.built = True
    return tf.matmul(x, self.w)
m = Lazy()
m(tf.ones([1, 3]))
m.w.assign(tf.reshape(tf.range(6, dtype=tf.float32), [3, 2]))
path = tf.train.Checkpoint(model=m).write(os.path.join(D, 'ckpt'))
n = Lazy()
status = tf.train.Checkpoint(model=n).restore(path)
out = [n(tf.ones([1, 3])), n.w]
""",
    "summary_trace_export_writes_the_graphs_run": PRELUDE + """
@tf.function
def f(x):
  return x * 2.0 + 1.0
writer = tf.summary.create_file_writer(os.path.join(D, 'logs'))
tf.summary.trace_on(graph=True)
f(tf.constant([1.0, 2.0]))
with writer.as_default():
  tf.summary.trace_export(name='my_func_trace', step=0)
writer.flush()
v2, evs = events(os.path.join(D, 'logs'))
out = [v2, len(evs), fields(evs[0])[3][0].decode(), fields(evs[1]).get(2, [0])[0],
       traced_graphs(evs[1])]
""",
    "summary_trace_export_without_trace_on": PRELUDE + """
writer = tf.summary.create_file_writer(os.path.join(D, 'logs'))
with writer.as_default():
  tf.summary.trace_export(name='t', step=0)
""",
    "summary_trace_export_without_step": PRELUDE + """
writer = tf.summary.create_file_writer(os.path.join(D, 'logs'))
tf.summary.trace_on(graph=True)
try:
  with writer.as_default():
    tf.summary.trace_export(name='t')
finally:
  tf.summary.trace_off()
""",
    "summary_scalar_without_the_tensorboard_package": PRELUDE + """
writer = tf.summary.create_file_writer(os.path.join(D, 'logs'))
with writer.as_default():
  tf.summary.scalar('loss', 0.5, step=1)
""",
    "summary_create_file_writer_refuses_no_logdir": PRELUDE + """
tf.summary.create_file_writer(None)
""",
    "profiler_stop_without_start": PRELUDE + """
tf.profiler.experimental.stop()
""",
    "profiler_start_twice": PRELUDE + """
tf.profiler.experimental.start(os.path.join(D, 'logs'))
try:
  tf.profiler.experimental.start(os.path.join(D, 'logs'))
finally:
  tf.profiler.experimental.stop()
""",
    "register_keras_serializable_names": PRELUDE + """
@tf.keras.saving.register_keras_serializable()
class A(tf.keras.layers.Layer):
  pass
@tf.keras.saving.register_keras_serializable('pkg', 'Bee')
class B(tf.keras.layers.Layer):
  pass
out = [tf.keras.saving.get_registered_name(A), tf.keras.saving.get_registered_name(B),
       tf.keras.saving.get_registered_object('pkg>Bee') is B,
       tf.keras.saving.get_registered_object('pkg>Nope') is None,
       tf.keras.saving.get_registered_name(tf.keras.layers.Dense)]
""",
    "register_keras_serializable_refuses_no_get_config": PRELUDE + """
@tf.keras.saving.register_keras_serializable()
class C:
  pass
""",
}

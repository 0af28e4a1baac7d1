"""``Functional.get_config`` in tf-keras's format (each layer's ``inbound_nodes`` as nested
lists ``[[layer name, node index, tensor index, call kwargs], ...]``, ``input_layers`` and
``output_layers`` as ``[name, node index, tensor index]`` lists) and ``Model.from_config``
of such a config, as TF 2.21 with tf-keras recorded them (record_tf_layers.py
functional_config; replayed by test_functional_construction.py). ``TF_CONFIG`` below is a
config TF's ``get_config`` gave, loaded unchanged.

Same conventions as layer_cases.py (``tf``, ``np``, ``L``, ``S`` in scope; ``out`` is the
result).
"""

GRAPH = """
a = tf.keras.Input(shape=(3,), name='a')
b = tf.keras.Input(shape=(3,))
shared = L.Dense(2, name='shared')
x = L.Add()([shared(a), shared(b)])
d = L.Dropout(0.5)(x, training=True)
y = L.Dense(1, activation='sigmoid')(d)
m = tf.keras.Model([a, b], [y, x])
"""

TF_CONFIG = """
cfg = {"name": "towers", "trainable": True, "layers": [
 {"module": "keras.layers", "class_name": "InputLayer", "config": {
   "batch_input_shape": [None, 4], "dtype": "float32", "sparse": False, "ragged": False,
   "name": "x", "optional": False}, "registered_name": None, "name": "x",
   "inbound_nodes": []},
 {"module": "keras.layers", "class_name": "Dense", "config": {
   "name": "h", "trainable": True, "dtype": "float32", "units": 3, "activation": "relu",
   "use_bias": True, "kernel_initializer": {"module": "keras.initializers",
   "class_name": "GlorotUniform", "config": {"seed": None}, "registered_name": None},
   "bias_initializer": {"module": "keras.initializers", "class_name": "Zeros",
   "config": {}, "registered_name": None}, "kernel_regularizer": None,
   "bias_regularizer": None, "activity_regularizer": None, "kernel_constraint": None,
   "bias_constraint": None}, "registered_name": None,
   "build_config": {"input_shape": [None, 4]}, "name": "h",
   "inbound_nodes": [[["x", 0, 0, {}]]]},
 {"module": "keras.layers", "class_name": "Concatenate", "config": {
   "name": "cat", "trainable": True, "dtype": "float32", "axis": -1},
   "registered_name": None, "build_config": {"input_shape": [[None, 3], [None, 4]]},
   "name": "cat", "inbound_nodes": [[["h", 0, 0, {}], ["x", 0, 0, {}]]]}],
 "input_layers": [["x", 0, 0]], "output_layers": [["cat", 0, 0], ["h", 0, 0]]}
"""

CASES = {
    "get_config lists inbound nodes and the inputs and outputs as tf-keras's lists": GRAPH + """
out = m.get_config()
""",
    "from_config of get_config rebuilds the same graph": GRAPH + """
cfg = m.get_config()
m2 = tf.keras.Model.from_config(cfg)
out = [m2.get_config() == cfg, [l.name for l in m2.layers], m2.output_shape,
       [len(l._inbound_nodes) for l in m2.layers]]
""",
    "from_config of a config TF saved": TF_CONFIG + """
import json
m = tf.keras.Model.from_config(cfg)
out = [m.name, [l.name for l in m.layers], m.output_shape,
       json.loads(json.dumps(m.get_config())) == cfg,
       [w.shape for w in m.get_weights()]]
""",
    "a nested model's node in its outer model's config": """
i = tf.keras.Input(shape=(2,), name='i')
inner = tf.keras.Model(i, L.Dense(2, name='d')(i), name='inner')
a = tf.keras.Input(shape=(2,), name='a')
outer = tf.keras.Model(a, inner(inner(a)), name='outer')
cfg = outer.get_config()
out = [cfg['input_layers'], cfg['output_layers'], [l['name'] for l in cfg['layers']],
       [l['inbound_nodes'] for l in cfg['layers']], cfg['layers'][1]['class_name'],
       sorted(cfg['layers'][1])]
""",
}
CASES["op layers' nodes: the first argument as it is, the others by the op's names"] = """
x = tf.keras.Input(shape=(3,), name='x')
a = x * 2.0
b = tf.reduce_mean(x, axis=1, keepdims=True)
c = x[:, :2]
d = tf.concat([a, c], axis=-1)
e = 2.0 - abs(x)
m = tf.keras.Model(x, [b, d, e])
cfg = m.get_config()
m2 = tf.keras.Model.from_config(cfg)
out = [[[l['class_name'], l['name'], l['module'], l['registered_name'], l.get('build_config'),
         l['inbound_nodes']] for l in cfg['layers']], m2.get_config() == cfg,
       m2(np.arange(6, dtype='float32').reshape(2, 3))]
"""

"""Small Keras programs whose results TF 2.15 recorded (record_tf_keras.py) and simdist must
reproduce (test_keras_tf_conformance.py): layers, models, activations, losses and their errors.

Each case is code run with ``tf``, ``np`` and ``L = tf.keras.layers`` in scope that leaves its
result in ``out`` (arrays, numbers, strings and lists of them); an exception is the result
when it raises. Layers get explicit names: auto-names depend on what ran before.
"""

X = "tf.constant([[-2.0, -0.5, 0.0], [0.3, 1.0, 10.0]])"
ACTIVATIONS = ["elu", "selu", "softsign", "swish", "silu", "gelu", "hard_sigmoid", "relu6",
               "leaky_relu", "mish", "log_softmax", "softplus", "tanh", "sigmoid", "softmax",
               "exponential", "linear", "relu"]

CASES = {
    **{f"activation {name}": f"out = tf.keras.activations.get({name!r})({X})"
       for name in ACTIVATIONS},
    "activation gelu approximate": f"out = tf.keras.activations.gelu({X}, approximate=True)",
    "activation elu alpha": f"out = tf.keras.activations.elu({X}, alpha=0.5)",
    "activation relu alpha": f"out = tf.keras.activations.relu({X}, alpha=0.1)",
    "activation relu all": f"out = tf.keras.activations.relu({X}, alpha=0.1, max_value=5.0, "
                           "threshold=0.5)",
    "activation relu max_value 6": f"out = tf.keras.activations.relu({X}, max_value=6.0)",
    "activation unknown": "out = tf.keras.activations.get('nope')",
    "weights order with batch norm": """
m = tf.keras.Sequential([L.Dense(3, input_shape=(2,), name='a'),
                         L.BatchNormalization(name='bn'), L.Dense(1, name='b')])
out = [w.name for w in m.weights] + [str(w.shape) for w in m.get_weights()]
""",
    "trainable and non-trainable order of a frozen layer": """
m = tf.keras.Sequential([L.Dense(3, input_shape=(2,), name='a'),
                         L.BatchNormalization(name='bn'), L.Dense(1, name='b')])
m.layers[0].trainable = False
out = [w.name for w in m.trainable_weights] + ['|'] + [w.name for w in m.non_trainable_weights]
""",
    "set_weights follows get_weights order": """
m = tf.keras.Sequential([L.Dense(2, input_shape=(2,), name='a'),
                         L.BatchNormalization(name='bn')])
m.set_weights([np.full(w.shape, i + 1.0, np.float32) for i, w in enumerate(m.get_weights())])
out = m(np.ones((1, 2), np.float32), training=False)
""",
    "frozen batch norm runs in inference mode": """
bn = L.BatchNormalization(name='bn')
bn.build((None, 2))
bn.trainable = False
y = bn(np.array([[1.0, 2.0], [3.0, 6.0]], np.float32), training=True)
out = [y, bn.moving_mean.numpy()]
""",
    "custom layer in a Sequential": """
class Block(L.Layer):
    def __init__(self):
        super().__init__(name='block')
        self.d = L.Dense(5, name='inner')
    def call(self, x):
        return self.d(x)
m = tf.keras.Sequential([Block(), L.Dense(2, name='b')])
m.build((None, 3))
out = [str(tuple(w.shape)) for w in m.weights] + [m(np.zeros((2, 3), np.float32)).shape]
""",
    "nested Sequential output shape": """
m = tf.keras.Sequential([tf.keras.Sequential([L.Dense(4, name='a')], name='inner'),
                         L.Dense(2, name='b')])
out = [m(np.zeros((2, 3), np.float32)).shape,
       str(tf.keras.Sequential([L.Dense(4, name='c'), L.Dense(7, name='d')])
           .compute_output_shape((None, 3)))]
""",
    "nested built Sequential builds the outer one": """
inner = tf.keras.Sequential([L.Dense(4, input_shape=(3,), name='a')], name='inner')
outer = tf.keras.Sequential([inner, L.Dense(2, name='b')], name='outer')
out = [outer.built, [str(tuple(w.shape)) for w in outer.weights]]
""",
    "get_weights of an unbuilt Sequential": """
out = tf.keras.Sequential([L.Dense(3, name='a')], name='seq').get_weights()
""",
    "Model without call": "out = tf.keras.Model(name='m')(np.zeros((1, 2), np.float32))",
    "get_layer by name and index": """
m = tf.keras.Sequential([L.Dense(3, input_shape=(2,), name='a'), L.Dense(1, name='b')])
out = [m.get_layer('b').name, m.get_layer(index=0).name]
""",
    "get_layer unknown name": """
m = tf.keras.Sequential([L.Dense(3, input_shape=(2,), name='a')])
out = m.get_layer('zzz')
""",
    "Dense on rank-1 input": "out = L.Dense(2, name='d')(np.ones((3,), np.float32))",
    "Dense with the wrong last axis": """
d = L.Dense(2, name='d')
d(np.ones((2, 6), np.float32))
out = d(np.ones((2, 5), np.float32))
""",
    "Dense on integer input": """
out = L.Dense(1, kernel_initializer='ones', name='d')(tf.constant([[1, 2]]))
""",
    "Dense input_spec": "out = [repr(L.Dense(3).input_spec)]",
    "BatchNormalization bad axis": """
out = L.BatchNormalization(axis=5, name='bn')(np.zeros((2, 3), np.float32))
""",
    "BatchNormalization wrong channels": """
bn = L.BatchNormalization(name='bn')
bn(np.zeros((2, 3), np.float32))
out = bn(np.zeros((2, 4), np.float32))
""",
    "BatchNormalization wrong rank": """
bn = L.BatchNormalization(name='bn')
bn(np.zeros((2, 3), np.float32))
out = bn(np.zeros((2, 3, 3), np.float32))
""",
    "Dropout rate 1 in training": """
out = L.Dropout(1.0, name='drop')(np.ones((2, 3), np.float32), training=True)
""",
    **{f"sparse crossentropy ignore_class {r}": f"""
loss = tf.keras.losses.SparseCategoricalCrossentropy(ignore_class=0, reduction={r!r},
                                                     from_logits=True)
out = loss([1, 0, 2], [[1.0, 2.0, 0.0], [0.5, 1.0, 0.0], [0.0, 0.0, 2.0]])
""" for r in ("none", "sum", "sum_over_batch_size")},
    "sparse crossentropy ignore_class -1 with sample weights": """
loss = tf.keras.losses.SparseCategoricalCrossentropy(ignore_class=-1, from_logits=True)
out = loss([[1], [-1], [2]], [[1.0, 2.0, 0.0], [0.5, 1.0, 0.0], [0.0, 0.0, 2.0]],
           sample_weight=[1.0, 2.0, 3.0])
""",
}

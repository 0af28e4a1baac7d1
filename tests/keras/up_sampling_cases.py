"""``UpSampling2D(interpolation="bilinear")`` and the gradient of ``tf.image.resize``'s
bilinear kernel, as TF 2.21 with tf-keras recorded them (record_tf_layers.py up_sampling;
replayed by test_up_sampling.py): values on channels_last and channels_first images, a
model's summary, the input's gradient (ResizeBilinearGrad) upsampling and downsampling,
where neighbours shared by several outputs sum their gradients; the nearest-neighbour
resize's gradient (ResizeNearestNeighborGrad) bit for bit, its sums in TF's order.

Same conventions as layer_cases.py (``tf``, ``np``, ``L``, ``S`` in scope; ``out`` is the
result).
"""

HELP = """
def R(*shape, seed=0):
    return np.random.RandomState(seed).normal(size=shape).astype('float32')
def grad_of(f, x, seed=9):
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
        s = tf.reduce_sum(y * R(*y.shape, seed=seed))
    return [y, tape.gradient(s, x)]
"""

CASES = {
    "UpSampling2D bilinear: values and the input's gradient": HELP + """
layer = L.UpSampling2D((2, 3), interpolation='bilinear')
out = grad_of(layer, R(2, 3, 4, 2)) + [layer.get_config()['interpolation']]
""",
    "UpSampling2D bilinear channels_first in a model": HELP + """
inp = tf.keras.Input(shape=(2, 3, 5))
y = L.UpSampling2D(2, data_format='channels_first', interpolation='bilinear')(inp)
m = tf.keras.Model(inp, y)
out = [str(y.shape), m(R(1, 2, 3, 5, seed=1))]
""",
    "tf.image.resize bilinear gradient, downsampling and an odd upsampling": HELP + """
down = grad_of(lambda x: tf.image.resize(x, [3, 4]), R(2, 7, 9, 3, seed=2))
up = grad_of(lambda x: tf.image.resize(x, [5, 7]), R(1, 3, 2, 1, seed=3))
out = down + up
""",
}

# Gradients of wide magnitudes (1e-4 to 1e4), so that the order of the float sums shows in
# the bits, compared exactly (the bits as integers).
CASES["tf.image.resize nearest gradient: its bits, up, down and in float16"] = """
def nearest_bits(shape, size, dtype, seed):
    rng = np.random.RandomState(seed)
    x = tf.constant(rng.normal(size=shape).astype(dtype))
    up_shape = (shape[0], *size, shape[3])
    up = rng.normal(size=up_shape) * 10.0 ** rng.randint(-4, 5, size=up_shape)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.image.resize(x, size, method='nearest')
    g = tape.gradient(y, x, output_gradients=tf.constant(up.astype(dtype)))
    # the bits as 16-bit integers: exact under the replay's rtol of 1e-5
    return [y.dtype.name, g.dtype.name, g.numpy().view(np.uint16).astype(np.int64)]
out = (nearest_bits((2, 3, 5, 2), [7, 4], 'float32', 0)
       + nearest_bits((1, 7, 9, 3), [3, 4], 'float32', 1)
       + nearest_bits((1, 2, 3, 2), [9, 10], 'float16', 2)
       + nearest_bits((1, 4, 1, 1), [6, 3], 'float64', 3))
"""

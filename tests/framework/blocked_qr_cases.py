"""float32 QR with 48 reflectors or more, as TF 2.21's CPU kernel gives it, bit for bit
(recorded by record_tf_blocked_qr.py into fixtures/tf_blocked_qr.json, replayed by
test_blocked_qr_tf_conformance.py): Eigen's blocked HouseholderQR and block Householder
Q (simdist/framework/ops/eigen_householder_qr.py, eigen_block_householder.py,
eigen_gebp.py), whose products cut their depth by the CPU's L1 cache: the case "caches the
emulation assumes" records the recording machine's (TF's Eigen reads them with cpuid;
sysfs agrees on L1d and L2) against simdist's model of them. Each tensor is recorded as
a digest of its bytes, its first values' bits and values (rounded, to see how far
a mismatch is). Shapes: LSTM(64)'s and GRU(48)'s recurrent kernels (QR of 256x64 and
144x48), Orthogonal (128, 512) (512x128: depths cut in blocks of 88), thin and full Q of
100x60 and 256x64, wide matrices (their trailing columns by blocks), batched integers
(exact sums, zeros). Snippets as in tests/tf_snippets.py."""

DATA = """
import hashlib
def bits(t):
    a = np.ascontiguousarray(np.asarray(t), dtype=np.float32)
    first = ' '.join(f'{b:08x}' for b in a.reshape(-1)[:4].view(np.uint32))
    return [hashlib.sha256(a.tobytes()).hexdigest()[:24], list(a.shape), first,
            a.reshape(-1)[:8]]
def qr_bits(x, full):
    q, r = tf.linalg.qr(x, full_matrices=full)
    return [bits(q), bits(r)]
def normal(shape, seed):
    return tf.random.stateless_normal(shape, [seed, 7])
"""

CASES = {
    "caches the emulation assumes": """
import os
def caches():
    if tf.__name__ == 'simdist':
        from simdist.framework.ops.eigen_gebp import CACHES
        return [CACHES['l1'], CACHES['l2']]
    found = {}
    root = '/sys/devices/system/cpu/cpu0/cache'
    for index in sorted(os.listdir(root)):
        if index.startswith('index'):
            read = lambda f: open(os.path.join(root, index, f)).read().strip()
            if read('type') in ('Data', 'Unified'):
                found[int(read('level'))] = int(read('size').rstrip('K')) * 1024
    return [found[1], found[2]]
out = caches()
""",
    "Orthogonal (64, 256): an LSTM(64)'s recurrent kernel": DATA + """
out = [bits(tf.keras.initializers.Orthogonal(seed=17)([64, 256]))]
""",
    "Orthogonal (128, 512) and gain 1.5 (QR of 512x128)": DATA + """
out = [bits(tf.keras.initializers.Orthogonal(gain=1.5, seed=3)([128, 512]))]
""",
    "Orthogonal at the block edges: (48, 48), (100, 60), (49, 130), (3, 3, 8, 96)": DATA + """
init = tf.keras.initializers.Orthogonal(seed=5)
out = [bits(init(s)) for s in ([48, 48], [100, 60], [49, 130], [3, 3, 8, 96])]
""",
    "LSTM(64) and GRU(48) initial weights": DATA + """
tf.keras.utils.set_random_seed(3)
model = tf.keras.Sequential([tf.keras.layers.LSTM(64, return_sequences=True),
                             tf.keras.layers.GRU(48)])
model.build((None, 5, 8))
out = [bits(w) for w in model.weights]
""",
    "qr 100x60 and 256x64, thin and full": DATA + """
out = [qr_bits(normal([100, 60], 1), False), qr_bits(normal([100, 60], 1), True),
       qr_bits(normal([256, 64], 2), False), qr_bits(normal([256, 64], 2), True)]
""",
    "qr of wide matrices: 40x100 and 64x256": DATA + """
out = [qr_bits(normal([40, 100], 3), False), qr_bits(normal([64, 256], 4), True)]
""",
    "qr of a batch of small integers, 2x97x97 and 130x49": DATA + """
ints = tf.round(3.0 * normal([2, 97, 97], 5))
out = [qr_bits(ints, False), qr_bits(tf.round(2.0 * normal([130, 49], 6)), True)]
""",
}

"""User mistakes and faults in Keras training (issue 13), recorded from TF 2.21 + tf-keras by
record_tf_keras.py as part of keras_cases.CASES, after keras_cases.PRELUDE (``mk``, ``X``,
``Y1``, ``S`` ...): datasets that never end or never start, BackupAndRestore every N batches,
compute_average_loss with weights of another rank, one model under two strategies, and the
optimizer's step count when the data runs out.
"""

DATASETS = """
ds = tf.data.Dataset.from_tensor_slices((X, Y1)).batch(4)
xs = tf.data.Dataset.from_tensor_slices(X).batch(4)
"""

BACKUP = """
d = tempfile.mkdtemp()
seen = []
class Preempt(tf.keras.callbacks.Callback):
    def __init__(self, at):
        super().__init__()
        self.at = at
    def on_epoch_begin(self, epoch, logs=None):
        self.epoch = epoch
        seen.append(f'epoch {epoch}')
    def on_train_batch_begin(self, batch, logs=None):
        seen.append(batch)
    def on_train_batch_end(self, batch, logs=None):
        if (self.epoch, batch) == self.at:
            raise RuntimeError('preempted')
def backed_up_run(data, save_freq, at, strategy=None, epochs=3):
    m = mk(strategy)
    try:
        m.fit(*data, batch_size=4, epochs=epochs, shuffle=False, verbose=0, callbacks=[
            tf.keras.callbacks.BackupAndRestore(d, save_freq=save_freq), Preempt(at)])
    except RuntimeError:
        seen.append('preempted')
    m = mk(strategy)
    h = m.fit(*data, batch_size=4, epochs=epochs, shuffle=False, verbose=0, callbacks=[
        tf.keras.callbacks.BackupAndRestore(d, save_freq=save_freq), Preempt(None)])
    return [seen, h.epoch, h.history['loss'], m.get_weights(),
            int(m.optimizer.iterations.numpy()), sorted(os.listdir(d))]
"""

CASES = {
    **{f"{call} on an infinite dataset without steps": DATASETS + f"""
out = mk().{call}({data}.repeat(), verbose=0)
""" for call, data in (("fit", "ds"), ("evaluate", "ds"), ("predict", "xs"))},
    **{f"{call} on an empty dataset": DATASETS + f"""
out = mk().{call}({data}.take(0), verbose=0)
""" for call, data in (("fit", "ds"), ("evaluate", "ds"), ("predict", "xs"))},
    "fit on empty arrays": "out = mk().fit(X[:0], Y1[:0], verbose=0)",
    "evaluate on empty arrays": "out = mk().evaluate(X[:0], Y1[:0], verbose=0)",
    "fit of a finite dataset steps_per_epoch runs past: the optimizer's iterations": DATASETS
    + """
import warnings
out = []
for epochs, data, opt in ((1, ds, None), (2, ds, None), (2, ds.repeat(2), None),
                          (1, ds, tf.keras.optimizers.Adam(0.1)),
                          (1, ds, tf.keras.optimizers.legacy.SGD(0.1))):
    m = mk(optimizer=opt)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        h = m.fit(data, steps_per_epoch=6, epochs=epochs, verbose=0)
    out.append([int(m.optimizer.iterations.numpy()), h.epoch, m.get_weights()])
m = mk(S)
m.fit(ds, steps_per_epoch=6, epochs=1, verbose=0)
out.append(int(m.optimizer.iterations.numpy()))
""",
    "BackupAndRestore every 3 batches resumes after the last backup": BACKUP + """
out = backed_up_run((X, Y1), 3, (1, 2))
""",
    "BackupAndRestore every 3 batches of a Dataset under a strategy": BACKUP + """
out = backed_up_run((tf.data.Dataset.from_tensor_slices((X, Y1)).batch(4),), 3, (1, 2), S)
""",
    "BackupAndRestore backed up at an epoch's last batch resumes at the next epoch": BACKUP + """
out = backed_up_run((X, Y1), 4, (2, 1))
""",
    "BackupAndRestore every batch, preempted before any epoch ended": BACKUP + """
out = backed_up_run((X, Y1), 1, (0, 2), epochs=2)
""",
    "BackupAndRestore every epoch, preempted mid-epoch": BACKUP + """
out = backed_up_run((X, Y1), 'epoch', (1, 2))
""",
    **{f"BackupAndRestore save_freq={freq!r}": f"""
out = tf.keras.callbacks.BackupAndRestore(tempfile.mkdtemp(), save_freq={freq!r})
out = out.save_freq
""" for freq in (0, False, None)},
    "BackupAndRestore save_freq of a string other than 'epoch'": """
out = mk().fit(X, Y1, verbose=0, callbacks=[
    tf.keras.callbacks.BackupAndRestore(tempfile.mkdtemp(), save_freq='batch')])
""",
    "compute_average_loss with weights of every rank": """
loss1 = tf.constant([1.0, 2.0, 3.0, 4.0])
loss2 = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])
w1 = tf.constant([0.5, 1.0, 0.0, 2.0])
out = []
for loss, w in ((loss1, w1), (loss1, w1[:, None]), (loss1, w1[:, None, None]),
                (loss2[:, :1], w1), (loss2, w1), (loss2, w1[:, None]),
                (loss1, 2.0), (loss1, tf.constant([3.0])), (loss2, tf.constant([[0.5, 2.0]])),
                (loss1[:, None, None], w1)):
    for gbs in (None, 8):
        try:
            out.append(tf.nn.compute_average_loss(loss, sample_weight=w,
                                                  global_batch_size=gbs))
        except Exception as e:
            out.append(type(e).__name__)
""",
    "compute_average_loss with (N, 1) weights in strategy.run": """
def step(loss, w):
    return tf.nn.compute_average_loss(loss, sample_weight=w)
loss = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0])
w = tf.constant([[0.5], [1.0], [0.0], [2.0], [1.0], [1.0], [3.0], [0.25]])
ds = tf.data.Dataset.from_tensor_slices((loss, w)).batch(8)
got = S.run(step, args=next(iter(S.experimental_distribute_dataset(ds))))
out = S.reduce('SUM', got, axis=None)
""",
    "fit on Dataset.from_generator under a strategy: unknown length and batch size": """
def gen():
    for i in range(10):
        yield np.full((2,), i, 'float32'), np.float32(i % 2)
out = []
for ds in (tf.data.Dataset.from_generator(gen, output_signature=(
               tf.TensorSpec((2,), tf.float32), tf.TensorSpec((), tf.float32))),
           tf.data.Dataset.from_generator(gen, (tf.float32, tf.float32), ((2,), ()))):
    m = mk(S, loss='mse')
    h = m.fit(ds.map(lambda x, y: (x, tf.stack([y, 1.0 - y]))).batch(4), epochs=2, verbose=0)
    out.append([h.history['loss'], m.get_weights(), int(m.optimizer.iterations.numpy()),
                m.evaluate(ds.batch(3).map(lambda x, y: (x, tf.stack([y, 1.0 - y], axis=1))),
                           verbose=0)])
""",
    "a model built under one strategy, compiled under another": """
with S.scope():
    m = tf.keras.Sequential([L.Dense(2, input_shape=(2,), name='d')])
with tf.distribute.OneDeviceStrategy('/cpu:0').scope():
    m.compile('sgd', 'mse')
out = m.fit(X, Y1, verbose=0)
""",
    "a model built and compiled under one strategy, fit under another": """
with S.scope():
    m = tf.keras.Sequential([L.Dense(2, input_shape=(2,), name='d')])
    m.compile('sgd', 'mse')
with tf.distribute.OneDeviceStrategy('/cpu:0').scope():
    out = m.fit(X, Y1, verbose=0)
""",
}

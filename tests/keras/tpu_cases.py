"""Keras behaviour TPU training relies on, recorded from TF 2.21 + tf-keras on CPU (where it
runs without a TPU): compile(steps_per_execution=N) in fit (batch hooks once per execution
at its last step, optimizer.iterations counts every step, a partial last execution, the
truncation to one epoch, the error when the data size is unknown), and the
'mixed_bfloat16' policy (bfloat16 compute and outputs, float32 variables, no loss scaling).
Snippets in keras_cases.py's PRELUDE (mk, X, Y1)."""

SPE = """
def spe_run(spe, steps_per_epoch=None, epochs=2, data=None):
    m = mk(steps_per_execution=spe)
    seen = []
    log = tf.keras.callbacks.LambdaCallback(
        on_train_batch_begin=lambda b, logs: seen.append(('begin', b)),
        on_train_batch_end=lambda b, logs: seen.append(
            ('end', b, int(m.optimizer.iterations.numpy()), round(float(logs['loss']), 5))))
    h = m.fit(X if data is None else data, None if data is not None else Y1, batch_size=2,
              epochs=epochs, steps_per_epoch=steps_per_epoch, shuffle=False, verbose=0,
              callbacks=[log])
    return [seen, int(m.optimizer.iterations.numpy()), h.history['loss'],
            m.get_weights()]
"""

CASES = {
    "steps_per_execution=3 runs 8 steps as 3+3+2 and calls batch hooks per execution": SPE + """
out = spe_run(3)
""",
    "steps_per_execution above the epoch's steps is cut to one epoch": SPE + """
out = spe_run(10, steps_per_epoch=4, epochs=2, data=tf.data.Dataset.from_tensor_slices(
    (X, Y1)).batch(2).repeat())
""",
    "steps_per_execution=4 gives the weights of one step at a time": SPE + """
out = [spe_run(4)[1:], spe_run(1)[1:]]
""",
    "steps_per_execution > 1 with data of unknown size": SPE + """
ds = tf.data.Dataset.from_tensor_slices((X, Y1)).filter(lambda x, y: True).batch(2)
out = spe_run(2, data=ds)
""",
    "steps_per_execution=3 in evaluate and in fit's validation": """
m = mk(steps_per_execution=3, metrics=['accuracy'])
seen = []
log = tf.keras.callbacks.LambdaCallback(
    on_test_batch_begin=lambda b, logs: seen.append(('begin', b)),
    on_test_batch_end=lambda b, logs: seen.append(('end', b, round(float(logs['loss']), 5))))
result = m.evaluate(X, Y1, batch_size=2, verbose=0, callbacks=[log])
h = m.fit(X, Y1, batch_size=4, epochs=1, shuffle=False, verbose=0, callbacks=[log],
          validation_data=(X[:10], Y1[:10]), validation_batch_size=2)
out = [seen, result, h.history['val_loss']]
""",
    "steps_per_execution=0 runs one step per call": """
out = spe_run(0)
""",
    "mixed_bfloat16 computes in bfloat16 and keeps float32 variables": """
tf.keras.mixed_precision.set_global_policy('mixed_bfloat16')
try:
    d = L.Dense(2, kernel_initializer='ones', name='d')
    y = d(tf.constant([[1.0, 1.00390625, 3.14159265]]))
    m = tf.keras.Sequential([L.Dense(2, input_shape=(2,), name='a', kernel_initializer='ones'),
                             L.Dense(2, name='b', kernel_initializer='ones')])
    m.compile(tf.keras.optimizers.SGD(0.1), loss='mse')
    h = m.fit(X, Y1, batch_size=4, epochs=1, shuffle=False, verbose=0)
    out = [y, y.dtype.name, d.kernel.dtype.name, d.compute_dtype, d.variable_dtype,
           type(m.optimizer).__name__, m(X[:2]).dtype.name,
           [w.dtype.name for w in m.weights]]
finally:
    tf.keras.mixed_precision.set_global_policy('float32')
""",
}

"""Keras optimizers given IndexedSlices gradients (an embedding's, a gather's) as TF 2.21 +
tf-keras updates with them (recorded by record_tf_keras.py, group ``sparse_optimizers``, into
fixtures/tf_sparse_optimizers.json; replayed by test_sparse_optimizers_tf_conformance.py):
the gradient's repeated indices summed first (tf.unique, unsorted_segment_sum), then each
optimizer's sparse branch (slots decayed, rows scattered in) -- per-step float32 variable
and slot values as bit patterns (``bits``: upper and lower 16 bits), eagerly and under a
4-replica MirroredStrategy (the replicas' slices all-reduced, then each copy updated).
Snippets as in tests/tf_snippets.py.
"""

SPARSE = """
rng = np.random.RandomState(11)
W0 = rng.randn(40, 9).astype(np.float32)
IDX = [rng.randint(0, 40, size=n) for n in (30, 12, 50, 7, 25)]
GS = [rng.randn(len(i), 9).astype(np.float32) * 3 for i in IDX]
def bits(t):
    b = np.asarray(t).view(np.uint32)
    return [b >> 16, b & 0xFFFF]
def steps(opt):
    w = tf.Variable(W0)
    for i, g in zip(IDX, GS):
        opt.apply_gradients([(tf.IndexedSlices(tf.constant(g), tf.constant(i),
                                               tf.constant([40, 9])), w)])
    slots = opt.variables() if callable(opt.variables) else opt.variables
    return [bits(w.numpy())] + [bits(v.numpy()) for v in slots[1:]]
O = tf.keras.optimizers
"""

MIRRORED = """
rng = np.random.RandomState(4)
W0 = rng.randn(12, 3).astype(np.float32)
IDS = [rng.randint(0, 12, size=5) for _ in range(4)]
CS = [rng.randn(5, 3).astype(np.float32) for _ in range(4)]
def bits(t):
    b = np.asarray(t).view(np.uint32)
    return [b >> 16, b & 0xFFFF]
def trained(make, traced):
    with S.scope():
        emb = tf.Variable(W0)
        opt = make()
    ids = S.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(IDS[ctx.replica_id_in_sync_group]))
    cs = S.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(CS[ctx.replica_id_in_sync_group]))
    def step(i, c):
        with tf.GradientTape() as t:
            loss = tf.reduce_sum(tf.gather(emb, i) * c)
        opt.apply_gradients([(t.gradient(loss, emb), emb)])
    run = tf.function(lambda: S.run(step, args=(ids, cs))) if traced else (
        lambda: S.run(step, args=(ids, cs)))
    for _ in range(2):
        run()
    return [[bits(c) for c in S.experimental_local_results(v)]
            for v in [emb] + list(opt.variables[1:])]
O = tf.keras.optimizers
"""

CASES = {
    "sparse updates of SGD, Adam, AdamW, Adagrad, RMSprop, Lion, Adamax, Nadam, Adadelta, "
    "bits": SPARSE + """
out = [steps(O.SGD(0.1)), steps(O.SGD(0.1, momentum=0.9)),
       steps(O.SGD(0.1, momentum=0.7, nesterov=True)), steps(O.Adam(0.1)),
       steps(O.Adam(0.01, amsgrad=True, beta_1=0.5)), steps(O.AdamW(0.1, weight_decay=0.1)),
       steps(O.Adagrad(0.1)), steps(O.RMSprop(0.1)),
       steps(O.RMSprop(0.1, momentum=0.5, centered=True)), steps(O.Lion(0.1, beta_1=0.8)),
       steps(O.Adamax(0.1)), steps(O.Nadam(0.1)), steps(O.Adadelta(1.0))]
""",
    "optimizers without a sparse branch take the gradient made dense: Ftrl, Adafactor, "
    "bits": SPARSE + """
out = [steps(O.Ftrl(0.1, l1_regularization_strength=0.01)), steps(O.Adafactor(0.1))]
""",
    "legacy SGD, Adam and Adagrad's sparse updates (only the gradient's rows), bits": SPARSE + """
L = tf.keras.optimizers.legacy
out = [steps(L.SGD(0.1)), steps(L.SGD(0.1, momentum=0.9)),
       steps(L.SGD(0.1, momentum=0.7, nesterov=True)), steps(L.Adam(0.1)),
       steps(L.Adam(0.01, amsgrad=True, beta_1=0.5)), steps(L.Adagrad(0.1))]
""",
    "legacy RMSprop, Adadelta, Adamax and Nadam's sparse updates (only the gradient's rows), "
    "bits": SPARSE + """
L = tf.keras.optimizers.legacy
out = [steps(L.RMSprop(0.1)), steps(L.RMSprop(0.1, centered=True)),
       steps(L.RMSprop(0.1, momentum=0.5)), steps(L.RMSprop(0.1, momentum=0.5, centered=True)),
       steps(L.Adadelta(1.0)), steps(L.Adamax(0.1)), steps(L.Nadam(0.1))]
""",
    "legacy Ftrl's sparse updates (only the gradient's rows), bits": SPARSE + """
L = tf.keras.optimizers.legacy
out = [steps(L.Ftrl(0.1)), steps(L.Ftrl(0.1, l1_regularization_strength=0.05, beta=0.5,
                                        l2_regularization_strength=0.01)),
       steps(L.Ftrl(0.1, l1_regularization_strength=0.01,
                    l2_shrinkage_regularization_strength=0.02))]
""",
    "a sparse gradient is clipped by its values (clipnorm, global_clipnorm, clipvalue), "
    "bits": SPARSE + """
out = [steps(O.Adam(0.1, clipnorm=2.0)), steps(O.SGD(0.1, global_clipnorm=3.0)),
       steps(O.SGD(0.1, clipvalue=0.5)), steps(tf.keras.optimizers.legacy.SGD(0.1, clipnorm=2.0))]
""",
    "sparse updates under a 4-replica MirroredStrategy, eagerly and traced, bits": MIRRORED + """
out = [trained(lambda: O.Nadam(0.1), False),
       trained(lambda: O.SGD(0.1, momentum=0.5, nesterov=True), True)]
""",
}

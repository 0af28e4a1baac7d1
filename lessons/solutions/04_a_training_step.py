"""Solutions to lesson 4's exercises (tests/lessons/test_exercises.py checks them)."""

_LOOP = '''
def train_4b(strategy):
    tf.keras.utils.set_random_seed(42)
    with strategy.scope():
        model = tf.keras.Sequential([
            tf.keras.layers.Dense(16, activation="relu", input_shape=(10,)),
            tf.keras.layers.Dense(1, activation="sigmoid")])
        optimizer = tf.keras.optimizers.SGD(learning_rate=0.5)
        loss_fn = tf.keras.losses.BinaryCrossentropy(reduction=tf.keras.losses.Reduction.NONE)

    def step(inputs):
        x, y = inputs
        with tf.GradientTape() as tape:
            per_example = loss_fn(y, model(x, training=True))
            loss = LOSS
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    losses = []
    for _ in range(2):
        for batch in INPUT:
            losses.append(float(strategy.reduce("SUM", strategy.run(step, args=(batch,)),
                                                axis=None)))
    return losses, model.get_weights()
'''
_GLOBAL = "tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)"
_DIST = "strategy.experimental_distribute_dataset(dataset)"

SOLUTIONS = {
    # 32768 -> (good) 32768, 1 good -> (overflow) 16384 -> (overflow) 8192 -> (good) 8192,
    # 1 good -> (good) 16384.
    "4a": "scale_after = 16384",
    "4b": _LOOP.replace("LOSS", _GLOBAL).replace("INPUT", _DIST),
}

WRONG = {
    "4a": ["scale_after = 32768", "scale_after = 8192", "scale_after = 65536"],
    "4b": [
        # The per-replica mean, summed over replicas by the optimizer.
        _LOOP.replace("LOSS", "tf.reduce_mean(per_example)").replace("INPUT", _DIST),
        # The dataset not distributed: every replica trains on the whole batch.
        _LOOP.replace("LOSS", _GLOBAL).replace("INPUT", "dataset"),
        # Never trains: the learning rate is zero.
        _LOOP.replace("LOSS", _GLOBAL).replace("INPUT", _DIST).replace(
            "learning_rate=0.5", "learning_rate=0.0"),
    ],
}

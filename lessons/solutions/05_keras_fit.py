"""Solutions to lesson 5's exercises (tests/lessons/test_exercises.py checks them)."""

_FIT = '''
def fit_5b(strategy):
    tf.keras.utils.set_random_seed(1)
    SCOPE
        model = tf.keras.Sequential([
            tf.keras.layers.Dense(8, activation="relu", input_shape=(4,)),
            tf.keras.layers.Dense(1, activation="sigmoid")])
    with strategy.scope():
        model.compile(optimizer=tf.keras.optimizers.SGD(LR), loss="binary_crossentropy")
    return model.fit(dataset, epochs=3, verbose=0).history["loss"]
'''

SOLUTIONS = {
    # ceil(100 / 32) = 4 global steps per epoch, 3 epochs.
    "5a": "iterations_after_fit = 12",
    "5b": _FIT.replace("SCOPE", "with strategy.scope():").replace("LR", "0.5"),
}

WRONG = {
    "5a": ["iterations_after_fit = 48", "iterations_after_fit = 9", "iterations_after_fit = 3"],
    "5b": [
        # The model built outside the scope: fit raises TF's ValueError.
        _FIT.replace("SCOPE", "if True:").replace("LR", "0.5"),
        # Never learns.
        _FIT.replace("SCOPE", "with strategy.scope():").replace("LR", "0.0"),
    ],
}

"""Solutions to lesson 9's exercises (tests/lessons/test_exercises.py checks them)."""

_LOSS = '''
def replica_loss(model, x, y):
    per_example = tf.square(model(x) - y)[:, 0]
    return DATA + PENALTY
'''
_DATA = "tf.nn.compute_average_loss(per_example, global_batch_size=16)"
_PENALTY = "tf.nn.scale_regularization_loss(tf.add_n(model.losses))"

SOLUTIONS = {
    "9a": "scaled_penalty = 0.2",     # 0.8 / 4
    "9b": _LOSS.replace("DATA", _DATA).replace("PENALTY", _PENALTY),
}

WRONG = {
    "9a": ["scaled_penalty = 0.8", "scaled_penalty = 3.2"],
    "9b": [
        # The penalty unscaled: counted once per replica.
        _LOSS.replace("DATA", _DATA).replace("PENALTY", "tf.add_n(model.losses)"),
        # The data term averaged per replica.
        _LOSS.replace("DATA", "tf.reduce_mean(per_example)").replace("PENALTY", _PENALTY),
    ],
}

"""Solutions to lesson 11's exercises (tests/lessons/test_exercises.py checks them)."""

_RESUME = '''
def resume(directory):
    model = build()
    checkpoint = tf.train.Checkpoint(model=model, optimizer=model.optimizer)
    checkpoint.restore(WHICH)
    return model
'''

SOLUTIONS = {
    # The backup of epoch 6 was written: the rerun trains epochs 7, 8 and 9.
    "11a": "epochs_in_rerun = 3",
    "11b": "kept_numbers = [4, 5]",
    "11c": _RESUME.replace("WHICH", "tf.train.latest_checkpoint(directory)"),
}

WRONG = {
    "11a": ["epochs_in_rerun = 10", "epochs_in_rerun = 2", "epochs_in_rerun = 4"],
    "11b": ["kept_numbers = [1, 2]", "kept_numbers = [5]", "kept_numbers = [3, 4, 5]"],
    "11c": [
        # The oldest checkpoint, not the latest.
        _RESUME.replace("WHICH", "os.path.join(directory, 'ckpt-1')"),
        # Nothing restored: a fresh model.
        "def resume(directory):\n    return build()\n",
    ],
}

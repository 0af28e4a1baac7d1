"""Solutions to lesson 16's exercises (tests/lessons/test_exercises.py checks them)."""

SOLUTIONS = {
    "16a": "answer = [3, 3]",   # "train" once, "eval" for () and for (2,)
    "16b": "answer = 2",        # one trace, both branches traced, print in each once
}

WRONG = {
    "16a": [
        "answer = [5, 3]",   # print at every call
        "answer = [2, 2]",   # the new shape missed
        "answer = [5, 1]",   # as if it ran eagerly
    ],
    "16b": [
        "answer = 3",        # as if it ran eagerly: A, A, B
        "answer = 1",        # only the branch of the first call traced
    ],
}

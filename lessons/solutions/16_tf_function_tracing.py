"""Solutions to lesson 16's exercises (tests/lessons/test_exercises.py checks them)."""

SOLUTIONS = {
    "16a": "answer = [3, 3]",   # "train" once, "eval" for () and for (2,)
}

WRONG = {
    "16a": [
        "answer = [5, 3]",   # print at every call
        "answer = [2, 2]",   # the new shape missed
        "answer = [5, 1]",   # as if it ran eagerly
    ],
}

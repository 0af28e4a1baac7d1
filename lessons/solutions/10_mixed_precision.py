"""Solutions to lesson 10's exercises (tests/lessons/test_exercises.py checks them)."""

SOLUTIONS = {
    # Near 2**11 float16 numbers are 2 apart; 2049 rounds to even, 2048.
    "10a": "sum_in_float16 = 2048",
    "10b": 'optimizer_class = "LossScaleOptimizer"',
}

WRONG = {
    "10a": ["sum_in_float16 = 2049", "sum_in_float16 = 2050"],
    "10b": ['optimizer_class = "SGD"', 'optimizer_class = "Adam"'],
}

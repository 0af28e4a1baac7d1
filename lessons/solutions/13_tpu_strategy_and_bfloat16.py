"""Solutions to lesson 13's exercises (tests/lessons/test_exercises.py checks them)."""

SOLUTIONS = {
    # One replica per core; a v4 chip is one megacore: 16 chips, 16 replicas.
    "13a": "replicas_on_v4_32 = 16",
    # Between 2**8 and 2**9 bfloat16 numbers are 2 apart: 300.5 rounds to 300.
    "13b": "in_bfloat16 = 300",
    # bfloat16 has float32's range: no LossScaleOptimizer.
    "13c": 'bfloat16_optimizer_class = "SGD"',
}

WRONG = {
    "13a": ["replicas_on_v4_32 = 32", "replicas_on_v4_32 = 4"],
    "13b": ["in_bfloat16 = 300.5", "in_bfloat16 = 302"],
    "13c": ['bfloat16_optimizer_class = "LossScaleOptimizer"'],
}

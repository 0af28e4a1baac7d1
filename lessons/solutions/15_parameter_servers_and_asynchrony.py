"""Solutions to lesson 15's exercises (tests/lessons/test_exercises.py checks them)."""

SOLUTIONS = {
    # a, b, c, d, e are variables 0..4: e is the 5th, 4 % 3 = 1.
    "15a": "task_of_e = 1",
    # 10 rows in 3: 10 // 3 = 3 each, the first 10 % 3 = 1 shard takes one more.
    "15b": "rows_per_shard = [4, 3, 3]",
    # Versions 6, 7 and 8 were written by others after the read of version 5.
    "15c": "staleness = 3",
}

WRONG = {
    "15a": ["task_of_e = 2", "task_of_e = 0"],
    "15b": ["rows_per_shard = [3, 3, 4]", "rows_per_shard = [3, 3, 3]"],
    "15c": ["staleness = 4", "staleness = 2"],
}

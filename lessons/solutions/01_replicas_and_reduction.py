"""Solutions to lesson 1's exercises (tests/lessons/test_exercises.py checks them).

SOLUTIONS[id] replaces the exercise cell and must be graded right; each code in WRONG[id]
must be graded wrong (the classic mistakes).
"""

SOLUTIONS = {
    # MEAN applies the average update once: 10 + (1 + 2 + 3 + 4) / 4.
    "1a": "prediction = 12.5",
    # Each accuracy is a complete estimate of the same quantity.
    "1b": 'accuracy_op = "MEAN"',
    "1c": '''
import numpy as np

def my_all_reduce(values, op):
    stack = np.stack(values)
    if op in ("SUM", "MEAN"):
        result = stack.sum(axis=0, dtype=stack.dtype)   # keep the dtype (int8 stays int8)
        if op == "MEAN":
            result = result / len(values)               # TF: v / n after the sum
    elif op == "MIN":
        result = stack.min(axis=0)
    else:
        result = stack.max(axis=0)
    return [result.copy() for _ in values]              # one result, copied: same bits
''',
}

WRONG = {
    "1a": ["prediction = 20.0", "prediction = 11.0", "prediction = 14.0"],
    "1b": ['accuracy_op = "SUM"'],
    "1c": [
        # numpy's default sum widens int8 to int64: the dtype changes.
        '''
import numpy as np

def my_all_reduce(values, op):
    stack = np.stack(values)
    result = {"SUM": stack.sum(axis=0), "MEAN": stack.mean(axis=0),
              "MIN": stack.min(axis=0), "MAX": stack.max(axis=0)}[op]
    return [result.copy() for _ in values]
''',
        # Forgets the last replica.
        '''
import numpy as np

def my_all_reduce(values, op):
    stack = np.stack(values[:-1] or values)
    result = {"SUM": stack.sum(axis=0, dtype=stack.dtype), "MIN": stack.min(axis=0),
              "MAX": stack.max(axis=0)}.get(op)
    if op == "MEAN":
        result = stack.sum(axis=0, dtype=stack.dtype) / len(values)
    return [result.copy() for _ in values]
''',
    ],
}

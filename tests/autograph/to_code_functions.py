"""Functions whose ``tf.autograph.to_code`` text record_tf_to_code.py records from TF 2.21
(fixtures/tf_to_code.json) and test_to_code_vs_tf.py compares with simdist's: a tensor
if/else, a while loop, a for over range, break/continue, a return inside a loop, a nested
function, a decorator and a decorated nested function with a docstring. A module of their
own: AutoGraph reads their source."""

import functools


def if_else(x):
    if x > 0:
        y = x * 2
    else:
        y = -x
    return y


def while_loop(n):
    i = 0
    s = 0
    while i < n:
        s += i
        i += 1
    return s


def for_range(n):
    s = 0
    for i in range(n):
        s += i
    return s


def break_continue(n):
    s = 0
    for i in range(n):
        if i % 2 == 0:
            continue
        if s > 10:
            break
        s += i
    return s


def return_in_loop(n):
    for i in range(n):
        if i > 3:
            return i
    return -1


def nested(x):
    def inner(y):
        return y * 2
    return inner(x) + 1


def shift(f):
    @functools.wraps(f)
    def shifted(*args):
        return f(*args) + 1
    return shifted


def nested_decorated(x):
    """A docstring, kept first."""
    @shift
    def double(y):
        return y * 2
    return double(x)

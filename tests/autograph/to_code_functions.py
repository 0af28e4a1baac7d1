"""Functions whose ``tf.autograph.to_code`` text record_tf_to_code.py records from TF 2.21
(fixtures/tf_to_code.json) and test_to_code_vs_tf.py compares with simdist's: a tensor
if/else, a while loop, a for over range, break/continue, a return inside a loop, a nested
function, a decorator and a decorated nested function with a docstring, calls in a loop's
body and test, a conditional expression, argument defaults, a lambda inside a function,
composite symbols (``self.x``, ``d['k']``, ``x[i]``) as control-flow state, and lambdas
converted themselves (TF's ``tf__lam = lambda ...: ag__.with_function_scope(...)``).
A module of their own: AutoGraph reads their source."""

import functools
import math


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


def conditional_expression(x):
    return x if x > 0 else -x


def defaults(a, b=1, *, c=2):
    return a + b + c


def with_lambda(xs):
    f = lambda v: v + 1  # noqa: E731 - the lambda is what is converted
    return [f(x) for x in xs]


def loop_calls(x):
    while sum(x) > 1:
        print(x)
        x = [math.tanh(v) for v in x]
    return x


def composite_if(self, c, d):
    if c > 0:
        self.x = c
        d["k"] = 1
        n = 2
    else:
        self.x = -c
        d["k"] = 2
        n = 3
    return self.x + d["k"] + n


def composite_loop(k, xs):
    acc = {"s": 0, "p": 1}
    j = 0
    for i in range(1, k):
        acc["s"] += i
        acc["p"] *= i
        xs[j] = xs[j] + i
        xs[0].last = i
        made = {}
        made["a"] = i
    while acc["s"] > 100:
        acc["s"] -= k
    return acc, xs


scale = lambda x: x * 2.0  # noqa: E731
cond_lambda = lambda x: x if x > 0 else -x  # noqa: E731
calls_lambda = lambda x: math.floor(x) + abs(x)  # noqa: E731
logic_lambda = lambda a, b=1: a and not b or a  # noqa: E731
inner_lambda = lambda x: (lambda y: y * x)(2)  # noqa: E731
star_lambda = lambda *args, **kw: len(args)  # noqa: E731

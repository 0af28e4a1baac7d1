"""Control flow recorded from TF 2.21 by record_tf_control_flow.py (fixtures/tf_control_flow.json)
and replayed by test_control_flow_tf_conformance.py. Snippets as in tests/tf_snippets.py.

OPS_CASES: the explicit ops eagerly -- tf.cond, tf.while_loop, tf.case, tf.switch_case: values,
nested loop variables, maximum_iterations, exclusive case, switch_case's out-of-range rule,
gradients through the taken branch / the unrolled loop, and TF's errors for bad arguments.
AUTOGRAPH_CASES: small tf.function programs whose Python control flow AutoGraph converts:
tensor-dependent if / while / for, break / continue / return, for over tf.range, a tensor, a
dataset and a distributed dataset (MirroredStrategy over 2 logical CPUs), and/or/not on
tensors, and AutoGraph's errors (several raised only because tf.function traces both branches
or stages a loop body). NEEDS_TRACING names recorded cases simdist cannot replay yet, with why.
"""

import tf_snippets

GRAD = """
def grad(f, x):
    x = tf.constant(x)
    with tf.GradientTape() as t:
        t.watch(x)
        y = f(x)
    return [y, t.gradient(y, x)]
"""

# Two logical CPUs, GPUs hidden (simdist's default machine has GPUs; TF's recording one not).
TWO_CPUS = """
if tf.config.get_visible_devices('GPU'):
    tf.config.set_visible_devices([], 'GPU')
_cpus = tf.config.list_physical_devices('CPU')
if tf.config.get_logical_device_configuration(_cpus[0]) is None:
    tf.config.set_logical_device_configuration(
        _cpus[0], [tf.config.LogicalDeviceConfiguration() for _ in range(2)])
S2 = tf.distribute.MirroredStrategy(['/cpu:0', '/cpu:1'])
"""

STDOUT = """
import contextlib, io
def printed(fn, *args):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        fn(*args)
    return buf.getvalue()
"""

OPS_CASES = {
    # --- tf.cond -------------------------------------------------------------------------
    "cond takes the branch of a tensor predicate": """
x = tf.constant(2.0)
out = [tf.cond(x > 1.0, lambda: x * 10.0, lambda: x - 1.0),
       tf.cond(x > 3.0, lambda: x * 10.0, lambda: x - 1.0),
       tf.cond(pred=tf.constant(True), true_fn=lambda: 1, false_fn=lambda: 2)]
""",
    "cond with a Python bool predicate": """
out = [tf.cond(True, lambda: tf.constant(1), lambda: tf.constant(2)),
       tf.cond(False, lambda: tf.constant(1), lambda: tf.constant(2))]
""",
    "cond returns nested structures as the branch built them": """
r = tf.cond(tf.constant(False), lambda: {'a': tf.constant(1), 'b': [tf.constant(2.0)]},
            lambda: {'a': tf.constant(3), 'b': [tf.constant(4.0)]})
s = tf.cond(tf.constant(True), lambda: [tf.constant(5)], lambda: [tf.constant(6)])
out = [r, s, type(s).__name__, tf.cond(tf.constant(True), lambda: (1, 2.5), lambda: (3, 4.5))]
""",
    "cond runs only the taken branch": """
ran = []
tf.cond(tf.constant(True), lambda: ran.append('true'), lambda: ran.append('false'))
tf.cond(tf.constant(False), lambda: ran.append('true'), lambda: ran.append('false'))
out = ran
""",
    "cond with a branch returning None": """
out = [tf.cond(tf.constant(True), lambda: None, lambda: None)]
""",
    "cond with an integer predicate": """
out = [tf.cond(tf.constant(1), lambda: 'yes', lambda: 'no'),
       tf.cond(tf.constant(0), lambda: 'yes', lambda: 'no'),
       tf.cond(tf.constant(0.5), lambda: 'yes', lambda: 'no')]
""",
    "cond with a non-scalar predicate": """
tf.cond(tf.constant([True, False]), lambda: 1, lambda: 2)
""",
    "cond with a one-element predicate": """
out = tf.cond(tf.constant([False]), lambda: 1, lambda: 2)
""",
    "cond without true_fn": "tf.cond(tf.constant(True))",
    "cond without false_fn": "tf.cond(tf.constant(True), lambda: 1)",
    "cond with a non-callable true_fn": "tf.cond(tf.constant(True), 1, lambda: 2)",
    "cond with a non-callable false_fn": "tf.cond(tf.constant(True), lambda: 1, 2)",
    "cond with a string predicate": "out = tf.cond(tf.constant('a'), lambda: 1, lambda: 2)",
    "cond gradient flows through the taken branch": GRAD + """
f = lambda x: tf.cond(x > 0.0, lambda: x * x, lambda: -3.0 * x)
out = [grad(f, 3.0), grad(f, -2.0)]
""",
    "cond gradient of a branch not depending on x": GRAD + """
out = grad(lambda x: tf.cond(x > 0.0, lambda: tf.constant(7.0), lambda: x), 1.0)
""",
    # --- tf.while_loop ---------------------------------------------------------------------
    "while_loop counts": """
out = tf.while_loop(lambda i: i < 10, lambda i: (i + 1,), [tf.constant(0)])
""",
    "while_loop with two loop variables": """
out = tf.while_loop(lambda i, s: i < 5, lambda i, s: (i + 1, s + i), (0, tf.constant(0.5)))
""",
    "while_loop with a single loop variable not in a list": """
out = tf.while_loop(lambda i: i < 3, lambda i: i + 1, tf.constant(0))
""",
    "while_loop body returning a bare tensor for a one-element list": """
r = tf.while_loop(lambda i: i < 3, lambda i: i + 1, [tf.constant(0)])
out = [r, type(r).__name__]
""",
    "while_loop with nested loop variables": """
def body(i, acc):
    return i + 1, {'sum': acc['sum'] + i, 'pair': (acc['pair'][1], acc['pair'][0])}
out = tf.while_loop(lambda i, acc: i < 4, body,
                    (tf.constant(0), {'sum': tf.constant(0), 'pair': (tf.constant(1.0),
                                                                      tf.constant(2.0))}))
""",
    "while_loop Python values come back as tensors": """
out = tf.while_loop(lambda i, x: i < 3, lambda i, x: (i + 1, x * 2), [0, 1.5])
""",
    "while_loop that never runs returns its inputs": """
out = tf.while_loop(lambda i: i > 100, lambda i: (i + 1,), [tf.constant(7)])
""",
    "while_loop maximum_iterations stops early": """
out = [tf.while_loop(lambda i: i < 100, lambda i: [i + 1], [tf.constant(0)],
                     maximum_iterations=4),
       tf.while_loop(lambda i: i < 2, lambda i: [i + 1], [tf.constant(0)],
                     maximum_iterations=tf.constant(10)),
       tf.while_loop(lambda i, j: i < 100, lambda i, j: [i + 1, j - 1], [0, 0],
                     maximum_iterations=3),
       tf.while_loop(lambda i: True, lambda i: [i + 1], [tf.constant(0)],
                     maximum_iterations=0)]
""",
    "while_loop maximum_iterations with a body returning a tuple for a list": """
tf.while_loop(lambda i: i < 100, lambda i: (i + 1,), [tf.constant(0)], maximum_iterations=4)
""",
    "while_loop with a scalar tensor as loop_vars": """
tf.while_loop(lambda i: i < 3, lambda i: i + 1, tf.constant(5))
""",
    "while_loop maximum_iterations must be a scalar": """
tf.while_loop(lambda i: i < 3, lambda i: (i + 1,), [0], maximum_iterations=[2, 3])
""",
    "while_loop body changing the structure": """
tf.while_loop(lambda i, j: i < 3, lambda i, j: (i + 1,), [0, 0])
""",
    "while_loop body returning a list for a tuple": """
out = tf.while_loop(lambda i, j: i < 3, lambda i, j: [i + 1, j], (0, 1))
""",
    "while_loop without loop_vars": "tf.while_loop(lambda: True, lambda: (), [])",
    "while_loop with a non-callable cond": "tf.while_loop(True, lambda i: i, [0])",
    "while_loop with a non-callable body": "tf.while_loop(lambda i: i < 2, 1, [0])",
    "while_loop parallel_iterations must be positive": """
tf.while_loop(lambda i: i < 2, lambda i: i + 1, [0], parallel_iterations=0)
""",
    "while_loop gradient through the unrolled loop": GRAD + """
out = grad(lambda x: tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * x),
                                   (0, tf.constant(1.0)))[1], 2.0)
""",
    "while_loop with a tensor condition on the loop value": GRAD + """
out = grad(lambda x: tf.while_loop(lambda y: y < 50.0, lambda y: [y * y], [x])[0], 3.0)
""",
    # --- tf.case ---------------------------------------------------------------------------
    "case picks the first true predicate": """
x = tf.constant(5)
out = [tf.case([(x > 3, lambda: tf.constant(1)), (x > 1, lambda: tf.constant(2))],
               default=lambda: tf.constant(0)),
       tf.case([(x > 9, lambda: tf.constant(1)), (x > 1, lambda: tf.constant(2))],
               default=lambda: tf.constant(0)),
       tf.case([(x > 9, lambda: tf.constant(1)), (x > 7, lambda: tf.constant(2))],
               default=lambda: tf.constant(0))]
""",
    "case without default takes the last pair when no other is true": """
x = tf.constant(5)
out = tf.case([(x > 9, lambda: tf.constant(1)), (x > 1, lambda: tf.constant(2))])
""",
    "case without default when no predicate is true": """
x = tf.constant(5)
tf.case([(x > 9, lambda: tf.constant(1)), (x > 7, lambda: tf.constant(2))])
""",
    "case exclusive with two true predicates": """
x = tf.constant(5)
tf.case([(x > 3, lambda: tf.constant(1)), (x > 1, lambda: tf.constant(2))],
        default=lambda: tf.constant(0), exclusive=True)
""",
    "case exclusive with one true predicate": """
x = tf.constant(5)
out = tf.case([(x > 7, lambda: tf.constant(1)), (x > 1, lambda: tf.constant(2))],
              default=lambda: tf.constant(0), exclusive=True)
""",
    "case unpacks singletons unless strict": """
x = tf.constant(5)
out = [tf.case([(x > 3, lambda: [tf.constant(1)])], default=lambda: [tf.constant(0)]),
       tf.case([(x > 3, lambda: [tf.constant(1)])], default=lambda: [tf.constant(0)],
               strict=True)]
""",
    "case with a dict and exclusive=False": """
x = tf.constant(5)
tf.case({x > 3: lambda: tf.constant(1)}, default=lambda: tf.constant(0))
""",
    "case with a dict and exclusive=True": """
x = tf.constant(5)
out = tf.case({x > 3: lambda: tf.constant(1), x > 7: lambda: tf.constant(2)},
              default=lambda: tf.constant(0), exclusive=True)
""",
    "case with a Python bool predicate": """
tf.case([(True, lambda: tf.constant(1))], default=lambda: tf.constant(0))
""",
    "case with an integer tensor predicate": """
tf.case([(tf.constant(1), lambda: tf.constant(1))], default=lambda: tf.constant(0))
""",
    "case with a non-callable fn": """
tf.case([(tf.constant(True), 1)], default=lambda: tf.constant(0))
""",
    "case with pairs that are not 2-tuples": """
tf.case([tf.constant(True)], default=lambda: tf.constant(0))
""",
    "case with pred_fn_pairs not a list": "tf.case(5)",
    "case with one pair and no default": """
out = tf.case([(tf.constant(True), lambda: tf.constant(3))])
""",
    "case with one false pair and no default": """
tf.case([(tf.constant(False), lambda: tf.constant(3))])
""",
    # --- tf.switch_case --------------------------------------------------------------------
    "switch_case picks by index": """
fns = [lambda: tf.constant(10), lambda: tf.constant(11), lambda: tf.constant(12)]
out = [tf.switch_case(tf.constant(i), fns) for i in range(3)]
""",
    "switch_case out of range runs the last branch without default": """
fns = [lambda: tf.constant(10), lambda: tf.constant(11), lambda: tf.constant(12)]
out = [tf.switch_case(tf.constant(i), fns) for i in (-1, 3, 100)]
""",
    "switch_case out of range runs default": """
fns = {0: lambda: tf.constant(10), 1: lambda: tf.constant(11)}
out = [tf.switch_case(tf.constant(i), fns, default=lambda: tf.constant(-1))
       for i in (-5, 0, 1, 2)]
""",
    "switch_case with key-function pairs in any order": """
fns = [(1, lambda: tf.constant(11)), (0, lambda: tf.constant(10))]
out = [tf.switch_case(tf.constant(0), fns), tf.switch_case(tf.constant(1, tf.int64), fns)]
""",
    "switch_case with a Python int index": """
tf.switch_case(1, [lambda: tf.constant(10), lambda: tf.constant(11)])
""",
    "switch_case with a float index": """
tf.switch_case(tf.constant(1.0), [lambda: tf.constant(10), lambda: tf.constant(11)])
""",
    "switch_case with no branches": "tf.switch_case(tf.constant(0), [])",
    "switch_case with branch_fns not a list": """
tf.switch_case(tf.constant(0), lambda: tf.constant(1))
""",
    "switch_case with keys that are not contiguous": """
tf.switch_case(tf.constant(0), {0: lambda: tf.constant(1), 2: lambda: tf.constant(2)})
""",
    "switch_case with a non-int key": """
tf.switch_case(tf.constant(0), {'a': lambda: tf.constant(1)})
""",
    "switch_case with a non-callable branch": """
tf.switch_case(tf.constant(0), [(0, 1)])
""",
    "switch_case with an entry that is not a pair": """
tf.switch_case(tf.constant(0), [lambda: tf.constant(1), 3])
""",
    "switch_case gradient through the chosen branch": GRAD + """
f = lambda x: tf.switch_case(tf.constant(1), [lambda: x * 2.0, lambda: x * x * x])
out = grad(f, 2.0)
""",
}

# A program's helper: [type, last line] of what a call raises (the kernel's text or the
# "in user code:" message; TF's graph execution frames left out), None when it returns.
LAST_LINE = """
def _caught(fn):   # what a call raises
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error is the result
        return e
    return None
def error(fn):   # the error's type and its last line (a kernel's or "in user code:" text)
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error is the result
        lines = [line.strip() for line in str(e).splitlines()
                 if line.strip() and not line.strip().startswith("[[")]
        return [type(e).__name__, lines[-1]]
    return None
"""

AUTOGRAPH_PROGRAMS = {
    "if on a tensor inside tf.function": """
@tf.function
def f(x):
    if x > 0:
        y = x * 2
    else:
        y = -x
    return y
out = [f(tf.constant(3)), f(tf.constant(-4))]
""",
    "if elif else on tensors": """
@tf.function
def sign(x):
    if x > 0:
        s = 1.0
    elif x < 0:
        s = -1.0
    else:
        s = 0.0
    return s
out = [sign(tf.constant(2.5)), sign(tf.constant(-0.5)), sign(tf.constant(0.0))]
""",
    "if without else modifying a variable": """
@tf.function
def f(x):
    y = x
    if tf.reduce_sum(x) > 3:
        y = y * 10
    return y
out = [f(tf.constant([1, 1])), f(tf.constant([2, 2]))]
""",
    "while on a tensor condition": """
@tf.function
def collatz(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps
out = [collatz(tf.constant(6)), collatz(tf.constant(27))]
""",
    "for over tf.range accumulates": """
@tf.function
def f(n):
    total = tf.constant(0)
    for i in tf.range(n):
        total += i * i
    return total
out = [f(tf.constant(5)), f(tf.constant(0))]
""",
    "for over a tensor iterates its rows": """
@tf.function
def f(m):
    acc = tf.zeros([3])
    for row in m:
        acc = acc + row
    return acc
out = f(tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
""",
    "for over a Python range stays a Python loop": """
@tf.function
def f(x):
    parts = []
    for i in range(3):
        parts.append(x * i)
    return tf.stack(parts)
out = f(tf.constant(2))
""",
    "break and continue in a for over tf.range": """
@tf.function
def f(n):
    s = 0
    for i in tf.range(n):
        if i % 2 == 0:
            continue
        if i > 6:
            break
        s += i
    return s
out = [f(tf.constant(20)), f(tf.constant(4))]
""",
    "break in a while loop": """
@tf.function
def f(x):
    i = tf.constant(0)
    while i < 100:
        if i * i > x:
            break
        i += 1
    return i
out = f(tf.constant(30))
""",
    "early return on a tensor condition": """
@tf.function
def f(x):
    if x < 0:
        return -1
    return x * 2
out = [f(tf.constant(-3)), f(tf.constant(5))]
""",
    "return inside a tensor loop": """
@tf.function
def first_over(xs, limit):
    for x in xs:
        if x > limit:
            return x
    return tf.constant(-1)
out = [first_over(tf.constant([1, 5, 9]), tf.constant(4)),
       first_over(tf.constant([1, 2]), tf.constant(4))]
""",
    "and or not on tensors": """
@tf.function
def f(a, b):
    if a > 0 and b > 0:
        r = 1
    elif a > 0 or not b > 0:
        r = 2
    else:
        r = 3
    return r
out = [f(tf.constant(1), tf.constant(1)), f(tf.constant(1), tf.constant(-1)),
       f(tf.constant(-1), tf.constant(1)), f(tf.constant(-1), tf.constant(-1))]
""",
    "and or on tensors as values": """
@tf.function
def f(a, b):
    return [a and b, a or b, not a]
out = f(tf.constant(True), tf.constant(False))
""",
    "and or on Python values keep Python semantics": """
@tf.function
def f(x):
    a = 0 or 5
    b = [] and 7
    c = 'x' and 3
    return [x, a, len(b), c]
out = f(tf.constant(1))
""",
    "for over a dataset": """
@tf.function
def f(ds):
    total = tf.constant(0, tf.int64)
    for batch in ds:
        total += tf.reduce_sum(batch)
    return total
out = f(tf.data.Dataset.range(10).batch(3))
""",
    "for over a dataset with break": """
@tf.function
def f(ds):
    total = tf.constant(0, tf.int64)
    for x in ds:
        if x > 4:
            break
        total += x
    return total
out = f(tf.data.Dataset.range(10))
""",
    "for over a distributed dataset under MirroredStrategy": TWO_CPUS + """
ds = tf.data.Dataset.range(8).map(lambda x: tf.cast(x, tf.float32)).batch(4)
dds = S2.experimental_distribute_dataset(ds)
@tf.function
def f(dds):
    total = tf.constant(0.0)
    for batch in dds:
        per_replica = S2.run(lambda b: tf.reduce_sum(b * b), args=(batch,))
        total += S2.reduce('SUM', per_replica, axis=None)
    return total
out = f(dds)
""",
    "for over a distributed iterator under MirroredStrategy": TWO_CPUS + """
ds = tf.data.Dataset.range(8).map(lambda x: tf.cast(x, tf.float32)).batch(4)
it = iter(S2.experimental_distribute_dataset(ds))
@tf.function
def f(it):
    total = tf.constant(0.0)
    for batch in it:
        total += S2.reduce('SUM', S2.run(tf.reduce_sum, args=(batch,)), axis=None)
    return total
out = f(it)
""",
    "nested function and method conversion": """
class Model(tf.Module):
    def __init__(self):
        self.scale = tf.constant(3)
    @tf.function
    def __call__(self, x):
        def helper(v):
            if v > 0:
                return v * self.scale
            return v
        return helper(x)
m = Model()
out = [m(tf.constant(2)), m(tf.constant(-2))]
""",
    "tf.cond and tf.while_loop inside tf.function": """
@tf.function
def f(x):
    y = tf.cond(x > 0, lambda: x + 100, lambda: x - 100)
    return tf.while_loop(lambda i, acc: i < 3, lambda i, acc: (i + 1, acc + y), (0, y))
out = f(tf.constant(1))
""",
    "gradient through a converted loop": """
@tf.function
def f(x):
    with tf.GradientTape() as t:
        t.watch(x)
        y = x
        for _ in tf.range(3):
            y = y * x
    return y, t.gradient(y, x)
out = f(tf.constant(2.0))
""",
    "loop variable changing dtype": """
@tf.function
def f(n):
    x = 0
    for i in tf.range(n):
        x = x + 0.5
    return x
f(tf.constant(3))
""",
    "loop variable changing shape": """
@tf.function
def f(n):
    x = tf.constant([1.0])
    for i in tf.range(n):
        x = tf.concat([x, x], 0)
    return x
f(tf.constant(3))
""",
    "set_loop_options shape invariants let a loop variable grow": """
@tf.function
def f(n):
    x = tf.constant([1.0])
    for i in tf.range(n):
        tf.autograph.experimental.set_loop_options(
            shape_invariants=[(x, tf.TensorShape([None]))])
        x = tf.concat([x, x * 2.0], 0)
    return x
out = f(tf.constant(3))
""",
    "set_loop_options maximum_iterations stops a while loop": """
@tf.function
def f(x):
    while x < 100:
        tf.autograph.experimental.set_loop_options(maximum_iterations=3)
        x = x + 1
    return x
out = f(tf.constant(0))
""",
    "set_loop_options shape invariant the loop variable does not meet": """
@tf.function
def f(n):
    x = tf.constant([1.0, 2.0])
    for i in tf.range(n):
        tf.autograph.experimental.set_loop_options(
            shape_invariants=[(x, tf.TensorShape([1]))])
        x = x + 1.0
    return x
f(tf.constant(3))
""",
    "variable defined only in the main branch": """
@tf.function
def f(x):
    if x > 0:
        y = 1
    return y
f(tf.constant(1))
""",
    "variable defined only in the else branch": """
@tf.function
def f(x):
    if x > 0:
        pass
    else:
        y = 1
    return y
f(tf.constant(1))
""",
    "branches with different dtypes": """
@tf.function
def f(x):
    if x > 0:
        y = tf.constant(1)
    else:
        y = tf.constant(1.0)
    return y
f(tf.constant(1))
""",
    "variable undefined before a tensor loop": """
@tf.function
def f(n):
    for i in tf.range(n):
        last = i
    return last
out = f(tf.constant(3))
""",
    "variable undefined before a tensor loop that runs zero times": """
@tf.function
def f(n):
    for i in tf.range(n):
        last = i
    return last
f(tf.constant(3))
f(tf.constant(0))
""",
    "a loop defining its variable stages its body twice per trace": STDOUT + """
@tf.function
def f(n):
    for i in tf.range(n):
        print('staged')
        last = i
    return last
text = printed(f, tf.constant(3)) + printed(f, tf.constant(5))
out = [text, f(tf.constant(2))]
""",
    "variable undefined before a tensor loop and not used after": """
@tf.function
def f(n):
    s = tf.constant(0)
    for i in tf.range(n):
        tmp = i * 2
        s += tmp
    return s
out = f(tf.constant(4))
""",
    "if condition not a boolean tensor": """
@tf.function
def f(x):
    if x:
        y = 1
    else:
        y = 2
    return y
f(tf.constant(3))
""",
    "while condition not a scalar": """
@tf.function
def f(x):
    while x < 3:
        x = x + 1
    return x
f(tf.constant([1, 2]))
""",
    "return only in one branch of a tensor if": """
@tf.function
def f(x):
    if x > 0:
        return 1
f(tf.constant(1))
""",
    "print runs once per trace, tf.print every call": STDOUT + """
@tf.function
def f(x):
    for i in tf.range(x):
        print('python print', i.dtype)
    return x
text = printed(f, tf.constant(3)) + printed(f, tf.constant(4))
out = text
""",
    "do_not_convert leaves a tensor if unconverted": """
@tf.autograph.experimental.do_not_convert
def g(x):
    if x > 0:
        return 1
    return 2
@tf.function
def f(x):
    return g(x)
f(tf.constant(1))
""",
    "to_graph converts a function": """
def g(x):
    y = 0
    for i in tf.range(x):
        y += i
    return y
out = [tf.autograph.to_graph(g)(tf.constant(4)), 'ag__' in tf.autograph.to_code(g)]
""",
    "a Python while over Python values is unrolled": """
@tf.function
def f(x):
    i = 0
    while i < 3:
        x = x + i
        i += 1
    return x, i
r = f(tf.constant(10))
out = [r[0], r[1]]
""",
    "a tensor while with a Python counter": """
@tf.function
def f(x):
    n = 0
    while x > 1:
        x = x / 2
        n += 1
    return n
out = f(tf.constant(20.0))
""",
    "lambda inside a tf.function": """
@tf.function
def f(x):
    g = lambda v: v * 2 if v > 0 else v
    return g(x)
out = [f(tf.constant(3)), f(tf.constant(-3))]
""",
    "conditional expression on a tensor": """
@tf.function
def f(x):
    return x * 2 if x > 0 else -x
out = [f(tf.constant(3)), f(tf.constant(-3))]
""",
    "an error in a helper called by a nested tf.function: TF's frames": """
def helper(x):
    return tf.reshape(x, [3])
@tf.function
def g(x):
    y = x + 1.0
    print("tracing g")
    return helper(y)
@tf.function
def f(x):
    z = x * 2.0
    return g(z)
f(tf.ones([2]))
""",
    "an error in a do_not_convert function: its frame marked **": """
@tf.autograph.experimental.do_not_convert
def plain(x):
    raise ValueError("plain says no")
@tf.function
def f(x):
    for i in tf.range(2):
        x = x + 1.0
    return plain(x) + 1.0
f(tf.constant(1.0))
""",
    "an error in a traced lambda of a module not in sys.modules: run unconverted": """
f = tf.function(lambda x: tf.reshape(x, [5]))
f(tf.ones([2]))
""",
    "an error the user raises inside a loop body": """
@tf.function
def f(x):
    for i in tf.range(3):
        if x.shape.rank != 0:
            raise TypeError("x must be a scalar")
        x = x * 2.0
    return x
f(tf.ones([2]))
""",
    "numpy() in a method of a tf.Module: AttributeError in user code": """
class M(tf.Module):
    @tf.function
    def __call__(self, x):
        return self.scale(x)
    def scale(self, x):
        return x.numpy() * 2
M()(tf.constant(1.0))
""",
    "a loop target named as a lambda parameter or comprehension variable in the loop": """
ds = tf.data.Dataset.range(4)
runs = []
@tf.function
def f(k):
    runs.append(1)
    out = tf.constant(0, tf.int64)
    for x in ds.map(lambda x: x * k):
        out += x
    for i in tf.range(2):
        scaled = [i * j for j in (1, 2)]
        out += tf.cast(tf.add_n(scaled), tf.int64)
    for j in ds.filter(lambda j: j > 1):
        def plus(j=j, x=None):
            return j + 1
        out += plus()
    return out
out = [f(tf.constant(2, tf.int64)), f(tf.constant(3, tf.int64)), len(runs)]
""",
    "builtins in converted code: enumerate, zip, map, filter, len, any, all of datasets":
        LAST_LINE + """
ds = tf.data.Dataset.range(6)
@tf.function
def f(n):
    s = tf.constant(0, tf.int64)
    for i, x in enumerate(ds):
        s += x * i
    for a, b in zip(ds, ds.skip(1)):
        s += a * b
    for y in map(lambda a, b: a - b, ds, ds.skip(2)):
        s += y
    for z in filter(lambda z: z % 2 == 0, ds):
        s += z
    for w in abs(ds.map(lambda v: -v)):
        s += w
    return s, len(ds), any(ds.map(lambda v: v > 4)), all(ds.map(lambda v: v < 4))
@tf.function
def unknown(n):
    return len(ds.filter(lambda v: v > n))
out = [f(tf.constant(1, tf.int64)), error(lambda: unknown(tf.constant(1, tf.int64)))]
""",
    "builtins in converted code on tensors: len, range, int, float, abs, sorted": LAST_LINE + """
@tf.function
def f(x, n):
    total = tf.constant(0.0)
    for i in range(n):
        total += float(i)
    for i in range(2, n):
        total += 10.0 * tf.cast(i, tf.float32)
    return (len(x), int(x[0]), abs(x), sorted(x), sorted(x, reverse=True), total,
            [i * 2 for i in range(3)])
@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def g(x):
    return len(x)
@tf.function
def scalar(x):
    return len(x)
out = [f(tf.constant([2.5, -1.0, 3.0]), tf.constant(4)), g(tf.constant([1.0, 2.0])),
       error(lambda: scalar(tf.constant(1.0)))]
""",
    "a tensor of a loop body or cond branch used outside it: InaccessibleTensorError": """
import re
def error(fn, names=False):   # the type and the last line, ids and counters masked
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error is the result
        last = [line.strip() for line in str(e).splitlines() if line.strip()][-1]
        last = re.sub(r"id=[0-9]+", "id=N", re.sub(r"_[0-9]+, id=", ", id=", last))
        if names:   # the tensor's own name left out
            last = re.sub(r"<tf.Tensor '[^']*'", "<tf.Tensor", last)
        return [type(e).__name__, last]
    return None
@tf.function
def range_append():
    ids = []
    for i in tf.range(3):
        ids.append(i * 2)
    return ids
@tf.function
def cond_append(x):
    out = []
    if x > 0:
        out.append(x * 2)
    else:
        out.append(x)
    return out
@tf.function
def dataset_append():
    ids = []
    for i in tf.data.Dataset.range(3):
        ids.append(i * 2)
    return ids[0]
@tf.function
def kept_but_unused(x):
    keep = {}
    for i in tf.range(2):
        keep["a"] = i
    return x
@tf.function
def while_loop_leak(x):
    seen = []
    def body(i, s):
        seen.append(i)
        return i + 1, s + i
    r = tf.while_loop(lambda i, s: i < 3, body, (0, x))
    return r[1] + seen[0]
out = [error(range_append), error(lambda: cond_append(tf.constant(1))), error(dataset_append),
       kept_but_unused(tf.constant(1)), error(lambda: while_loop_leak(tf.constant(1)))]
""",
    "the graphs of loops and branches and a loop's placeholders are named as TF's": """
import re
def leaked(fn):   # the tensor and the graph it was made in, ids and uids masked
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error is the result
        last = [line.strip() for line in str(e).splitlines() if line.strip()][-1]
        return re.sub(r"id=[0-9]+", "id=N", re.sub(r"_[0-9]+, id=", ", id=", last))
    return None
def loop_var(k):
    @tf.function
    def f(x):
        seen = []
        def body(*vs):
            seen.append(vs[k])
            return tuple(v + 1 for v in vs)
        tf.while_loop(lambda *vs: vs[0] < 3, body, tuple(tf.constant(i) for i in range(3)))
        return seen[0]
    return leaked(lambda: f(tf.constant(1)))
@tf.function
def second_loop(x):
    seen = []
    i = tf.constant(0)
    while i < x:
        i += 1
    j = tf.constant(0)
    while j < x:
        seen.append(j)
        j += 1
    return seen[0]
@tf.function
def scoped(x):
    seen = []
    with tf.name_scope("outer"):
        tf.while_loop(lambda i: i < 3, lambda i: (seen.append(i), i + 1)[1], [x], name="loopy")
    return seen[0]
@tf.function
def second_cond(x):
    seen = []
    def t():
        seen.append(x * 2)
        return x
    tf.cond(x > 0, lambda: x, lambda: x)
    tf.cond(x > 0, t, lambda: x)
    return seen[-1]
out = [loop_var(0), loop_var(2), leaked(lambda: second_loop(tf.constant(2))),
       leaked(lambda: scoped(tf.constant(1))), leaked(lambda: second_cond(tf.constant(1)))]
""",
    "a dataset loop's and a reduce's function: TF's tf.data graphs and arguments": """
import re
def leaked(fn):   # the tensor and the graph it was made in, ids masked
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error is the result
        last = [line.strip() for line in str(e).splitlines() if line.strip()][-1]
        return re.sub(r"id=[0-9]+", "id=N", last)
    return None
ds = tf.data.Dataset.range(3)
def loop(which):
    @tf.function
    def f():
        seen = []
        s = tf.constant(0, tf.int64)
        t = tf.constant(0.0)
        for e in ds:
            seen.append({"s": s, "t": t, "e": e, "mul": e * 2, "mul_1": s * 3}[which])
            s += e
            t += 1.0
        return seen[0]
    return leaked(f)
def reduce(fn):
    seen = []
    @tf.function
    def f():
        ds.reduce(tf.constant(0, tf.int64), lambda a, b: fn(seen, a, b))
        return seen[0]
    return leaked(f)
def fn(seen, a, b):
    seen.append(b)
    return a + b
@tf.function
def named(x):
    seen = []
    def add(a, b):
        seen.append(a * x)
        return a + b
    ds.reduce(tf.constant(0, tf.int64), add)
    return seen[0]
out = [loop(w) for w in ("s", "t", "e", "mul", "mul_1")] + [
    reduce(fn), leaked(lambda: named(tf.constant(2, tf.int64)))]
""",
    "a loop else runs its function unconverted, as TF's AutoGraph refuses it": LAST_LINE + """
@tf.function
def python_loop(n):
    for i in range(n):
        n += i
    else:
        n += 100
    return n
@tf.function
def tensor_loop(x):
    while x > 0:
        x -= 1
    else:
        x += 100
    return x
out = [python_loop(3), error(lambda: tensor_loop(tf.constant(3)))]
""",
    "composite symbols in a tensor if: self.x, d['k'], x[j] are the cond's outputs": """
class C:
    def __init__(self):
        self.x = tf.constant(0)
    @tf.function
    def f(self, c):
        if c > 0:
            self.x = tf.constant(7)
        else:
            self.x = tf.constant(5)
        return self.x
class Obj:
    pass
@tf.function
def both(c):
    d = {}
    if c > 0:
        d["k"] = c * 2
    else:
        d["k"] = c * 3
    return d["k"]
@tf.function
def one(c):
    d = {"k": tf.constant(0)}
    if c > 0:
        d["k"] = c * 2
    return d["k"]
@tf.function
def nested(c):
    s = {"a": {"b": tf.constant(1)}}
    if c > 0:
        s["a"]["b"] = c
    return s["a"]["b"]
@tf.function
def by_symbol(c):
    d = [tf.constant(0), tf.constant(0)]
    j = 1
    if c > 0:
        d[j] = c
    return d
@tf.function
def made_in_branch(c):
    if c > 0:
        o = Obj()
        o.v = c
        r = o.v
    else:
        r = -c
    return r
@tf.function
def early_return(c):
    o = Obj()
    o.v = c
    if c > 0:
        o.v = c * 10
        return o.v
    o.v = c - 1
    return o.v
class M(tf.Module):
    def __init__(self):
        self.step = tf.constant(0)
        self.best = tf.constant(100.0)
    @tf.function
    def __call__(self, loss):
        if loss < self.best:
            self.best = loss
            self.step = self.step + 1
        return self.best, self.step
c, m = C(), M()
out = [c.f(tf.constant(1)), c.f(tf.constant(-1)), type(c.x).__name__,
       both(tf.constant(2)), both(tf.constant(-2)), one(tf.constant(2)), one(tf.constant(-2)),
       nested(tf.constant(9)), nested(tf.constant(-9)), by_symbol(tf.constant(4)),
       made_in_branch(tf.constant(3)), made_in_branch(tf.constant(-3)),
       early_return(tf.constant(3)), early_return(tf.constant(-3)),
       m(tf.constant(3.0)), m(tf.constant(5.0))]
""",
    "composite symbols as loop variables of tensor while and for loops": """
class Counter:
    def __init__(self):
        self.n = tf.constant(0)
    @tf.function
    def run(self, k):
        i = tf.constant(0)
        while i < k:
            self.n += i
            i += 1
        return self.n
class Obj:
    pass
@tf.function
def acc_dict(k):
    acc = {"s": tf.constant(0), "p": tf.constant(1)}
    for i in tf.range(1, k):
        acc["s"] += i
        acc["p"] *= i
    return acc
@tf.function
def list_items(k):
    xs = [tf.constant(0.0)] * 3
    for i in tf.range(k):
        xs[0] = xs[0] + 1.0
        xs[2] = xs[2] + tf.cast(i, tf.float32)
    return xs
@tf.function
def obj_attr(k):
    o = Obj()
    o.v = tf.constant(1)
    for i in tf.range(k):
        o.v = o.v * 2
    return o.v
@tf.function
def made_in_body(k):
    s = tf.constant(0)
    for i in tf.range(k):
        o = Obj()
        o.v = i
        s += o.v
    return s
@tf.function
def undefined_before(k):
    d = {}
    for i in tf.range(k):
        d["k"] = i
    return d["k"]
@tf.function
def if_in_while(k):
    st = {"a": tf.constant(0), "b": tf.constant(0)}
    i = tf.constant(0)
    while i < k:
        if i % 2 == 0:
            st["a"] += i
        else:
            st["b"] += i
        i += 1
    return st["a"], st["b"]
@tf.function
def with_invariants(k):
    s = Obj()
    s.v = tf.zeros([1])
    for i in tf.range(k):
        tf.autograph.experimental.set_loop_options(
            shape_invariants=[(s.v, tf.TensorShape([None]))])
        s.v = tf.concat([s.v, [1.0]], 0)
    return s.v
class S:
    def __init__(self):
        self.name = "start"
        self.n = tf.constant(0)
    @tf.function
    def python_values(self, k):
        self.count = 0
        for i in tf.range(k):
            self.count += 1
            self.name = "again"
        return self.count, self.n
s, counter = S(), Counter()
out = [counter.run(tf.constant(4)), acc_dict(tf.constant(5)), list_items(tf.constant(4)),
       obj_attr(tf.constant(5)), made_in_body(tf.constant(5)), undefined_before(tf.constant(3)),
       if_in_while(tf.constant(7)), with_invariants(tf.constant(3)),
       s.python_values(tf.constant(2)), type(s.name).__name__]
""",
    "an IndexError and a KeyError in converted code: TF's StagingError and KeyError; "
    "apply_gradients of a value every replica shares": LAST_LINE + TWO_CPUS + """
@tf.function
def f(x):
    return [x][3]
@tf.function
def g(x):
    return {}['k']
def shared():
    with S2.scope():
        v = tf.Variable([1.0, 2.0])
        sgd = tf.keras.optimizers.SGD(0.1)
    S2.run(tf.function(lambda g: sgd.apply_gradients([(g, v)])), args=(tf.constant([0.5, 1.0]),))
raised = _caught(shared)
out = [error(lambda: f(tf.constant(1.0))), error(lambda: g(tf.constant(1.0))),
       isinstance(_caught(lambda: g(tf.constant(1.0))), KeyError),
       type(raised).__name__, isinstance(raised, IndexError), str(raised).split(chr(10))[0]]
""",
    "composite symbols: TF's errors for a branch or loop that changes them badly": LAST_LINE + """
class Obj:
    pass
@tf.function
def else_missing(c):
    d = {}
    if c > 0:
        d["k"] = c * 2
    return d
@tf.function
def dtypes_differ(c):
    d = {"k": tf.constant(1)}
    if c > 0:
        d["k"] = tf.constant(1.0)
    return d["k"]
@tf.function
def shape_grows(k):
    s = Obj()
    s.v = tf.zeros([1])
    for i in tf.range(k):
        s.v = tf.concat([s.v, [1.0]], 0)
    return s.v
out = [error(lambda: else_missing(tf.constant(2))), error(lambda: dtypes_differ(tf.constant(3))),
       error(lambda: shape_grows(tf.constant(3)))]
""",
}

# Recorded from TF; where simdist's tracing does not give TF's result yet (issue 18), each
# with the reason. The rest of the traced cases (a tensor used as a Python bool, branches of
# different dtypes, ...) replay TF.
NEEDS_TRACING: dict = {}   # name -> why it is not replayed yet (none today)

# AutoGraph reads a function's source: each program runs as a module file of its own.
MODULE = tf_snippets.MODULE

AUTOGRAPH_CASES = {
    name: MODULE + f"out = run_module('ag_case_{i}', {src!r})\n"
    for i, (name, src) in enumerate(AUTOGRAPH_PROGRAMS.items())
}

CASES = {**OPS_CASES, **AUTOGRAPH_CASES}

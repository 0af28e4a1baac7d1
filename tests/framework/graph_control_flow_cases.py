"""tf.cond and tf.while_loop inside a traced tf.function as TF 2.21 runs them
(record_tf_function.py records them with function_cases; test_graph_control_flow.py
replays): both branches traced once, the chosen one run at every call; loop bodies traced
once; TF's errors for branches and loop vars that disagree. Errors are caught in the
snippet (TF adds "in user code:" lines around their messages)."""

CATCH = """
def catch(fn, *args):
    try:
        return fn(*args)
    except Exception as e:
        return [type(e).__name__, str(e).split("\\n")[0] if "structure" in str(e) else str(e)]
"""

CASES = {
    "cond traces both branches once and runs one per call": """
traced = []
@tf.function
def f(x):
    def yes():
        traced.append("true")
        return x * 2.0
    def no():
        traced.append("false")
        return 7.0
    r = tf.cond(x > 0, yes, no)
    traced.append(str(r))
    return r
out = [f(tf.constant(1.0)), f(tf.constant(-1.0)), f(tf.constant(3.0)), traced,
       f.experimental_get_tracing_count()]
""",
    "cond branches of different shapes give an unknown dimension": """
seen = []
@tf.function
def f(x):
    r = tf.cond(x > 0, lambda: tf.ones([2]) * x, lambda: tf.ones([3]))
    seen.append(str(r))
    return r
out = [f(tf.constant(2.0)), f(tf.constant(-2.0)), seen]
""",
    "cond branches of different dtypes": CATCH + """
@tf.function
def f(x):
    return tf.cond(x > 0, lambda: x, lambda: tf.cast(x, tf.int32))
out = catch(f, tf.constant(1.0))
""",
    "cond branches returning different numbers of values": CATCH + """
@tf.function
def f(x):
    return tf.cond(x > 0, lambda: (x, x), lambda: x)
out = catch(f, tf.constant(1.0))
""",
    "cond with a variable update in one branch": """
v = tf.Variable(0.0)
@tf.function
def f(x):
    return tf.cond(x > 0, lambda: v.assign_add(x).read_value(), lambda: v.read_value())
out = [f(tf.constant(1.0)), f(tf.constant(-5.0)), f(tf.constant(2.0)), v.numpy()]
""",
    "while_loop traced once, run to its condition at every call": """
traced = []
@tf.function
def f(x, n):
    def body(i, s):
        traced.append("body")
        return i + 1, s * x
    i, s = tf.while_loop(lambda i, s: i < n, body, (0, tf.constant(1.0)))
    traced.append(str(s))
    return i, s
out = [f(tf.constant(2.0), tf.constant(3)), f(tf.constant(3.0), tf.constant(4)), traced,
       f.experimental_get_tracing_count()]
""",
    "while_loop maximum_iterations": """
seen = []
@tf.function
def f(x):
    i, s = tf.while_loop(lambda i, s: i < 10, lambda i, s: (i + 1, s * 2.0), (0, x),
                         maximum_iterations=4)
    seen.extend([str(i), str(s)])
    return i, s
out = [f(tf.constant(1.0)), f(tf.constant(3.0)), seen]
""",
    "while_loop shape_invariants let a shape grow": """
seen = []
@tf.function
def f(x):
    i, s = tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, tf.concat([s, s], 0)),
                         (0, x), shape_invariants=(tf.TensorShape([]), tf.TensorShape([None])))
    seen.append(str(s))
    return s
out = [f(tf.constant([1.0])), f(tf.constant([2.0, 3.0])), seen]
""",
    "while_loop errors for loop vars that change": CATCH + """
def make(body):
    @tf.function
    def f(x):
        return tf.while_loop(lambda i, s: i < 3, body, (0, x))
    return f
out = [catch(make(lambda i, s: (i + 1, tf.concat([s, s], 0))), tf.constant([1.0])),
       catch(make(lambda i, s: (i + 1,)), tf.constant([1.0])),
       catch(make(lambda i, s: (tf.cast(i, tf.float32), s)), tf.constant([1.0]))]
""",
}

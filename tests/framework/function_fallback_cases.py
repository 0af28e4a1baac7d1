"""tf.functions whose trace stops part-way (func_graph.NotTraceable) at GradientTape.reset
when test_function_fallback.py replays them (its fixture makes reset untraceable, a stand-in
for what simdist cannot trace), as TF 2.21 traces them (record_tf_function.py records into
fixtures/tf_function_fallback.json): what the fallback keeps of TF's behaviour. simdist
traces reset itself: test_function_tapes.py replays these traced."""

CASES = {
    "a variable made before an untraceable construct: TF's singleton error at the first call":
    """
import contextlib, io
made, traced, errors, printed = [], [], [], io.StringIO()
@tf.function
def g(x):
    traced.append(1)
    print("tracing g")
    made.append(tf.Variable(1.0))
    with tf.GradientTape() as t:
        t.watch(x)
        t.reset()
    return x * 2.0
with contextlib.redirect_stdout(printed):
    for x in (1.0, 1.0):
        try:
            g(tf.constant(x))
        except ValueError as e:
            errors.append([type(e).__name__, "only supports singleton tf.Variables" in str(e)])
out = [errors, len(traced), len(made), g.experimental_get_tracing_count(), printed.getvalue()]
""",
    "a singleton variable made before an untraceable construct": """
state = {}
@tf.function
def g(x):
    if "v" not in state:
        state["v"] = tf.Variable(1.0)
    with tf.GradientTape() as t:
        t.watch(x)
        t.reset()
    return state["v"].assign_add(x)
out = [g(tf.constant(1.0)), g(tf.constant(2.0)), g.experimental_get_tracing_count()]
""",
    # The untraceable construct inside a helper that makes the variables: simdist's failed
    # trace made them but the helper never stored them; TF's trace completes the helper.
    "variables made by a helper that an untraceable construct stopped": """
class Holder:
    def __init__(self):
        self.vars = None
    def build(self, x):
        made = [tf.Variable(1.0), tf.Variable([2.0, 3.0])]
        with tf.GradientTape() as t:
            t.watch(x)
            t.reset()
        self.vars = made
h = Holder()
@tf.function
def f(x):
    if h.vars is None:
        h.build(x)
    return h.vars[0] * x + h.vars[1]
out = [f(tf.constant(1.0)), f(tf.constant(2.0)), f(tf.constant(3.0)), len(h.vars)]
""",
}

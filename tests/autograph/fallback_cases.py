"""Functions AutoGraph must pick out of a source line holding several lambdas, and what TF
2.21 logs on its "tensorflow" logger when it cannot (record_tf_fallbacks.py records into
fixtures/tf_autograph_fallbacks.json; test_fallbacks_vs_tf.py replays): TF's parser keeps
the lambdas whose lines span the function's first line, then those with its parameters,
and otherwise runs the function as it is, after a warning listing the matches."""

from tf_snippets import MODULE

# Each case runs PROGRAM as a module of its own, in sys.modules (TF's parser reads a lambda's
# file through its module), and gives [the program's out, the messages logged while it ran,
# addresses masked].
_LOGGED = MODULE + """
import logging, re
class Kept(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []
    def emit(self, record):
        self.messages.append(re.sub(r" at 0x[0-9a-f]+", " at 0x", record.getMessage()))
kept = Kept()
logging.getLogger("tensorflow").addHandler(kept)
try:
    result = run_module(NAME, PROGRAM, registered=True)
finally:
    logging.getLogger("tensorflow").removeHandler(kept)
out = [result, kept.messages]
"""


def _case(name, program):
    return f"NAME = {name!r}\nPROGRAM = {program!r}\n" + _LOGGED


CASES = {
    "two dataset maps on one line, the same parameter": _case("two_maps", """
ds = tf.data.Dataset.range(3).map(lambda x: x + 1).map(lambda x: x * 2)
out = [int(v) for v in ds]
"""),
    "two tf.functions of lambdas on one line, the same parameter": _case("two_functions", """
f = tf.function(lambda x: x + 1); g = tf.function(lambda x: x * 2)
out = [int(f(tf.constant(1))), int(g(tf.constant(1)))]
"""),
    "two lambdas on one line, told apart by their parameters": _case("by_parameters", """
f = tf.function(lambda x: x + 1); g = tf.function(lambda y, z=2: y * z)
out = [int(f(tf.constant(1))), int(g(tf.constant(3)))]
"""),
    # run as it is: a tensor's truth value in a trace is TF's error
    "a tensor condition in a lambda that shares its line": _case("tensor_if", """
f = tf.function(lambda x: x if x > 0 else -x); g = tf.function(lambda x: x)
try:
    out = int(f(tf.constant(-2)))
except Exception as e:
    out = [type(e).__name__, str(e).split(chr(10))[0]]
"""),
    "a lambda continued over lines beside another": _case("continued", """
pair = (tf.function(lambda x: x + 1),
        tf.function(lambda x:
                    x * 3))
out = [int(pair[0](tf.constant(1))), int(pair[1](tf.constant(2)))]
"""),
}

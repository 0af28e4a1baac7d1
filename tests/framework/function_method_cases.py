"""A ``tf.function`` method bound to its instance as TF 2.21 binds it: by weak reference
(record_tf_function.py records, test_function_methods.py replays). Called on an instance
nothing else keeps (``C().f(x)``, or a bound method kept without its instance), the method
traces with ``self`` None: reading an attribute of it is TF's "in user code:" AttributeError
"'NoneType' object has no attribute 'v'"; a kept instance, or a method that does not read
``self``, runs. Each program runs as a module file of its own (AutoGraph reads its source;
the frames' files are compared masked)."""

from tf_snippets import MODULE

SETUP = """
class C:
    def __init__(self):
        self.v = 2.0

    @tf.function
    def f(self, x):
        return x * self.v


class K:
    @tf.function
    def h(self, x):
        return x + 1
"""

PROGRAMS = {
    "a method called on a temporary instance: self is None": SETUP + """
out = C().f(tf.constant(1.0))
""",
    "a bound method kept without its instance: self is None": SETUP + """
method = C().f
out = method(tf.constant(1.0))
""",
    "a kept instance runs; a method not reading self runs on a temporary": SETUP + """
c = C()
out = [c.f(tf.constant(1.0)), K().h(tf.constant(1.0))]
""",
}

CASES = {name: MODULE + f"out = run_module('method_case_{i}', {src!r})\n"
         for i, (name, src) in enumerate(PROGRAMS.items())}

"""Errors of what a tf.data function runs or is given, as TF 2.21 words them for a program
run from a file (record_tf_specs.py records the "function_errors" group,
test_dataset_function_errors.py replays): a ``tf.py_function`` / ``tf.numpy_function``
raising inside ``map`` (py_func.cc's code for the exception's type, its text and
traceback, in the map's context; StopIteration: "Function invocation produced
OutOfRangeError"), ``tf.py_function`` raising eagerly (the eager op's wrapping), a
function taking another number of arguments than the elements give (AutoGraph's "in user
code:" text naming the converted copy), and filter predicates that are not a bool scalar.
Each program is a module of its own (AutoGraph reads its source); a case returns the
error's type and text, the dataset's and py_func's counts masked and, of a traceback,
only the entries in the program's file (each framework lists its own files too), its path
and the module of an error's class masked."""

import tf_snippets

SETUP = """
import functools, re
ds = tf.data.Dataset.range(3)
pairs = tf.data.Dataset.from_tensor_slices((np.arange(3), np.arange(3)))

def text(fn):
    try:
        fn()
        return ["no error"]
    except Exception as e:
        message = re.sub(r"(Dataset(?:V2)?):[0-9]+", r"\\1:N", str(e))
        message = re.sub(r"pyfunc_[0-9]+", "pyfunc_N", message)   # TF counts them too
        # a traceback names the error's module (tensorflow.python.framework.errors_impl.)
        message = re.sub(r"(?m)^[a-z_.]+[.](\\w+Error: )", r"MODULE.\\1", message)
        entries = [x for x in message.split("\\n\\n")
                   if not x.lstrip().startswith('File "') or __file__ in x]
        return [type(e).__name__, "\\n\\n".join(entries).replace(__file__, "PROGRAM")]

def raiser(kind):
    def func(x):
        raise kind("bad")
    return func

def bad(x):
    raise ValueError("bad")
"""

PROGRAMS = {
    "tf.py_function raising in a map: py_func.cc's code by the exception's type": """
# made here, not in the map's (converted) code: TF's traceback would show AutoGraph's file
funcs = [raiser(kind) for kind in (ValueError, TypeError, KeyError, NotImplementedError,
                                   MemoryError,
                                   functools.partial(tf.errors.NotFoundError, None, None))]
out = [text(lambda: list(ds.map(lambda x: tf.py_function(f, [x], tf.int64)))) for f in funcs]
""",
    "tf.numpy_function raising in a map": """
def np_map(x):
    return tf.numpy_function(bad, [x], tf.int64)
out = text(lambda: list(ds.map(np_map)))
""",
    "StopIteration in a map's py_function: not the end of the dataset": """
def stop(x):
    raise StopIteration()
out = text(lambda: list(ds.map(lambda x: tf.py_function(stop, [x], tf.int64))))
""",
    "a py_function's result that Tout cannot hold, in a map": """
out = [text(lambda: list(ds.map(lambda x: tf.py_function(lambda v: "a", [x], tf.int64)))),
       text(lambda: list(ds.map(lambda x: tf.numpy_function(lambda v: np.float32(v), [x],
                                                             tf.int64))))]
""",
    "tf.py_function raising eagerly: the eager op's error; numpy_function's as it is": """
with tf.device('/cpu:0'):
    out = [text(lambda: tf.py_function(raiser(kind), [1], tf.int64))
           for kind in (ValueError, StopIteration, ZeroDivisionError)]
    out.append(text(lambda: tf.py_function(lambda v: "a", [1], tf.int64)))
    out.append(text(lambda: tf.numpy_function(raiser(ValueError), [1], tf.int64)))
""",
    "a map or filter function taking another number of arguments": """
def one(x):
    return x
def two(x, y):
    return x + y
out = [text(lambda: pairs.map(one)), text(lambda: ds.map(two)),
       text(lambda: ds.map(lambda a, b: a)), text(lambda: ds.filter(two)),
       text(lambda: pairs.filter(lambda p: True))]
""",
    "filter predicates that are not a bool scalar": """
unknown = lambda x: tf.py_function(lambda v: v > 0, [x], tf.bool)
out = [text(lambda: ds.filter(lambda x: x)), text(lambda: ds.filter(lambda x: tf.fill([2], True))),
       text(lambda: ds.filter(lambda x: (True, True))),
       text(lambda: ds.filter(lambda x: {'a': x > 0})),
       text(lambda: ds.filter(lambda x: tf.constant(1.0))),
       [int(v) for v in ds.filter(lambda x: True)], [int(v) for v in ds.filter(unknown)]]
""",
}

CASES = {
    name: tf_snippets.MODULE
    + f"out = run_module('fn_error_case_{i}', {SETUP + src!r}, registered=True)\n"
    for i, (name, src) in enumerate(PROGRAMS.items())
}

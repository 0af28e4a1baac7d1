"""Record what TF 2.21 does at each call of the tf.function page's presets
(simdist/viz/tracing.py PRESETS) into fixtures/tf_tracing_presets.json; test_tf_function.py
replays them against simdist's run of the same program.

Per call: the tracing count after it, what ``print`` wrote (stdout), what ``tf.print`` wrote
(stderr: TF's kernel writes to the process's file descriptor 2, so it is captured there),
the messages of the "tensorflow" logger (TF's retracing warning), the result's value. Per
preset (``operations``): the operations (name, type) of the concrete function for the
first call's arguments, as ``get_operations()`` lists them.
The distributed preset runs on two logical CPUs instead of the preset's two GPUs. Each
preset is recorded in a process of its own (see the note in ``__main__``).

Run with the TensorFlow interpreter (not simdist's venv):
    TF_USE_LEGACY_KERAS=1 TF_CPP_MIN_LOG_LEVEL=3 CUDA_VISIBLE_DEVICES="" \
        /tmp/tfvenv/bin/python tests/app/record_tf_tracing_presets.py
"""

import contextlib
import importlib.util
import io
import json
import linecache
import logging
import os
import subprocess
import sys
import tempfile

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")  # tf.keras is tf-keras (Keras 2)
import tensorflow as tf  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FIXTURE = os.path.join(HERE, "fixtures", "tf_tracing_presets.json")
CALLS = 8        # enough for both retracing warnings (5th and 6th trace)


def _presets():
    """simdist.viz.tracing, loaded from its file (its module level imports simdist's log
    capture, a light import beside TF: no strategy or machine is made)."""
    sys.path.insert(0, ROOT)
    path = os.path.join(ROOT, "simdist", "viz", "tracing.py")
    spec = importlib.util.spec_from_file_location("tracing_presets", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module          # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@contextlib.contextmanager
def _fd2():
    """Everything written to file descriptor 2 meanwhile, in ``box[0]``."""
    box = [""]
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as tmp:
        os.dup2(tmp.fileno(), 2)
        try:
            yield box
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            tmp.seek(0)
            box[0] = tmp.read().decode()


class _Capture(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def _value(v):
    return str(v.numpy()) if hasattr(v, "numpy") else repr(v)


def record_preset(tracing, preset) -> list:
    filename = tracing.FILENAME
    linecache.cache[filename] = (len(preset.source), None, preset.source.splitlines(True),
                                 filename)
    tf.keras.backend.clear_session()
    namespace = {"tf": tf, "__name__": "tf_function_page"}
    exec(compile(preset.source, filename, "exec"), namespace)  # noqa: S102 - the presets
    step, call = namespace["step"], compile(preset.call, "<call>", "eval")
    handler = _Capture()
    logging.getLogger("tensorflow").addHandler(handler)
    calls, seen = [], []

    def recorder(*args, **kwargs):   # the call's ``step``: keeps its first arguments
        seen.append((args, kwargs))
        return step(*args, **kwargs)

    try:
        for i in range(CALLS):
            handler.messages = []
            out, err = io.StringIO(), io.StringIO()
            with _fd2() as fd2, contextlib.redirect_stdout(out), \
                    contextlib.redirect_stderr(err):
                value = eval(call, {**namespace, "i": i, "step": recorder})  # noqa: S307
            calls.append({"count": step.experimental_get_tracing_count(),
                          "stdout": out.getvalue(), "stderr": err.getvalue() + fd2[0],
                          "logs": list(handler.messages), "result": _value(value)})
    finally:
        logging.getLogger("tensorflow").removeHandler(handler)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        graph = step.get_concrete_function(*seen[0][0], **seen[0][1]).graph
    return {"calls": calls, "operations": [[o.name, o.type] for o in graph.get_operations()]}


def _record_one(name: str) -> list:
    tf.config.set_logical_device_configuration(
        tf.config.list_physical_devices("CPU")[0], [tf.config.LogicalDeviceConfiguration()] * 2)
    tracing = _presets()
    preset = tracing.PRESETS[name]
    if name == "distributed":   # the same program on TF's logical CPUs
        preset = tracing.Preset(preset.title, preset.source.replace(
            '["GPU:0", "GPU:1"]', '["CPU:0", "CPU:1"]'), preset.call, preset.shows)
    return record_preset(tracing, preset)


if __name__ == "__main__":
    if sys.argv[1:]:              # one preset, in a process of its own: print its calls
        print(json.dumps(_record_one(sys.argv[1])))
        sys.exit(0)
    # Each preset in a fresh process: TF's retracing warning counts the traces of every
    # function with the same code object (polymorphic_function's _key_for_call_stats is
    # ``__code__``), so two presets with the same body would share one count.
    out = {"tf_version": tf.__version__, "calls": CALLS, "presets": {}, "operations": {}}
    for name in _presets().PRESETS:
        done = subprocess.run([sys.executable, __file__, name], capture_output=True,
                              text=True, timeout=600, check=True)
        got = json.loads(done.stdout.strip().splitlines()[-1])
        out["presets"][name], out["operations"][name] = got["calls"], got["operations"]
        print(name, [c["count"] for c in out["presets"][name]])
    os.makedirs(os.path.dirname(FIXTURE), exist_ok=True)
    with open(FIXTURE, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")

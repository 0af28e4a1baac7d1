"""Code snippets run under TensorFlow (recorded to JSON) and replayed under simdist.

Glossary:
  snippet  -- code run with ``tf``, ``np``, ``L`` (= tf.keras.layers) and ``S`` (a 4-replica
              MirroredStrategy) in scope that leaves its result in ``out``; an exception is
              the result when it raises.
  record   -- ``record(tf, cases, path)``: run every case under real TF, write the JSON;
              naming cases re-records only those, keeps the rest, and marks each one
              recorded with another TF release than the file's ``tf_version`` with its own
              ``tf_version`` (TF 2.21 with tf-keras for the later cases).
  recorder_main -- what every snippet recorder runs: TF with tf-keras and (usually) 4
              logical CPUs set up before its case modules load, then ``record`` for the
              groups or case names given on the command line.
  conformance_tests -- the replaying test module's two tests for its fixtures.
  replay   -- ``replay(tf, code, expected)``: run one case under simdist and assert the same
              values (rtol 1e-5), shapes, dtypes, strings, or exception type and message.
Used by the recorders (run with TF's interpreter) and the conformance tests of tests/keras
and tests/framework.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import sys

import numpy as np

# A program run as a module file of its own (AutoGraph reads a function's source): a case
# is MODULE + "out = run_module(name, program source)"; ``registered=True`` also lists the
# module in sys.modules (TF's parser reads a lambda's file through its module).
MODULE = """
import importlib.util, os, sys, tempfile
def run_module(name, src, registered=False):
    path = os.path.join(tempfile.mkdtemp(), name + '.py')
    with open(path, 'w') as f:
        f.write(src)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    if registered:
        sys.modules[name] = module
    module.__dict__.update(tf=tf, np=np)
    spec.loader.exec_module(module)
    return module.out
"""


def plain(value):
    """A JSON form of a result: nested lists of rounded arrays, strings, bools, None."""
    if isinstance(value, (list, tuple)) and not hasattr(value, "as_list"):
        return [plain(v) for v in value]
    if isinstance(value, (str, bool)) or value is None:
        return value
    if isinstance(value, dict):
        return {"dict": [[k, plain(v)] for k, v in sorted(value.items())]}
    if hasattr(value, "as_list"):  # TensorShape
        return str(tuple(value.as_list()))
    if isinstance(value, bytes):
        return {"bytes": value.decode("latin-1")}
    arr = np.asarray(value)
    if arr.dtype == object:  # a string tensor's bytes
        return {"dtype": "string", "shape": list(arr.shape),
                "bytes": [b.decode("latin-1") for b in arr.flat]}
    return {"dtype": str(arr.dtype), "shape": list(arr.shape),
            "values": np.round(arr.astype(np.float64), 6).tolist()}


def scope_for(tf, strategy):
    return {"tf": tf, "np": np, "L": tf.keras.layers, "S": strategy}


def run(code, scope):
    """The recorded form of one snippet's result."""
    try:
        exec(code, scope)  # noqa: S102 - the recorded cases
    except Exception as e:  # noqa: BLE001 - the error is the result
        return {"error": type(e).__name__, "message": str(e)}
    return {"value": plain(scope["out"])}


def record(tf, cases, path, strategy, before_each=None, names=None):
    """Run ``cases`` (or only ``names``) under TF; write ``{"tf_version", "results"}``.

    Raises:
      KeyError: for a name that is not a case.
    """
    old = {"tf_version": tf.__version__, "results": {}}
    if names and os.path.exists(path):
        with open(path) as f:
            old = json.load(f)
    results = old["results"]
    for name in names or cases:
        code = cases[name]
        if before_each is not None:
            before_each()
        results[name] = run(code, scope_for(tf, strategy))
        if tf.__version__ != old["tf_version"]:
            results[name]["tf_version"] = tf.__version__
    results = {k: results[k] for k in cases if k in results}
    with open(path, "w") as f:
        json.dump({"tf_version": old["tf_version"], "results": results}, f, indent=1)
    print(f"wrote {len(names or cases)} of {len(results)} results to {path}")


def split_cpu(tf, n):
    """The one CPU of TF (or of simdist's machine) as ``n`` logical CPUs, the devices the
    recorders run their MirroredStrategy cases on."""
    tf.config.set_logical_device_configuration(
        tf.config.list_physical_devices("CPU")[0], [tf.config.LogicalDeviceConfiguration()] * n)


def recorder_main(folder, groups, argv, cpus=4, clear_session=True):
    """Record groups of cases under TF (run with TF's interpreter, not simdist's venv).

    Args:
      folder: the recorder's folder; its case modules are imported from there and the JSON
        goes to its ``fixtures/``.
      groups: ``{group name: (case module name, fixture file name)}``.
      argv: group names to record, or case names to re-record (the others are kept);
        nothing records every group.
      cpus: logical CPUs made before the case modules load, the MirroredStrategy ``S``'s
        devices (None: TF's one CPU and a default MirroredStrategy).
      clear_session: clear Keras's session before each case, so layer names restart.

    Raises:
      KeyError: for a name that is neither a group nor a case.
    """
    os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")  # tf.keras is tf-keras (Keras 2)
    import tensorflow as tf

    if cpus:
        split_cpu(tf, cpus)
    sys.path.insert(0, folder)
    loaded = {group: (importlib.import_module(module).CASES, fixture)
              for group, (module, fixture) in groups.items()}
    unknown = [a for a in argv if a not in loaded
               and not any(a in cases for cases, _ in loaded.values())]
    if unknown:
        raise KeyError(f"Neither a group ({sorted(loaded)}) nor a case: {unknown}")
    for group, (cases, fixture) in loaded.items():
        names = [a for a in argv if a in cases]
        if argv and group not in argv and not names:
            continue
        devices = [f"/cpu:{i}" for i in range(cpus)] if cpus else None
        record(tf, cases, os.path.join(folder, "fixtures", fixture),
               tf.distribute.MirroredStrategy(devices),
               before_each=tf.keras.backend.clear_session if clear_session else None,
               names=names or None)


# the device in an eager kernel error's ``{{function_node __wrapped__<op>_device_<device>}}``
_KERNEL_GPU = re.compile(
    r"(\{\{function_node __wrapped__\w*_device_/job:[^}]*/device:)GPU:(\d+)\}\}")


def _masked(message):
    """Addresses and class paths differ between the frameworks by nature, as do the devices
    of eager kernels: simdist's simulated GPU k stands where the recorder had its CPU k
    (one CPU split into logical ones, no GPU)."""
    message = _KERNEL_GPU.sub(r"\1CPU:\2}}", message)
    return re.sub(r"<class '[^']*'>", "<class>", re.sub(r" at 0x[0-9a-f]+", " at 0x", message))


def check(expected, got, name):
    """Assert ``got`` (a simdist result) matches ``expected`` (its recorded plain form)."""
    if isinstance(expected, list):
        assert isinstance(got, (list, tuple)) and len(got) == len(expected), (name, got)
        for e, g in zip(expected, got):
            check(e, g, name)
    elif isinstance(expected, dict) and "dict" in expected:
        check(expected["dict"], sorted(dict(got).items()), name)
    elif isinstance(expected, dict) and "bytes" in expected:
        check_bytes(expected, got, name)
    elif isinstance(expected, dict):
        have = np.asarray(got.numpy() if hasattr(got, "numpy") else got)
        assert str(have.dtype) == expected["dtype"], (name, have.dtype)
        assert list(have.shape) == expected["shape"], (name, have.shape)
        want = np.array(expected["values"], dtype=np.float64).reshape(expected["shape"])
        np.testing.assert_allclose(have.astype(np.float64), want,
                                   rtol=1e-5, atol=2e-6, err_msg=name)
    elif isinstance(expected, str) and not isinstance(got, str):
        assert str(tuple(got)) == expected, (name, got)  # a shape
    elif expected is None:
        assert got is None, (name, got)
    else:
        assert got == expected, (name, got)


def check_bytes(expected, got, name):
    """Assert ``got`` is the recorded bytes, or a string tensor / array of them."""
    if "shape" not in expected:
        assert isinstance(got, bytes), (name, got)
        assert got.decode("latin-1") == expected["bytes"], (name, got)
        return
    have = np.asarray(got)  # a tensor's own array: numpy() gives a scalar as bytes
    assert have.dtype == object and list(have.shape) == expected["shape"], (name, have)
    assert all(isinstance(b, bytes) for b in have.flat), (name, have)
    assert [b.decode("latin-1") for b in have.flat] == expected["bytes"], (name, have)


def conformance_tests(tf, groups, before_each=None, traced=False, strict=(), known=None):
    """The tests of recorded groups, for a test module to assign to ``test_*`` names:
    every case was recorded (no name in two groups), and each one replays to TF's result.

    Args:
      groups: ``{fixture path: cases}``, one entry per fixture the module replays.
      before_each: called before each replay (``tf.keras.backend.clear_session`` for
        cases that name layers, as the recorder cleared TF's session).
      traced: each case's tf.functions must also trace into graphs (no eager fallback).
      strict: case names also run on array_api_strict (marked ``array_api``).
      known: ``{case name: why simdist differs}``: those are expected to fail (strict xfail).
    """
    import pytest  # the recorders import this module under TF's interpreter, without
    from array_api_subset import strict as marked  # simdist: simdist's imports stay here

    from simdist.testing.log_capture import tf_logs

    cases, recorded = {}, {}
    for fixture, group in groups.items():
        with open(fixture) as f:
            recorded.update(json.load(f)["results"])
        cases.update(group)

    def test_every_case_was_recorded():
        assert len(cases) == sum(len(group) for group in groups.values())  # no name clash
        assert set(recorded) == set(cases)

    known = known or {}
    names = [pytest.param(n, marks=pytest.mark.xfail(reason=known[n], strict=True))
             if isinstance(n, str) and n in known else n
             for n in marked(sorted(cases), strict)]

    @pytest.mark.parametrize("name", names)
    def test_same_result_as_tensorflow(name):
        if before_each is not None:
            before_each()
        with tf_logs(contains="could not trace") as fallbacks:
            replay(tf, cases[name], recorded[name], name)
        assert not (traced and fallbacks.messages), (name, fallbacks.messages)

    return test_every_case_was_recorded, test_same_result_as_tensorflow


def replay(tf, code, expected, name):
    """Run one case under simdist and compare it with TF's recorded result."""
    import pytest  # not needed by the recorders, which run in TF's environment

    scope = scope_for(tf, tf.distribute.MirroredStrategy())
    if "error" in expected:
        with pytest.raises(Exception) as info:
            exec(code, scope)  # noqa: S102 - the recorded cases
        assert type(info.value).__name__ == expected["error"], (name, info.value)
        if _user_code(expected["message"], str(info.value), name):
            return
        if _graph_execution(expected["message"], str(info.value), name):
            return
        # TF wraps errors ("Exception encountered when calling layer ...", "Graph
        # execution error:"); simdist's first line must appear in TF's message (its
        # further lines may say what to do).
        first_line = _masked(str(info.value).split("\n")[0])
        assert first_line in _masked(expected["message"]), (name, str(info.value))
        return
    exec(code, scope)  # noqa: S102
    check(expected["value"], scope["out"], name)


_FILE = re.compile(r'File "([^"]*)"')


def _user_code(want: str, got: str, name) -> bool:
    """TF's "in user code:" text (an error raised while a converted function traced): where
    its frames are all in the program's own modules, simdist must give the same frames
    (lines, functions, source lines, markers; not the files: a program's module file is
    made afresh, named after its case's position) and a cause whose first line
    appears in TF's; True when compared so. Frames in tf-keras (simdist's Keras is its own
    code, which TF's filtering would leave out) are not compared: False."""
    if not want.startswith("in user code:"):
        return False
    head = "in user code:\n\n"
    frames_want, _, cause_want = want[len(head):].partition("\n\n    ")
    files = _FILE.findall(frames_want)
    if any("site-packages" in f or "dist-packages" in f for f in files):
        return False
    assert got.startswith("in user code:"), (name, got)
    frames_got, _, cause_got = got[len(head):].partition("\n\n    ")
    assert _FILE.sub("File", frames_got) == _FILE.sub("File", frames_want), (name, got)
    assert _masked(cause_got.split("\n")[0]) in _masked(cause_want), (name, got)
    return True



_DETECTED = "Detected at node "
_INFERENCE = re.compile(r"__inference_(.*?)_\d+")
_DATASET = re.compile(r"(?<=[A-Za-z])Dataset:\d+")   # TF's count of the process's datasets


def _graph_text(text: str) -> str:
    """A "Graph execution error:" text in the form both frameworks' are compared in: each
    node's frames from the case's own code on (after the last frame of importlib, which
    runs a program's module, else from the first ``<string>`` frame: the frames of the
    harness around differ), without tf-keras's frames (TF keeps them; simdist's Keras is
    its own code), files masked (a program's module file is made afresh), the concrete
    function's number masked (TF's counter also counts ops), as is a dataset's
    (``MapDataset:12``: TF counts the process's datasets)."""
    lines = text.split("\n")
    drop = set()
    for i, line in enumerate(lines):
        if not line.startswith(_DETECTED):
            continue
        end = i + 1
        while end < len(lines) and (lines[end].startswith("  File ") or not lines[end]):
            end += 1
        frames = range(i + 1, end)
        module = [j for j in frames if lines[j].startswith('  File "<frozen importlib')]
        code = [j for j in frames if lines[j].startswith('  File "<string>"')]
        first = module[-1] + 2 if module else code[0] if code else i + 1
        drop.update(range(i + 1, first))
        for j in frames:
            if "-packages/" in lines[j]:   # tf-keras's file (site- or dist-packages)
                drop.update((j, j + 1))
    kept = [_FILE.sub("File", line) for i, line in enumerate(lines) if i not in drop]
    return _DATASET.sub("Dataset:N", _INFERENCE.sub(r"__inference_\1_N", "\n".join(kept)))


_CANCELLED = re.compile(r"\n2 root error\(s\) found\.\n  \(0\) [A-Z_]+:  .*\n  \(1\) "
                        r"CANCELLED:  Function was cancelled before it was started\n0 "
                        r"successful operations\.\n0 derived errors ignored\. \[Op:", re.S)


def _graph_execution(want: str, got: str, name) -> bool:
    """TF's "Graph execution error:" text (an error a traced function's kernel raised at
    execution; TF's ``{{function_node ...}}`` form for a lambda): simdist's text must
    begin with TF's (see ``_graph_text``); what follows says what to do. True when
    compared so. Where TF lists several root errors (replicas failing together: which
    ones and in what order follow its executor's scheduling), only the text before
    "N root error(s) found." is compared, and only when it names one node; else False;
    but TF's deterministic form (replica 0's node failed, the other devices' part
    cancelled: graph_errors.root_errors) is compared whole."""
    if not (want.startswith("Graph execution error:") or want.startswith(
            "{{function_node __inference_")):
        return False
    roots = re.search(r"\n\d+ root error\(s\) found\.", want)
    if roots is not None and not _CANCELLED.search(want):
        want = want[:roots.start() + 1]
        if want.count(_DETECTED) != 1:
            return False
    assert _graph_text(got).startswith(_graph_text(want)), (name, got)
    return True

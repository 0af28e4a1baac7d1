"""Array backends: selection, their errors, and the marked subset re-run on array_api_strict.

The tests marked ``array_api`` (pytest -m array_api) are re-run here in a subprocess with
``SIMDIST_BACKEND=array_api_strict``: the collectives' properties, the cross-device ops,
strategy.run and distributed variables, and the Keras fit/evaluate steps listed in
README ("Real hardware").
"""

from __future__ import annotations

import os
import subprocess
import sys
import types
from pathlib import Path

import numpy as np
import pytest
import strict_rerun
from strict_rerun import strict_files

from simdist.framework import dtypes
from simdist.hardware import array_api, backend

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def restore_backend():
    before = backend.get_backend()
    yield
    backend.set_backend(before)


def _python(code: str, **env) -> subprocess.CompletedProcess:
    full = {k: v for k, v in os.environ.items() if k != backend.ENV_VAR}
    full.update(env)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=full, cwd=ROOT, timeout=120)


def test_unknown_backend_names_the_choices():
    with pytest.raises(ValueError, match=r"Unknown backend 'jax'.*array_api_strict.*cupy.*"
                                         r"numpy.*SIMDIST_BACKEND"):
        backend.set_backend("jax")
    assert backend.get_backend() == "numpy"


def test_cupy_without_cupy_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", None)  # import cupy -> ImportError
    with pytest.raises(ImportError, match=r"'cupy' backend needs the 'cupy' package.*"
                                          r"simdist\[gpu\].*cupy-cuda12x.*CUDA 12.*"
                                          r"simdist\[gpu-cuda13\].*cupy-cuda13x"):
        backend.set_backend("cupy")
    assert backend.get_backend() == "numpy" and backend.xp is np


def _fake_cupy(get_count):
    runtime = types.SimpleNamespace(getDeviceCount=get_count)
    return types.SimpleNamespace(__name__="cupy", cuda=types.SimpleNamespace(runtime=runtime))


def test_cupy_without_a_gpu_says_what_is_missing(monkeypatch):
    def no_driver():
        raise OSError("cudaErrorInsufficientDriver: CUDA driver version is insufficient")

    monkeypatch.setitem(sys.modules, "cupy", _fake_cupy(no_driver))
    with pytest.raises(RuntimeError, match=r"needs a CUDA GPU.*InsufficientDriver.*nvidia-smi"):
        backend.set_backend("cupy")
    monkeypatch.setitem(sys.modules, "cupy", _fake_cupy(lambda: 0))
    with pytest.raises(RuntimeError, match="no CUDA device is visible"):
        backend.set_backend("cupy")
    assert backend.get_backend() == "numpy"


def test_importing_simdist_loads_neither_cupy_nor_array_api_strict():
    out = _python("import sys, simdist as tf; tf.constant([1.0]) + 1; "
                  "print('cupy' in sys.modules, 'array_api_strict' in sys.modules)")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "False"]


def test_environment_variable_selects_the_backend_at_import():
    out = _python("import simdist as tf; from simdist.hardware import backend; "
                  "t = tf.constant([1.0, 2.0]) * 3.0; "
                  "print(backend.get_backend(), type(t._value).__module__, t.numpy().tolist())",
                  SIMDIST_BACKEND="array_api_strict")
    assert out.returncode == 0, out.stderr
    name, module, values = out.stdout.split(maxsplit=2)
    assert (name, values.strip()) == ("array_api_strict", "[3.0, 6.0]")
    assert module.startswith("array_api_strict")
    bad = _python("import simdist", SIMDIST_BACKEND="torch")
    assert bad.returncode != 0 and "Unknown backend 'torch'" in bad.stderr


def test_strict_backend_catches_numpy_only_calls(restore_backend):
    pytest.importorskip("array_api_strict")
    backend.set_backend("array_api_strict")
    import simdist as tf

    t = tf.constant([1.0, 2.0])
    with pytest.raises(RuntimeError, match="to a NumPy array"):
        np.exp(t._value)  # NumPy cannot read a device value: use backend.xp
    with pytest.raises(AttributeError):
        t._value.reshape(-1)  # a NumPy method the standard lacks: xp.reshape
    assert backend.to_host(t._value).tolist() == [1.0, 2.0]
    np.testing.assert_array_equal(t.numpy(), [1.0, 2.0])


def test_host_dtypes_stay_on_the_host_on_the_strict_backend(restore_backend):
    pytest.importorskip("array_api_strict")
    backend.set_backend("array_api_strict")
    assert array_api.keeps_on_host(np.float16)
    assert array_api.keeps_on_host(dtypes.bfloat16.as_numpy_dtype)
    assert not array_api.keeps_on_host(np.float32)
    halves = [np.array([1.5, 2.0], np.float16), np.array([0.25, 1.0], np.float16)]
    from simdist import collectives

    out = collectives.all_reduce(halves).values[0]
    assert isinstance(out, np.ndarray) and out.dtype == np.float16
    np.testing.assert_array_equal(out, [1.75, 3.0])


def test_combiner_is_numpys_ufunc_and_bools_combine_logically(restore_backend):
    assert array_api.combiner("add", np) is np.add  # no wrapper in the hot loop
    with pytest.raises(ValueError, match="Unknown combine op 'subtract'"):
        array_api.combiner("subtract")
    strict = pytest.importorskip("array_api_strict")
    backend.set_backend("array_api_strict")
    a, b = strict.asarray([True, False]), strict.asarray([False, False])
    out = strict.asarray([False, False])
    array_api.combiner("maximum", strict, np.bool_)(a, b, out=out)
    assert backend.to_host(out).tolist() == [True, False]


def test_host_aware_namespace_makes_host_only_dtypes_on_the_host():
    """CuPy has no object (string) dtype: ``zeros(..., dtype=object)`` on the cupy backend's
    namespace is a NumPy array, as a string dataset's dummy batch needs (found on an H200)."""
    def zeros(shape, dtype=None):
        if np.dtype(dtype).kind == "O":
            raise ValueError("Unsupported dtype object")  # what CuPy raises
        return ("device", list(shape), np.dtype(dtype).name)

    ns = backend.HostAware(types.SimpleNamespace(__name__="fake_cupy", zeros=zeros))
    out = ns.zeros([2, 0], dtype=object)
    assert isinstance(out, np.ndarray) and out.dtype == object and out.shape == (2, 0)
    assert ns.zeros([3], dtype=np.float32) == ("device", [3], "float32")


def test_the_strict_subset_is_the_one_readme_names():
    files = strict_files()
    assert "tests/keras/test_training_tf_conformance.py" in files and len(files) == 18
    readme = (ROOT / "README.md").read_text()
    assert all(Path(f).name in readme for f in files)


def test_marked_subset_passes_on_array_api_strict():
    """The ``array_api`` tests again, on the strict namespace (a subprocess: the backend is
    chosen at import, as a user would). The child started when collection ended
    (conftest.py, strict_rerun.py); this waits for it."""
    pytest.importorskip("array_api_strict")
    if backend.get_backend() != "numpy":
        pytest.skip("already running on another backend")
    code, out = strict_rerun.finish()
    if code is None:
        pytest.fail(f"the array_api_strict run did not finish in {strict_rerun.TIMEOUT:.0f} s "
                    "after it started:\n" + out[-3000:])
    assert code == 0, out[-5000:]
    assert " passed" in out and " failed" not in out

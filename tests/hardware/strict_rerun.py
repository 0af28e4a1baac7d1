"""The ``array_api`` tests re-run on array_api_strict in a child pytest, started early.

Glossary:
  strict_files -- the test files marked ``array_api`` (collecting only these keeps the
                  re-run short).
  start        -- the child ``pytest -m array_api`` with ``SIMDIST_BACKEND=array_api_strict``
                  (the backend is chosen at import, as a user would), in its own session.
                  tests/hardware/conftest.py starts it when collection ends, if the test that
                  checks it is selected: its ~30 s of CPU then run beside the rest of the
                  suite (pytest runs tests on one core; CI's machine has two) instead of
                  inside that one test.
  finish       -- the child's output and return code, waiting until ``TIMEOUT`` seconds
                  after it started; on timeout its process group is killed. The output
                  goes to a temporary file, not a pipe: nobody reads it until the test
                  runs, and a full pipe would stop the child.
  stop         -- kill the child's process group if it still runs (the session's end).
  shared       -- under pytest-xdist every worker collects every test, so each would start
                  its own child (one of them wasted, ~60 s of CPU beside the suite): the
                  controller starts the one child instead (tests/conftest.py) into a
                  directory it names to the workers (``SHARED_KEY`` of their workerinput),
                  with its pid, start time, output and, once it exits, its return code;
                  the worker running the test reads them there.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
THIS = "tests/hardware/test_backends.py"
TEST = f"{THIS}::test_marked_subset_passes_on_array_api_strict"
TIMEOUT = 600.0
SHARED_KEY = "simdist_strict_rerun_dir"
POLL_S = 0.5  # how often a worker looks for the shared child's return code
_child: dict = {}


def strict_files() -> list[str]:
    """The test files marked ``array_api``, but test_backends.py itself."""
    return sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests").rglob("test_*.py")
                  if str(p.relative_to(ROOT)) != THIS
                  and "pytest.mark.array_api" in p.read_text())


def wanted(nodeids) -> bool:
    """Whether the run selected the test that checks the child, and it can run here."""
    import importlib.util

    if TEST not in nodeids or importlib.util.find_spec("array_api_strict") is None:
        return False
    from simdist.hardware import backend

    return backend.get_backend() == "numpy"


def start(shared: str | None = None) -> None:
    """Start the child once (a second call does nothing); into directory ``shared`` (the
    controller's, for every worker) when given."""
    if "proc" in _child:
        return
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}
    env["SIMDIST_BACKEND"] = "array_api_strict"
    log = (open(Path(shared) / "output.log", "w+", encoding="utf-8") if shared else
           tempfile.TemporaryFile(mode="w+", encoding="utf-8"))
    proc = subprocess.Popen([sys.executable, "-m", "pytest", "-m", "array_api",
                             "-p", "no:cacheprovider", "-x", *strict_files()], cwd=ROOT,
                            env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    _child.update(proc=proc, log=log, started=time.monotonic())
    if shared:
        _write(shared, "pid", str(proc.pid))
        _write(shared, "started", repr(time.time()))
        threading.Thread(target=_record_rc, args=(proc, shared), daemon=True).start()


def _write(folder, name, text) -> None:
    """``folder/name`` holds ``text``, whole or not at all (a worker may be reading)."""
    tmp = Path(folder) / f".{name}"
    tmp.write_text(text)
    os.replace(tmp, Path(folder) / name)


def _record_rc(proc, shared) -> None:
    code = proc.wait()
    try:
        _write(shared, "rc", str(code))
    except OSError:   # the session ended (and removed the folder) as the child was killed
        pass


def use_shared(folder: str) -> None:
    """This worker reads the controller's child from ``folder`` (see ``shared``)."""
    _child["shared"] = Path(folder)


def finish() -> tuple[int | None, str]:
    """(return code, output); return code None when it ran past ``TIMEOUT``."""
    shared = _child.get("shared")
    if shared is not None and (shared / "pid").exists():
        return _finish_shared(shared)
    start()
    proc = _child["proc"]
    left = max(1.0, TIMEOUT - (time.monotonic() - _child["started"]))
    try:
        proc.wait(timeout=left)
    except subprocess.TimeoutExpired:
        stop()
        return None, _output()
    return proc.returncode, _output()


def _finish_shared(shared: Path) -> tuple[int | None, str]:
    """finish() for the controller's child: wait for its return code in ``shared``."""
    deadline = float((shared / "started").read_text()) + TIMEOUT
    while not (shared / "rc").exists():
        if time.time() > deadline:
            try:
                os.killpg(int((shared / "pid").read_text()), signal.SIGKILL)
            except ProcessLookupError:
                pass
            return None, (shared / "output.log").read_text()
        time.sleep(POLL_S)
    return int((shared / "rc").read_text()), (shared / "output.log").read_text()


def _output() -> str:
    log = _child["log"]
    log.seek(0)
    return log.read()


def stop() -> None:
    proc = _child.get("proc")
    if proc is not None and proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(timeout=10)

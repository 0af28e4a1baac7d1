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
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
THIS = "tests/hardware/test_backends.py"
TEST = f"{THIS}::test_marked_subset_passes_on_array_api_strict"
TIMEOUT = 600.0
_child: dict = {}


def strict_files() -> list[str]:
    """The test files marked ``array_api``, but test_backends.py itself."""
    return sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests").rglob("test_*.py")
                  if str(p.relative_to(ROOT)) != THIS
                  and "pytest.mark.array_api" in p.read_text())


def start() -> None:
    """Start the child once (a second call does nothing)."""
    if _child:
        return
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}
    env["SIMDIST_BACKEND"] = "array_api_strict"
    log = tempfile.TemporaryFile(mode="w+", encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-m", "pytest", "-m", "array_api",
                             "-p", "no:cacheprovider", "-x", *strict_files()], cwd=ROOT,
                            env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    _child.update(proc=proc, log=log, started=time.monotonic())


def finish() -> tuple[int | None, str]:
    """(return code, output); return code None when it ran past ``TIMEOUT``."""
    start()
    proc = _child["proc"]
    left = max(1.0, TIMEOUT - (time.monotonic() - _child["started"]))
    try:
        proc.wait(timeout=left)
    except subprocess.TimeoutExpired:
        stop()
        return None, _output()
    return proc.returncode, _output()


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

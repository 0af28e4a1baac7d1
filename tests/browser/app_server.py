"""The browser tests' app server: ``simdist app`` on a free loopback port, in a process group
of its own, that does not outlive the test process that started it.

Glossary:
  start()  -- the server started (not waited for) and its keeper; returns a ``Server``.
  stop(s)  -- the server's whole group stopped (SIGTERM, then SIGKILL), then its keeper.
  keeper   -- a small Python process beside the server: when the test process that started
              both ends, however it ends (a fixture's finalizer runs on a normal end, not
              on SIGTERM, SIGKILL or the ``os._exit`` an xdist worker takes once its
              controller is gone), the keeper sees its parent change and stops the
              server's group.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GRACE = 3.0          # seconds a group has between SIGTERM and SIGKILL
KEEPER_POLL = 0.2    # seconds between the keeper's looks at its parent

# argv: the server's group id, the pid of the test process. Polls the parent rather than
# waiting for a pipe's end: a process the test process forks would hold the pipe open.
_KEEPER = f"""
import os, signal, sys, time
group, parent = int(sys.argv[1]), int(sys.argv[2])
signal.signal(signal.SIGINT, signal.SIG_IGN)     # a terminal's ^C is the test's to handle
while os.getppid() == parent:
    time.sleep({KEEPER_POLL})
for sig in (signal.SIGTERM, signal.SIGKILL):
    try:
        os.killpg(group, sig)
    except ProcessLookupError:
        break
    time.sleep({GRACE})
"""


@dataclass
class Server:
    proc: subprocess.Popen     # simdist app (the Streamlit server, exec'd in its pid)
    keeper: subprocess.Popen
    log: object                # its stdout and stderr, a temporary file
    cmd: list
    url: str


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def command(port: int) -> list[str]:
    # ``python -m simdist`` run in this checkout serves this checkout's app and package; the
    # console script would import whichever simdist is installed (another checkout's).
    return [sys.executable, "-m", "simdist", "app", "--server.port", str(port),
            "--server.headless", "true", "--server.address", "127.0.0.1",
            "--server.fileWatcherType", "none"]


def start() -> Server:
    """The server's output goes to a file: a pipe nobody reads while the tests run would
    stop the server once its log filled the pipe. Its own session, so its whole process
    group can be stopped (simdist app execs the server in its pid; anything it starts goes
    too)."""
    port = _free_port()
    cmd = command(port)
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"}, start_new_session=True)
    keeper = subprocess.Popen([sys.executable, "-I", "-c", _KEEPER, str(proc.pid),
                               str(os.getpid())], start_new_session=True)
    return Server(proc, keeper, log, cmd, f"http://127.0.0.1:{port}")


def stop(server: Server) -> None:
    """Stop the server's whole process group: SIGTERM, then SIGKILL what is left; then the
    keeper, which has nothing left to do."""
    _stop_group(server.proc)
    server.keeper.kill()
    server.keeper.wait()
    server.log.close()


def _stop_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(GRACE)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)   # whatever is still in the group
    except ProcessLookupError:
        pass
    proc.wait(10)


"""The browser tests' app server dies with the test process that started it, however that
process ends: a fixture's finalizer does not run on SIGTERM or SIGKILL (app_server.py)."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.browser import app_server

# A test process that starts the server as the ``_server_process`` fixture does, says the
# server's pid and its keeper's, then waits to be killed.
_CHILD = """
import time
from tests.browser import app_server
srv = app_server.start()
print(srv.proc.pid, srv.keeper.pid, flush=True)
time.sleep(60)
"""


def _alive(group: int) -> list[int]:
    """The live (not zombie) processes of process group ``group``, from /proc: a zombie
    whose parent died stays in its group until something reaps it."""
    alive = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:                      # it ended while we looked
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            alive.append(int(stat.parent.name))
    return alive


def _wait_gone(group: int, timeout: float) -> list[int]:
    deadline = time.monotonic() + timeout
    while (alive := _alive(group)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return alive


def _kill(pid: int, group: bool) -> None:
    try:
        (os.killpg if group else os.kill)(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL],
                         ids=lambda s: s.name)
def test_the_server_dies_with_the_test_process(sig):
    child = subprocess.Popen([sys.executable, "-c", _CHILD], cwd=app_server.ROOT,
                             stdout=subprocess.PIPE, text=True, start_new_session=True)
    server = keeper = None
    try:
        server, keeper = map(int, child.stdout.readline().split())
        assert _alive(server), "the server's group never started"
        os.kill(child.pid, sig)
        assert child.wait(10) == -sig
        # the keeper looks every KEEPER_POLL s, the server has GRACE s to stop on SIGTERM
        left = _wait_gone(server, app_server.KEEPER_POLL + app_server.GRACE + 2)
        assert left == [], f"the server's group outlived the test process: {left}"
    finally:
        _kill(child.pid, group=True)
        child.wait(10)
        if server:
            _kill(server, group=True)
        if keeper:
            _kill(keeper, group=False)

"""Shared test set-up: bytecode shared by the session's processes (bytecode_cache),
hypothesis profiles (loaded once), a fresh simulated world per test, pytest-timeout's
timeout made one that ends a Hypothesis test (TestTimeout), and for pytest-xdist: tests
sharing a module-scoped fixture in one worker, and one array_api_strict child
(hardware/strict_rerun.py) started by the controller for every worker."""

import os
import shutil
import signal
import sys
import tempfile

from bytecode_cache import use_shared_cache

# Before anything imports simdist: in an environment that writes no bytecode, the test
# process and the Python processes its tests start (cluster workers, fresh interpreters)
# share one compiled copy of each module instead of each compiling it from source.
use_shared_cache()

# One BLAS thread (set before NumPy loads its BLAS): simdist's replicas already run in
# threads, and a many-threaded BLAS on a shared machine made small matmuls ~15x slower.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

# The simulated machine must not depend on the real one's GPUs: CUDA_VISIBLE_DEVICES hides
# simulated GPUs as it hides real ones (tests that need it set it themselves).
os.environ.pop("CUDA_VISIBLE_DEVICES", None)

import pytest  # noqa: E402 - after the BLAS threads are set
from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile(
    "default", max_examples=40, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
settings.register_profile(
    "ci", max_examples=40, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
settings.register_profile(
    "thorough", max_examples=500, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default")
)


class TestTimeout(BaseException):
    """pytest-timeout's timeout, raised so Hypothesis does not take it for the test's failure.

    Its SIGALRM handler raises pytest's ``Failed``, which Hypothesis catches as a failing
    example (core.failure_exceptions_to_catch) and goes on shrinking, with the alarm spent:
    a @given test that hangs for some inputs held the suite for every shrink's hang. Any
    other BaseException ends Hypothesis's run at once and pytest reports it as the failure
    (``Failed`` is a BaseException too, so nothing else sees a difference)."""

    __test__ = False   # not a test class


@pytest.hookimpl(hookwrapper=True)
def pytest_timeout_set_timer(item, settings):
    """Wrap the SIGALRM handler pytest-timeout just set (its signal method): its ``Failed``
    becomes a TestTimeout."""
    yield
    handler = signal.getsignal(signal.SIGALRM) if hasattr(signal, "SIGALRM") else None
    if not callable(handler):   # the thread method (or none): it ends the process itself
        return

    def timed_out(signum, frame):
        __tracebackhide__ = True
        try:
            handler(signum, frame)
        except pytest.fail.Exception as e:
            raise TestTimeout(str(e)) from None

    signal.signal(signal.SIGALRM, timed_out)


_SHARED_SCOPES = ("module", "class", "package")


@pytest.hookimpl(tryfirst=True)   # before xdist's worker reads the groups into node ids
def pytest_collection_modifyitems(items):
    """Tests that share a module-, class- or package-scoped fixture in one xdist group (named
    after their module): under ``pytest -n`` that fixture (a started process cluster) is set
    up once, not once on each worker that gets one of its tests. Tests already in a group
    (the browser tests) keep theirs."""
    for item in items:
        if item.get_closest_marker("xdist_group") is not None:
            continue
        info = getattr(item, "_fixtureinfo", None)
        defs = info.name2fixturedefs.values() if info is not None else ()
        if any(d[-1].scope in _SHARED_SCOPES for d in defs if d):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))


def _strict_rerun():
    """tests/hardware/strict_rerun.py (the array_api_strict child), as its conftest imports it."""
    here = os.path.join(os.path.dirname(__file__), "hardware")
    if here not in sys.path:
        sys.path.insert(0, here)
    import strict_rerun

    return strict_rerun


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """pytest-xdist's controller: every worker gets the directory of the one array_api_strict
    child (strict_rerun.py's ``shared``), made once."""
    global _STRICT_DIR
    if _STRICT_DIR is None:
        _STRICT_DIR = tempfile.mkdtemp(prefix="simdist-strict-")
    node.workerinput[_strict_rerun().SHARED_KEY] = _STRICT_DIR


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids):
    """pytest-xdist's controller: start the array_api_strict child when a worker collected
    the test that checks it (once; the workers only read it)."""
    strict_rerun = _strict_rerun()
    if _STRICT_DIR is not None and strict_rerun.wanted(ids):
        strict_rerun.start(_STRICT_DIR)


def pytest_sessionfinish(session):
    """The controller's array_api_strict child stops with the session; its folder goes."""
    global _STRICT_DIR
    if _STRICT_DIR is not None and not hasattr(session.config, "workerinput"):
        _strict_rerun().stop()
        shutil.rmtree(_STRICT_DIR, ignore_errors=True)
        _STRICT_DIR = None


_STRICT_DIR = None


@pytest.fixture(autouse=True)
def fresh_world():
    """Every test starts on a new default machine with no strategy and no tapes."""
    from simdist.testing import reset_world

    reset_world()
    yield
    reset_world()

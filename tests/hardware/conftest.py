"""Starts the array_api_strict re-run (strict_rerun.py) as soon as collection ends, when
the test that checks it is selected, and stops it at the session's end. Under pytest-xdist
the controller starts it instead (tests/conftest.py) and names its directory to the
workers."""

from __future__ import annotations

import strict_rerun


def pytest_collection_finish(session):
    if session.config.option.collectonly:
        return
    shared = getattr(session.config, "workerinput", {}).get(strict_rerun.SHARED_KEY)
    if shared is not None:
        strict_rerun.use_shared(shared)
    elif strict_rerun.wanted([item.nodeid for item in session.items]):
        strict_rerun.start()


def pytest_sessionfinish(session):
    strict_rerun.stop()

"""Starts the array_api_strict re-run (strict_rerun.py) as soon as collection ends, when
the test that checks it is selected, and stops it at the session's end."""

from __future__ import annotations

import strict_rerun


def pytest_collection_finish(session):
    if session.config.option.collectonly:
        return
    if any(item.nodeid == strict_rerun.TEST for item in session.items):
        from simdist.hardware import backend

        if backend.get_backend() == "numpy" and _has_array_api_strict():
            strict_rerun.start()


def _has_array_api_strict() -> bool:
    import importlib.util

    return importlib.util.find_spec("array_api_strict") is not None


def pytest_sessionfinish(session):
    strict_rerun.stop()

"""Compiled bytecode kept between the test session's Python processes.

Glossary:
  no-bytecode run -- an environment that sets PYTHONDONTWRITEBYTECODE (so no ``__pycache__``
                     is written into the checkout): every Python process compiles each
                     simdist module it imports from source, about 1 s of CPU for a cluster
                     test's worker and 4 s for a test process that imports most of simdist.
  cache           -- for such a run, a directory of this user's own outside the checkout
                     (``PYTHONPYCACHEPREFIX``, Python's own option for this): the test
                     process and every Python process it starts write and read their
                     bytecode there, checked against each source's size and mtime as any
                     ``__pycache__`` is. Nothing is written into the checkout.

An environment that writes bytecode, or that names its own prefix, is left as it is.
"""

from __future__ import annotations

import os
import sys
import tempfile


def use_shared_cache() -> str | None:
    """In a no-bytecode run, send this process's and its children's bytecode to the cache
    (created private to this user); the cache's path, or None where nothing changed."""
    if not sys.dont_write_bytecode or os.environ.get("PYTHONPYCACHEPREFIX"):
        return None
    path = os.path.join(tempfile.gettempdir(), f"simdist-test-pycache-{os.getuid()}")
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
        if os.stat(path).st_uid != os.getuid():   # someone else's: not ours to trust
            return None
    except OSError:
        return None
    os.environ["PYTHONPYCACHEPREFIX"] = path
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.pycache_prefix = path
    sys.dont_write_bytecode = False
    return path

"""Array backends: where the bytes of simulated devices really live.

Glossary:
  xp       -- the array namespace (``numpy`` by default, ``cupy`` on real GPUs). Code that
              works on device values calls ``backend.xp`` and never imports numpy itself,
              so a CuPy run needs no second implementation.
  to_host  -- convert a backend array to a NumPy array (a no-op for NumPy).
"""

from __future__ import annotations

import importlib

import numpy

BACKENDS = {"numpy": "numpy", "cupy": "cupy"}

xp = numpy


def set_backend(name: str) -> None:
    """Select the array namespace used by every simulated device.

    Raises:
      ValueError: if ``name`` is not a known backend.
      ImportError: if the backend's package is not installed.
    """
    global xp
    if name not in BACKENDS:
        raise ValueError(f"Unknown backend {name!r}; choose one of {sorted(BACKENDS)}.")
    xp = importlib.import_module(BACKENDS[name])


def get_backend() -> str:
    """The name of the active backend."""
    return xp.__name__


def to_host(array):
    """Return ``array`` as a NumPy array (copies from a GPU when needed)."""
    if xp is numpy:
        return array
    return xp.asnumpy(array)

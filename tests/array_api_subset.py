"""The strict Array API subset: parametrize ids of which a chosen few are also marked
``array_api``, so tests/hardware/test_backends.py re-runs them on array_api_strict.

Glossary:
  strict(names, chosen) -- ``names`` for ``pytest.mark.parametrize``, those in ``chosen``
                           as ``pytest.param(..., marks=pytest.mark.array_api)``. A name
                           in ``chosen`` that is not a case fails at collection, so the
                           subset cannot silently shrink when cases are renamed.
"""

from __future__ import annotations

import pytest


def strict(names, chosen) -> list:
    """``names`` with those in ``chosen`` marked ``array_api`` (the strict subset)."""
    names = list(names)
    unknown = sorted(set(chosen) - set(names))
    if unknown:
        raise ValueError(f"array_api subset names unknown cases {unknown}; pick from the "
                         "cases this test parametrizes over.")
    return [pytest.param(n, marks=pytest.mark.array_api) if n in chosen else n for n in names]

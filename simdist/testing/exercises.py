"""Graders for the lessons' exercises: right or wrong, with a hint, never the answer.

Glossary:
  exercise cell -- a lesson cell whose first line is ``# EXERCISE <id>: ...``; the learner
                   replaces its ``...`` (or its ``raise NotImplementedError``) with a value or
                   code. The next cell grades it.
  grade         -- run a check (a simdist.testing checker, or any function that raises
                   AssertionError or returns False when wrong); print the verdict.
  grade_value   -- compare a value with the answer's digest (a hash of the value rounded
                   to a few significant digits), so the lesson never shows the answer.
  RESULTS       -- every verdict in order, ``(exercise id, True | False | None)``; None is
                   "not answered yet". tests/lessons/test_exercises.py reads it.
"""

from __future__ import annotations

import hashlib

import numpy as np

RESULTS: list[tuple[str, bool | None]] = []


def grade(exercise: str, check, hint: str) -> bool | None:
    """Run ``check()`` and print whether exercise ``exercise`` is right.

    Args:
      check: no arguments; raises AssertionError (or returns False) when the answer is
        wrong, raises NotImplementedError (or TypeError from ``...``) when unanswered.
      hint: what to look at again when the answer is wrong.

    Returns:
      True (right), False (wrong), None (not answered yet).
    """
    detail = ""
    try:
        verdict = check() is not False
    except (NotImplementedError, _Unanswered):
        verdict = None
    except AssertionError as exc:
        verdict, detail = False, str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    except Exception as exc:  # the learner's code raised: wrong, and say what it raised
        verdict, detail = False, f"{type(exc).__name__}: {str(exc).strip()[:300]}"
    return _report(exercise, verdict, hint, detail)


def grade_value(exercise: str, answer, digest: str, hint: str, digits: int = 4):
    """Grade a value against the answer's :func:`digest` (rounded to ``digits`` figures)."""
    def check():
        if answer is Ellipsis:
            raise _Unanswered
        return digest_of(answer, digits) == digest

    return grade(exercise, check, hint)


def require_answer(*answers) -> None:
    """Raise "not answered yet" when any of ``answers`` is still ``...``."""
    if any(a is Ellipsis for a in answers):
        raise _Unanswered


def digest_of(value, digits: int = 4) -> str:
    """A short hash of ``value``: numbers rounded to ``digits`` significant figures, strings
    stripped and lower-cased, sequences element by element (used to write the graders)."""
    return hashlib.sha256(_canonical(value, digits).encode()).hexdigest()[:16]


class _Unanswered(Exception):
    """The exercise cell still holds its placeholder."""


def _canonical(value, digits) -> str:
    if hasattr(value, "numpy"):
        value = value.numpy()
    if isinstance(value, str):
        return "s:" + value.strip().lower()
    if isinstance(value, (bool, np.bool_)):
        return f"b:{bool(value)}"
    if isinstance(value, (list, tuple, np.ndarray)):
        return "[" + ",".join(_canonical(v, digits) for v in np.asarray(value).tolist()) + "]" \
            if isinstance(value, np.ndarray) else \
            "[" + ",".join(_canonical(v, digits) for v in value) + "]"
    if isinstance(value, (int, float, np.integer, np.floating)):
        v = float(value)
        return "n:" + (f"{v:.{digits}g}" if np.isfinite(v) else str(v))
    return "r:" + repr(value)


def _report(exercise, verdict, hint, detail):
    RESULTS.append((exercise, verdict))
    if verdict is None:
        print(f"Exercise {exercise}: not answered yet (replace the ... in the cell above).")
    elif verdict:
        print(f"Exercise {exercise}: right.")
    else:
        print(f"Exercise {exercise}: not yet. Hint: {hint}" + (f"\n  ({detail})" if detail
                                                              else ""))
    return verdict

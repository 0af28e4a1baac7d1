"""Printed text compared between TensorFlow's run of a program and simdist's.

Glossary:
  normalize -- printed text made comparable: a progress bar's final state (the text after
               its last carriage return; intermediate states, printed as time allows, are
               dropped), timings masked ('- 0s 5ms/step' -> '- T'), the framework's version
               line dropped (or masked after its label 'TensorFlow version:').
  masked    -- a line's text with its numbers masked, NumPy's column padding dropped.
  compare   -- the normalized lines of two printouts: the same text, the same numbers to a
               tolerance (``rtol``; with ``last_digit``, also one unit in the last digit
               TF printed, as a float32 round-off can move a rounded number's last digit).
Used by the tutorials' tests (tests/tutorials) and the seed listings' (tests/seeds).
"""

from __future__ import annotations

import re

import numpy as np

NUMBER = re.compile(r"-?\d+\.\d+(?:e[-+]?\d+)?|-?\d+(?:e[-+]?\d+)?")

_TIMING = re.compile(r" - (ETA: )?\d+(\.\d+)?m?s( \d+(\.\d+)?[mu]?s/step)?")
_ADDRESS = re.compile(r"at 0x[0-9a-fA-F]+")
_BAR = re.compile(r"^\s*(\d+)/(\d+) \[")
_VERSION = re.compile(r"^TensorFlow version:? .*$")  # TF's own ('2.21.0') or simdist's


def normalize(text: str) -> list[str]:
    """The printed lines, comparable between runs and frameworks."""
    lines = _lines(text)
    # A bar's last batch may print before its epoch-end line (the same bar with the epoch's
    # extra logs), as time allows: keep only the last bar before the next other line.
    out = []
    for i, line in enumerate(lines):
        rest = [x for x in lines[i + 1:] if not x.startswith(_CALLBACK_LINES)]
        if _BAR.match(line) and rest and _BAR.match(rest[0]):
            continue
        out.append(line)
    return out


# What the tutorial's PrintLR callback prints between a bar's last batch and its epoch end.
_CALLBACK_LINES = ("Learning rate for epoch",)


def _lines(text: str) -> list[str]:
    lines = []
    for line in text.split("\n"):
        line = line.split("\r")[-1].replace("\x08", "")
        line = _TIMING.sub(" - T", line)
        line = _ADDRESS.sub("at 0x#", line)
        if re.fullmatch(r"\d+\.\d+\.\d+.*", line.strip()):
            continue  # print(tf.__version__)
        line = _VERSION.sub("TensorFlow version: (the framework's)", line)
        bar = _BAR.match(line)
        if bar and bar.group(1) != bar.group(2) or not line.strip():
            continue  # a bar's intermediate state: printed or not, as time allows
        lines.append(line.rstrip())
    return lines


def masked(line: str) -> str:
    """A line's text with numbers masked, NumPy's column padding dropped ('0.04 ,')."""
    return re.sub(r" +(?=[,\]])", "", re.sub(r" +", " ", NUMBER.sub("#", line)))


def compare(got: str, want: str, rtol: float = 1e-4, last_digit: bool = False) -> None:
    """Assert printout ``got`` (simdist's) reads as ``want`` (TF's): line by line the same
    text, and numbers equal to ``rtol`` (``atol`` 2 * ``rtol``; with ``last_digit``, no
    ``atol`` but one unit in the last digit of TF's number)."""
    got_lines, want_lines = normalize(got), normalize(want)
    assert len(got_lines) == len(want_lines), "\n".join(got_lines)
    for g, w in zip(got_lines, want_lines):
        assert masked(g) == masked(w), (g, w)
        gn = np.array([float(x) for x in NUMBER.findall(g)])
        wn = np.array([float(x) for x in NUMBER.findall(w)])
        if last_digit:
            atol = np.array([_unit(x) for x in NUMBER.findall(w)])
            ok = np.abs(gn - wn) <= atol * (1 + 1e-9) + rtol * np.abs(wn)
            assert ok.all(), f"{g!r} vs {w!r}"
        else:
            np.testing.assert_allclose(gn, wn, rtol=rtol, atol=2 * rtol,
                                       err_msg=f"{g!r} vs {w!r}")


def _unit(number: str) -> float:
    """One unit in the last digit of ``number`` as printed ('0.25' -> 0.01, '1e-05' ->
    1e-05); 0 for an integer (compared exactly)."""
    mantissa, _, exponent = number.partition("e")
    if "." not in mantissa and not exponent:
        return 0.0
    return 10.0 ** (int(exponent or 0) - len(mantissa.partition(".")[2]))

"""Keras's text progress bar (``tf.keras.utils.Progbar``).

Glossary:
  verbose=1 -- one line redrawn in place (backspaces + carriage return), at most every
               ``interval`` seconds: ``4/4 [=====] - 0s 3ms/step - loss: 0.6942``.
  verbose=2 -- one line per epoch when it ends, with time per epoch and per step.
  stateful metrics -- shown as given (fit's logs are already running means); others are
               averaged over the steps seen.

Mirrors keras/src/utils/generic_utils.py (``Progbar``).
"""

from __future__ import annotations

import sys
import time

import numpy as np


def _print(message):
    sys.stdout.write(message)
    sys.stdout.flush()


class Progbar:
    """A progress bar for ``target`` steps (None: unknown)."""

    def __init__(self, target, width=30, verbose=1, interval=0.05, stateful_metrics=None,
                 unit_name="step"):
        self.target, self.width, self.verbose, self.interval = target, width, verbose, interval
        self.unit_name = unit_name
        self.stateful_metrics = set(stateful_metrics) if stateful_metrics else set()
        self._dynamic_display = True  # "posix" in sys.modules, as on every Linux host
        self._total_width = 0
        self._seen_so_far = 0
        self._values = {}
        self._values_order = []
        self._start = time.time()
        self._last_update = 0
        self._time_at_epoch_start = self._start
        self._time_at_epoch_end = None
        self._time_after_first_step = None

    def update(self, current, values=None, finalize=None):
        """Show ``current`` steps done and the ``values`` (a list of (name, value))."""
        if finalize is None:
            finalize = False if self.target is None else current >= self.target
        for k, v in values or []:
            if k not in self._values_order:
                self._values_order.append(k)
            if k not in self.stateful_metrics:
                base = max(current - self._seen_so_far, 1)
                if k not in self._values:
                    self._values[k] = [v * base, base]
                else:
                    self._values[k][0] += v * base
                    self._values[k][1] += base
            else:
                self._values[k] = [v, 1]
        self._seen_so_far = current
        now = time.time()
        info = f" - {now - self._start:.0f}s"
        if current == self.target:
            self._time_at_epoch_end = now
        if self.verbose == 1:
            if now - self._last_update < self.interval and not finalize:
                return
            prev_total_width = self._total_width
            message = "\b" * prev_total_width + "\r"
            if self.target is not None:
                numdigits = int(np.log10(self.target)) + 1
                bar = ("%" + str(numdigits) + "d/%d [") % (current, self.target)
                prog_width = int(self.width * float(current) / self.target)
                if prog_width > 0:
                    bar += "=" * (prog_width - 1)
                    bar += ">" if current < self.target else "="
                bar += "." * (self.width - prog_width) + "]"
            else:
                bar = f"{current:7d}/Unknown"
            self._total_width = len(bar)
            message += bar
            time_per_unit = self._estimate_step_duration(current, now)
            if self.target is None or finalize:
                info += self._format_time(time_per_unit, self.unit_name)
            else:
                eta = time_per_unit * (self.target - current)
                if eta > 3600:
                    h, m, sec = int(eta // 3600), int((eta % 3600) // 60), int(eta % 60)
                    eta_format = f"{h}:{m:02d}:{sec:02d}"
                elif eta > 60:
                    eta_format = f"{int(eta // 60)}:{int(eta % 60):02d}"
                else:
                    eta_format = f"{int(eta)}s"
                info = f" - ETA: {eta_format}"
            info += self._values_text(abs)
            self._total_width += len(info)
            if prev_total_width > self._total_width:
                info += " " * (prev_total_width - self._total_width)
            if finalize:
                info += "\n"
            _print(message + info)
        elif self.verbose == 2 and finalize:
            numdigits = int(np.log10(self.target)) + 1
            info = ("%" + str(numdigits) + "d/%d") % (current, self.target)
            info += f" - {now - self._start:.0f}s" + self._values_text(lambda avg: avg)
            if self._time_at_epoch_end:
                per_epoch = self._time_at_epoch_end - self._time_at_epoch_start
                per_step = per_epoch / self.target
                self._time_at_epoch_start = now
                self._time_at_epoch_end = None
                info += " -" + self._format_time(per_epoch, "epoch")
                info += " -" + self._format_time(per_step, self.unit_name)
                info += "\n"
            _print(info)
        self._last_update = now

    def add(self, n, values=None):
        self.update(self._seen_so_far + n, values)

    def _values_text(self, size) -> str:
        """The `` - name: value`` pairs; ``size(avg) > 1e-3`` picks fixed-point notation.

        Keras's verbose=1 line compares ``abs(avg)`` and its verbose=2 line ``avg`` itself,
        so a negative value (a cosine-similarity loss) prints as ``-6.7629e-01`` at verbose=2.
        """
        info = ""
        for k in self._values_order:
            info += f" - {k}:"
            total, count = self._values[k]
            avg = np.mean(total / max(1, count))
            info += f" {avg:.4f}" if size(avg) > 1e-3 else f" {avg:.4e}"
        return info

    @staticmethod
    def _format_time(time_per_unit, unit_name):
        if time_per_unit >= 1 or time_per_unit == 0:
            return f" {time_per_unit:.0f}s/{unit_name}"
        if time_per_unit >= 1e-3:
            return f" {time_per_unit * 1000.0:.0f}ms/{unit_name}"
        return f" {time_per_unit * 1000000.0:.0f}us/{unit_name}"

    def _estimate_step_duration(self, current, now):
        if not current:
            return 0
        if self._time_after_first_step is not None and current > 1:
            per = (now - self._time_after_first_step) / (current - 1)
        else:
            per = (now - self._start) / current
        if current == 1:
            self._time_after_first_step = now
        return per

"""``tf.profiler.experimental``: record what the simulated devices did between ``start`` and
``stop``, for TensorBoard's profile dashboard.

Glossary:
  start(logdir) -- begin a profile (one at a time: TF's AlreadyExistsError otherwise).
  stop()        -- end it and write the trace events recorded since ``start`` (every
                   simulated op, transfer and collective, in simulated time) as Chrome trace
                   JSON, gzipped, to ``logdir/plugins/profile/<YYYY_MM_DD_HH_MM_SS>/
                   <host>.trace.json.gz`` (the file TensorBoard's profile plugin and
                   Perfetto open); TF's UnavailableError when none runs. TF writes its
                   XPlane protobuf there instead; the timeline is simdist's simulated one.
  Profile       -- ``with tf.profiler.experimental.Profile(logdir):`` = start ... stop.

Mirrors tensorflow/python/profiler/profiler_v2.py.
"""

from __future__ import annotations

import gzip
import json
import os
import socket
import time

from simdist import _world, errors
from simdist.hardware import machine as machine_lib
from simdist.hardware.trace import Trace

_running = []   # [logdir, the trace, its event count at start] while a profile runs


@_world.register_resetter
def _reset() -> None:
    _running.clear()


class ProfilerOptions:
    """Accepted as TF's (host/python/device tracer levels, delay); simdist records all."""

    def __init__(self, host_tracer_level=2, python_tracer_level=0, device_tracer_level=1,
                 delay_ms=None):
        self.host_tracer_level = host_tracer_level
        self.python_tracer_level = python_tracer_level
        self.device_tracer_level = device_tracer_level
        self.delay_ms = delay_ms


def start(logdir, options=None) -> None:
    """Start profiling into ``logdir``.

    Raises:
      AlreadyExistsError: a profile is running already.
    """
    if _running:
        raise errors.AlreadyExistsError(None, None, "Another profiler is running.")
    trace = machine_lib.get_machine().trace
    _running.extend([os.fspath(logdir), trace, len(trace.events)])


def stop(save=True) -> None:
    """Stop profiling and (``save``) write the profile.

    Raises:
      UnavailableError: no profile is running.
    """
    if not _running:
        raise errors.UnavailableError(
            None, None, "Cannot export profiling results. No profiler is running.")
    logdir, trace, first = _running
    _running.clear()
    if not save:
        return
    part = Trace(max_events=None)
    part.events = trace.events[first:]
    run = os.path.join(logdir, "plugins", "profile", time.strftime("%Y_%m_%d_%H_%M_%S"))
    os.makedirs(run, exist_ok=True)
    with gzip.open(os.path.join(run, f"{socket.gethostname()}.trace.json.gz"), "wt") as f:
        json.dump(part.to_chrome(), f)


class Profile:
    """``with Profile(logdir):`` profiles the block."""

    def __init__(self, logdir, options=None):
        self._logdir = logdir

    def __enter__(self):
        start(self._logdir)
        return self

    def __exit__(self, *exc):
        stop()
        return False

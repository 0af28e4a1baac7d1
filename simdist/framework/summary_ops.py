"""``tf.summary``'s writers and its graph trace: what TensorBoard reads from a log directory.

Glossary:
  writer        -- ``create_file_writer(logdir)``: opens ``logdir``'s event file at once (a
                   header event, framework/event_file); ``as_default(step)`` makes it the
                   writer summaries go to inside the ``with`` (and their default step);
                   ``set_as_default``, ``flush`` and ``close`` as TF's.
  trace         -- ``trace_on(graph=True)`` collects the graph of every tf.function run
                   until ``trace_export(name, step)``, which writes them to the default
                   writer as one RunMetadata (TensorBoard's graph dashboard reads it: the
                   'graph_run_metadata_graph' plugin) and stops collecting; ``trace_off``
                   stops without writing. ``trace_on(profiler=True)`` also starts the
                   profiler (framework/profiler), which the export stops.
  step          -- ``trace_export``'s ``step``, else the default writer's; with a default
                   writer and neither, TF's ValueError.
  scalar        -- ``tf.summary.scalar(name, data, step)``: TF's implementation is the
                   tensorboard package's; without it, TF's TBNotInstalledError (as in TF);
                   with it, a float32 scalar event on the default writer (False: none).
Histograms, images, audio and text summaries are not simulated.

Mirrors tensorflow/python/ops/summary_ops_v2.py.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import re

from simdist import _world
from simdist.framework import event_file, func_graph
from simdist.platform.tf_logging import get_logger

_default = []       # the writers made default (innermost last)


class TBNotInstalledError(Exception):
    """tf.summary.scalar without the tensorboard package (TF's tb_summary error)."""

    def __init__(self, summary_api):
        super().__init__(f"TensorBoard is not installed, missing implementation for "
                         f"{summary_api}")


def tensorboard_installed() -> bool:
    """Whether the tensorboard package (TF's implementation of tf.summary.scalar) exists."""
    return importlib.util.find_spec("tensorboard") is not None
_trace = []         # while a trace is on: [profiler started, graphs collected (by id)]


@_world.register_resetter
def _reset() -> None:
    _default.clear()
    _trace.clear()


class SummaryWriter:
    """A writer of one log directory's event file (TF's ``ResourceSummaryWriter``)."""

    def __init__(self, logdir):
        self._logdir = os.fspath(logdir)
        self._file = event_file.EventFileWriter(self._logdir)
        self._step = None
        self._closed = False

    @contextlib.contextmanager
    def as_default(self, step=None):
        """Make this the default writer (and ``step`` the default step) inside the block."""
        saved = self._step
        if step is not None:
            self._step = int(step)
        _default.append(self)
        try:
            yield self
        finally:
            _default.remove(self)
            self._step = saved

    def set_as_default(self, step=None) -> None:
        """Make this the default writer from now on."""
        if step is not None:
            self._step = int(step)
        _default.append(self)

    def init(self) -> None:
        """The file is opened at creation: nothing to do."""

    def flush(self) -> None:
        """Events are written as they come: nothing to flush."""

    def close(self) -> None:
        """Stop writing; the writer stops being a default."""
        self._closed = True
        while self in _default:
            _default.remove(self)

    def _write_tensor(self, tag, data: bytes, plugin_name, content, step) -> None:
        if not self._closed:
            self._file.text_tensor(tag, data, plugin_name, content, step)


def create_file_writer(logdir, max_queue=None, flush_millis=None, filename_suffix=None,
                       name=None, experimental_trackable=False, experimental_mesh=None):
    """A summary writer of ``logdir`` (``tf.summary.create_file_writer``).

    Raises:
      ValueError: ``logdir`` is None.
    """
    if logdir is None:
        raise ValueError("Argument `logdir` cannot be None")
    return SummaryWriter(logdir)


def scalar(name, data, step=None, description=None) -> bool:
    """Write a scalar summary to the default writer; whether one was written.

    Raises:
      TBNotInstalledError: no tensorboard package (TF's implementation).
      ValueError: a default writer but no step.
    """
    if not tensorboard_installed():
        raise TBNotInstalledError("tf.summary.scalar")
    writer = _default[-1] if _default else None
    if writer is None or writer._closed:
        return False
    step = writer._step if step is None else int(step)
    if step is None:
        raise ValueError("No step set. Please specify one either through the `step` "
                         "argument or through tf.summary.experimental.set_step()")
    value = data.numpy() if hasattr(data, "numpy") else data
    writer._file.scalar(name, float(value), step)
    return True


def trace_on(graph=True, profiler=False, profiler_outdir=None) -> None:
    """Start collecting the graphs of the tf.functions run from now on."""
    if func_graph.current() is not None:
        get_logger().warning("Cannot enable trace inside a tf.function.")
        return
    if _trace:
        get_logger().warning("Trace already enabled")
        return
    started = False
    if profiler:
        if profiler_outdir is None:
            get_logger().warning("No `profiler_outdir` passed to trace_on(). Profiler won't "
                                 "be enabled.")
        else:
            from simdist.framework import profiler as profiler_lib

            profiler_lib.start(profiler_outdir)
            started = True
    _trace.extend([started, {}])


def collect(graph) -> None:
    """Keep ``graph`` (a tf.function's FuncGraph just run) while a trace is on."""
    if _trace:
        _trace[1].setdefault(id(graph), graph)


def trace_export(name, step=None, profiler_outdir=None) -> None:
    """Write the collected graphs to the default writer at ``step``, and stop the trace.

    Raises:
      ValueError: no trace is on, or a default writer but no step.
    """
    if func_graph.current() is not None:
        get_logger().warning("Cannot export trace inside a tf.function.")
        return
    if not _trace:
        raise ValueError("Must enable trace before export through tf.summary.trace_on.")
    writer = _default[-1] if _default else None
    if writer is not None:
        step = writer._step if step is None else int(step)
        if step is None:
            raise ValueError("No step set. Please specify one either through the `step` "
                             "argument or through tf.summary.experimental.set_step()")
        graphs = [_graph_def_bytes(g) for g in _trace[1].values()]
        writer._write_tensor(name, event_file.run_metadata(graphs),
                             "graph_run_metadata_graph", b"1", step)
    if _trace[0]:
        from simdist.framework import profiler as profiler_lib

        if profiler_outdir:
            get_logger().warning("Ignoring `profiler_outdir` passed to trace_export(). Please "
                                 "pass it to trace_on() instead.")
        profiler_lib.stop()
    trace_off()


def trace_off() -> None:
    """Stop collecting graphs, writing nothing."""
    _trace.clear()


def _graph_def_bytes(graph) -> bytes:
    """The graph as TF's runtime instantiates a function (its pre-optimization graph): each
    input an ``_Arg`` named in lower case with '_' for other characters
    ('mul/ReadVariableOp/resource' -> 'mul_readvariableop_resource'), each output read by a
    ``<output>_RetVal`` ``_Retval`` node."""
    nodes = graph.as_graph_def().node
    args = {n.name: _normalized(n.name) for n in nodes if n.op == "Placeholder"}

    def renamed(i):
        return args.get(i, i)

    out = [(args.get(n.name, n.name), "_Arg" if n.name in args else n.op,
            [renamed(i) for i in n.input], "") for n in nodes]
    out += [(f"{_normalized(name.split(':')[0])}_RetVal", "_Retval", [name.split(":")[0]], "")
            for name in graph.output_names()]
    return event_file.graph_def(out)


def _normalized(name: str) -> str:
    return re.sub(r"[^a-z0-9_]", "_", name.lower())

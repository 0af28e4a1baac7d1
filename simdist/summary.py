"""``tf.summary``: event-file writers and the graph trace (names only; see
simdist/framework/summary_ops.py)."""

from simdist.framework.summary_ops import (  # noqa: F401
    SummaryWriter,
    create_file_writer,
    scalar,
    trace_export,
    trace_off,
    trace_on,
)

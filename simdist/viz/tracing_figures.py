"""The tf.function page's figures and tables, drawn from a ``tracing.TracingRun``.

Glossary:
  timeline  -- one column per call of ``step``, one row per thing that can happen at a
               call: the Python ran to trace (or retrace), ``print`` wrote, the recorded
               graph ran, ``tf.print`` wrote, the Python ran eagerly (simdist's fallback);
               a mark where it happened. Hovering a mark shows what was printed.
  count     -- ``experimental_get_tracing_count()`` after each call, with the calls at
               which TF's retracing warning was logged marked.
"""

from __future__ import annotations

import plotly.graph_objects as go

from simdist.viz.tracing import RETRACING

# row label -> (colour, marker symbol); top to bottom as drawn
ROWS = {
    "Python traced": ("#e8590c", "diamond"),
    "print wrote": ("#f59f00", "square"),
    "graph ran": ("#1c7ed6", "circle"),
    "tf.print wrote": ("#0ca678", "square"),
    "Python ran eagerly (fallback)": ("#c92a2a", "x"),
}
WARNING_COLOUR = "#862e9c"


def _lines(text: str, limit: int = 6) -> str:
    lines = text.rstrip("\n").split("\n")
    more = f"<br>... {len(lines) - limit} more lines" if len(lines) > limit else ""
    return "<br>".join(_escape(line) for line in lines[:limit]) + more


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def happened(call) -> dict:
    """Row label -> hover text, for each row that has a mark at this call."""
    out = {}
    if call.traced:
        out["Python traced"] = (f"call {call.index}: traced (tracing count "
                                f"{call.count})")
    if call.printed:
        out["print wrote"] = _lines(call.printed)
    if call.graph:
        out["graph ran"] = f"call {call.index}: the recorded graph ran"
    if call.tf_printed:
        out["tf.print wrote"] = _lines(call.tf_printed)
    if not call.graph and not call.error:
        out["Python ran eagerly (fallback)"] = (f"call {call.index}: the Python body ran "
                                                 "eagerly, no graph")
    return out


def timeline_figure(run) -> go.Figure:
    """What happened at each call: a mark per row where it did."""
    fig = go.Figure()
    marks = [happened(c) for c in run.calls]
    rows = [r for r in ROWS if any(r in m for m in marks)]
    for row in rows:
        colour, symbol = ROWS[row]
        calls = [(c, m[row]) for c, m in zip(run.calls, marks) if row in m]
        fig.add_trace(go.Scatter(
            x=[c.index for c, _ in calls], y=[row] * len(calls), mode="markers",
            name=f"{row} ({len(calls)} of {len(run.calls)} calls)",
            marker=dict(color=colour, symbol=symbol, size=14, line=dict(width=1, color="#333")),
            hovertext=[t for _, t in calls], hoverinfo="text"))
    failed = [c for c in run.calls if c.error]
    if failed:
        fig.add_trace(go.Scatter(
            x=[c.index for c in failed], y=[rows[0] if rows else "error"] * len(failed),
            mode="markers", name="raised an error", hoverinfo="text",
            hovertext=[_escape(c.error) for c in failed],
            marker=dict(color="#000", symbol="x-thin", size=16, line=dict(width=3))))
    n = len(run.calls)
    fig.update_layout(
        title="What each call of step did", height=150 + 42 * max(len(rows), 1),
        xaxis=dict(title="call (i)", tickmode="linear", dtick=1, range=[-0.5, max(n, 1) - 0.5]),
        yaxis=dict(categoryorder="array", categoryarray=rows[::-1], automargin=True),
        legend=dict(orientation="h", y=-0.35, x=0), margin=dict(l=10, r=10, t=50, b=10))
    return fig


def count_figure(run) -> go.Figure:
    """experimental_get_tracing_count() after each call; the retracing warnings marked."""
    x = [c.index for c in run.calls]
    fig = go.Figure(go.Scatter(
        x=x, y=[c.count for c in run.calls], mode="lines+markers", line_shape="hv",
        name="tracing count", line=dict(color=ROWS["Python traced"][0]),
        hovertemplate="after call %{x}: %{y} traces<extra></extra>"))
    warned = [c for c in run.calls if c.index in run.retracing_calls]
    if warned:
        fig.add_trace(go.Scatter(
            x=[c.index for c in warned], y=[c.count for c in warned], mode="markers",
            name="retracing warning logged", hoverinfo="text",
            hovertext=[_escape(next(m for m in c.logs if RETRACING in m)[:90]) + "..."
                       for c in warned],
            marker=dict(color=WARNING_COLOUR, symbol="star", size=16)))
    fig.update_layout(
        title="experimental_get_tracing_count() after each call", height=300,
        xaxis=dict(title="call (i)", tickmode="linear", dtick=1),
        yaxis=dict(title="traces", rangemode="tozero", dtick=1 if run.count <= 12 else None),
        legend=dict(orientation="h", y=-0.3, x=0), margin=dict(l=10, r=10, t=50, b=10))
    return fig


def calls_frame(run) -> list[dict]:
    """One row per call: traced or replayed, what printed, the result."""
    return [{"call (i)": c.index,
             "what ran": ("traced, then the graph ran" if c.traced and c.graph else
                          "the graph ran" if c.graph else
                          "raised" if c.error else "Python ran eagerly (fallback)"),
             "tracing count": c.count,
             "print (stdout)": _one_line(c.printed),
             "tf.print (stderr)": _one_line(c.tf_printed),
             "result": c.error or c.result}
            for c in run.calls]


def _one_line(text: str) -> str:
    """Printed lines in one table cell, each ended by a return sign."""
    return " ".join(line + " ⏎" for line in text.rstrip("\n").split("\n")) if text else ""


def events_frame(run) -> list[dict]:
    """The device trace's "function" events, in order (start and end in microseconds)."""
    return [{"event": name, "device": device.rpartition("/")[2] or device,
             "start (us)": round(start * 1e6, 3), "end (us)": round(end * 1e6, 3),
             "args": ", ".join(f"{k}={v}" for k, v in args.items())}
            for name, device, start, end, args in run.events]


def operations_text(trace) -> str:
    """A trace's operations as TF's ``get_operations()`` lists them: name and type."""
    if trace.eager:
        return "(no graph: this trace fell back to running the Python eagerly)"
    width = max((len(name) for name, _ in trace.operations), default=0)
    return "\n".join(f"{name:<{width}}  {op_type}" for name, op_type in trace.operations) \
        or "(no operations)"


def nodes_text(trace) -> str:
    """A trace's recorded nodes, one a line, a cond's or loop's branches indented."""
    if trace.eager:
        return "(no graph: this trace fell back to running the Python eagerly)"
    return "\n".join("  " * depth + name for depth, name in trace.nodes) or "(no nodes)"

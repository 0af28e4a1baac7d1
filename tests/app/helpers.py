"""Running one app page under streamlit.testing.v1.AppTest and reading its figures.

Glossary:
  page(name, **query) -- an AppTest of ``app/views/<name>.py`` run with URL query params.
  figures(at)         -- the plotly figure specs (dicts) of the page, in page order.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = Path(__file__).resolve().parents[2] / "app"
if str(APP) not in sys.path:
    sys.path.insert(0, str(APP))  # the pages import app/common.py

VIEWS = {"sync": "gradient_sync", "shard": "data_sharding", "loss": "loss_scaling",
         "timeline": "training_timeline", "scaling": "scaling_explorer",
         "faults": "cluster_faults", "ps": "parameter_server",
         "tracing": "tf_function", "measured": "simulated_vs_measured"}


def page(name: str, **query) -> AppTest:
    at = AppTest.from_file(str(APP / "views" / f"{VIEWS[name]}.py"), default_timeout=60)
    for k, v in query.items():
        at.query_params[k] = str(v)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def figures(at: AppTest) -> list[dict]:
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


def traces(fig: dict, name: str) -> list[dict]:
    return [t for t in fig["data"] if t.get("name") == name]


def points(trace: dict) -> int:
    return sum(v is not None for v in trace.get("x", []))


def colour_meanings(figs: list[dict]) -> dict[str, set]:
    """Colour -> the legend meanings drawn in it over a page's figures (a meaning is a
    trace name up to its count or comment: ``replica 0 (2 examples)`` is ``replica 0``)."""
    out: dict = {}
    for fig in figs:
        for t in fig["data"]:
            name = t.get("name")
            colour = (t.get("line") or {}).get("color") or (t.get("marker") or {}).get("color")
            if name and isinstance(colour, str):
                meaning = re.split(r" \(|:", name)[0].removesuffix(" arrows").strip()
                out.setdefault(colour.lower(), set()).add(meaning)
    return out

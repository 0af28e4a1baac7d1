"""Running one app page under streamlit.testing.v1.AppTest and reading its figures.

Glossary:
  app_test(path)      -- AppTest.from_file sharing one component registry per process.
  page(name, **query) -- an AppTest of ``app/views/<name>.py`` run with URL query params.
  figures(at)         -- the plotly figure specs (dicts) of the page, in page order.
"""

from __future__ import annotations

import functools
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


@functools.cache
def _components():
    """The component registry AppTest builds at its first run, built once (None where this
    Streamlit has none)."""
    try:
        from streamlit.components.v2.component_manager import BidiComponentManager
    except ImportError:
        return None
    registry = BidiComponentManager()
    registry.discover_and_register_components(start_file_watching=False)
    return registry


def app_test(path: Path) -> AppTest:
    """AppTest.from_file, with one component registry for every AppTest of the process.

    Each new AppTest scans every installed package's metadata for Streamlit components at
    its first run (~0.16 s CPU, about a third of a page run here); the app uses none and
    the scan finds the same packages every time, so one registry serves all. Where a
    Streamlit version has no such registry, each AppTest builds its own as before."""
    at = AppTest.from_file(str(path), default_timeout=60)
    if hasattr(at, "_bidi_component_manager") and _components() is not None:
        at._bidi_component_manager = _components()
    return at


def page(name: str, **query) -> AppTest:
    at = app_test(APP / "views" / f"{VIEWS[name]}.py")
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

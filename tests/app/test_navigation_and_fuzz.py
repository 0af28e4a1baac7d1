"""The entry point's navigation, and control combinations drawn from the controls' ranges."""

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simdist.viz.controls import PAGES
from tests.app.helpers import APP, VIEWS, app_test, page


def test_entry_point_lists_every_page():
    at = app_test(APP / "streamlit_app.py").run()
    assert not at.exception
    for view in ("data_sharding", "loss_scaling", "scaling_explorer", "parameter_server",
                 "tf_function"):
        at.switch_page(f"views/{view}.py").run()
        assert not at.exception, view


def test_home_links_every_page_in_navigation_order():
    pages = re.findall(r'st\.Page\("(views/\w+\.py)"', (APP / "streamlit_app.py").read_text())
    links = re.findall(r'st\.page_link\("(views/\w+\.py)"',
                       (APP / "views" / "home.py").read_text())
    assert links == pages[1:]   # all but home itself


def _value(c):
    if c.kind == "select":
        return st.sampled_from(c.options)
    if c.kind == "bool":
        return st.sampled_from(["0", "1"])
    return st.integers(c.lo, min(c.hi, c.lo + 80) if c.name == "step" else c.hi).map(str)


def _query(name, skip=()):
    return st.fixed_dictionaries({c.name: _value(c) for c in PAGES[name] if c.name not in skip})


FEW = settings(max_examples=4, deadline=None, derandomize=True,
               suppress_health_check=list(HealthCheck))


@FEW
@given(_query("sync"))
def test_sync_any_controls(query):
    page("sync", **query)


@FEW
@given(_query("shard"))
def test_sharding_any_controls(query):
    page("shard", **query)


@FEW
@given(_query("loss"))
def test_loss_any_controls(query):
    page("loss", **query)


@FEW
@given(_query("scaling"))
def test_scaling_any_controls(query):
    page("scaling", **query)


@settings(max_examples=2, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(_query("timeline", skip=("epochs",)))
def test_timeline_any_controls(query):
    page("timeline", epochs=1, **query)


@FEW
@given(_query("ps", skip=("steps",)))
def test_parameter_server_any_controls(query):
    page("ps", steps=6, **query)


def test_every_page_has_a_view():
    assert set(PAGES) == set(VIEWS)

"""Every animated page's player: play runs to the last position, then the button offers
"play" again (not a stale "pause")."""

import importlib

import pytest

from tests.app.helpers import page

# page key, URL query giving a short animation, its last position (0-based)
PAGES = [("sync", {"n": 2, "topo": "nvswitch", "alg": "ring", "size": 2}, 2),
         ("shard", {"ds": 8, "gb": 4, "rep": 2}, 1),
         ("loss", {"mpsteps": 5}, 4)]


@pytest.fixture
def no_pause(monkeypatch):
    """Play without the 0.6 s a position stays on screen: the positions, reruns and buttons
    are the same, only the wall time between reruns is gone."""
    common = importlib.import_module("common")   # app/common.py, the module the pages use
    monkeypatch.setattr(common, "PLAY_DELAY", 0.0)


@pytest.mark.parametrize("name,query,last", PAGES, ids=[p[0] for p in PAGES])
def test_play_stops_at_the_last_step_and_offers_play_again(name, query, last, no_pause):
    at = page(name, **query)
    if name == "loss":                       # the player lives on the mixed-precision tab
        assert at.button(key=f"{name}.play").label == "▶ play"
    at.button(key=f"{name}.play").click().run()
    assert at.session_state[f"{name}.step"] == last
    assert at.session_state[f"{name}.playing"] is False
    assert at.button(key=f"{name}.play").label == "▶ play"
    assert at.button(key=f"{name}.next").disabled


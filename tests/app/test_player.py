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



@pytest.mark.parametrize("button,want", [("next", 3), ("back", 1), ("first", 0)])
def test_a_button_wins_over_the_slider_value_sent_with_it(button, want):
    """A click sends the slider's value as the browser holds it; while the page re-ran that
    can be an earlier position (pause clicked just after play from the end sent the end and
    jumped there): the button acts on the position the page showed, the stale value is not
    taken as a move."""
    at = page("sync", n=4, topo="nvswitch", alg="ring", size=2, step=2)
    at.slider(key="sync.scrub").set_value(6)
    at.button(key=f"sync.{button}").click().run()
    assert at.session_state["sync.step"] == want


# page, its URL (a position in the middle), another control of the page and its new value
OTHERS = [("sync", {"n": 4, "topo": "nvswitch", "alg": "ring", "size": 2, "step": 3},
           "selectbox", "alg2", "halving_doubling"),
          ("sync", {"n": 4, "topo": "nvswitch", "alg": "ring", "size": 2, "step": 3},
           "select_slider", "size", 3),
          ("sync", {"n": 4, "topo": "nvswitch", "alg": "tree", "size": 2, "step": 3},
           "selectbox", "ch", 1),
          ("shard", {"ds": 20, "gb": 4, "rep": 2, "step": 3}, "checkbox", "drop", True),
          ("loss", {"mpsteps": 8, "step": 3}, "slider", "growth", 7)]


@pytest.mark.parametrize("name,query,kind,control,value", OTHERS,
                         ids=[f"{o[0]}-{o[3]}" for o in OTHERS])
def test_another_control_keeps_the_position_whatever_slider_value_it_sends(
        name, query, kind, control, value):
    """Changing another control sends the scrub slider's value as the browser holds it; while
    playing, the page has moved on and that value is an earlier position: the player stays
    where it was (it takes the slider's value only when the slider itself changed), and the
    slider moved alone in the next rerun still moves it."""
    at = page(name, **query)
    at.slider(key=f"{name}.scrub").set_value(at.slider(key=f"{name}.scrub").value - 1)
    getattr(at, kind)(key=f"{name}.{control}").set_value(value).run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.session_state[f"{name}.step"] == 3
    first = at.slider(key=f"{name}.scrub").min        # the slider moved alone is a move
    at.slider(key=f"{name}.scrub").set_value(first + 1).run()
    assert at.session_state[f"{name}.step"] == 1

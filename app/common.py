"""Widgets whose values live in the URL's query parameters.

Glossary:
  controls(page)  -- draws every control of ``simdist.viz.controls.PAGES[page]`` (first
                     value from the URL, then the widget's own state) and writes the
                     values back to ``st.query_params``.
  position        -- an animation position kept outside any widget (``<page>.step``), so
                     buttons and the play loop can move it; the slider mirrors it, and
                     moves it only in a rerun where nothing else of the page changed.
"""

from __future__ import annotations

import time

import streamlit as st

from simdist.viz import controls as spec


def _key(page, name):
    return f"{page}.{name}"


def init(page: str) -> None:
    """Seed session state from the URL once per page visit."""
    vals = spec.from_query(page, st.query_params.to_dict())
    for c in spec.PAGES[page]:
        v = list(vals[c.name]) if c.kind == "multi" else vals[c.name]
        st.session_state.setdefault(_key(page, c.name), v)


def widget(page: str, name: str, container=st, **overrides):
    """Draw one control; ``hi`` in overrides narrows an int range (value clamped into it),
    ``format_func`` names a select's options. A change tells the player (``_changed``)."""
    c = spec.control(page, name)
    key = _key(page, name)
    label = overrides.pop("label", c.label)
    kw = dict(key=key, help=overrides.pop("help", c.help) or None,
              on_change=_changed, args=(page,))
    if c.kind == "select":
        return container.selectbox(label, c.options,
                                   format_func=overrides.pop("format_func", str), **kw)
    if c.kind == "bool":
        return container.checkbox(label, **kw)
    if c.kind == "multi":
        return tuple(container.multiselect(label, c.options, **kw))
    lo, hi = c.lo, overrides.pop("hi", None) or c.hi
    st.session_state[key] = min(max(int(st.session_state[key]), lo), hi)
    if c.kind == "log2":
        return container.select_slider(label, options=list(range(lo, hi + 1)),
                                       format_func=lambda k: f"2^{k} = {2 ** k:,}", **kw)
    if hi <= lo:
        st.session_state[key] = lo
        container.caption(f"{label}: {lo}")
        return lo
    return container.slider(label, lo, hi, **kw)


def channel(page: str, names: list[str], container=st) -> int:
    """Which of several channels (rings, trees) the page shows; nothing drawn for one."""
    key = _key(page, "ch")
    st.session_state[key] = min(max(int(st.session_state.get(key, 0)), 0), len(names) - 1)
    if len(names) < 2:
        return 0
    return container.selectbox("channel shown", range(len(names)), key=key,
                        format_func=lambda i: names[i], on_change=_changed, args=(page,),
                        help="Multi-ring and tree all-reduces run several channels at once, "
                             "each on its own share of the chunks; the logical view draws "
                             "one of them.")


def sync_url(page: str, values: dict) -> None:
    """Write the page's control values to the query string."""
    for name, v in values.items():
        st.query_params[name] = spec.control(page, name).encode(v)


# --- animation position ----------------------------------------------------------------

def position(page: str, last: int) -> int:
    """The current animation position, clamped to 0..last."""
    key = _key(page, "step")
    pos = min(max(int(st.session_state.get(key, 0)), 0), last)
    st.session_state[key] = pos
    return pos


def _scrubbed(page, first):
    """The scrub slider's value differs from the page's: where to, applied by ``player`` only
    if nothing else of the page changed in the same rerun (see ``_changed``)."""
    st.session_state[_key(page, "scrubbed")] = st.session_state[f"{page}.scrub"] - first


def _changed(page):
    """Another widget of the page changed: this rerun is its, not the slider's. A rerun sends
    every widget's value as the browser holds it, and the page may have moved the position
    since the browser last drew the slider (while playing; pause clicked just after play
    from the end sent the end): so the slider's value differs, though nobody moved it."""
    st.session_state[_key(page, "changed")] = True


def _clicked(page, action, *args):
    """A player button's click: it acts on the position the page shows (``_changed``)."""
    _changed(page)
    action(page, *args)


def _move(page, delta, last):
    key = _key(page, "step")
    st.session_state[key] = min(max(int(st.session_state.get(key, 0)) + delta, 0), last)


def _set(page, value):
    st.session_state[_key(page, "step")] = value


def _toggle(page, last):
    """Play (from the start when at the last position) or pause."""
    k = _key(page, "playing")
    st.session_state[k] = not st.session_state.get(k, False)
    if st.session_state[k] and int(st.session_state.get(_key(page, "step"), 0)) >= last:
        _set(page, 0)


def player(page: str, last: int, unit: str = "step", first: int = 0) -> int:
    """First / back / play-pause / forward buttons and a scrub slider; returns the position
    (0-based). ``first`` is the number the slider shows for position 0, so it counts the
    way the page's text does (``first=1``: "step 1 of n")."""
    scrubbed = st.session_state.pop(_key(page, "scrubbed"), None)
    changed = st.session_state.pop(_key(page, "changed"), False)
    if scrubbed is not None and not changed:
        _set(page, scrubbed)
    pos = position(page, last)
    if pos >= last:                       # the animation ended: the button offers play again
        st.session_state[_key(page, "playing")] = False
    playing = st.session_state.get(_key(page, "playing"), False)
    # Buttons on a row of their own, the scrub slider below: at 1024 px a shared row cut
    # the button labels to one letter.
    b = st.columns([1, 1, 1, 1, 2])
    b[0].button("◀◀ first", key=f"{page}.first", on_click=_clicked, args=(page, _set, 0))
    b[1].button("◀ back", key=f"{page}.back", on_click=_clicked,
                args=(page, _move, -1, last), disabled=pos <= 0)
    b[2].button("■ pause" if playing else "▶ play", key=f"{page}.play", on_click=_clicked,
                args=(page, _toggle, last))
    b[3].button("next ▶", key=f"{page}.next", on_click=_clicked, args=(page, _move, 1, last),
                disabled=pos >= last)
    if last > 0:
        st.session_state[f"{page}.scrub"] = pos + first
        st.slider(f"scrub ({unit})", first, last + first, key=f"{page}.scrub",
                  on_change=_scrubbed, args=(page, first))
    return pos


PLAY_DELAY = 0.6   # seconds each position stays on screen while playing


def keep_playing(page: str, last: int, delay: float | None = None) -> None:
    """At the end of a page run: advance one position and rerun while playing (after
    ``delay`` seconds, PLAY_DELAY by default)."""
    k = _key(page, "playing")
    if not st.session_state.get(k, False):
        return
    if position(page, last) >= last:
        st.session_state[k] = False
        return
    time.sleep(PLAY_DELAY if delay is None else delay)
    _move(page, 1, last)
    st.rerun()

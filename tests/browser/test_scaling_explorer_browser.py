"""Scaling explorer in Chromium at 1024x768: the bare link, fixed colours, URL, crossover."""

from __future__ import annotations

from simdist.viz import scaling
from tests.browser.browser_helpers import (
    PLOT,
    in_viewport,
    open_page,
    reads_cleanly,
    scroll_into_view,
    shot,
    visible,
)
from tests.browser.conftest import WIDE


def _legend_colours(chart):
    return chart.evaluate("""el => Object.fromEntries(el.data.map(
        t => [t.name.split(' ')[0], t.line.color]))""")


def test_direct_link_colours_selection_and_crossover(server, screen):
    """The bare link (its defaults: every all-reduce on 8 GPUs of an NVSwitch) reads cleanly
    and draws one colour per algorithm; a selection keeps the colours; none says so."""
    open_page(screen, f"{server}/scaling_explorer", 2, WIDE)
    reads_cleanly(screen, "scaling_explorer", "Scaling explorer")
    chart = screen.locator(PLOT).first
    scroll_into_view(chart)
    shot(screen, "5_scaling_all")
    every = _legend_colours(chart)
    # one curve and one colour per all-reduce of the registry (10, TF's ring_reducer too)
    assert len(set(every.values())) == len(every) == len(scaling.all_reduce_algorithms())
    for name in every:                           # every curve in the legend
        assert chart.locator(".legendtext", has_text=name).count()
    assert chart.locator(".annotation-text", has_text="ring/tree cross: 2 MiB").is_visible()
    assert visible(screen, "ring = two_level")
    # on the chart: the legend names the curve hidden under another
    assert chart.locator(".legendtext", has_text="two_level (identical to ring)").is_visible()
    assert chart.locator(".legendtext", has_text="ring_reducer (identical to ring)").is_visible()
    assert in_viewport(screen, chart)
    open_page(screen, f"{server}/scaling_explorer?topo=nvswitch&n=8&algs=tree,two_level", 2)
    chart = screen.locator(PLOT).first
    sel = _legend_colours(chart)
    assert sel == {a: every[a] for a in ("tree", "two_level")}
    shot(screen, "5_scaling_two")
    screen.goto(f"{server}/scaling_explorer?algs=")
    assert visible(screen, "No algorithm selected")
    assert not screen.locator(PLOT).count()
    shot(screen, "5_scaling_empty")

"""Gradient sync in Chromium at 1024x768 and (resized) 1920x1080: torus grid, readable labels, one
arrow per transfer, the values this step changed, a size slider within what runs."""

from __future__ import annotations

import pytest

from tests.browser.browser_helpers import (
    PLOT,
    each_size,
    in_viewport,
    open_page,
    scroll_into_view,
    shot,
    visible,
)


def _overlaps(chart) -> list:
    """Pairs of node labels (text and annotations) whose boxes overlap on screen."""
    return chart.evaluate("""el => {
        const boxes = [...el.querySelectorAll('.textpoint text, .annotation-text')]
            .filter(t => t.textContent.trim()).map(t => [t.textContent, t.getBoundingClientRect()]);
        const out = [];
        for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
            const [a, p] = boxes[i], [b, q] = boxes[j];
            if (p.left < q.right - 1 && q.left < p.right - 1 && p.top < q.bottom - 1
                && q.top < p.bottom - 1) out.push([a, b]);
        }
        return out; }""")


@pytest.mark.parametrize("topo,n,shotname", [("dgx1", 8, "1_sync_dgx1"),
                                             ("fat-tree", 16, "1_sync_fattree"),
                                             ("tpu-torus", 8, "1_sync_torus")])
def test_topologies_are_readable(server, screen, topo, n, shotname):
    """The logical view beside (1920 px) or above (1024 px) the physical one; in neither do
    labels pile up, titles fit, and a crowded step names its faded channels in the legend."""
    open_page(screen, f"{server}/gradient_sync?alg=ring&topo={topo}&n={n}&size=6&step=1", 6)
    for size in each_size(screen):
        boxes = {}
        for key in ("logical", "topology"):
            chart = screen.locator(f".st-key-{key} {PLOT}")
            scroll_into_view(chart)
            assert _overlaps(chart) == []
            title = chart.locator(".gtitle")
            assert title.is_visible() and in_viewport(screen, title), title.text_content()
            arrows = chart.locator(".scatterlayer .trace").filter(has=screen.locator("path.point"))
            assert arrows.count()
            boxes[key] = chart.bounding_box()
        side_by_side = boxes["logical"]["y"] == boxes["topology"]["y"]
        assert side_by_side == (size == "1920x1080")
        physical = screen.locator(f".st-key-topology {PLOT}")
        legend = physical.locator(".legendtext").all_text_contents()
        assert "reduce (add)" in legend and "devices" in legend
        if topo != "tpu-torus":                     # dgx1 and the fat-tree run several rings
            assert "reduce (add), other channels" in legend
            assert visible(screen, "channel shown")
        scroll_into_view(physical)
        shot(screen, shotname)


def test_values_table_and_size_slider(server, screen):
    open_page(screen, f"{server}/gradient_sync?alg=ring&topo=nvswitch&n=4&size=6&step=1", 6)
    assert visible(screen, "Values this step changed")
    table = screen.locator("[data-testid='stDataFrame']")
    scroll_into_view(table)
    assert table.is_visible()
    shot(screen, "1_sync_values")
    open_page(screen, f"{server}/gradient_sync?alg=ring&topo=fat-tree&n=64&size=18", 6)
    assert visible(screen, "65,536 float32 elements per replica")
    assert visible(screen, "2^16 = 65,536")

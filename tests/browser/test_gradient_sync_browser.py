"""Gradient sync in Chromium at 1024x768 and (resized) 1920x1080: the bare link, torus grid,
readable labels, one arrow per transfer, the values this step changed, the player, a size
slider within what runs."""

from __future__ import annotations

import re

import pytest

from tests.browser.browser_helpers import (
    LOAD_TIMEOUT,
    PLOT,
    click,
    each_size,
    in_viewport,
    open_page,
    reads_cleanly,
    run_finished,
    scroll_into_view,
    shot,
    visible,
)
from tests.browser.conftest import WIDE


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


def _title(tab):
    return tab.locator(f"{PLOT} .gtitle").first.text_content()


def _wait_title(tab, test):
    """Wait until the first chart's title passes ``test`` (JavaScript on its text ``t``);
    while Streamlit re-renders the chart is briefly absent, which counts as not yet (not as
    an error). Polled by a timer, as open_page's wait: under load animation frames are few.
    Bounded as a page load: playing to the end is six script runs, and at load 10 on two
    cores (-n 2) those took more than 30 s."""
    tab.wait_for_function(
        f"(t => {test})(document.querySelector('{PLOT} .gtitle')?.textContent ?? '')",
        timeout=LOAD_TIMEOUT, polling=100)


def _step_of(title) -> int:
    """The step a chart title shows (0 before the first step)."""
    found = re.search(r"step (\d+) of", title)
    return int(found[1]) if found else 0


# Click the pause button where it is now (the button's own click: React's handler, as a
# person's click); true once clicked.
_CLICK_PAUSE = """() => {
  const pause = [...document.querySelectorAll('button')].find(
      b => b.innerText.trim() === '■ pause' && !b.disabled);
  if (!pause) return false;
  pause.click();
  return true;
}"""


def _paused_before_the_end(tab, last=6, tries=3):
    """Play again (from the first step), pause at once: the player stops short of the end
    and stays there. The animation moves a step every 0.6 s, so on a loaded machine the end
    can come before the pause lands: then try again, ``tries`` times in all. The pause is
    clicked inside the page the moment the button is there (a poll every animation frame):
    each step re-renders the page, and under load a mouse click, which Playwright aims from
    outside at where the button was, missed the re-rendered button until the run had ended
    (CI-like runs failed all three tries)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for _ in range(tries):
        click(tab, "▶ play")
        try:
            tab.wait_for_function(_CLICK_PAUSE, timeout=10_000, polling="raf")
        except PlaywrightTimeout:                        # the run ended first
            continue
        tab.get_by_role("button", name="▶ play").wait_for(timeout=30_000)
        run_finished(tab)
        paused = _title(tab)
        if _step_of(paused) == last:                     # the end came before the pause
            continue
        tab.wait_for_timeout(1500)                       # playing, it would have moved on
        assert _title(tab) == paused
        assert f"step={_step_of(paused)}" in tab.url
        return
    pytest.fail(f"pause never stopped the player before step {last} in {tries} tries")


def test_direct_link_values_and_player(server, screen):
    """The bare link (ring on 4 GPUs of an NVSwitch, 6 steps) reads cleanly before the first
    step; then at 1024x768: next shows step 1's arrows and the values it changed, next again
    step 2; play moves on by itself from there to the last step and stops there, play again
    and pause stops it short of the end, and the URL keeps the step; first goes back before
    the first step. (Stepping before playing: play runs four steps in real time, not six.)"""
    open_page(screen, f"{server}/gradient_sync", 6, WIDE)
    assert "before the first step" in _title(screen)
    reads_cleanly(screen, "gradient_sync", "Gradient sync: all-reduce step by step")
    shot(screen, "1_sync_step0")
    click(screen, "next ▶")
    _wait_title(screen, "t.includes('step 1 of')")
    assert screen.locator(PLOT).first.locator("path.point").count() > 0  # arrowheads
    assert visible(screen, "Values this step changed")
    table = screen.locator("[data-testid='stDataFrame']")
    scroll_into_view(table)
    assert table.is_visible()
    shot(screen, "1_sync_values")
    click(screen, "next ▶")
    _wait_title(screen, "t.includes('step 2 of')")
    run_finished(screen)
    scroll_into_view(screen.locator(PLOT).first)
    shot(screen, "1_sync_step2")
    # played from step 2 it runs to the last step by itself, stops there, offers play again
    # and the URL keeps the step
    click(screen, "▶ play")
    _wait_title(screen, "t.includes('step 6 of 6')")
    screen.get_by_role("button", name="▶ play").wait_for(timeout=30_000)
    run_finished(screen)
    assert "step 6 of 6" in _title(screen) and "step=6" in screen.url
    _paused_before_the_end(screen)
    click(screen, "◀◀ first")
    _wait_title(screen, "t.includes('before the first step')")


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


def test_size_slider_stops_at_what_runs(server, screen):
    """64 GPUs: a link asking 2^18 elements per replica gets the largest size that runs."""
    open_page(screen, f"{server}/gradient_sync?alg=ring&topo=fat-tree&n=64&size=18", 6)
    assert visible(screen, "65,536 float32 elements per replica")
    assert visible(screen, "2^16 = 65,536")

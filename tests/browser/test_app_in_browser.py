"""Step the gradient-sync and data-sharding players in a tall Chromium window, save
full-page screenshots (every page's direct link: test_every_page_browser)."""

from __future__ import annotations

from tests.browser.browser_helpers import PLOT, click, run_finished
from tests.browser.browser_helpers import open_page as _open
from tests.browser.conftest import SHOTS


def _title(tab, i=0):
    return tab.locator(f"{PLOT} .gtitle").nth(i).text_content()


def _wait_title(tab, text):
    """Wait until the first chart's title holds ``text``; while Streamlit re-renders the
    chart is briefly absent, which counts as not yet (not as an error)."""
    tab.wait_for_function(
        f"(document.querySelector('{PLOT} .gtitle')?.textContent ?? '').includes('{text}')",
        timeout=30_000)


def test_gradient_sync_steps_plays_and_changes_chart(server, tab):
    _open(tab, f"{server}/gradient_sync?alg=ring&n=8&topo=nvswitch&size=6", 5)
    first = _title(tab)
    assert "before the first step" in first
    tab.screenshot(path=str(SHOTS / "1_gradient_sync_step0.png"), full_page=True)
    click(tab, "next ▶")
    _wait_title(tab, "step 1 of")
    assert tab.locator(f"{PLOT}").first.locator("path.point").count() > 0  # arrowheads
    click(tab, "next ▶")
    _wait_title(tab, "step 2 of")
    run_finished(tab)
    tab.screenshot(path=str(SHOTS / "1_gradient_sync_step2.png"), full_page=True)
    click(tab, "▶ play")
    _wait_title(tab, "step 4 of")
    click(tab, "■ pause")
    assert "step=" in tab.url


def test_data_sharding_step_changes_chart(server, tab):
    _open(tab, f"{server}/data_sharding?ds=10&gb=4&rep=3", 3)
    assert "Step 1 of 3" in _title(tab)
    click(tab, "next ▶")
    _wait_title(tab, "Step 2 of 3")
    run_finished(tab)
    tab.screenshot(path=str(SHOTS / "2_data_sharding_step2.png"), full_page=True)

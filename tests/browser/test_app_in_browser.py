"""Open every page of the running app in Chromium, step the animations, save screenshots."""

from __future__ import annotations

import pytest

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


@pytest.mark.parametrize("path,charts,shot", [
    ("data_sharding?ds=10&gb=4&rep=3", 3, "2_data_sharding"),
    ("loss_scaling?rep=4&gb=10", 3, "3_loss_scaling"),
    ("training_timeline?n=4&epochs=1", 4, "4_training_timeline"),
    ("scaling_explorer?topo=nvswitch&n=8", 2, "5_scaling_explorer"),
])
def test_pages_render(server, tab, path, charts, shot):
    _open(tab, f"{server}/{path}", charts)
    tab.screenshot(path=str(SHOTS / f"{shot}.png"), full_page=True)


def test_data_sharding_step_changes_chart(server, tab):
    _open(tab, f"{server}/data_sharding?ds=10&gb=4&rep=3", 3)
    assert "Step 1 of 3" in _title(tab)
    click(tab, "next ▶")
    _wait_title(tab, "Step 2 of 3")
    run_finished(tab)
    tab.screenshot(path=str(SHOTS / "2_data_sharding_step2.png"), full_page=True)

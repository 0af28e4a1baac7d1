"""Open every page of the running app in Chromium, step the animations, save screenshots."""

from __future__ import annotations

import pytest

from tests.browser.conftest import SHOTS

PLOT = ".js-plotly-plot"


def _open(tab, url, charts):
    tab.goto(url)
    tab.wait_for_function(f"document.querySelectorAll('{PLOT}').length >= {charts}",
                          timeout=60_000)
    tab.wait_for_timeout(800)
    assert not tab.locator("[data-testid='stException']").count()


def _title(tab, i=0):
    return tab.locator(f"{PLOT} .gtitle").nth(i).text_content()


def _click(tab, name):
    tab.get_by_role("button", name=name).first.click()


def test_gradient_sync_steps_plays_and_changes_chart(server, tab):
    _open(tab, f"{server}/gradient_sync?alg=ring&n=8&topo=nvswitch&size=6", 5)
    first = _title(tab)
    assert "before the first step" in first
    tab.screenshot(path=str(SHOTS / "1_gradient_sync_step0.png"), full_page=True)
    _click(tab, "next ▶")
    tab.wait_for_function(
        f"document.querySelector('{PLOT} .gtitle').textContent.includes('step 1 of')",
        timeout=30_000)
    assert tab.locator(f"{PLOT}").first.locator("path.point").count() > 0  # arrowheads
    _click(tab, "next ▶")
    tab.wait_for_function(
        f"document.querySelector('{PLOT} .gtitle').textContent.includes('step 2 of')",
        timeout=30_000)
    tab.wait_for_timeout(800)
    tab.screenshot(path=str(SHOTS / "1_gradient_sync_step2.png"), full_page=True)
    _click(tab, "▶ play")
    tab.wait_for_function(
        f"document.querySelector('{PLOT} .gtitle').textContent.includes('step 4 of')",
        timeout=30_000)
    _click(tab, "■ pause")
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
    _click(tab, "next ▶")
    _click_wait = "document.querySelector('.js-plotly-plot .gtitle').textContent"
    tab.wait_for_function(f"{_click_wait}.includes('Step 2 of 3')", timeout=30_000)
    tab.wait_for_timeout(500)
    tab.screenshot(path=str(SHOTS / "2_data_sharding_step2.png"), full_page=True)

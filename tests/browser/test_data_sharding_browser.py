"""Data sharding in Chromium at 1024x768: the bare link, scrub and text agree, FILE, empty."""

from __future__ import annotations

from tests.browser.browser_helpers import (
    PLOT,
    click,
    open_page,
    reads_cleanly,
    run_finished,
    scroll_into_view,
    shot,
    visible,
    wait_text,
)
from tests.browser.conftest import WIDE


def _scrub_value(tab, want):
    thumb = tab.locator("[data-testid='stSlider']").filter(has_text="scrub").locator(
        "[data-testid='stSliderThumbValue']")
    for _ in range(20):                     # the slider re-renders after the text
        if thumb.inner_text() == want:
            break
        tab.wait_for_timeout(250)
    return thumb.inner_text()


def _first_title(tab):
    return tab.locator(f"{PLOT} .gtitle").first.text_content()


def test_direct_link_scrub_and_text_count_alike(server, screen):
    """The bare link (10 elements, global batch 4, 3 replicas) reads cleanly; at 1024x768 the
    first chart, the text and the scrub slider all say step 1, then step 2 after next."""
    open_page(screen, f"{server}/data_sharding", 3, WIDE)
    reads_cleanly(screen, "data_sharding",
                  "Data sharding: global batches into per-replica batches")
    assert "Step 1 of 3" in _first_title(screen)
    wait_text(screen, "Step 1 of 3")
    assert _scrub_value(screen, "1") == "1"
    click(screen, "next ▶")
    wait_text(screen, "Step 2 of 3")
    screen.wait_for_function(
        f"(document.querySelector('{PLOT} .gtitle')?.textContent ?? '').includes('Step 2 of 3')",
        timeout=30_000, polling=100)
    assert _scrub_value(screen, "2") == "2"
    run_finished(screen)
    scroll_into_view(screen.locator(PLOT).first)
    shot(screen, "2_sharding_step2")


def test_file_is_not_offered_off_reads_everything_and_empty_says_so(server, screen):
    """Two workers, policy OFF: the auto-shard choices leave out FILE (a range dataset has no
    files), every worker reads the whole dataset; an empty dataset says so and draws nothing."""
    open_page(screen, f"{server}/data_sharding?ds=8&gb=4&rep=2&wk=2&policy=OFF", 3)
    box = screen.locator("[data-testid='stSelectbox']").filter(has_text="auto-shard")
    box.locator("input").click()
    screen.get_by_role("option").first.wait_for(timeout=10_000)
    options = screen.locator("[role='option']").all_inner_texts()
    assert "DATA" in options and "OFF" in options and "FILE" not in options
    screen.keyboard.press("Escape")
    assert visible(screen, "every worker reads the whole dataset")
    shot(screen, "2_sharding_off")
    screen.goto(f"{server}/data_sharding?ds=0")
    assert visible(screen, "The dataset yields no batch: 0 elements (an empty dataset)")
    assert not screen.locator(PLOT).count()
    shot(screen, "2_sharding_empty")

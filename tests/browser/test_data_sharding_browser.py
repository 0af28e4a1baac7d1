"""Data sharding in Chromium at 1024x768: scrub and text agree, FILE, empty."""

from __future__ import annotations

from tests.browser.browser_helpers import (
    PLOT,
    click,
    open_page,
    scroll_into_view,
    shot,
    visible,
    wait_text,
)


def _scrub_value(tab, want):
    thumb = tab.locator("[data-testid='stSlider']").filter(has_text="scrub").locator(
        "[data-testid='stSliderThumbValue']")
    for _ in range(20):                     # the slider re-renders after the text
        if thumb.inner_text() == want:
            break
        tab.wait_for_timeout(250)
    return thumb.inner_text()


def test_scrub_and_text_count_alike(server, screen):
    open_page(screen, f"{server}/data_sharding?ds=10&gb=4&rep=3", 3)
    wait_text(screen, "Step 1 of 3")
    assert _scrub_value(screen, "1") == "1"
    click(screen, "next ▶")
    wait_text(screen, "Step 2 of 3")
    assert _scrub_value(screen, "2") == "2"
    scroll_into_view(screen.locator(PLOT).first)
    shot(screen, "2_sharding_step2")


def test_file_is_not_offered_and_empty_dataset_says_so(server, screen):
    open_page(screen, f"{server}/data_sharding?ds=10&gb=4&rep=2&wk=2", 3)
    box = screen.locator("[data-testid='stSelectbox']").filter(has_text="auto-shard")
    box.locator("input").click()
    screen.get_by_role("option").first.wait_for(timeout=10_000)
    options = screen.locator("[role='option']").all_inner_texts()
    assert "DATA" in options and "OFF" in options and "FILE" not in options
    screen.keyboard.press("Escape")
    screen.goto(f"{server}/data_sharding?ds=0")
    assert visible(screen, "The dataset yields no batch: 0 elements (an empty dataset)")
    assert not screen.locator(PLOT).count()
    shot(screen, "2_sharding_empty")
    open_page(screen, f"{server}/data_sharding?ds=8&gb=4&rep=2&wk=2&policy=OFF", 3)
    assert visible(screen, "every worker reads the whole dataset")
    shot(screen, "2_sharding_off")

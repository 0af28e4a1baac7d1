"""Loss scaling in Chromium at 1024x768: empty replicas, the bare link, the step player."""

from __future__ import annotations

from tests.browser.browser_helpers import (
    PLOT,
    click,
    in_viewport,
    open_page,
    reads_cleanly,
    scroll_into_view,
    shot,
    visible,
    wait_text,
)
from tests.browser.conftest import WIDE


def test_empty_replicas_read_nan_and_empty(server, screen):
    open_page(screen, f"{server}/loss_scaling?rep=8&gb=10", 3)
    metric = screen.locator("[data-testid='stMetric']").filter(has_text="mistake")
    assert metric.locator("[data-testid='stMetricValue']").inner_text().strip() == "nan"
    shot(screen, "3_loss_empty_replicas_top")
    assert visible(screen, "sum = nan")
    assert visible(screen, "replicas 5, 6, 7: mean of 0 examples = nan")
    chart = screen.locator(PLOT).nth(2)
    scroll_into_view(chart)
    assert chart.get_by_text("empty").count() == 3
    assert in_viewport(screen, chart)
    assert visible(screen, "[2, 2, 2, 2, 2, 0, 0, 0]")
    shot(screen, "3_loss_empty_replicas_per_example")


def test_direct_link_and_mixed_precision_player(server, screen):
    """The bare link (40 training steps) reads cleanly; its first step's float16 gradients,
    next, then a direct link to the first outlier step of a 20-step run."""
    open_page(screen, f"{server}/loss_scaling", 3, WIDE)
    reads_cleanly(screen, "loss_scaling", "Loss scaling")
    screen.get_by_role("tab", name="mixed precision").click()
    wait_text(screen, "Training step 1 of 40")
    chart = screen.locator(PLOT).filter(has_text="in float16")
    scroll_into_view(chart)
    for text in ("normal (442)", "subnormal (70)", "underflow to 0 (0)", "overflow to inf (0)",
                 "65504", "-> 0", "-> inf"):
        assert chart.get_by_text(text).count(), text
    assert in_viewport(screen, chart)
    shot(screen, "3_loss_mp_step1")
    click(screen, "next ▶")
    wait_text(screen, "Training step 2 of 40")
    # the URL follows the page (Streamlit writes it after the rerun's last element)
    screen.wait_for_function("location.search.includes('step=1')", timeout=10_000)
    # a direct link to the first outlier step: overflow, skipped, scale halved
    open_page(screen, f"{server}/loss_scaling?mpsteps=20&step=6", 3)
    screen.get_by_role("tab", name="mixed precision").click()
    wait_text(screen, "Training step 7 of 20")
    assert visible(screen, "skip, halve")
    hist = screen.locator(PLOT).filter(has_text="loss scale, steps 1..7")
    scroll_into_view(hist)
    assert hist.get_by_text("step skipped").count()
    assert screen.locator(PLOT).filter(has_text="in float16").get_by_text(
        "overflow to inf (2)").count()
    shot(screen, "3_loss_mp_step7_skipped")

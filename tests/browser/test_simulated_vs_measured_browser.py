"""Simulated vs measured in Chromium at 1024x768: what was measured where
(the host, not a GPU), the untested CuPy path, both charts' legends and titles whole."""

from __future__ import annotations

from tests.browser.browser_helpers import (
    PLOT,
    assert_charts_readable,
    in_viewport,
    open_page,
    scroll_into_view,
    shot,
    visible,
)


def test_where_it_was_measured_and_the_charts(server, screen):
    open_page(screen, f"{server}/simulated_vs_measured?lo=10&hi=16&repeats=1", 2)
    title = screen.locator("h1").first
    assert title.inner_text().strip() == "Simulated vs measured" and in_viewport(screen, title)
    assert visible(screen, "on the host CPU, not on a GPU")
    assert visible(screen, "The NCCL path is untested.")
    shot(screen, "9_measured_top")
    chart = screen.locator(PLOT).filter(has_text="time per call")
    scroll_into_view(chart)
    for name in ("simulated (cost model)", "measured (host)"):
        assert chart.locator(".legendtext", has_text=name).count(), name
    assert screen.locator(PLOT).filter(has_text="How far the model is").locator(
        ".legendtext", has_text="simulated / measured").count()
    assert in_viewport(screen, chart)
    shot(screen, "9_measured_charts")
    assert_charts_readable(screen)
    assert screen.console_errors == [], screen.console_errors

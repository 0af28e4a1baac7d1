"""Parameter servers page in Chromium at 1024x768: the timeline's rows, the
straggler's and the failure's explanations, the staleness legend."""

from __future__ import annotations

from tests.browser.browser_helpers import (
    PLOT,
    in_viewport,
    open_page,
    scroll_into_view,
    shot,
    visible,
)


def test_timeline_straggler_and_failure(server, screen):
    open_page(screen, f"{server}/parameter_server?steps=18&slow=5&fail=1", 3)
    assert visible(screen, "Worker 2 is 5x slower")
    assert visible(screen, "Worker 0 failed")
    chart = screen.locator(PLOT).first
    scroll_into_view(chart)
    for name in ("step", "pull", "push", "worker failed: rescheduled"):
        assert chart.locator(".legendtext", has_text=name).count(), name
    for row in ("worker 0", "worker 2", "ps 1"):
        assert chart.locator(".ytick", has_text=row).count(), row
    assert in_viewport(screen, chart)
    shot(screen, "6_parameter_server_timeline")
    versions = screen.locator(PLOT).filter(has_text="a read below the line is stale")
    scroll_into_view(versions)
    assert versions.locator(".legendtext", has_text="worker 1 read").count()
    shot(screen, "6_parameter_server_versions")

"""Parameter servers page in Chromium at 1024x768: the bare link, the timeline's rows, the
straggler's and the failure's explanations, the staleness legend."""

from __future__ import annotations

from tests.browser.browser_helpers import (
    PLOT,
    in_viewport,
    open_page,
    reads_cleanly,
    scroll_into_view,
    shot,
    visible,
    wait_text,
)
from tests.browser.conftest import WIDE


def test_direct_link_timeline_straggler_and_failure(server, screen):
    """The bare link (3 workers, the last 3x slower, 2 parameter servers) reads cleanly and
    names the straggler; ticking the failure switch reruns it with worker 0 failing: the
    explanation, the timeline's legend and rows, the versions' legend."""
    open_page(screen, f"{server}/parameter_server", 3, WIDE)
    reads_cleanly(screen, "parameter_server", "Parameter servers: asynchronous training")
    assert visible(screen, "Worker 2 is 3x slower")
    screen.get_by_text("worker 0 fails mid-run (and recovers)").click()
    wait_text(screen, "Worker 0 failed")
    screen.wait_for_function("location.search.includes('fail=1')", timeout=30_000,
                             polling=100)
    assert visible(screen, "Worker 2 is 3x slower")
    chart = screen.locator(PLOT).first
    chart.locator(".legendtext", has_text="worker failed: rescheduled").wait_for(timeout=30_000)
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

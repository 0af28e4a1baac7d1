"""Cluster faults in Chromium at 1024x768: the bare link, the error, the fault in the trace."""

from __future__ import annotations

from tests.browser.browser_helpers import (
    PLOT,
    in_viewport,
    open_page,
    reads_cleanly,
    scroll_into_view,
    shot,
    visible,
)
from tests.browser.conftest import WIDE


def test_direct_link_killed_worker_and_straggler(server, screen):
    """The bare link (its defaults: worker 1 of 3 killed as step 4 begins) reads cleanly and
    shows the error and the fault in the trace; then a straggler."""
    open_page(screen, f"{server}/cluster_faults", 2, WIDE)
    reads_cleanly(screen, "cluster_faults", "Cluster faults")
    assert visible(screen, "UnavailableError")
    assert visible(screen, "restart the whole cluster")
    shot(screen, "6_faults_kill_top")
    chart = screen.locator(PLOT).filter(has_text="Per-worker timeline")
    scroll_into_view(chart)
    for name in ("waiting for the lost task", "fault", "compute", "transfer"):
        assert chart.locator(".legendtext", has_text=name).count(), name
    assert in_viewport(screen, chart)
    shot(screen, "6_faults_kill_timeline")
    open_page(screen, f"{server}/cluster_faults?kind=straggler&workers=2&task=1&factor=4", 2)
    assert visible(screen, "as slow as the slowest worker")
    assert not screen.get_by_text("UnavailableError").count()
    shot(screen, "6_faults_straggler")

"""Training timeline in Chromium at 1024x768: the bare link, steps explained, GPU kinds."""

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


def test_direct_link_steps_and_launch_bound_explained(server, screen):
    """The bare link (MirroredStrategy on 4 GPUs, 2 epochs) reads cleanly and explains its
    steps and why it is launch-bound; then OneDeviceStrategy's steps."""
    open_page(screen, f"{server}/training_timeline", 5, WIDE)
    reads_cleanly(screen, "training_timeline", "Training timeline")
    assert visible(screen, "256 examples make 4 steps per epoch")
    assert visible(screen, "Launch-bound:")
    shot(screen, "4_timeline_top")
    chart = screen.locator(PLOT).filter(has_text="by GPU kind")
    scroll_into_view(chart)
    for kind in ("V100", "A100", "H100"):
        assert chart.locator(".legendtext", has_text=kind).count()
    assert chart.get_by_text("this page's model: 32 wide").count()
    assert in_viewport(screen, chart)
    shot(screen, "4_timeline_gpu_kinds")
    open_page(screen, f"{server}/training_timeline?strategy=OneDeviceStrategy&epochs=1", 4)
    assert visible(screen, "256 examples make 16 steps per epoch")
    assert visible(screen, "GPUs: 1")
    shot(screen, "4_timeline_one_device")

"""A direct link to every page, bare (no query), at 1024x768 and (resized) 1920x1080: the
page loads with no console error but Streamlit's own (conftest.STREAMLIT_OWN), its title
fits the window, every chart's title fits its chart and every legend entry shows."""

from __future__ import annotations

import pytest

from tests.browser.browser_helpers import (
    assert_charts_readable,
    each_size,
    in_viewport,
    open_page,
    shot,
)

# path, charts the page draws with its defaults, its title
PAGES = [("", 0, "simdist: see tf.distribute at work"),
         ("gradient_sync", 6, "Gradient sync: all-reduce step by step"),
         ("data_sharding", 3, "Data sharding: global batches into per-replica batches"),
         ("loss_scaling", 3, "Loss scaling"),
         ("training_timeline", 4, "Training timeline"),
         ("scaling_explorer", 2, "Scaling explorer"),
         ("cluster_faults", 2, "Cluster faults"),
         ("parameter_server", 3, "Parameter servers: asynchronous training"),
         ("tf_function", 2, "tf.function tracing")]


@pytest.mark.parametrize("path,charts,text", PAGES, ids=[p[0] or "home" for p in PAGES])
def test_direct_link_reads_cleanly(server, screen, path, charts, text):
    open_page(screen, f"{server}/{path}", charts)
    for _ in each_size(screen):
        title = screen.locator("h1").first
        title.wait_for(state="visible", timeout=30_000)
        title.scroll_into_view_if_needed()
        assert title.is_visible() and in_viewport(screen, title)
        assert title.inner_text().strip() == text
        shot(screen, f"0_direct_{path or 'home'}")
        assert_charts_readable(screen)
    assert screen.console_errors == [], screen.console_errors

"""tf.function tracing in Chromium at 1024x768: the bare link, print once vs tf.print every
call, a learner's edit that retraces (and TF's warning). The distributed preset's fallback
warning is checked by tests/app/test_tf_function.py (one page load less here)."""

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


def _timeline(screen):
    return screen.locator(PLOT).filter(has_text="What each call of step did")


def test_direct_link_print_once_and_an_edit_that_retraces(server, screen):
    """The bare link (print vs tf.print, 6 calls) reads cleanly at both sizes (its title,
    every chart); at 1024x768 print wrote once, tf.print every call; an edit retraces."""
    open_page(screen, f"{server}/tf_function", 2, WIDE)          # print vs tf.print, 6 calls
    reads_cleanly(screen, "tf_function", "tf.function tracing")
    shot(screen, "8_tracing_top")
    chart = _timeline(screen)
    scroll_into_view(chart)
    for name in ("Python traced (1 of 6 calls)", "print wrote (1 of 6 calls)",
                 "graph ran (6 of 6 calls)", "tf.print wrote (6 of 6 calls)"):
        assert chart.locator(".legendtext", has_text=name).count(), name
    assert in_viewport(screen, chart)
    shot(screen, "8_tracing_timeline")
    assert visible(screen, "tf.print: x = 5")            # the 6th call's value, in the table
    # the learner edits the call: a new shape at every call retraces at every call
    box = screen.get_by_label("call, at i = 0 .. N-1", exact=True)
    box.fill("step(tf.ones([i + 1]))")
    box.press("Enter")
    _timeline(screen).locator(".legendtext", has_text="Python traced (6 of 6 calls)").wait_for(
        timeout=30_000)
    assert visible(screen, "5 out of the last 5 calls to")
    shot(screen, "8_tracing_edited")
    assert screen.console_errors == [], screen.console_errors

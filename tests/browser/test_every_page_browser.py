"""A direct link to every page, bare (no query: the page's defaults), at 1920x1080 and
(resized) 1024x768: the page loads with no console error but Streamlit's own
(conftest.STREAMLIT_OWN), its title fits the window, every chart's title fits its chart and
every legend entry shows (browser_helpers.reads_cleanly).

The home page is checked here; every other page's bare link is the first load of that page's
own browser test, which makes these checks on it before its own (a page load is most of a
browser test's time, so each page is loaded once for both)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.browser.browser_helpers import open_page, reads_cleanly
from tests.browser.conftest import WIDE

HERE = Path(__file__).parent
APP = HERE.parents[1] / "app" / "streamlit_app.py"
# Not loaded bare: its defaults time 3 runs at each of 11 sizes on the host; its own test
# loads a short sweep and checks the title and every chart's readability on it.
NOT_BARE = {"simulated_vs_measured"}


def test_home_direct_link_reads_cleanly(server, screen):
    open_page(screen, f"{server}/", 0, WIDE)
    reads_cleanly(screen, "home", "simdist: see tf.distribute at work")


def test_every_pages_bare_link_is_checked_by_its_own_test():
    """Each page of the app (streamlit_app.PAGES) has a browser test that loads its bare link
    (at 1920x1080) and calls reads_cleanly on it with the page's name."""
    paths = re.findall(r'url_path="(\w+)"', APP.read_text())
    assert len(paths) >= 9, paths
    sources = "\n".join(p.read_text() for p in HERE.glob("test_*_browser.py"))
    for path in set(paths) - NOT_BARE:
        assert re.search(rf'open_page\(screen, f"{{server}}/{path}", \d+, WIDE\)', sources), path
        assert re.search(rf'reads_cleanly\(screen, "{path}",\s+"', sources), path

"""A real browser against a real server: ``simdist app`` on a free port, Debian's Chromium.

Glossary:
  server   -- ``simdist app`` started as a subprocess before Chromium, so both start at once;
              ready when ``/_stcore/health`` says ok; terminated at the end of the session
              (app_server.py: it never outlives the test process).
  browser  -- Playwright driving /usr/bin/chromium (never a downloaded browser).
  shots    -- screenshots land in ``artifacts/screenshots/`` (gitignored).
  console  -- every page records its console errors and uncaught exceptions
              (``page.console_errors``); ``open_page`` asserts there are none but
              ``STREAMLIT_OWN``.
"""

from __future__ import annotations

import re
import time
import urllib.request
from pathlib import Path

import pytest

from tests.browser import app_server

CHROMIUM = "/usr/bin/chromium"
SHOTS = app_server.ROOT / "artifacts" / "screenshots"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run"]

if not Path(CHROMIUM).exists():
    pytest.skip(f"{CHROMIUM} is absent: install Debian's chromium (apt-get install chromium; "
                ".ci/run does) to run the browser tests.", allow_module_level=True)


# Errors Streamlit itself causes and an app cannot avoid: on a direct link to a page
# (``/data_sharding``) the frontend first asks ``/data_sharding/_stcore/health`` and
# ``.../_stcore/host-config``, gets 404 (logged by Chromium as "Failed to load resource"),
# then retries at the root, which answers (streamlit/streamlit#7074, open).
STREAMLIT_OWN = re.compile(r"/[^/]+/_stcore/(health|host-config)$")


@pytest.hookimpl(tryfirst=True)   # before xdist's worker reads the groups into node ids
def pytest_collection_modifyitems(items):
    """Every browser test (one that uses the ``server``) in one xdist group: under
    ``pytest -n`` they run in one worker, sharing its app server and Chromium, instead of
    one of each per worker."""
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents and "server" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("browser"))


def watch_console(page):
    """Record the page's console errors and uncaught exceptions on ``page.console_errors``."""
    page.console_errors = []

    def on_console(msg):
        url = (msg.location or {}).get("url", "")
        if msg.type == "error" and not STREAMLIT_OWN.search(url):
            page.console_errors.append(f"{msg.text} ({url})")

    page.on("console", on_console)
    page.on("pageerror", lambda err: page.console_errors.append(f"uncaught: {err}"))
    return page


@pytest.fixture(scope="session")
def _server_process():
    """``simdist app`` started, not yet waited for: Playwright and Chromium start (``browser``)
    while it boots, instead of after (each a few seconds at the session's start). Stopped at
    the end of the session, or by its keeper if this process ends without finalizers."""
    srv = app_server.start()
    try:
        yield srv
    finally:
        app_server.stop(srv)


@pytest.fixture(scope="session")
def server(_server_process, browser):
    """The app's URL once ``/_stcore/health`` says ok (asked for after the browser started)."""
    srv = _server_process
    deadline = time.time() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{srv.url}/_stcore/health", timeout=2) as r:
                if r.read().strip() == b"ok":
                    return srv.url
        except OSError:
            pass
        if srv.proc.poll() is not None or time.time() > deadline:
            srv.log.seek(0)
            out = srv.log.read().decode(errors="replace") if srv.proc.poll() is not None \
                else "(still running)"
            pytest.fail(f"simdist app did not become healthy: {' '.join(srv.cmd)}\n{out}")
        time.sleep(0.3)


@pytest.fixture(scope="session")
def browser(_server_process):
    """Chromium, launched while the app server boots (``_server_process`` started first)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield b
        b.close()


# 1024x768: a projector, where most pages wrap; 1920x1080: a wide monitor.
SIZES = {"1024x768": (1024, 768), "1920x1080": (1920, 1080)}
PROJECTOR, WIDE = SIZES


def _new_tab(browser):
    w, h = SIZES[PROJECTOR]
    return watch_console(browser.new_page(viewport={"width": w, "height": h},
                                          reduced_motion="reduce"))


@pytest.fixture(scope="session")
def _tab(browser):
    """The one browser tab every test loads its links in (see ``screen``)."""
    tabs = [_new_tab(browser)]
    yield tabs
    tabs[-1].close()


@pytest.fixture
def screen(_tab, browser, server):
    """A page at a real screen size, 1024x768 unless the test loads a bare link at 1920x1080
    first (``open_page(..., WIDE)``, for reads_cleanly): what a person sees without scrolling is
    what these tests assert on; ``screen.size`` names it for shots. ``resize(screen, WIDE)``
    shows the same page at 1920x1080 without loading it again (a page load is most of a
    browser test's time). Tests that click through a page do it at 1024x768, where pages wrap
    and cut first; every page's bare link is also checked at 1920x1080
    (browser_helpers.reads_cleanly, on each page's first load).

    Every test gets the same tab, as a person opening one link after another in one window
    does: a link loaded there is a new document and a new Streamlit session (the frontend
    keeps its session id in the document's memory only; its query parameters seed the
    page's state as on a first visit), while the renderer process and its compiled
    JavaScript stay: a fresh tab's renderer compiled Streamlit's and Plotly's bundles again,
    which made a first page load take about twice the Chromium CPU time of a later one. The
    tab starts each test at 1024x768 with no console error recorded, and leaves it on the
    server's plain ``/_stcore/health`` page, so the test's Streamlit document and its
    session have ended before the next test starts. A tab that crashed or was closed is
    replaced.

    The page prefers reduced motion, as a person who set it in their system does: Streamlit's
    frontend then leaves out its decorative animations (elements fading in, the 750 ms
    opacity pulse while a script runs, smooth tab scrolling), which it otherwise composites
    frame by frame in software here; the same elements end in the same places. A page load
    took about half the Chromium CPU time (9 s instead of 20 s on the data sharding page at
    load 13)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    if _tab[-1].is_closed():
        _tab.append(_new_tab(browser))
    page = _tab[-1]
    w, h = SIZES[PROJECTOR]
    page.set_viewport_size({"width": w, "height": h})
    page.size = PROJECTOR
    page.console_errors = []
    yield page
    if not page.is_closed():
        try:
            page.goto(f"{server}/_stcore/health", timeout=60_000)
        except Exception:                 # a crashed tab: the next test gets a new one
            page.close()

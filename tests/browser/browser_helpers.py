"""What the browser tests do on every page: open a link, wait for charts, look, shoot.

Glossary:
  visible(tab, text) -- the text is on screen after scrolling it into view (Streamlit
                        scrolls inside its own container, so off-screen is not absent).
  shot(tab, name)    -- a viewport screenshot ``artifacts/screenshots/<name>_<size>.png``.
  resize(tab, size)  -- the same page at another screen size, once its charts re-laid out.
  each_size(tab)     -- the page at the size it was loaded at, then resized to the other.
  reads_cleanly(tab) -- a direct link's checks on the page as loaded (at 1920x1080, see
                        open_page): its title fits the window, every chart's titles fit and
                        legends show, at both sizes; then at 1024x768.
"""

from __future__ import annotations

from tests.browser.conftest import PROJECTOR, SHOTS, SIZES

PLOT = ".js-plotly-plot"
# A page load's bound: the first load of a page makes the server import and draw it, and
# under `pytest -n` the other workers' tests share the cores (one took 100 s at load 13)
LOAD_TIMEOUT = 180_000


def open_page(tab, url, charts, size=PROJECTOR):
    """Load ``url`` at screen ``size`` and wait until its script run has drawn ``charts``
    charts at least and finished, with no exception and no console error. A bare link is
    loaded at 1920x1080 (``WIDE``) for reads_cleanly, which checks it there first and then
    resized to 1024x768, where the test goes on: one resize instead of two."""
    if tab.size != size:
        _set_size(tab, size)
    tab.goto(url)
    # polled by a timer: on a loaded machine animation-frame polling of a tall page missed
    # charts that were there
    tab.wait_for_function(f"document.querySelectorAll('{PLOT}').length >= {charts}",
                          timeout=LOAD_TIMEOUT, polling=100)
    run_finished(tab)
    errors = tab.locator("[data-testid='stException']")
    assert not errors.count(), errors.first.inner_text()
    assert tab.console_errors == [], tab.console_errors


# Streamlit's frontend marks its root with the script run's state (its own e2e tests wait
# on it): "notRunning" once the run that drew the page, and any rerun it asked for, ended.
_RUN_FINISHED = ("document.querySelector(\"[data-testid='stApp']\")"
                 "?.dataset.testScriptState === 'notRunning'")


def run_finished(tab, timeout=LOAD_TIMEOUT):
    """Wait until the page's script run has finished (every element of the run is on the
    page, an exception included), then one frame for the browser to paint it."""
    tab.wait_for_function(_RUN_FINISHED, timeout=timeout, polling=100)
    tab.wait_for_timeout(100)


def scroll_into_view(locator, tries=5):
    """Scroll ``locator`` into view. A Streamlit rerun can swap the element for a new one
    between Playwright finding it and scrolling ("not attached to the DOM"): find it again."""
    from playwright.sync_api import Error

    for attempt in range(tries):
        try:
            locator.scroll_into_view_if_needed()
            return
        except Error as e:
            if "not attached" not in str(e) or attempt == tries - 1:
                raise
            locator.page.wait_for_timeout(300)


def wait_text(tab, text, timeout=30_000):
    tab.get_by_text(text).first.wait_for(state="visible", timeout=timeout)


def visible(tab, text, exact=False) -> bool:
    loc = tab.get_by_text(text, exact=exact).first
    loc.wait_for(state="attached", timeout=30_000)
    scroll_into_view(loc)
    return loc.is_visible()


def in_viewport(tab, locator) -> bool:
    """The element lies wholly inside the window (not cut at an edge)."""
    box = locator.bounding_box()
    vp = tab.viewport_size
    return bool(box) and box["x"] >= 0 and box["x"] + box["width"] <= vp["width"] + 1


def shot(tab, name):
    tab.screenshot(path=str(SHOTS / f"{name}_{tab.size}.png"))


# Settled: every chart's SVG is as wide as the chart's box, and no chart's box changed over
# three polls (Streamlit re-renders a stretched chart at its container's new width; Plotly
# then redraws it).
_SETTLED = """() => {
    const sig = [...document.querySelectorAll('{PLOT}')].map(el => {
        const svg = el.querySelector('.main-svg');
        const w = el.getBoundingClientRect().width;
        if (svg && w && Math.abs(Number(svg.getAttribute('width')) - w) > 2) return null;
        return w;
    });
    if (sig.includes(null)) { window.__sizeSig = null; return false; }
    const key = sig.join('|');
    window.__sizeSame = window.__sizeSig === key ? (window.__sizeSame || 0) + 1 : 0;
    window.__sizeSig = key;
    return window.__sizeSame >= 3;
}""".replace("{PLOT}", PLOT)


def resize(tab, size):
    """Show the page at another screen size without loading it again, as a person widening
    the window sees it: Streamlit's columns wrap by CSS and its charts follow their
    container, so once every chart has re-laid out the page is what a fresh load shows."""
    _set_size(tab, size)
    tab.wait_for_function(_SETTLED, timeout=30_000, polling=150)


def _set_size(tab, size):
    """The tab's viewport at screen ``size`` (``tab.size`` names it)."""
    w, h = SIZES[size]
    tab.set_viewport_size({"width": w, "height": h})
    tab.size = size


def each_size(tab):
    """Yield each screen size with ``tab`` shown at it: as loaded, then resized."""
    for size in sorted(SIZES, key=lambda s: s != tab.size):
        if tab.size != size:
            resize(tab, size)
        yield size


def reads_cleanly(tab, name, title_text):
    """What a direct link (``/<page>``, no query: the page's defaults) must show, on the page
    as loaded (``open_page(..., WIDE)``): at 1920x1080 and resized to 1024x768 (or the other
    way round) its title ``title_text`` is whole in the window, every chart's title fits,
    every legend entry shows and no select box or metric cuts its value; no console error
    but Streamlit's own. Shots ``0_direct_<name>_<size>.png``.
    The page is then shown at 1024x768, its title in view, for the caller's own
    checks: each page's own browser test calls this on its first load, so the page is
    loaded once for both."""
    for _ in each_size(tab):
        title = tab.locator("h1").first
        title.wait_for(state="visible", timeout=30_000)
        title.scroll_into_view_if_needed()
        assert title.is_visible() and in_viewport(tab, title)
        assert title.inner_text().strip() == title_text
        shot(tab, f"0_direct_{name}")
        assert_charts_readable(tab)
        cut = _cut_values(tab)
        assert cut == [], f"values cut by their boxes: {cut}"
    assert tab.console_errors == [], tab.console_errors
    if tab.size != PROJECTOR:
        resize(tab, PROJECTOR)
    scroll_into_view(tab.locator("h1").first)


def _cut_values(tab) -> list:
    """Select boxes' shown values and metrics' values that their box cuts (an ellipsis or
    clipped text): [value, full width, box width] each."""
    return tab.evaluate("""() => [...document.querySelectorAll(
            "[data-testid='stSelectbox'] input, [data-testid='stMetricValue'] *")]
        .filter(e => e.checkVisibility() && e.scrollWidth > e.clientWidth + 1)
        .map(e => [e.value || e.textContent, e.scrollWidth, e.clientWidth])""")


def click(tab, name):
    tab.get_by_role("button", name=name).first.click()


# Playwright's own tests, in the page: ``is_visible`` (rendered, visibility visible, a box
# of some size) and ``bounding_box`` (None when the element has no box).
_UNREADABLE = """() => {
    const shows = e => {
        const r = e.getBoundingClientRect();
        return e.checkVisibility() && getComputedStyle(e).visibility === 'visible'
            && r.width > 0 && r.height > 0;
    };
    const out = [];
    for (const chart of document.querySelectorAll('{PLOT}')) {
        if (!chart.checkVisibility()) continue;                    // in a tab not chosen
        const box = chart.getBoundingClientRect();
        for (const title of chart.querySelectorAll('.gtitle, .xtitle, .ytitle')) {
            const text = title.textContent.trim();
            if (!text || !title.getClientRects().length) continue;
            const t = title.getBoundingClientRect();
            if (t.left < box.left - 1 || t.right > box.right + 1)
                out.push(`title cut by its chart: ${text}`);
            if (t.left < 0 || t.right > window.innerWidth + 1)
                out.push(`title cut by the window: ${text}`);
        }
        for (const entry of chart.querySelectorAll('.legendtext'))
            if (!shows(entry) || !entry.textContent.trim())
                out.push(`legend entry hidden or empty: '${entry.textContent}'`);
    }
    return out;
}""".replace("{PLOT}", PLOT)


def assert_charts_readable(tab):
    """Every chart on the page (but those in a tab not chosen): its title and axis titles lie
    inside the chart and the window (not cut), and every legend entry shows. Looked at in
    one call into the page, where an element's place does not depend on the scrolling (the
    page scrolls vertically only, and what is cut is cut left or right): a call per title
    and entry, each chart scrolled into view, took 1-3 s a page at each size."""
    problems = tab.evaluate(_UNREADABLE)
    assert problems == [], problems

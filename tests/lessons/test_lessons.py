"""Run every lesson in ``lessons/`` as written: its code cells, in order, in one namespace.

Glossary:
  code cell -- a MyST ```` ```{code-cell} python ```` block; cell options (``:tags: ...``
               lines or a ``---`` YAML block at its top) are not code and are dropped.
  kernel    -- one fresh dict of globals per lesson, so the cells of a lesson see each
               other's names (as in a notebook) and lessons never see each other's.
A failing cell is reported with the lesson's file name, the cell's number and first line,
and the traceback points at the line inside the cell (``<lessons/NAME.md cell K>``).
"""

from __future__ import annotations

import linecache
import re
import traceback
from pathlib import Path

import pytest
from array_api_subset import strict

LESSONS_DIR = Path(__file__).resolve().parents[2] / "lessons"
LESSONS = sorted(LESSONS_DIR.glob("*.md"))

# A code-cell fence: three or more backticks (or tildes), then {code-cell} and a language.
_OPEN = re.compile(r"^(?P<fence>`{3,}|~{3,})\{code-cell\}\s*(?P<lang>\S*)\s*$")


def code_cells(text: str) -> list[str]:
    """The source of every ``{code-cell}`` block of a MyST document, in order."""
    cells, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        m = _OPEN.match(lines[i])
        i += 1
        if not m:
            continue
        fence, body = m.group("fence"), []
        while i < len(lines) and not (lines[i].startswith(fence)
                                      and lines[i].strip() == fence):
            body.append(lines[i])
            i += 1
        if i == len(lines):
            raise ValueError(f"unclosed {{code-cell}} fence ({fence}) in a lesson")
        i += 1  # the closing fence
        cells.append("\n".join(_strip_options(body)))
    return cells


def _strip_options(body: list[str]) -> list[str]:
    """Drop a cell's MyST options: a leading ``---`` YAML block or leading ``:key:`` lines."""
    if body and body[0].strip() == "---":
        end = next((k for k in range(1, len(body)) if body[k].strip() == "---"), None)
        if end is not None:
            return body[end + 1:]
    k = 0
    while k < len(body) and re.match(r"^:[\w-]+:", body[k]):
        k += 1
    return body[k:]


def _id(path: Path) -> str:
    return path.stem


def test_lessons_exist():
    assert LESSONS, f"no lessons found in {LESSONS_DIR}"


@pytest.mark.parametrize("lesson", LESSONS, ids=_id)
def test_lesson_has_code_and_a_check(lesson):
    """A lesson teaches with code that runs, and at least one assert keeps its claims true."""
    cells = code_cells(lesson.read_text(encoding="utf-8"))
    assert cells, f"{lesson.name}: no ```{{code-cell}} python blocks"
    assert any(re.search(r"^\s*assert\b", c, re.M) for c in cells), \
        f"{lesson.name}: no assert in any code cell (numbers in the prose go unchecked)"
    first = cells[0]
    assert "reset_world" in first, \
        f"{lesson.name}: the first code cell must start a clean world (reset_world())"


APP_LINK = re.compile(r"http://localhost:8501/(\w+)\?([^\s>)]+)")
VIEWS_DIR = LESSONS_DIR.parent / "app" / "views"


@pytest.mark.parametrize("lesson", LESSONS, ids=_id)
def test_lesson_states_its_goal_and_links_into_the_app(lesson):
    """A '**Goal:**' line, and app links whose page exists and whose query parameters are
    that page's controls with valid values (a stale link would silently show defaults)."""
    from urllib.parse import parse_qsl

    from simdist.viz import controls

    text = lesson.read_text(encoding="utf-8")
    assert re.search(r"^\*\*Goal:\*\*", text, re.M), f"{lesson.name}: no '**Goal:**' line"
    links = APP_LINK.findall(text)
    assert links, f"{lesson.name}: no link into the app (http://localhost:8501/PAGE?...)"
    for path, query in links:
        view = VIEWS_DIR / f"{path}.py"
        assert view.is_file(), f"{lesson.name}: no app page {path!r}"
        page = re.search(r'^PAGE = "(\w+)"', view.read_text(), re.M).group(1)
        for name, value in parse_qsl(query, strict_parsing=True):
            names = [c.name for c in controls.PAGES[page]]
            assert name in names, f"{lesson.name}: {path} has no control {name!r} ({names})"
            c = controls.control(page, name)
            assert c.encode(c.parse(value)) == value, \
                f"{lesson.name}: {path}?{name}={value} is not a valid value"


def run_cell(src: str, filename: str, namespace: dict) -> None:
    """Execute one cell as Jupyter does: its source registered in linecache, so tracebacks
    show its lines and AutoGraph (inspect.getsource) can read the functions it defines."""
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    exec(compile(src, filename, "exec"), namespace)


# STRICT: marked pytest.mark.array_api by tests/array_api_subset.py.
# Also run on array_api_strict (tests/hardware/test_backends.py). Lesson 03 compares
# collective results with np.array_equal, as a NumPy reader would: the collectives give
# NumPy values back for NumPy inputs on any backend (collectives/api.py _host_in_host_out).
STRICT = ("03_all_reduce_algorithms", "06_one_device_and_central_storage",
          "08_distributed_input", "09_loss_scaling", "10_mixed_precision",
          "13_tpu_strategy_and_bfloat16")


@pytest.mark.parametrize("lesson", strict(LESSONS, [LESSONS_DIR / f"{s}.md" for s in STRICT]),
                         ids=_id)
def test_lesson_runs(lesson):
    """Execute the lesson's code cells in order in one fresh namespace."""
    cells = code_cells(lesson.read_text(encoding="utf-8"))
    namespace = {"__name__": f"lesson_{lesson.stem}"}
    for k, src in enumerate(cells, start=1):
        failure = None
        try:
            run_cell(src, f"<lessons/{lesson.name} cell {k}>", namespace)
        except Exception as exc:  # any error in a cell fails the lesson, named
            failure = "".join(traceback.format_exception(exc))
        if failure is not None:
            head = next((ln for ln in src.splitlines() if ln.strip()), "")
            pytest.fail(f"{lesson.name}: code cell {k} of {len(cells)} failed "
                        f"(cell starts with {head!r}):\n{failure}", pytrace=False)


def test_code_cells_skips_options_and_other_blocks():
    text = "\n".join([
        "```python", "not_a_cell = 1", "```",
        "```{code-cell} python", ":tags: [hide-input]", "a = 1", "```",
        "````{code-cell} python", "---", "tags: [x]", "---", "b = '```'", "````",
        "```{code-cell} ipython3", "c = 3", "```",
    ])
    assert code_cells(text) == ["a = 1", "b = '```'", "c = 3"]


def test_readme_lists_every_lesson():
    readme = (LESSONS_DIR.parent / "README.md").read_text(encoding="utf-8")
    missing = [p.name for p in LESSONS if f"`{p.name}`" not in readme]
    assert not missing, f"README.md's Lessons section does not list {missing}"

"""Every lesson's exercises are graded, solvable, and their graders reject wrong answers.

Glossary:
  exercise cell -- a code cell whose first line is ``# EXERCISE <id>: ...``; the cell after
                   it grades it (simdist.testing.grade / grade_value).
  solutions     -- ``lessons/solutions/<lesson>.py``: ``SOLUTIONS[id]`` is code that replaces
                   the exercise cell and must be graded right; ``WRONG[id]`` lists codes that
                   must be graded wrong. The lesson itself holds only placeholders, graded
                   "not answered yet".
"""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest

from simdist.testing import exercises
from tests.lessons.test_lessons import LESSONS, LESSONS_DIR, code_cells, run_cell

EXERCISE = re.compile(r"^# EXERCISE (\w+):")
SOLUTIONS_DIR = LESSONS_DIR / "solutions"


def _exercise_id(cell: str):
    m = EXERCISE.match(cell.lstrip())
    return m.group(1) if m else None


def _verdicts(src: str, namespace: dict) -> list:
    """Run ``src`` (an exercise cell then its grader) in ``namespace``; the verdicts."""
    del exercises.RESULTS[:]
    run_cell(src, "<exercise>", namespace)
    return list(exercises.RESULTS)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_lesson_has_graded_exercises(lesson):
    text = lesson.read_text(encoding="utf-8")
    assert re.search(r"^## Exercises\s*$", text, re.M), f"{lesson.name}: no '## Exercises'"
    cells = code_cells(text)
    ids = [_exercise_id(c) for c in cells if _exercise_id(c)]
    assert ids, f"{lesson.name}: no '# EXERCISE <id>:' cell"
    assert len(set(ids)) == len(ids), f"{lesson.name}: exercise ids repeat: {ids}"
    assert (SOLUTIONS_DIR / f"{lesson.stem}.py").is_file(), f"no solutions for {lesson.name}"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_solutions_are_right_wrong_answers_are_wrong_placeholders_unanswered(lesson):
    """Run the lesson; at each exercise try the placeholder, every wrong answer, then the
    solution (the one kept, so later cells build on a solved exercise)."""
    sol = runpy.run_path(str(SOLUTIONS_DIR / f"{lesson.stem}.py"))
    solutions, wrong = sol["SOLUTIONS"], sol["WRONG"]
    cells = code_cells(lesson.read_text(encoding="utf-8"))
    namespace = {"__name__": f"lesson_{lesson.stem}"}
    seen, k = [], 0
    while k < len(cells):
        ex = _exercise_id(cells[k])
        if ex is None:
            run_cell(cells[k], f"<{lesson.name} cell {k + 1}>", namespace)
            k += 1
            continue
        grader = cells[k + 1]
        assert _verdicts(cells[k] + "\n" + grader, dict(namespace)) == [(ex, None)], \
            f"{lesson.name} exercise {ex}: the placeholder is not graded 'not answered yet'"
        assert wrong.get(ex), f"{lesson.name} exercise {ex}: no wrong answers to reject"
        for bad in wrong[ex]:
            assert _verdicts(bad + "\n" + grader, dict(namespace)) == [(ex, False)], \
                f"{lesson.name} exercise {ex}: wrong answer graded right:\n{bad}"
        assert _verdicts(solutions[ex] + "\n" + grader, namespace) == [(ex, True)], \
            f"{lesson.name} exercise {ex}: the solution is not graded right"
        seen.append(ex)
        k += 2
    assert sorted(seen) == sorted(solutions), (seen, sorted(solutions))


def test_solutions_live_only_in_the_solutions_folder():
    """No lesson prints a digest's value or imports its solutions."""
    for lesson in LESSONS:
        assert "solutions" not in "".join(code_cells(lesson.read_text(encoding="utf-8"))), \
            lesson.name
    assert Path(SOLUTIONS_DIR).is_dir()

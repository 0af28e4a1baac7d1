"""The tree stays ruff-clean (the configuration lives in pyproject.toml) and simdist holds
no dead code (vulture; names it cannot see used are listed in tests/vulture_whitelist.py)."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing():
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    if not Path(ruff).exists():
        pytest.skip("ruff is not installed (it comes with the test extra)")
    result = subprocess.run([ruff, "check", "--quiet", str(ROOT)], capture_output=True,
                            text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr


# Registration decorators: the function is used through the table it is registered in.
VULTURE_IGNORE_DECORATORS = ("@execute.RegisterGradient,@register_resetter,"
                             "@_world.register_resetter,@*.setter,@*register*")


def lesson_code(folder: Path) -> Path:
    """The lessons' code cells as .py files in ``folder`` (code vulture counts as use)."""
    for md in sorted((ROOT / "lessons").glob("*.md")):
        cells = re.findall(r"```\{code-cell\}[^\n]*\n(.*?)```", md.read_text(), re.S)
        (folder / f"{md.stem}.py").write_text("\n".join(cells))
    return folder


def test_vulture_finds_no_dead_code_in_simdist(tmp_path):
    pytest.importorskip("vulture", reason="vulture comes with the test extra")
    sources = ["simdist", "tests", "app", "benchmarks", "lessons", str(lesson_code(tmp_path))]
    result = subprocess.run(
        [sys.executable, "-m", "vulture", *sources, "--min-confidence", "60",
         "--ignore-decorators", VULTURE_IGNORE_DECORATORS], capture_output=True, text=True,
        cwd=ROOT, timeout=120)
    dead = [line for line in result.stdout.splitlines() if line.startswith("simdist/")]
    assert not dead, ("Dead code (delete it; names used where vulture cannot see go in "
                      "tests/vulture_whitelist.py):\n" + "\n".join(dead))

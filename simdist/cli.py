"""The ``simdist`` command line.

Glossary:
  simdist app  -- start the Streamlit app (``app/streamlit_app.py`` of a checkout, or the
                  copy shipped inside the wheel as ``simdist/_app``); extra arguments go to
                  ``streamlit run`` (e.g. ``--server.port 8600``).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def app_dir() -> Path:
    """Where the app's entry point lives: the wheel's copy first, else the checkout's.

    Raises:
      FileNotFoundError: when neither exists (a broken install).
    """
    here = Path(__file__).resolve().parent
    for folder in (here / "_app", here.parent / "app"):
        if (folder / "streamlit_app.py").is_file():
            return folder
    raise FileNotFoundError(f"simdist's app is missing: looked in {here / '_app'} and "
                            f"{here.parent / 'app'}. Reinstall simdist with its app extra: "
                            "pip install 'simdist[app]'.")


def _run_app(args: list[str]) -> int:
    try:
        import streamlit  # noqa: F401
    except ImportError:
        print("simdist app needs Streamlit: pip install 'simdist[app]'", file=sys.stderr)
        return 1
    cmd = [sys.executable, "-m", "streamlit", "run", str(app_dir() / "streamlit_app.py"),
           "--browser.gatherUsageStats", "false",
           # a lesson's app, not a developer's: no Deploy button, no developer menu
           "--client.toolbarMode", "viewer", *args]
    if os.name == "posix":
        os.execv(sys.executable, cmd)  # keep the pid: whoever started us can stop the app
    import subprocess

    return subprocess.call(cmd)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``simdist`` console script."""
    parser = argparse.ArgumentParser(prog="simdist", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("app", help="start the Streamlit app (extra args go to streamlit run)",
                   add_help=False)
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["app"]:
        return _run_app(argv[1:])
    parser.parse_args(argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())

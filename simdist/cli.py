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


DESCRIPTION = ("simdist: TensorFlow's tf.distribute simulated in NumPy. "
               "Run 'simdist app' to open the teaching app in a browser.")

APP_HELP = """usage: simdist app [STREAMLIT OPTIONS]

Start simdist's Streamlit app and open it in a browser. Its pages:
  1. Gradient sync       an all-reduce step by step on a topology (ring, tree, ...)
  2. Data sharding       how experimental_distribute_dataset splits each global batch
  3. Loss scaling        compute_average_loss; LossScaleOptimizer step by step
  4. Training timeline   model.fit on simulated GPUs, its trace (download for Perfetto)
  5. Scaling explorer    all-reduce time and busbw against size and device count
  6. Cluster faults      a worker killed, a straggler, a slow link: trace and TF's error
  7. Parameter servers   asynchronous training: pulls, pushes, staleness, stragglers
  8. tf.function tracing trace once, then run the graph: print vs tf.print, retracing
  9. Simulated vs measured  a collective's model time beside a real clock's, calibrated
Every control is in the page's URL, so a link opens the exact view.

Options are passed to 'streamlit run', for example:
  --server.port 8600          serve on another port (default 8501)
  --server.address 127.0.0.1  listen on this address only
  --server.headless true      do not open a browser
"""


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``simdist`` console script."""
    from simdist import __version__

    parser = argparse.ArgumentParser(prog="simdist", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"simdist {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    sub.add_parser("app", help="start the Streamlit app (see 'simdist app --help')",
                   add_help=False)
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["app"]:
        if {"-h", "--help"} & set(argv[1:]):
            print(APP_HELP, end="")
            return 0
        return _run_app(argv[1:])
    parser.parse_args(argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())

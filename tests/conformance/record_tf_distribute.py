"""Record what TensorFlow does for every case of ``cases_distribute.py``.

Run with a TensorFlow 2.x (Keras 2) interpreter, not simdist's venv::

    /tmp/tfenv/bin/python tests/conformance/record_tf_distribute.py [--one-process] [CASE ...]

Each case runs in a fresh TensorFlow process, a few at a time (~5 min for all on 2 cores).
A fresh process is needed: TF's logical-device configuration can be set only once per
process, collective instance keys of earlier strategies leak into later ones, and a failed
collective aborts every later one ("Restart your program to reset"). It also mirrors
simdist's fresh world per test. ``--one-process`` runs them all in this process (fast, but
only for quick experiments: results after a failed collective are wrong). The results go to
``tests/conformance/fixtures/tf_distribute.json``:
``{"tensorflow": version, "cases": {name: result}, "recorded_with": {name: version}}``.
Naming cases re-records only those and keeps the rest; ``recorded_with`` names the TF
release of every case recorded with another one than ``tensorflow`` (TF 2.21 with tf-keras
for the later cases; ``TF_USE_LEGACY_KERAS=1`` is set for the children). A case that raises
outside ``expect_error``/``_try`` is recorded as ``{"__crash__": ...}`` and reported: fix
the case, do not commit such a fixture.

Each error's keywords must occur in TF's own message (checked here), so the replay can
require them of simdist's message without copying TF's text.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "fixtures", "tf_distribute.json")


def run_one(name: str) -> dict:
    """Run one case in this process (the child side)."""
    import tensorflow as tf

    sys.path.insert(0, HERE)
    from cases_distribute import CASES

    try:
        result = CASES[name].fn(tf)
    except Exception as e:  # noqa: BLE001
        import traceback

        result = {"__crash__": type(e).__name__, "message": str(e)[:500],
                  "traceback": traceback.format_exc()[-2000:]}
    return {"tensorflow": tf.__version__, "result": result}


def _errors(x, path=""):
    """Yield (path, error dict) for every recorded error in a result."""
    if isinstance(x, dict):
        if "error" in x and "keywords" in x:
            yield path, x
        for k, v in x.items():
            yield from _errors(v, f"{path}/{k}")
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _errors(v, f"{path}/{i}")


def main(argv: list[str]) -> int:
    if argv[:1] == ["--child"]:
        print("@@RESULT@@" + json.dumps(run_one(argv[1])))
        return 0

    sys.path.insert(0, HERE)
    from cases_distribute import CASES

    isolate = "--one-process" not in argv
    argv = [a for a in argv if a != "--one-process"]
    names = argv or list(CASES)
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", CUDA_VISIBLE_DEVICES="",
               TF_USE_LEGACY_KERAS="1")

    def child(name):
        p = subprocess.run([sys.executable, __file__, "--child", name], capture_output=True,
                           text=True, env=env, timeout=300)
        for line in p.stdout.splitlines():
            if line.startswith("@@RESULT@@"):
                return name, json.loads(line[len("@@RESULT@@"):])
        return name, {"tensorflow": None, "result": {"__crash__": "ChildFailed",
                                                     "message": p.stderr[-2000:]}}

    if isolate:
        with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
            done = dict(pool.map(child, names))
    else:
        os.environ.update(TF_CPP_MIN_LOG_LEVEL="3", CUDA_VISIBLE_DEVICES="",
                          TF_USE_LEGACY_KERAS="1")
        done = {name: run_one(name) for name in names}

    fixture = {"tensorflow": None, "cases": {}}
    if os.path.exists(OUT) and argv:
        with open(OUT) as f:
            fixture = json.load(f)
    versions = fixture.pop("recorded_with", {})
    bad = 0
    for name in names:
        rec = done[name]
        fixture["tensorflow"] = fixture["tensorflow"] or rec["tensorflow"]
        versions.pop(name, None)
        if rec["tensorflow"] and rec["tensorflow"] != fixture["tensorflow"]:
            versions[name] = rec["tensorflow"]
        res = rec["result"]
        if isinstance(res, dict) and "__crash__" in res:
            bad += 1
            print(f"CRASH {name}: {res['__crash__']}: {res['message'][:300]}", file=sys.stderr)
            print(res.get("traceback", ""), file=sys.stderr)
        for path, err in _errors(res):
            missing = [k for k in err["keywords"] if k.lower() not in err["message"].lower()]
            if missing:
                bad += 1
                print(f"KEYWORD {name}{path}: {missing} not in {err['message']!r}",
                      file=sys.stderr)
        fixture["cases"][name] = res
    fixture["cases"] = {k: fixture["cases"][k] for k in CASES if k in fixture["cases"]}
    fixture["recorded_with"] = {k: versions[k] for k in fixture["cases"] if k in versions}
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump(fixture, f, indent=1, sort_keys=False)
        f.write("\n")
    print(f"wrote {len(fixture['cases'])} cases (TensorFlow {fixture['tensorflow']}) to {OUT}; "
          f"{bad} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

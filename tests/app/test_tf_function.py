"""Page 8: a tf.function program run N times; what the page shows comes from simdist's run.

The expectations are TensorFlow's (recorded in tests/framework/tf_function.json and lesson
16): print once per trace, tf.print at every call, a trace per Python value or new shape,
the retracing warning at the 5th and 6th trace within 10 calls, both branches of a tensor
``if`` traced, a first trace that creates variables traced twice.
"""

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simdist.viz import tracing
from tests.app.helpers import figures, page


def _run(at):
    return at.session_state["tracing.run"]


def _legend(at):
    return [t["name"] for t in figures(at)[0]["data"]]


def test_print_runs_at_the_trace_tf_print_at_every_call():
    at = page("tracing", preset="print_vs_tf_print", calls=6)
    run = _run(at)
    assert run.count == 1 and [c.traced for c in run.calls] == [True] + [False] * 5
    assert all(c.graph for c in run.calls)
    assert run.calls[0].printed == 'print: tracing with Tensor("x:0", shape=(), dtype=float32)\n'
    assert all(c.printed == "" for c in run.calls[1:])
    assert [c.tf_printed for c in run.calls] == [f"tf.print: x = {i}\n" for i in range(6)]
    assert [c.result for c in run.calls] == [str(2.0 * i + 1.0) for i in range(6)]
    assert [e[0] for e in run.events] == ["trace step"] + ["step (graph)"] * 6
    assert _legend(at) == ["Python traced (1 of 6 calls)", "print wrote (1 of 6 calls)",
                           "graph ran (6 of 6 calls)", "tf.print wrote (6 of 6 calls)"]
    assert not at.warning and not at.error
    assert [m.value for m in at.metric][:2] == ["6", "1"]
    table = at.table[0].value
    assert list(table["tf.print (stderr)"]) == [f"tf.print: x = {i} ⏎" for i in range(6)]
    assert list(table["call (i)"]) == list(range(6))
    assert [t.nodes for t in run.traces] == [[(0, "print_v2"), (0, "mul"), (0, "add")]]


def test_a_python_scalar_retraces_and_tf_warns_at_the_fifth_and_sixth_trace():
    at = page("tracing", preset="python_scalar", calls=8)
    run = _run(at)
    assert run.count == 8 and all(c.traced for c in run.calls)
    assert [e[0] for e in run.events[:4]] == ["trace step", "step (graph)", "retrace step",
                                             "step (graph)"]
    assert run.retracing_calls == [4, 5]           # TF warns at most twice per function
    text = at.warning[0].value
    assert "logged at calls 4, 5" in text and "5 out of the last 5 calls to" in text
    assert len(at.warning) == 1
    assert "retracing warning logged" in [t["name"] for t in figures(at)[1]["data"]]
    assert [t.signature.split(", ")[-1] for t in run.traces[:2]] == [
        "Python value 0.1", "Python value 0.2"]


def test_a_shape_seen_before_reuses_its_graph_and_reduce_retracing_relaxes():
    run = _run(page("tracing", preset="new_shapes", calls=6))
    assert [c.traced for c in run.calls] == [True, True, True, False, False, False]
    assert [c.printed for c in run.calls[:3]] == [f"tracing for shape ({n},)\n"
                                                  for n in (1, 2, 3)]
    run = _run(page("tracing", preset="reduce_retracing", calls=6))
    assert run.count == 2 and [c.traced for c in run.calls] == [True, True] + [False] * 4
    assert run.calls[1].printed == "tracing for shape (None,)\n"
    assert "shape=(None,)" in run.traces[1].signature


def test_autograph_traces_both_branches_into_a_cond():
    at = page("tracing", preset="tensor_if", calls=5)
    run = _run(at)
    assert run.calls[0].printed == ("tracing the positive branch\n"
                                    "tracing the negative branch\n")
    assert [c.result for c in run.calls] == ["2.0", "1.0", "-0.0", "2.0", "4.0"]
    names = [name for _, name in run.traces[0].nodes]
    assert names[:2] == ["Greater", "cond"]   # TF's op names (x > 0: Greater)
    assert run.traces[0].nodes[2:] == [(1, "true branch"), (2, "cond/mul"),   # TF: in
                                       (1, "false branch"), (2, "cond/Neg"),  # its scope
                                       (0, "print_v2")]
    assert "ag__.if_stmt(ag__.ld(x) > 0" in run.code
    assert any("ag__.if_stmt" in c.value for c in at.code)


def test_a_training_step_traces_twice_at_its_first_call_then_trains():
    run = _run(page("tracing", preset="training_step", calls=4))
    assert run.calls[0].printed == "tracing the training step\n" * 2
    assert [c.count for c in run.calls] == [2, 2, 2, 2]
    losses = [float(c.result) for c in run.calls]
    assert losses == sorted(losses, reverse=True) and losses[0] == 2.5
    assert run.calls[1].tf_printed == "loss 0.625 w 2.75\n"


def test_the_distributed_preset_says_when_simdist_falls_back_to_eager():
    at = page("tracing", preset="distributed", calls=3)
    run = _run(at)
    assert [c.result for c in run.calls] == ["0.0", "2.0", "4.0"]
    if all(c.graph for c in run.calls):        # strategy.run traced: once per replica
        assert run.calls[0].printed.count("tracing replica") == 2
        assert all(c.printed == "" for c in run.calls[1:])
    else:                                      # the fallback, said on the page
        assert "simdist fell back to eager execution" in at.warning[0].value
        assert "strategy.run" in at.warning[0].value
        assert all(c.printed.count("tracing replica") == 2 for c in run.calls)
        assert "Python ran eagerly (fallback) (3 of 3 calls)" in _legend(at)


def test_an_edited_program_runs_and_errors_say_where():
    at = page("tracing", preset="print_vs_tf_print", calls=3)
    at.text_input(key="tracing.call.print_vs_tf_print").set_value("step(tf.zeros([i + 1]))")
    at.run()
    assert [c.traced for c in _run(at).calls] == [True, True, True]
    box = at.text_area(key="tracing.src.print_vs_tf_print")
    box.set_value("@tf.function\ndef step(x):\n    return x * undefined_name\n").run()
    assert "NameError" in _run(at).calls[0].error and "program line 3" in _run(at).calls[0].error
    assert "Call 0 raised NameError" in at.error[0].value and len(_run(at).calls) == 1
    box.set_value("def step(x):\n    return x\n").run()
    assert "must define `step` as a tf.function" in at.error[0].value and not figures(at)
    box.set_value("def step(:\n").run()
    assert "SyntaxError" in at.error[0].value


def test_to_code_and_nodes_come_from_the_program_run():
    run = tracing.run_program("@tf.function\ndef step(x):\n    while x < 10.0:\n"
                              "        x = x * 2.0\n    return x\n",
                              "step(tf.constant(1.5 + i))", 2)
    assert [c.result for c in run.calls] == ["12.0", "10.0"]
    assert run.count == 1 and "ag__.while_stmt" in run.code
    labels = [name for _, name in run.traces[0].nodes]
    assert "condition" in labels and "body" in labels


@settings(max_examples=3, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(st.sampled_from(sorted(tracing.PRESETS)), st.integers(1, 12))
def test_every_preset_runs_without_error(preset, calls):
    run = _run(page("tracing", preset=preset, calls=calls))
    assert len(run.calls) == calls and not any(c.error for c in run.calls)


FIXTURE = Path(__file__).parent / "fixtures" / "tf_tracing_presets.json"
RECORDED = json.loads(FIXTURE.read_text())


def _tf_logger_lines(text: str) -> str:
    """stderr without the lines TF's own logging handler wrote (the page shows the logged
    messages apart, from the "tensorflow" logger)."""
    return "".join(line for line in text.splitlines(True)
                   if not line.startswith("WARNING:tensorflow:"))


def _unaddressed(messages):
    return [re.sub(r" at 0x[0-9a-f]+", "", m) for m in messages]


@pytest.mark.parametrize("name", list(tracing.PRESETS))
def test_each_preset_does_at_each_call_what_tf_did(name):
    """record_tf_tracing_presets.py ran the same program under TF 2.21."""
    preset = tracing.PRESETS[name]
    run = tracing.run_program(preset.source, preset.call, RECORDED["calls"])
    got = [{"count": c.count, "stdout": c.printed, "stderr": c.tf_printed,
            "logs": _unaddressed(c.logs), "result": c.result} for c in run.calls]
    want = [{**c, "stderr": _tf_logger_lines(c["stderr"]), "logs": _unaddressed(c["logs"])}
            for c in RECORDED["presets"][name]]
    if name == "distributed":    # TF names the symbolic replica id with its device
        for c in want:
            c["stdout"] = re.sub(r", device=[^)]*\)", ")", c["stdout"])
    assert got == want
    if name != "distributed":    # (simdist lists strategy.reduce's all-reduce as one node)
        assert [list(o) for o in run.traces[0].operations] == RECORDED["operations"][name]


def test_an_endless_program_is_stopped_and_says_so(monkeypatch):
    monkeypatch.setattr(tracing, "TIME_LIMIT", 0.5)
    at = page("tracing", preset="tensor_if", calls=2)
    at.text_area(key="tracing.src.tensor_if").set_value(
        "@tf.function\ndef step(x):\n    while True:\n        try:\n            x = x + 1\n"
        "        except Exception:\n            pass\n").run()
    assert "ProgramTimeout: the program ran longer than 0.5 s" in at.error[0].value
    at.text_area(key="tracing.src.tensor_if").set_value(tracing.PRESETS["tensor_if"].source)
    at.run()                                   # the next run is not hit by a late timeout
    assert not at.error and _run(at).count == 1

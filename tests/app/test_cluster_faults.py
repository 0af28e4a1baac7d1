"""Page 6: a simulated cluster with one injected fault (simdist.faults)."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.app.helpers import colour_meanings, figures, page


def _text(at):
    return " ".join(m.value for m in at.markdown) + " ".join(e.value for e in at.error)


def test_a_killed_worker_stops_training_with_unavailable_in_the_trace():
    at = page("faults", kind="kill", workers=3, task=1, at=4)
    run = at.session_state["faults.run"]
    assert len(run.losses) == 4 and "task:1" in run.error
    assert "UnavailableError" in _text(at) and "restart the whole cluster" in _text(at)
    timeline = figures(at)[0]
    names = {t["name"] for t in timeline["data"]}
    assert {"compute", "transfer", "waiting for the lost task", "fault"} <= names
    waits = [t for t in timeline["data"] if t["name"] == "waiting for the lost task"][0]
    assert set(waits["y"]) == {"worker 0", "worker 2"}  # the survivors wait
    mark = [t for t in timeline["data"] if t["name"] == "fault"][0]
    assert mark["y"] == ["worker 1"]
    assert "KillWorker(task=1, step=4)" in at.code[0].value
    assert len(at.get("download_button")) == 1


def test_a_straggler_stretches_every_step_and_changing_the_fault_reruns():
    at = page("faults", kind="none", workers=2)
    plain = at.session_state["faults.run"].step_times
    at.selectbox(key="faults.kind").set_value("straggler").run()
    run = at.session_state["faults.run"]
    assert run.error is None and len(run.step_times) == len(plain)
    assert all(s > p for s, p in zip(run.step_times[1:], plain[1:]))
    assert "as slow as the slowest worker" in _text(at)
    assert "faults.at" not in [s.key for s in at.slider]  # no kill step for a straggler


def test_one_colour_per_meaning():
    at = page("faults", kind="kill")
    assert all(len(m) == 1 for m in colour_meanings(figures(at)).values())


@settings(max_examples=4, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(st.sampled_from(["kill", "straggler", "slow link", "none"]), st.integers(2, 4),
       st.integers(0, 3), st.integers(0, 7))
def test_any_controls(kind, workers, task, at):
    page("faults", kind=kind, workers=workers, task=task, at=at)

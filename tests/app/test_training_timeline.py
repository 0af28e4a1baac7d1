"""Page 4: training under a strategy; the trace feeds the Gantt chart and the download."""

import json

import pytest

from tests.app.helpers import figures, page


def test_default_training_draws_loss_gantt_and_scaling():
    at = page("timeline", epochs=1)
    run = at.session_state["timeline.run"]
    assert run.num_gpus == 4 and run.steps > 0 and run.sim_time > 0
    figs = figures(at)
    names = {t["name"] for t in figs[2]["data"]}
    assert {"compute", "transfer"} <= names
    assert len({y for t in figs[2]["data"] for y in t["y"]}) >= 4   # one row per GPU
    assert len(at.get("download_button")) == 1
    assert json.loads(json.dumps(run.chrome_trace))["traceEvents"]
    assert len(figs) == 5


def test_downloaded_trace_lists_gpus_in_device_order():
    from simdist.viz import timeline
    from tests.hardware.test_trace_device_order import perfetto_order

    at = page("timeline", epochs=1)
    tracks = perfetto_order(json.loads(timeline.chrome_json(at.session_state["timeline.run"])))
    gpus = [t.rpartition("/")[2] for t in tracks if "GPU" in t]
    assert gpus == [f"device:GPU:{i}" for i in range(4)]


def test_controls_retrain():
    at = page("timeline", epochs=1)
    at.slider(key="timeline.n").set_value(2).run()
    assert at.session_state["timeline.run"].num_gpus == 2
    at.slider(key="timeline.epochs").set_value(2).run()
    assert len(at.session_state["timeline.run"].losses) == 2
    at.selectbox(key="timeline.strategy").set_value("OneDeviceStrategy").run()
    assert at.session_state["timeline.run"].strategy == "OneDeviceStrategy"
    assert len(figures(at)) == 4        # no scaling curve for one device
    at.selectbox(key="timeline.gpu").set_value("A100").run()
    assert not at.exception


def _text(at):
    return " ".join(m.value for m in at.markdown) + " ".join(c.value for c in at.caption)


def test_page_says_why_one_device_runs_more_steps():
    at = page("timeline", epochs=1, n=4)
    assert at.session_state["timeline.run"].steps == 4          # 256 / (16 x 4)
    assert "4 x 16 = 64, and 256 examples make 4 steps per epoch" in _text(at)
    at.selectbox(key="timeline.strategy").set_value("OneDeviceStrategy").run()
    assert at.session_state["timeline.run"].steps == 16         # 256 / 16
    assert "1 x 16 = 16, and 256 examples make 16 steps per epoch" in _text(at)
    assert "timeline.n" not in [s.key for s in at.slider] and "GPUs: 1" in _text(at)


def test_tiny_model_is_launch_bound_and_the_gpu_kind_matters_when_compute_dominates():
    from simdist.viz import timeline_compute as compute

    at = page("timeline", epochs=1)
    run = at.session_state["timeline.run"]
    share = compute.launch_share(run, "V100")
    assert share > 0.9 and f"{share:.2%}" in _text(at)
    kinds = figures(at)[-1]
    times = {t["name"]: t["y"] for t in kinds["data"]}
    # small widths: the same time on every GPU (launches); widest: H100 over 3x a V100
    assert times["V100"][0] == pytest.approx(times["H100"][0], rel=0.01)
    assert times["V100"][-1] > 3 * times["H100"][-1] > 0

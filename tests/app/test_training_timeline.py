"""Page 4: training under a strategy; the trace feeds the Gantt chart and the download."""

import json

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
    assert len(figs) == 4


def test_controls_retrain():
    at = page("timeline", epochs=1)
    at.slider(key="timeline.n").set_value(2).run()
    assert at.session_state["timeline.run"].num_gpus == 2
    at.slider(key="timeline.epochs").set_value(2).run()
    assert len(at.session_state["timeline.run"].losses) == 2
    at.selectbox(key="timeline.strategy").set_value("OneDeviceStrategy").run()
    assert at.session_state["timeline.run"].strategy == "OneDeviceStrategy"
    assert len(figures(at)) == 3        # no scaling curve for one device
    at.selectbox(key="timeline.gpu").set_value("A100").run()
    assert not at.exception

"""Page 3: compute_average_loss vs the classic mistake, and the dynamic loss scale."""

import numpy as np
import pytest

from simdist.viz import loss
from tests.app.helpers import figures, page


def test_correct_loss_is_the_true_mean_and_the_mistake_is_n_times():
    at = page("loss", rep=4, gb=8)
    c = at.session_state["loss.result"]
    assert c.correct_loss == pytest.approx(c.true_loss, rel=1e-5)
    assert c.wrong_loss == pytest.approx(4 * c.true_loss, rel=1e-5)
    assert c.correct_grad == pytest.approx(c.true_grad, rel=1e-5)
    assert c.wrong_grad == pytest.approx(4 * c.true_grad, rel=1e-5)
    assert len(figures(at)) == 5


def test_replicas_and_batch_controls():
    at = page("loss")
    at.slider(key="loss.rep").set_value(2).run()
    c = at.session_state["loss.result"]
    assert c.num_replicas == 2 and len(figures(at)[0]["data"]) == 2
    at.slider(key="loss.gb").set_value(20).run()
    c = at.session_state["loss.result"]
    # the 20 examples are split over the 2 replicas, none lost, and the right way is the mean
    assert sorted(len(p) for p in c.per_replica_losses) == [10, 10]
    x, y = loss.make_batch(20, seed=at.slider(key="loss.seed").value)
    true = float(np.mean((x.astype(np.float64) - y) ** 2))
    assert c.correct_loss == pytest.approx(true, rel=1e-5)
    assert c.wrong_loss == pytest.approx(2 * true, rel=1e-5)
    before = at.session_state["loss.result"].true_loss
    at.slider(key="loss.seed").set_value(3).run()
    assert at.session_state["loss.result"].true_loss != before


def test_loss_scale_controls():
    at = page("loss")
    scales = at.session_state["loss.scales"]
    assert scales[0] == 2.0 ** 15 and len(scales) == 40
    at.select_slider(key="loss.scale").set_value(10).run()
    assert at.session_state["loss.scales"][0] == 2.0 ** 10
    at.slider(key="loss.mpsteps").set_value(10).run()
    assert len(at.session_state["loss.scales"]) == 10
    at.slider(key="loss.growth").set_value(1).run()
    s = at.session_state["loss.scales"]
    assert s[1] == 2 * s[0]            # one finite step is enough to double

"""Page 3: compute_average_loss vs the classic mistake, and LossScaleOptimizer step by step."""

import math

import numpy as np
import pytest

from simdist.viz import loss
from simdist.viz.mixed_precision import FLOAT16_MAX, FLOAT16_NORMAL, FLOAT16_SUBNORMAL
from tests.app.helpers import colour_meanings, figures, page


def _metrics(at):
    return {m.label: m.value for m in at.metric}


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


def test_empty_replicas_agree_in_numbers_bars_and_text():
    at = page("loss", rep=8, gb=10)
    c = at.session_state["loss.result"]
    sizes = [len(p) for p in c.per_replica_losses]
    assert sizes == [2, 2, 2, 2, 2, 0, 0, 0]          # TF's split of 10 over 8 replicas
    # compute_average_loss: an empty replica adds 0, the sum is the true mean; reduce_mean
    # of no examples is nan (as tf.reduce_mean of an empty tensor), so the sum is nan
    assert c.correct_parts[5:] == [0.0, 0.0, 0.0]
    assert c.correct_loss == pytest.approx(c.true_loss, rel=1e-5)
    assert all(math.isnan(v) for v in c.wrong_parts[5:]) and math.isnan(c.wrong_loss)
    assert c.wrong_grad == pytest.approx(5 * c.true_grad, rel=1e-5)
    m = _metrics(at)
    assert m["reduce_mean + SUM (mistake)"] == "nan"
    parts, grads, per_example = figures(at)[:3]
    # the mistake's bar is labelled nan (not a finite sum of the finite parts)
    notes = " ".join(a["text"] for a in parts["layout"]["annotations"])
    assert "sum = nan" in notes and "replicas 5, 6, 7: mean of 0 examples = nan" in notes
    assert "sum = nan" not in notes.replace("sum = nan", "", 1)
    # every replica keeps its column; the empty ones are marked empty
    assert per_example["layout"]["xaxis"]["tickvals"] == list(range(8))
    empties = [a for a in per_example["layout"]["annotations"] if a["text"] == "empty"]
    assert sorted(a["x"] for a in empties) == [5, 6, 7]
    assert "replica 5 (0 examples)" in [t["name"] for t in per_example["data"]]
    caption = " ".join(cap.value for cap in at.caption)
    assert "[2, 2, 2, 2, 2, 0, 0, 0]" in caption and "nan" in caption
    assert "5 times the true one" in caption and "whole batch" not in caption


def test_one_colour_per_meaning():
    at = page("loss", rep=8, gb=10)
    parts, grads, per_example = figures(at)[:3]
    mistake = grads["data"][0]["marker"]["color"][2]
    replica_colours = [t["marker"]["color"] for t in parts["data"]]
    assert mistake not in replica_colours and grads["data"][0]["marker"]["color"][1] \
        not in replica_colours
    assert replica_colours == [t["marker"]["color"] for t in per_example["data"]]


@pytest.mark.array_api  # also on array_api_strict: float16 values are host arrays there
def test_mixed_precision_steps_through_a_real_loss_scale_optimizer_run():
    at = page("loss", scale=15, growth=5, mpsteps=20)
    run = at.session_state["loss.mp"]
    assert len(run) == 20 and run[0].scale == 2.0 ** 15
    for prev, s in zip(run, run[1:]):
        assert s.scale == prev.next_scale        # the scale a step leaves is the next one's
    for s in run:
        # LossScaleOptimizer's rule: inf -> skip, halve, counter 0; 5 good -> double
        assert s.finite == bool(np.all(np.isfinite(s.scaled_grads)))
        assert s.applied == s.finite
        if not s.finite:
            assert s.next_scale == s.scale / 2 and s.counter == 0
        elif s.next_scale == 2 * s.scale:
            assert s.counter == 0
        else:
            assert s.next_scale == s.scale and 1 <= s.counter < 5
        # unscaled = float16 scaled gradient / scale, in float32
        ok = np.isfinite(s.scaled_grads)
        np.testing.assert_allclose(s.unscaled[ok], s.scaled_grads[ok].astype(np.float32)
                                   / np.float32(s.scale), rtol=1e-6)
    assert any(not s.applied for s in run) and any(s.next_scale > s.scale for s in run)


@pytest.mark.array_api  # also on array_api_strict: float16 values are host arrays there
def test_float16_classes_match_float16_range():
    at = page("loss", scale=0, mpsteps=5)       # scale 1: small gradients vanish
    s = at.session_state["loss.mpstep"]
    a = np.abs(s.exact)
    n = s.counts()
    assert n["underflow to 0"] == int(((s.scaled_grads == 0) & (a > 0)).sum()) > 0
    assert n["underflow to 0"] >= int((a < FLOAT16_SUBNORMAL / 2).sum())
    assert n["normal"] == int((np.abs(s.scaled_grads.astype(float)) >= FLOAT16_NORMAL).sum())
    at = page("loss", scale=24, mpsteps=10)      # 2^24 / 512 * outliers > 65504
    run = at.session_state["loss.mp"]
    s = next(s for s in run if not s.applied)
    assert s.counts()["overflow to inf"] == int((np.abs(s.exact) > FLOAT16_MAX).sum()) > 0
    assert run[s.step].scale == s.scale / 2


def test_player_moves_through_training_steps_and_the_url_keeps_the_step():
    at = page("loss", mpsteps=10, step=6)
    s = at.session_state["loss.mpstep"]
    assert s.step == 7 and at.query_params["step"] == "6"
    hist = figures(at)[3]
    assert list(hist["data"][0]["x"]) == [1, 2, 3, 4, 5, 6, 7]   # history up to this step
    at.button(key="loss.next").click().run()
    assert at.session_state["loss.mpstep"].step == 8
    at.button(key="loss.first").click().run()
    assert at.session_state["loss.mpstep"].step == 1
    assert _metrics(at)["decision"] == "apply" and _metrics(at)["loss scale"] == "2^15"


def test_data_seed_of_first_tab_does_not_change_the_second_tab():
    at = page("loss", mpsteps=10, step=3)
    before = at.session_state["loss.mpstep"].exact.copy()
    at.slider(key="loss.seed").set_value(7).run()
    np.testing.assert_array_equal(at.session_state["loss.mpstep"].exact, before)
    at.slider(key="loss.mpseed").set_value(7).run()
    assert not np.array_equal(at.session_state["loss.mpstep"].exact, before)


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


def test_every_colour_means_one_thing_on_the_page():
    at = page("loss", rep=8, gb=10, step=6)
    meanings = colour_meanings(figures(at))
    assert {m for ms in meanings.values() for m in ms} >= {"replica 0", "overflow to inf",
                                                           "normal"}
    assert all(len(m) == 1 for m in meanings.values()), meanings

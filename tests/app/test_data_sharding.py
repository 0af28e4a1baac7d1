"""Page 2: the data-sharding controls change the split that is drawn."""

import pytest

from simdist.framework import errors
from simdist.viz import sharding
from tests.app.helpers import figures, page


def test_default_split_has_empty_batches_marked():
    at = page("shard")                       # 10 elements, batch 4, 3 replicas
    assert at.session_state["shard.sizes"] == [[2, 2, 0], [2, 2, 0], [1, 1, 0]]
    figs = figures(at)
    assert len(figs) == 3
    assert any("(empty)" in y for y in figs[0]["data"][0]["y"])
    assert "empty batch" in " ".join(m.value for m in at.markdown)
    flow_axis = figs[2]["layout"]["yaxis"]
    assert flow_axis["ticktext"] == ["not read", "0", "1", "2"]   # replica 2's row, empty
    assert flow_axis["range"][1] > 2                               # is drawn all the same


def test_step_buttons_move_through_the_epoch():
    at = page("shard")
    at.button(key="shard.next").click().run()
    at.button(key="shard.next").click().run()
    assert at.session_state["shard.step"] == 2
    assert "Step 3 of 3" in figures(at)[0]["layout"]["title"]["text"]
    assert any("(partial)" in y for y in figures(at)[0]["data"][0]["y"])


def test_each_control_changes_the_plan():
    at = page("shard")
    at.slider(key="shard.ds").set_value(8).run()
    assert at.session_state["shard.sizes"] == [[2, 2, 0], [2, 2, 0]]
    at.slider(key="shard.gb").set_value(6).run()
    assert at.session_state["shard.sizes"] == [[2, 2, 2], [1, 1, 0]]
    at.checkbox(key="shard.drop").check().run()
    assert at.session_state["shard.sizes"] == [[2, 2, 2]]
    at.slider(key="shard.rep").set_value(2).run()
    assert at.session_state["shard.sizes"] == [[3, 3]]
    at.slider(key="shard.wk").set_value(2).run()
    assert len(at.session_state["shard.sizes"][0]) == 2


def test_file_policy_is_not_offered_for_a_source_that_reads_no_files():
    at = page("shard", rep=2, wk=2, policy="FILE")     # a stale link: back to AUTO
    box = at.selectbox(key="shard.policy")
    assert "FILE" not in box.options and box.value == "AUTO" and not at.error
    assert "FILE is not offered here" in box.help
    # what FILE would do on Dataset.range with two workers: TF's NotFoundError
    with pytest.raises(errors.NotFoundError):
        sharding.make_plan(10, 4, 2, 2, False, "FILE")


def test_scrub_slider_and_text_count_steps_alike():
    at = page("shard", step=1)
    assert at.slider(key="shard.scrub").value == 2
    assert at.slider(key="shard.scrub").min == 1 and at.slider(key="shard.scrub").max == 3
    assert "Step 2 of 3" in " ".join(m.value for m in at.markdown)
    at.slider(key="shard.scrub").set_value(3).run()
    assert at.session_state["shard.step"] == 2
    assert "Step 3 of 3" in figures(at)[0]["layout"]["title"]["text"]


def test_an_empty_dataset_says_so():
    at = page("shard", ds=0)
    assert "an empty dataset" in at.warning[0].value and not figures(at)
    at = page("shard", ds=3, gb=4, drop=1)
    assert "drop_remainder=True drops the only, partial batch of 3" in at.warning[0].value


def test_off_policy_repeats_elements_across_workers():
    at = page("shard", ds=8, gb=4, rep=2, wk=2, policy="OFF")
    flow = figures(at)[2]["data"][1]
    assert sorted(flow["x"]) != sorted(set(flow["x"]))     # each worker reads everything
    assert "every worker reads the whole dataset" in at.warning[0].value

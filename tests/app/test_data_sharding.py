"""Page 2: the data-sharding controls change the split that is drawn."""

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


def test_file_policy_with_two_workers_shows_tfs_error():
    at = page("shard", rep=2, wk=2, policy="FILE")
    assert "NotFoundError" in at.error[0].value


def test_off_policy_repeats_elements_across_workers():
    at = page("shard", ds=8, gb=4, rep=2, wk=2, policy="OFF")
    flow = figures(at)[2]["data"][1]
    assert sorted(flow["x"]) != sorted(set(flow["x"]))     # each worker reads everything

"""Page 5: curves from collectives.price; ring and tree cross over."""

from simdist.viz import scaling
from tests.app.helpers import figures, page


def test_curves_for_every_algorithm_and_crossover():
    at = page("scaling")
    figs = figures(at)
    assert len(figs) == 2
    assert len(figs[0]["data"]) == len(at.session_state["scaling.sweep"]) >= 9
    assert "cross at" in " ".join(m.value for m in at.markdown)
    # Times span decades: both axes are logarithmic, or the fast algorithms sit on zero.
    assert [f["layout"]["yaxis"].get("type") for f in figs] == ["log", "log"]


def test_controls_change_the_curves():
    at = page("scaling")
    before = figures(at)[0]["data"][0]["y"]
    at.selectbox(key="scaling.topo").set_value("pcie-tree").run()
    assert figures(at)[0]["data"][0]["y"] != before
    at.slider(key="scaling.n").set_value(16).run()
    assert figures(at)[0]["data"][0]["y"] != before
    at.selectbox(key="scaling.metric").set_value("busbw").run()
    assert "busbw" in figures(at)[0]["layout"]["yaxis"]["title"]["text"]
    assert [f["layout"]["yaxis"]["type"] for f in figures(at)] == ["linear", "linear"]
    at.multiselect(key="scaling.algs").set_value(["ring", "tree"]).run()
    assert len(figures(at)[0]["data"]) == 2
    old = figures(at)[1]["data"][0]["y"]
    at.select_slider(key="scaling.size").set_value(12).run()
    assert figures(at)[1]["data"][0]["y"] != old


def _colours(fig):
    return {t["name"].split(" ")[0]: t["line"]["color"] for t in fig["data"]}


def test_colours_are_fixed_per_algorithm_and_the_selection_is_in_the_url():
    every = _colours(figures(page("scaling"))[0])
    assert len(set(every.values())) == len(every)          # one colour each
    at = page("scaling", algs="tree,ring")
    sel = _colours(figures(at)[0])
    assert list(sel) == ["ring", "tree"] and all(sel[a] == every[a] for a in sel)
    assert at.query_params["algs"] == "ring,tree"
    at.multiselect(key="scaling.algs").set_value(["two_level"]).run()
    assert at.query_params["algs"] == "two_level"
    assert _colours(figures(at)[0])["two_level"] == every["two_level"]


def test_empty_selection_shows_a_message_not_axes():
    at = page("scaling", algs="")
    assert not figures(at)
    assert "No algorithm selected" in at.info[0].value


def test_crossover_line_is_labelled_and_identical_curves_named():
    at = page("scaling", topo="nvswitch", n=8)
    fig = figures(at)[0]
    cross = at.session_state["scaling.sweep"]
    sizes = scaling.crossovers(cross, "ring", "tree")
    labels = [a["text"] for a in fig["layout"]["annotations"]]
    assert sizes and labels == [f"ring/tree cross: {scaling.size_text(b)}" for b in sizes]
    # curves that coincide are named, and drawn with different dashes
    # one NVSwitch node: two_level is one ring; TF's ring (ring_reducer) has the ring's steps
    assert scaling.identical(cross) == [("ring", "ring_reducer"), ("ring", "two_level"),
                                        ("ring_reducer", "two_level")]
    for a, b in scaling.identical(cross):
        assert f"{a} = {b}" in at.caption[0].value
        dash = {t["name"]: t["line"]["dash"] for t in fig["data"]}
        names = scaling.legend_names(cross)   # b named "b (identical to a)" on the chart
        assert names[b].startswith(f"{b} (identical to ")
        assert dash[names[a]] != dash[names[b]]

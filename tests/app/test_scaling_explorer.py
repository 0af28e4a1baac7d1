"""Page 5: curves from collectives.price; ring and tree cross over."""

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

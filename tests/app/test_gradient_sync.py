"""Page 1: every control of the gradient-sync page changes what it should."""

from tests.app.helpers import figures, page, points, traces


def moving_points(fig):
    return sum(points(t) for t in traces(fig, "reduce (add)") + traces(fig, "copy"))


def test_default_view_draws_topology_buffers_costs_and_compare():
    at = page("sync")
    figs = figures(at)
    assert len(figs) == 5
    assert "before the first step" in figs[0]["layout"]["title"]["text"]
    assert moving_points(figs[0]) == 0
    assert at.session_state["sync.ulp"]["elements"] == 1024
    assert at.query_params["alg"] == ["ring"] or at.query_params["alg"] == "ring"


def test_next_back_first_move_the_step_and_redraw():
    at = page("sync")
    before = figures(at)
    at.button(key="sync.next").click().run()
    assert at.session_state["sync.step"] == 1
    after = figures(at)
    assert moving_points(after[0]) > 0                       # transfers drawn on links
    assert after[1]["data"][0]["z"] != before[1]["data"][0]["z"]  # chunks filled in
    assert "step 1 of 6" in after[0]["layout"]["title"]["text"]
    at.button(key="sync.next").click().run()
    at.button(key="sync.back").click().run()
    assert at.session_state["sync.step"] == 1
    at.button(key="sync.first").click().run()
    assert at.session_state["sync.step"] == 0


def test_scrub_slider_and_url_step():
    at = page("sync", step=6)
    assert at.session_state["sync.step"] == 6
    z = figures(at)[1]["data"][0]["z"]
    assert all(v == len(z) == 4 for row in z for v in row)   # every chunk holds all 4 replicas
    at.slider(key="sync.scrub").set_value(2).run()
    assert at.session_state["sync.step"] == 2


def test_algorithm_changes_schedule():
    at = page("sync")
    ring_steps = len(figures(at)[3]["data"][0]["x"])
    at.selectbox(key="sync.alg").set_value("recursive_doubling").run()
    assert len(figures(at)[3]["data"][0]["x"]) == 2 != ring_steps
    at.selectbox(key="sync.alg").set_value("NcclAllReduce").run()
    assert not at.exception


def test_device_count_changes_buffer_rows():
    at = page("sync", n=8)
    assert len(figures(at)[1]["data"][0]["y"]) == 8
    at.slider(key="sync.n").set_value(3).run()
    assert len(figures(at)[1]["data"][0]["y"]) == 3


def test_topology_preset_and_url():
    at = page("sync", topo="pcie-tree", n=4, alg="tree")
    assert "pcie-tree" in figures(at)[0]["layout"]["title"]["text"]
    assert at.session_state["sync.alg"] == "tree"
    at.selectbox(key="sync.topo").set_value("dgx1").run()
    assert "dgx1" in figures(at)[0]["layout"]["title"]["text"].lower()


def test_size_changes_bytes_and_compare_shows_ulps():
    at = page("sync", size=4)
    assert at.session_state["sync.ulp"]["elements"] == 16
    at.select_slider(key="sync.size").set_value(12).run()
    assert at.session_state["sync.ulp"]["elements"] == 4096
    at.selectbox(key="sync.alg2").set_value("ring").run()
    assert at.session_state["sync.ulp"]["max_ulp"] == 0       # same algorithm, same bits
    at.selectbox(key="sync.alg2").set_value("reduce_broadcast").run()
    assert at.session_state["sync.ulp"]["differing"] > 0      # other summation order


def test_bad_url_values_fall_back_to_defaults():
    at = page("sync", n="abc", alg="nope", size=99)
    assert at.session_state["sync.n"] == 4
    assert at.session_state["sync.alg"] == "ring"


def test_inner_nodes_sit_between_spokes_and_labels_point_outward():
    """No switch or host hides a centre-to-device link, and device labels face outward."""
    import math

    from simdist.viz.topology import TOPOLOGIES, cached_layout, sized_topology

    for preset in TOPOLOGIES:
        topo = sized_topology(preset, 8)
        pos = cached_layout(preset, 8)
        inner = [v for v in pos if v not in topo.devices and pos[v] != (0.0, 0.0)]
        spokes = [math.atan2(pos[d][1], pos[d][0]) for d in topo.devices]
        for v in inner:
            a = math.atan2(pos[v][1], pos[v][0])
            gap = min(abs(math.remainder(a - s, 2 * math.pi)) for s in spokes)
            assert gap > 0.05, (preset, v, gap)
    at = page("sync", n=8, topo="nvswitch")
    fig = figures(at)[0]
    devices = traces(fig, "devices")[0]
    for x, y, where in zip(devices["x"], devices["y"], devices["textposition"]):
        if y < -0.5:
            assert where.startswith("bottom"), (x, y, where)
        if y > 0.5:
            assert where.startswith("top"), (x, y, where)
    labels = [a["text"] for a in fig["layout"].get("annotations", [])]
    assert labels and all(a.get("bgcolor") for a in fig["layout"]["annotations"]), labels

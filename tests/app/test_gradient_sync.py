"""Page 1: every control of the gradient-sync page changes what it should."""

import numpy as np
import pytest

from simdist.viz import sync
from tests.app.helpers import figures, page, points, traces

# the page's charts in order: logical, physical, buffers, this step's time, all steps, ULPs
LOGICAL, TOPO, BUF, STEPS = 0, 1, 2, 4


def moving_points(fig):
    return sum(points(t) for t in traces(fig, "reduce (add)") + traces(fig, "copy"))


@pytest.mark.array_api  # also on array_api_strict: values come to the host once
def test_default_view_draws_topology_buffers_costs_and_compare():
    at = page("sync")
    figs = figures(at)
    assert len(figs) == 6
    assert "before the first step" in figs[TOPO]["layout"]["title"]["text"]
    assert moving_points(figs[TOPO]) == 0
    assert at.session_state["sync.ulp"]["elements"] == 1024
    assert at.query_params["alg"] == ["ring"] or at.query_params["alg"] == "ring"


def test_next_back_first_move_the_step_and_redraw():
    at = page("sync")
    before = figures(at)
    at.button(key="sync.next").click().run()
    assert at.session_state["sync.step"] == 1
    after = figures(at)
    assert moving_points(after[TOPO]) > 0                       # transfers drawn on links
    assert after[BUF]["data"][0]["z"] != before[BUF]["data"][0]["z"]  # chunks filled in
    assert "step 1 of 6" in after[TOPO]["layout"]["title"]["text"]
    at.button(key="sync.next").click().run()
    at.button(key="sync.back").click().run()
    assert at.session_state["sync.step"] == 1
    at.button(key="sync.first").click().run()
    assert at.session_state["sync.step"] == 0


def test_scrub_slider_and_url_step():
    at = page("sync", step=6)
    assert at.session_state["sync.step"] == 6
    z = figures(at)[BUF]["data"][0]["z"]
    assert all(v == len(z) == 4 for row in z for v in row)   # every chunk holds all 4 replicas
    at.slider(key="sync.scrub").set_value(2).run()
    assert at.session_state["sync.step"] == 2


def test_algorithm_changes_schedule():
    at = page("sync")
    ring_steps = len(figures(at)[STEPS]["data"][0]["x"])
    at.selectbox(key="sync.alg").set_value("recursive_doubling").run()
    assert len(figures(at)[STEPS]["data"][0]["x"]) == 2 != ring_steps
    at.selectbox(key="sync.alg").set_value("NcclAllReduce").run()
    assert not at.exception


def test_device_count_changes_buffer_rows():
    at = page("sync", n=8)
    assert len(figures(at)[BUF]["data"][0]["y"]) == 8
    at.slider(key="sync.n").set_value(3).run()
    assert len(figures(at)[BUF]["data"][0]["y"]) == 3


def test_topology_preset_and_url():
    at = page("sync", topo="pcie-tree", n=4, alg="tree")
    assert "pcie-tree" in figures(at)[TOPO]["layout"]["title"]["text"]
    assert at.session_state["sync.alg"] == "tree"
    at.selectbox(key="sync.topo").set_value("dgx1").run()
    assert "dgx1" in figures(at)[TOPO]["layout"]["title"]["text"].lower()


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

    from simdist.viz.topology import LAYOUTS, TOPOLOGIES, cached_layout, sized_topology

    for preset in set(TOPOLOGIES) - set(LAYOUTS):     # the circle layout
        topo = sized_topology(preset, 8)
        pos = cached_layout(preset, 8)
        inner = [v for v in pos if v not in topo.devices and pos[v] != (0.0, 0.0)]
        spokes = [math.atan2(pos[d][1], pos[d][0]) for d in topo.devices]
        for v in inner:
            a = math.atan2(pos[v][1], pos[v][0])
            gap = min(abs(math.remainder(a - s, 2 * math.pi)) for s in spokes)
            assert gap > 0.05, (preset, v, gap)
    at = page("sync", n=8, topo="nvswitch")
    fig = figures(at)[TOPO]
    devices = traces(fig, "devices")[0]
    for x, y, where in zip(devices["x"], devices["y"], devices["textposition"]):
        if y < -0.5:
            assert where.startswith("bottom"), (x, y, where)
        if y > 0.5:
            assert where.startswith("top"), (x, y, where)
    labels = [a["text"] for a in fig["layout"].get("annotations", [])]
    assert labels and all(a.get("bgcolor") for a in fig["layout"]["annotations"]), labels


def test_torus_is_drawn_as_a_grid_with_wrap_links_bowed_outside():
    at = page("sync", topo="tpu-torus", n=8, alg="torus_2d")
    fig = figures(at)[TOPO]
    dev = traces(fig, "devices")[0]
    xs, ys = sorted({round(x, 6) for x in dev["x"]}), sorted({round(y, 6) for y in dev["y"]})
    assert len(xs) * len(ys) == 8 and len(xs) >= 2 and len(ys) >= 2   # a 2 x 4 grid
    links = traces(fig, "links")[0]
    pts = [(x, y) for x, y in zip(links["x"], links["y"]) if x is not None]
    # the wrap-around links bow outside the grid instead of running over markers
    outside = [(x, y) for x, y in pts if not (xs[0] - 0.05 <= x <= xs[-1] + 0.05)]
    assert outside and all(ys[0] <= y <= ys[-1] for _, y in outside)


def test_a_multi_hop_transfer_has_one_arrowhead():
    at = page("sync", topo="nvswitch", n=4, alg="ring", step=1)
    fig = figures(at)[TOPO]
    arrows = sum(len(t["x"]) for t in fig["data"] if t.get("name", "").endswith("arrows"))
    run_transfers = 4                                   # ring step 1: each rank sends once
    assert arrows == run_transfers
    assert "4 transfers" in fig["layout"]["title"]["text"]
    hops = [t for t in fig["data"] if t.get("name") == "reduce (add)"][0]
    assert sum(v is None for v in hops["x"]) == 8       # 2 hops each, through the switch


@pytest.mark.array_api  # also on array_api_strict: values come to the host once
def test_values_table_shows_the_chunks_this_step_wrote_highlighted():
    at = page("sync", topo="nvswitch", n=4, alg="ring", size=6, step=1)
    vals = at.session_state["sync.values"]
    run = sync.run_sync("ring", 4, "nvswitch", 64)
    # ring's first step: every rank receives one chunk (16 elements) and adds it
    got = {(t.dst, t.target) for t in run.schedule.steps[0].transfers}
    chunks = sorted(c for _, c in got)
    assert [c for c in vals["frame"] if c != "rank"] == [f"x[{16 * c}] (chunk {c})"
                                                        for c in chunks]
    assert sorted(vals["changed"]) == sorted((r, chunks.index(c) + 1, True) for r, c in got)
    after = sync.values_at(run, 1)
    for t in run.schedule.steps[0].transfers:
        e = 16 * t.target
        # the highlighted value is the sender's element added to the receiver's
        expected = np.float32(run.inputs[t.dst][e]) + np.float32(run.inputs[t.src][e])
        assert vals["frame"][f"x[{e}] (chunk {t.target})"][t.dst] == float(after[t.dst][e]) \
            == float(expected)


def test_size_slider_stops_at_the_largest_size_the_run_uses():
    at = page("sync", n=64, topo="fat-tree")
    slider = at.select_slider(key="sync.size")
    assert slider.options[-1] == "2^16 = 65,536"        # 2^22 elements / 64 devices
    at = page("sync", n=64, topo="fat-tree", size=18)
    assert at.select_slider(key="sync.size").value == 16
    assert "65,536 float32 elements per replica" in at.caption[0].value


def test_every_colour_means_one_thing_on_the_page():
    from tests.app.helpers import colour_meanings

    at = page("sync", step=1)
    meanings = colour_meanings(figures(at))
    assert {"reduce", "latency", "bandwidth", "compute"} <= set().union(*meanings.values())
    assert all(len(m) == 1 for m in meanings.values()), meanings

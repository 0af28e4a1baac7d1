"""Page 1's logical view beside the physical one, and a crowded step made readable: 16 GPUs
on the fat-tree run 4 rings at once (64 transfers a step)."""

import math

from simdist.viz import logical, sync
from tests.app.helpers import figures, page, traces

LOGICAL, TOPO, BUF = 0, 1, 2


def _arrows(fig):
    return sum(len(t["x"]) for t in fig["data"] if t.get("name", "").endswith("arrows"))


def _angle(xy):
    """Clockwise angle from the top, in [0, 2 pi)."""
    return (math.pi / 2 - math.atan2(xy[1], xy[0])) % (2 * math.pi)


def test_logical_view_draws_the_chosen_ring_round_in_its_order():
    run = sync.run_sync("ring", 16, "fat-tree", 64)
    rings = run.schedule.params["rings"]
    assert len(rings) == 4 and rings[0] != sorted(rings[0])    # zig-zags across machines
    at = page("sync", topo="fat-tree", n=16, alg="ring", size=6, step=1)
    fig = figures(at)[LOGICAL]
    assert "ring 1 of 4" in fig["layout"]["title"]["text"]
    assert "16 transfers" in fig["layout"]["title"]["text"]
    dev = traces(fig, "devices")[0]
    where = {int(t): (x, y) for t, x, y in zip(dev["text"], dev["x"], dev["y"])}
    # going round the circle clockwise visits the ranks in ring order
    assert sorted(where, key=lambda r: _angle(where[r])) == rings[0]
    assert _arrows(fig) == 16                         # one arrow per sender this step
    at.selectbox(key="sync.ch").set_value(2).run()
    assert "ring 3 of 4" in figures(at)[LOGICAL]["layout"]["title"]["text"]
    assert at.query_params["ch"] in (["2"], "2")


def test_physical_view_aggregates_links_and_fades_the_other_rings():
    run = sync.run_sync("ring", 16, "fat-tree", 64)
    step = run.schedule.steps[0].transfers
    assert len(step) == 64
    at = page("sync", topo="fat-tree", n=16, alg="ring", size=6, step=1)
    fig = figures(at)[TOPO]
    mine = [t for t in step if t.chunk % 4 == 0]       # ring 1's chunks: 0, 4, 8 ...
    routes = {tuple(run.topology.path(run.nodes[t.src], run.nodes[t.dst])) for t in mine}
    assert _arrows(fig) == len(routes) <= 16
    # each hop is drawn once per kind however many transfers cross it
    drawn = [t for t in fig["data"] if t.get("name", "").startswith("reduce (add)")
             and t.get("mode") == "lines"]
    segments = sum(v is None for t in drawn for v in t["x"])
    per_transfer = sum(len(run.topology.path(run.nodes[t.src], run.nodes[t.dst])) - 1
                       for t in step)
    assert segments < per_transfer
    assert traces(fig, "reduce (add), other channels")      # faded, named in the legend
    faded = {t["line"]["width"] for t in drawn if t["line"]["color"].endswith("59")}
    assert len(faded) > 1                                # a busier link is drawn wider


def test_crowded_buffer_heatmap_shows_the_chosen_rings_chunks():
    at = page("sync", topo="fat-tree", n=16, alg="ring", size=6, step=1)
    heat = figures(at)[BUF]["data"][0]
    assert heat["x"] == [f"c{c}" for c in range(0, 64, 4)]     # 16 of the 64 chunks
    assert "16 chunks of ring 1 of 4" in figures(at)[BUF]["layout"]["title"]["text"]
    small = page("sync", topo="nvswitch", n=4, alg="ring", size=6, step=1)
    assert figures(small)[BUF]["data"][0]["x"] == ["c0", "c1", "c2", "c3"]


def test_other_algorithms_have_one_channel_and_every_rank_placed():
    for alg, shape in (("two_level", "grid"), ("halving_doubling", "circle"),
                       ("parameter_server", "circle")):
        sched = sync.run_sync(alg, 8, "nvswitch", 64).schedule
        (chan,) = logical.channels(sched)
        assert chan.shape == shape and set(chan.pos) == set(range(sched.num_buffers))
        assert len(set(chan.pos.values())) == sched.num_buffers     # no two on one spot
    at = page("sync", topo="nvswitch", n=4, alg="tree", step=1)
    assert at.selectbox(key="sync.ch").options == ["tree 1 of 2", "tree 2 of 2"]


def test_every_labelled_switch_and_host_has_its_own_name():
    for topo, n in (("dgx1", 8), ("fat-tree", 16), ("nvswitch", 8)):
        fig = figures(page("sync", topo=topo, n=n))[TOPO]
        labels = [a["text"] for a in fig["layout"].get("annotations", [])]
        assert labels and len(labels) == len(set(labels)), (topo, labels)

"""simdist.viz.topology: where the gradient-sync page draws each device and switch."""

from simdist.viz.topology import cached_layout, node_of, sized_topology


def test_fat_tree_draws_each_machine_apart_with_the_network_below():
    topo = sized_topology("fat-tree", 16)
    pos = cached_layout("fat-tree", 16)
    spans = {}
    for d in topo.devices:
        spans.setdefault(node_of(d), []).append(pos[d][0])
    (lo0, hi0), (lo1, hi1) = [(min(v), max(v)) for _, v in sorted(spans.items())]
    assert hi0 + 0.15 < lo1                       # machines side by side, a gap between
    shared = [v for v in pos if node_of(v) is None]
    assert shared and all(pos[v][1] < min(pos[d][1] for d in topo.devices) for v in shared)

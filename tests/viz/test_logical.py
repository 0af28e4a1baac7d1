"""simdist.viz.logical: the logical view's channels and links, from the schedule alone."""

from simdist.collectives.algorithms.tree import dtree_parents
from simdist.viz import logical, sync


def test_tree_channels_hang_under_their_roots():
    sched = sync.run_sync("tree", 8, "nvswitch", 64).schedule
    chans = logical.channels(sched)
    assert [c.name for c in chans] == ["tree 1 of 2", "tree 2 of 2"]
    for chan, parents in zip(chans, dtree_parents(8)):
        for r, up in enumerate(parents):
            if up >= 0:                                # a child is drawn below its parent
                assert chan.pos[r][1] < chan.pos[up][1]
        links = logical.logical_links(sched, chan)
        assert links == {tuple(sorted((r, u))) for r, u in enumerate(parents) if u >= 0}

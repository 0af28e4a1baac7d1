"""ULP distances and the histogram bins the gradient-sync page draws them in."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from simdist.viz.sync_figures import ulp_figure
from simdist.viz.ulp import ulp_bins, ulp_distance


def test_ulp_distance_counts_representable_floats():
    one = np.float32(1.0)
    up = np.nextafter(np.nextafter(one, np.float32(2)), np.float32(2))
    assert ulp_distance(np.array([one]), np.array([up]))[0] == 2
    assert ulp_distance(np.array([-0.0], np.float32), np.array([0.0], np.float32))[0] == 0


def _range(label):
    lo, _, hi = label.partition("-")
    return int(lo), int(hi or lo)


@given(st.lists(st.integers(0, 10**7), max_size=200))
def test_bins_cover_every_distance_once_in_doubling_ranges(d):
    labels, counts = ulp_bins(d)
    ranges = [_range(x) for x in labels]
    assert ranges[:3] == [(0, 0), (1, 1), (2, 2)][:len(ranges)]
    for (lo, hi), (lo2, _) in zip(ranges, ranges[1:]):
        assert lo2 == hi + 1 and (lo < 2 or hi == 2 * lo - 2 or hi == lo)
    assert sum(counts) == len(d)
    for (lo, hi), c in zip(ranges, counts):
        assert c == sum(lo <= v <= hi for v in d)
    assert d == [] or ranges[-1][0] <= max(d) <= ranges[-1][1]    # no empty bins past the top


def test_histogram_keeps_a_far_outlier_visible_on_a_log_axis():
    d = [0] * 900 + [1] * 100 + [270]
    fig = ulp_figure(d).to_plotly_json()
    bar = fig["data"][0]
    assert fig["layout"]["yaxis"]["type"] == "log"
    assert bar["x"][-1] == "257-512" and bar["y"][-1] == 1 and len(bar["x"]) == 11
    assert fig["layout"]["yaxis"]["range"][0] < 0            # a count of 1 still shows

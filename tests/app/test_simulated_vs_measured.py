"""Page 9: the cost model's time beside a measured one (collectives.measure), calibrated.

No assertion here depends on how fast this machine is: the measured column is checked for
what it is (positive, one per size, from the engine the page names), the simulated column
against the cost model priced independently for the same schedule and topology.
"""

import dataclasses
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from simdist import collectives
from simdist.viz import measured
from simdist.viz.topology import sized_topology
from tests.app.helpers import figures, page

ROOT = Path(__file__).resolve().parents[2]


def _m(at):
    return at.session_state["measured.m"]


def test_the_model_beside_a_host_measurement_says_where_it_ran():
    at = page("measured", coll="all_reduce", alg="ring", topo="nvswitch", n=4, lo=10, hi=14,
              repeats=1)
    m = _m(at)
    assert [r.size for r in m.rows] == [1024, 4096, 16384]
    topo = sized_topology("nvswitch", 4)
    assert [r.simulated for r in m.rows] == [
        collectives.price("all_reduce", "ring", s, topo, 4, "float32").time
        for s in (1024, 4096, 16384)]
    assert all(r.measured > 0 for r in m.rows)
    fitted = all(r.calibrated is not None for r in m.rows)   # a noisy host table may not fit
    assert m.engine == "simdist" and "NumPy host arrays" in m.where
    assert "on the host CPU, not on a GPU" in at.info[0].value and m.where in at.info[0].value
    assert "The NCCL path is untested" in at.warning[0].value
    time_fig, ratio_fig = figures(at)
    names = [t["name"] for t in time_fig["data"]]
    assert names == ["simulated (cost model)", "measured (host)"] + ["calibrated model"] * fitted
    if not fitted:                             # then the page says why
        assert m.note and m.note in [c.value for c in at.caption]
    assert time_fig["data"][1]["y"] == [r.measured * 1e6 for r in m.rows]
    assert ratio_fig["data"][0]["y"] == [r.simulated / r.measured for r in m.rows]
    assert "collectives.measure('all_reduce', sizes=[1024, 4096, 16384]" in at.code[0].value
    assert fitted == ("link latency" in " ".join(md.value for md in at.markdown))


def test_the_algorithms_offered_follow_the_collective_and_bad_counts_say_why():
    at = page("measured", coll="all_gather", alg="tree", n=3, lo=10, hi=12, repeats=1)
    box = at.selectbox(key="measured.alg")
    assert box.options == ["ring", "doubling"] and box.value == "ring"   # no tree all_gather
    assert [r.size for r in _m(at).rows] == [1020, 4092]    # p = 3 whole float32 parts
    box.set_value("doubling").run()
    assert "power-of-two device count, got 3" in at.error[0].value and not figures(at)


def test_measure_again_measures_once_more():
    at = page("measured", lo=10, hi=12, repeats=1, coll="all_gather", n=2)
    first = _m(at)
    at.button(key="measured.again").click().run()
    assert _m(at) is not first and [r.size for r in _m(at).rows] == [1024, 4096]


def test_a_gpu_measurement_is_named_as_one(monkeypatch):
    """What the page says when NCCL measured (simulated here: no GPU has run the path)."""
    def fake(*args):
        m = collectives.measure("all_gather", [1024, 4096], "ring", num_devices=2,
                                repeats=1, calibrate=False)
        return dataclasses.replace(m, engine="nccl", where="NCCL's all_gather on 2 CUDA GPUs")

    monkeypatch.setattr(measured, "run", fake)
    at = page("measured", coll="all_gather", n=2, lo=10, hi=12, repeats=9)
    assert "That is a GPU measurement" in at.info[0].value
    assert [t["name"] for t in figures(at)[0]["data"]] == ["simulated (cost model)",
                                                          "measured (GPU)"]
    assert "not calibrated" in " ".join(c.value for c in at.caption)
    ratio = figures(at)[1]                      # one line, and still a legend naming it
    assert len(ratio["data"]) == 1 and ratio["layout"]["showlegend"] is True


def test_the_untested_flag_agrees_with_the_readme():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    never = re.search(r"last passed\s+on:\s*never", readme) is not None
    assert never == (measured.NCCL_LAST_PASSED is None)


@given(st.integers(10, 22), st.integers(10, 22), st.sampled_from([4, 8, 12, 28, 32]))
def test_sizes_are_whole_parts_rising_by_four(lo, hi, unit):
    out = measured.sizes(lo, hi, unit)
    assert len(out) >= 2 and out == sorted(set(out))
    assert all(s % unit == 0 and s > 0 for s in out)
    assert 2 ** min(lo, hi) - unit < out[0] <= 2 ** min(lo, hi)
    if lo != hi:
        assert 2 ** max(lo, hi) - unit < out[-1] <= 2 ** max(lo, hi)

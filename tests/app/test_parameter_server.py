"""Page 7: asynchronous parameter-server training drawn from the simulation's own trace."""

from tests.app.helpers import figures, page


def _rows(fig):
    return {y for t in fig["data"] for y in t.get("y", []) if isinstance(y, str)}


def test_default_run_draws_workers_ps_versions_and_staleness():
    at = page("ps", steps=12)
    run = at.session_state["ps.run"]
    assert run.num_workers == 3 and run.num_ps == 2 and len(run.losses) == 12
    figs = figures(at)
    assert len(figs) == 3
    assert {"worker 0", "worker 1", "worker 2", "ps 0", "ps 1"} <= _rows(figs[0])
    assert {t["name"] for t in figs[0]["data"]} >= {"step", "pull", "push"}
    pushes = [e for e in run.events if e["kind"] == "push" and e["var"] == run.var]
    assert figs[1]["data"][0]["y"][-1] == len(pushes)  # the version line ends at N pushes
    assert max(run.staleness) >= 1


def test_a_straggler_and_a_failure_are_explained():
    at = page("ps", steps=18, slow=6, fail=1)
    run = at.session_state["ps.run"]
    text = " ".join(m.value for m in at.markdown)
    assert "Worker 2 is 6x slower" in text
    assert "Worker 0 failed" in text
    assert "worker failed: rescheduled" in {t["name"] for t in figures(at)[0]["data"]}
    done = {w: sum(1 for s in run.steps if s["worker"] == w and s["status"] == "ok")
            for w in range(3)}
    assert done[2] < done[1]


def test_controls_rerun_and_one_worker_is_never_stale():
    at = page("ps", steps=6)
    at.slider(key="ps.workers").set_value(1).run()
    assert not at.exception
    run = at.session_state["ps.run"]
    assert run.num_workers == 1 and max(run.staleness) == 0
    assert "Worker 0 is" not in " ".join(m.value for m in at.markdown)


def test_a_worker_has_one_colour_on_the_versions_and_staleness_charts():
    at = page("ps", steps=18, slow=6, fail=1)
    versions, staleness = figures(at)[1], figures(at)[2]
    read = {t["name"].split(" read")[0]: t["marker"]["color"] for t in versions["data"]
            if t["name"].endswith(" read")}
    bars = {t["name"].split(" (")[0]: t["marker"]["color"] for t in staleness["data"]}
    assert set(read) == set(bars) == {"worker 0", "worker 1", "worker 2"}
    assert read == bars and len(set(bars.values())) == 3

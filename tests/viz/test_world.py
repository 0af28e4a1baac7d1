"""The app's pages share one simulated world (simdist's process-global state) and take it
one run at a time: a page whose run finds the world held by another page's waits, at most
world.WAIT_LIMIT seconds, and then fails with a TimeoutError that says what happened. Each
page kept a lock of its own before, so two pages could reset each other's world mid-run."""

import threading

import pytest

from simdist.viz import (
    faults,
    loss,
    measured,
    mixed_precision,
    ps_timeline,
    timeline,
    tracing,
    world,
)

# Every page run that touches the world, with small arguments.
PAGE_RUNS = {
    "cluster faults": lambda: faults.run(workers=2, steps=2),
    "loss scaling by replicas": lambda: loss.compare_losses(2, 8),
    "simulated vs measured": lambda: measured.run("all_reduce", "ring", "nvlink-ring", 2, 4, 5, 1),
    "mixed precision": lambda: mixed_precision.run_loss_scaling(steps=2),
    "parameter server": lambda: ps_timeline.train(steps=2),
    "training timeline": lambda: timeline.train(num_gpus=2),
    "tf.function": lambda: tracing.run_program("@tf.function\ndef step(x):\n    return x\n",
                                               "step(tf.constant(1.0))", 1),
}


@pytest.fixture
def world_held_elsewhere(monkeypatch):
    """The world held by another thread (another page's run) for the test's length."""
    monkeypatch.setattr(world, "WAIT_LIMIT", 0.05)
    taken, release = threading.Event(), threading.Event()

    def other_page():
        with world.held(timeout=10):
            taken.set()
            release.wait(30)

    other = threading.Thread(target=other_page, daemon=True)
    other.start()
    assert taken.wait(10)
    yield
    release.set()
    other.join(10)


@pytest.mark.parametrize("page", sorted(PAGE_RUNS))
def test_a_page_waits_for_the_world_another_page_holds_and_says_so(page,
                                                                    world_held_elsewhere):
    with pytest.raises(TimeoutError, match="Another page's simulation held simdist's "
                                           "simulated world for more than 0.05 s"):
        PAGE_RUNS[page]()


def test_the_world_is_free_again_after_a_run():
    mixed_precision.run_loss_scaling(steps=2)
    with world.held(timeout=0):   # a zero wait: the run released it
        pass

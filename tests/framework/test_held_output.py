"""held_output: a dataset function's spec probes and eager runs drop only their own
thread's printing; another thread's, at the same time, is written (not lost as under
contextlib.redirect_stdout, which replaces the stream for every thread)."""

import bdb
import contextlib
import io
import sys
import threading

from simdist.framework import held_output

WAIT = 10.0   # seconds: a bound, never reached when the threads run as they should


def _holding(entered, release):
    with held_output.held():
        entered.set()
        print("held")
        with held_output.passed():
            print("passed", file=sys.stderr)
        with held_output.held(everything=True), held_output.passed():
            print("a spec probe's", file=sys.stderr)   # (TF runs nothing for a spec)
        assert release.wait(WAIT)
        print("held", file=sys.stderr)


def test_only_the_holding_threads_output_is_dropped():
    out, err = io.StringIO(), io.StringIO()
    entered = [threading.Event(), threading.Event()]
    release = threading.Event()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        holders = [threading.Thread(target=_holding, args=(e, release))
                   for e in entered]
        for t in holders:
            t.start()
        assert all(e.wait(WAIT) for e in entered)   # both hold now: concurrent probes
        print("other thread")
        release.set()
        for t in holders:
            t.join(WAIT)
        assert not any(t.is_alive() for t in holders)
        restored = (sys.stdout, sys.stderr)
    assert restored == (out, err)   # the last holder put the streams back
    assert out.getvalue() == "other thread\n"
    assert err.getvalue() == "passed\npassed\n"


def test_a_debugged_thread_is_not_held(monkeypatch):
    """``breakpoint()`` in an eagerly run dataset function: pdb's prompts are seen."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), held_output.held(everything=True):
        print("dropped")
        monkeypatch.setattr(sys, "gettrace", lambda: bdb.Bdb().trace_dispatch)
        print("(Pdb) ")
    assert out.getvalue() == "(Pdb) \n"


def test_a_trace_holds_only_its_own_threads_prints():
    """A tf.function's trace prints once, after it; another thread's print during it is
    written then, not taken into the trace's output."""
    import simdist as tf

    printing, printed = threading.Event(), threading.Event()
    seen = []

    def other():
        assert printing.wait(WAIT)
        print("other thread")
        printed.set()

    @tf.function
    def f(x):
        print("traced")
        printing.set()
        assert printed.wait(WAIT)
        seen.append(out.getvalue())   # while the trace runs
        return x + 1

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        t = threading.Thread(target=other)
        t.start()
        assert float(f(tf.constant(1.0))) == 2.0
        t.join(WAIT)
    assert not t.is_alive()
    assert seen == ["other thread\n"]
    assert out.getvalue() == "other thread\ntraced\n"

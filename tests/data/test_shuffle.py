"""shuffle: TF's buffer semantics and seeding."""

from hypothesis import given
from hypothesis import strategies as st

from simdist import data
from simdist.data.shuffling import buffer_shuffle
from simdist.framework.ops.philox_random import PhiloxRandom, SingleSampleAdapter

D = data.Dataset


def order(ds):
    return [int(x) for x in ds.as_numpy_iterator()]


@given(st.integers(0, 60), st.integers(1, 70), st.integers(0, 2**31))
def test_buffer_shuffle_is_a_permutation_with_bounded_displacement(n, buf, seed):
    out = list(buffer_shuffle(range(n), buf, SingleSampleAdapter(PhiloxRandom.from_seeds(seed, 1))))
    assert sorted(out) == list(range(n))
    # element k enters the buffer once k - buf + 1 elements have left, so it cannot come
    # out before position k - buf + 1
    for pos, k in enumerate(out):
        assert pos >= k - buf + 1


def test_buffer_of_one_keeps_the_order():
    assert order(D.range(10).shuffle(1, seed=4)) == list(range(10))


def test_seeded_shuffle_reshuffles_each_iteration_reproducibly():
    ds = D.range(20).shuffle(5, seed=1)
    a, b = order(ds), order(ds)
    assert sorted(a) == list(range(20)) and a != b
    ds2 = D.range(20).shuffle(5, seed=1)
    assert [order(ds2), order(ds2)] == [a, b]


def test_no_reshuffle_repeats_the_first_order():
    ds = D.range(20).shuffle(20, seed=1, reshuffle_each_iteration=False)
    assert order(ds) == order(ds)


def test_global_seed_makes_unseeded_shuffles_reproducible():
    from simdist.framework.ops import random_ops

    random_ops.set_seed(7)
    first = order(D.range(30).shuffle(30))
    random_ops.set_seed(7)
    assert order(D.range(30).shuffle(30)) == first


def test_shuffle_then_repeat_reshuffles_each_epoch():
    out = order(D.range(10).shuffle(10, seed=2).repeat(3))
    epochs = [out[i:i + 10] for i in range(0, 30, 10)]
    assert all(sorted(e) == list(range(10)) for e in epochs)
    assert len({tuple(e) for e in epochs}) > 1


def test_shuffle_of_non_row_source_uses_the_same_rule():
    ds = D.range(12).map(lambda x: x * 2).shuffle(4, seed=3)
    assert sorted(order(ds)) == list(range(0, 24, 2))


def _ring_shuffle(items, buffer_size, words):
    """The buffer shuffle one output at a time on a ring of slots (shuffling.py before its
    drain pass): the reference the drained order must equal."""
    items, ring, start, end, exhausted = iter(items), {}, 0, 0, False
    while True:
        while not exhausted and (buffer_size < 0 or end - start < buffer_size):
            nxt = next(items, None)
            if nxt is None:
                exhausted = True
            else:
                ring[end] = nxt
                end += 1
        if start == end:
            return
        index = start + next(words) % (end - start)
        out = ring.pop(index)
        if index != start:
            ring[index] = ring.pop(start)
        start += 1
        yield out


@given(st.integers(0, 300), st.integers(-1, 320), st.integers(0, 2**32 - 1),
       st.integers(0, 300))
def test_the_drained_order_is_the_ring_orders(n, buf, seed, stop):
    """Once the input is exhausted the rest is drained as one array pass (words drawn at
    once): the same order as one output at a time, however much of it is read, and the
    input is read as lazily (each input read happens at the same output); ``take(n)`` is
    ``n`` calls of ``next``."""
    if buf == 0:
        buf = -1   # the whole input (UNKNOWN_CARDINALITY's buffer)

    def words():
        return SingleSampleAdapter(PhiloxRandom.from_seeds(seed, 7))

    reads, ref_reads = [], []

    def source(log):
        for i in range(n):
            log.append(i)
            yield i

    fast, ref = buffer_shuffle(source(reads), buf, words()), \
        _ring_shuffle(source(ref_reads), buf, words())
    for k in range(stop):   # ``take(1)`` is ``next``
        a = (fast.take(1) or [None])[0] if k % 2 else next(fast, None)
        assert a == next(ref, None) and reads == ref_reads
    rest = []
    while chunk := fast.take(5):   # whole slices once drained
        rest += chunk
    assert rest == list(ref)


@given(st.lists(st.integers(0, 5000), max_size=6), st.integers(0, 2**32 - 1))
def test_take_gives_what_next_gives(counts, seed):
    """``SingleSampleAdapter.take(n)`` is ``n`` calls of ``next``, mixed in any order."""
    a, b = (SingleSampleAdapter(PhiloxRandom.from_seeds(seed, 3)) for _ in range(2))
    for k, n in enumerate(counts):
        if k % 2:
            assert [next(a) for _ in range(n)] == b.take(n)
        else:
            assert a.take(n) == [next(b) for _ in range(n)]
    assert next(a) == next(b)

"""Rank/unrank round trips: exhaustive for n <= 9, random for n = 16 and 20, and unrank against
its definition for every n <= 16."""

import itertools
import math
import random

import numpy as np
import pytest
from numba import njit

from puzzlelib.core.errors import PuzzleError
from puzzlelib.core.hashing import check_rank_size, perm_parity, perm_rank, perm_rank_skip, perm_unrank


@njit
def _round_trip_all(n):
    """For every rank r < n!: unrank, check it is a permutation, rank again. Returns the first
    failing rank or -1."""
    out = np.empty(n, dtype=np.uint8)
    total = 1
    for k in range(2, n + 1):
        total *= k
    for r in range(total):
        parity = perm_unrank(r, n, out)
        seen = 0
        for i in range(n):
            seen |= 1 << out[i]
        if seen != (1 << n) - 1 or perm_rank(out, n) != r or perm_parity(out, n) != parity:
            return r
    return -1


@pytest.mark.parametrize("n", range(1, 10))
def test_round_trip_exhaustive(n):
    assert _round_trip_all(n) == -1


@pytest.mark.parametrize("n", range(1, 8))
def test_rank_is_lexicographic(n):
    # itertools yields permutations in lexicographic order: the k-th must have rank k
    for k, perm in enumerate(itertools.permutations(range(n))):
        assert perm_rank(np.array(perm, dtype=np.uint8), n) == k


@pytest.mark.parametrize("n", [12, 16, 17, 20])
def test_round_trip_random(n):
    rng = random.Random(n)
    out = np.empty(n, dtype=np.uint8)
    for _ in range(2000):
        perm = list(range(n))
        rng.shuffle(perm)
        arr = np.array(perm, dtype=np.uint8)
        r = perm_rank(arr, n)
        assert 0 <= r < math.factorial(n)
        parity = perm_unrank(r, n, out)
        assert out.tolist() == perm
        inversions = sum(perm[i] > perm[j] for i in range(n) for j in range(i + 1, n))
        assert parity == inversions % 2 == perm_parity(arr, n)


def _plain_unrank(r, n):
    """The permutation of rank ``r`` by the definition: digit ``i`` of ``r`` in the factorial
    base picks the ``digit``-th smallest value left."""
    pool, out = list(range(n)), []
    for i in range(n):
        digit, r = divmod(r, math.factorial(n - 1 - i))
        out.append(pool.pop(digit))
    return out


@pytest.mark.parametrize("n", range(1, 17))
def test_unrank_at_the_tables_seams(n):
    # perm_unrank reads the last 7 values from one table (r % 7!), the 4 digits before them
    # from another ((r // 7!) % (11! / 7!)) and divides for the rest: ranks on either side of
    # every seam, and random ones, against the definition
    total = math.factorial(n)
    ranks = {0, total - 1}
    for seam in (math.factorial(7), math.factorial(11), math.factorial(max(n - 1, 1))):
        for k in range(0, total, max(seam, total // 40)):
            ranks.update(x for x in (k - 1, k, k + 1) if 0 <= x < total)
    rng = random.Random(100 + n)
    ranks.update(rng.randrange(total) for _ in range(500))
    out = np.empty(n, dtype=np.uint8)
    for r in sorted(ranks):
        parity = perm_unrank(r, n, out)
        want = _plain_unrank(r, n)
        inversions = sum(want[i] > want[j] for i in range(n) for j in range(i + 1, n))
        assert (out.tolist(), parity) == (want, inversions % 2), r


def test_extreme_ranks():
    out = np.empty(20, dtype=np.uint8)
    perm_unrank(math.factorial(20) - 1, 20, out)
    assert out.tolist() == list(range(19, -1, -1))
    perm_unrank(0, 16, out)
    assert out[:16].tolist() == list(range(16))


def test_rank_skip_leaves_out_a_position():
    seq = np.array([3, 1, 0, 4, 2], dtype=np.uint8)  # skip the 0 at position 2, shift by 1
    expected = perm_rank(np.array([2, 0, 3, 1], dtype=np.uint8), 4)
    assert perm_rank_skip(seq, 5, 2, 1) == expected


def test_rank_of_packed_nibbles_is_the_rank_of_the_array():
    """Every permutation of six tiles with the blank (0) in every place, packed as the sliding
    keys pack them (values 1..6, shifted), and random ones of 15 items: the same rank from the
    integer as from the array."""
    import itertools
    import random

    def packed(seq):
        return sum(int(v) << (4 * i) for i, v in enumerate(seq))

    for perm in itertools.permutations(range(1, 7)):
        for b in range(7):
            seq = np.array(perm[:b] + (0,) + perm[b:], dtype=np.uint8)
            assert perm_rank_skip(packed(seq), 7, b, 1) == perm_rank_skip(seq, 7, b, 1)
    rng = random.Random(7)
    for _ in range(1000):
        seq = np.array(rng.sample(range(15), 15), dtype=np.uint8)
        assert perm_rank_skip(packed(seq), 15, -1, 0) == perm_rank(seq, 15)


def test_too_many_items_is_refused():
    check_rank_size(20)
    with pytest.raises(PuzzleError, match="too many"):
        check_rank_size(21)


# --- multiset permutations ---------------------------------------------------------------------
from puzzlelib.core.hashing import (  # noqa: E402
    multiset_radix,
    multiset_rank,
    multiset_rank_skip_long,
    multiset_tables,
    multiset_unrank,
    multiset_weights,
)


def _ranks(items, counts):
    """Both forms of the multiset rank of ``items`` (classes 0..L-1, no position skipped)."""
    counts = np.array(counts, dtype=np.int64)
    cls = np.arange(len(counts), dtype=np.int64)
    radix, _ = multiset_radix(counts)
    arr = np.array(items, dtype=np.uint8)
    long = multiset_rank_skip_long(arr, len(arr), -1, cls, multiset_weights(radix, counts))
    if len(counts) <= 8 and counts.sum() <= 15:
        shift, update, weights = multiset_tables(cls, counts)
        assert multiset_rank(arr, len(arr), shift, update, weights) == long
    return long


@pytest.mark.parametrize(
    "counts", [(1,), (3,), (1, 1, 1), (2, 1), (1, 2), (3, 2, 1), (2, 2, 2, 2), (1, 1, 1, 1, 1, 3),
               (1, 1, 1, 1, 1, 1, 1)]
)
def test_multiset_round_trip_exhaustive(counts):
    """Every arrangement gets a different rank below k!/prod(m!), and unrank inverts it."""
    items = [c for c, m in enumerate(counts) for _ in range(m)]
    arrangements = sorted(set(itertools.permutations(items)))
    radix, total = multiset_radix(counts)
    assert total == len(arrangements)
    out = np.empty(len(items), dtype=np.uint8)
    ranks = set()
    for a in arrangements:
        r = _ranks(a, counts)
        assert 0 <= r < total
        ranks.add(r)
        multiset_unrank(r, np.array(counts, dtype=np.int64), radix, out)
        assert tuple(out) == a
    assert len(ranks) == total


@pytest.mark.parametrize("counts", [(5, 5, 5), (1, 1, 1, 1, 1, 10), (4, 4, 4, 4, 4, 4), (20, 4)])
def test_multiset_round_trip_random(counts):
    rng = np.random.default_rng(7)
    items = np.array([c for c, m in enumerate(counts) for _ in range(m)], dtype=np.uint8)
    radix, total = multiset_radix(counts)
    out = np.empty(len(items), dtype=np.uint8)
    for _ in range(300):
        rng.shuffle(items)
        r = _ranks(items, counts)
        assert 0 <= r < total
        multiset_unrank(r, np.array(counts, dtype=np.int64), radix, out)
        assert (out == items).all()


def test_document_001_table_sizes():
    """Both of the document's hand-made hashes are special cases: same N."""
    assert 16 * multiset_radix((1, 1, 1, 1, 1, 10))[1] == 16 * 15 * 14 * 13 * 12 * 11
    assert 16 * multiset_radix((5, 5, 5))[1] == 16 * math.comb(15, 5) * math.comb(10, 5)


def test_multiset_distinct_items_give_a_permutation_rank():
    """With every count 1 the rank is a bijection onto 0..k!-1 (a k-permutation rank)."""
    ranks = {_ranks(p, (1,) * 5) for p in itertools.permutations(range(5))}
    assert ranks == set(range(120))


def test_multiset_too_many_items():
    with pytest.raises(PuzzleError, match="too many"):
        multiset_radix((40,))

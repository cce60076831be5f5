"""The task counter that shares tasks among threads as they come free."""

import numba
import numpy as np
from numba import njit, prange

from puzzlelib.search.workshare import new_counter, take, workers


@njit(parallel=True)
def _share(n_tasks, spin):
    taken_by = np.full(n_tasks, -1, dtype=np.int64)
    counter = new_counter()
    for w in prange(workers(n_tasks)):
        while True:
            i = take(counter)
            if i >= n_tasks:
                break
            x = 0.0
            for j in range(spin[i]):  # tasks of very different sizes
                x += np.sqrt(j)
            taken_by[i] = w if x >= 0 else -2
    return taken_by, counter[0]


def test_every_task_is_taken_exactly_once():
    spin = np.zeros(500, dtype=np.int64)
    spin[::37] = 200_000  # a few big tasks among many small ones
    saved = numba.get_num_threads()
    try:
        for threads in sorted({1, min(2, numba.config.NUMBA_NUM_THREADS)}):
            numba.set_num_threads(threads)
            taken_by, count = _share(500, spin)
            assert (taken_by >= 0).all()  # every task ran, by a worker
            assert count == 500 + workers(500)  # one failed take per worker
            assert set(taken_by.tolist()) <= set(range(threads))
        taken_by, count = _share(1, spin)
        assert taken_by.tolist() == [0] and count == 2  # never more workers than tasks
    finally:
        numba.set_num_threads(saved)

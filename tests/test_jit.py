"""The project's njit: parallel kernels run each call on as many threads as
its work pays for, and restore the caller's thread count."""

from __future__ import annotations

import pickle

import numba
import numpy as np
import pytest

from advisor.kernels import _jit
from advisor.kernels._jit import SizedKernel, njit

pytestmark = pytest.mark.threads  # thread counts: on every numba thread


class _FakeDispatcher:
    """Records the thread count a call runs under."""

    def __init__(self, fail=False):
        self.seen = []
        self.fail = fail

        def py_func(seconds):
            """A fake kernel."""

        self.py_func = py_func

    def __call__(self, seconds):
        self.seen.append(numba.get_num_threads())
        if self.fail:
            raise RuntimeError("boom")
        return seconds


def _sized(fail=False, tasks=64):
    return SizedKernel(_FakeDispatcher(fail), lambda seconds: (seconds, tasks))


def test_small_calls_run_on_one_thread_large_ones_on_every_thread():
    limit = numba.get_num_threads()
    kernel = _sized()
    assert kernel(0.001) == 0.001
    assert kernel(100.0) == 100.0
    assert kernel.dispatcher.seen == [1, limit]
    assert numba.get_num_threads() == limit
    # one thread per THREAD_SECONDS of work
    assert kernel.threads(2.5 * _jit.THREAD_SECONDS) == min(2, limit)


def test_no_more_threads_than_independent_tasks():
    kernel = _sized(tasks=1)
    kernel(100.0)
    assert kernel.dispatcher.seen == [1]


def test_the_callers_limit_is_kept_and_restored_after_an_error():
    limit = numba.get_num_threads()
    kernel = _sized(fail=True)
    numba.set_num_threads(1)
    try:
        with pytest.raises(RuntimeError):
            kernel(100.0)  # would use every thread, but the caller allows one
        assert kernel.dispatcher.seen == [1] and numba.get_num_threads() == 1
    finally:
        numba.set_num_threads(limit)
    with pytest.raises(RuntimeError):
        kernel(0.0001)
    assert numba.get_num_threads() == limit


def test_zero_thread_seconds_puts_every_call_on_every_thread(every_thread):
    kernel = _sized()
    kernel(1e-9)
    assert kernel.dispatcher.seen == [numba.get_num_threads()]


def test_parallel_kernels_must_size_their_calls():
    def body(x):
        return x

    with pytest.raises(TypeError, match="needs work="):
        njit(parallel=True)(body)
    with pytest.raises(TypeError, match="parallel kernels only"):
        njit(work=lambda x: (1.0, 1))(body)


def test_the_kernels_work_estimates():
    from advisor.kernels.board.race import RACE_SECONDS, race_replicates
    from advisor.kernels.board.leg import leg_counts_batch

    # a bot's race odds (+-2 points): a few thousand races, one thread
    assert race_replicates.threads(None, None, 32, 83) == 1
    # race odds to +-0.2 points: hundreds of thousands of races, every thread
    many = race_replicates.threads(None, None, 64, 4096)
    assert many == min(numba.get_num_threads(), 64) and 64 * 4096 * RACE_SECONDS > 0.1
    rolls = np.full(100_000, 3, np.int64)
    assert leg_counts_batch.threads(rolls, rolls, rolls) == min(numba.get_num_threads(), 100_000)
    assert leg_counts_batch.threads(rolls[:3], rolls[:3], rolls[:3]) == 1


def test_a_sized_kernel_pickles_by_reference():
    from advisor.kernels.board.race import race_replicates

    assert pickle.loads(pickle.dumps(race_replicates)) is race_replicates
    assert race_replicates.__name__ == "race_replicates" and "replicates" in race_replicates.__doc__

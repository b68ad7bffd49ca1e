"""Random numbers for the samplers: xoshiro256** with SplitMix64 seeding.

Every chunk of work gets its own stream, seeded from ``(seed, chunk)``, so a
result depends on the seed alone, never on how chunks are spread over
threads.
"""

from __future__ import annotations

import numpy as np

from advisor.kernels._jit import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit(inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit
def splitmix64(x):
    """``(next state, output)`` of SplitMix64."""
    x = np.uint64(x) + _GOLDEN
    z = x
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x, z ^ (z >> np.uint64(31))


@njit
def seed_stream(seed, stream, state):
    """Fill ``state`` (uint64[4]) for stream number ``stream`` of ``seed``."""
    x = np.uint64(seed)
    x, a = splitmix64(x)
    x = a ^ (np.uint64(stream) * _GOLDEN)
    for i in range(4):
        x, out = splitmix64(x)
        state[i] = out


@njit(inline="always")
def next_u64(state):
    s0 = state[0]
    s1 = state[1]
    s2 = state[2]
    s3 = state[3]
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3
    return result


@njit(inline="always")
def below(state, n):
    """A uniform integer in ``0..n-1`` (``1 <= n < 2**32``): Lemire's
    multiply-shift with rejection, so exactly uniform."""
    n = np.uint64(n)
    low_mask = np.uint64(0xFFFFFFFF)
    m = (next_u64(state) >> np.uint64(32)) * n
    if (m & low_mask) < n:
        threshold = (np.uint64(1 << 32) - n) % n
        while (m & low_mask) < threshold:
            m = (next_u64(state) >> np.uint64(32)) * n
    return np.int64(m >> np.uint64(32))

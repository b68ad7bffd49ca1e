"""Every kernel compiles once per argument type a command passes it.

Numba compiles a kernel again for every new combination of argument types,
and a constant one kernel passes to another is a type of its own
(``Literal[int](0)``), so a kernel called with ``0`` in one place and with a
variable in another is compiled twice (see advisor/kernels/_jit.py).  After
the warm-up (the calls ``camelup warmup`` makes, which cover every command)
the kernel cache lists every specialization compiled, those of kernels that
only other kernels call included: none may be literal, and a kernel may have
more than one only where :data:`ALLOWED` says why.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba.core import types

from advisor import warm
from advisor.kernels._jit import CACHE_DIR, cached_signatures

#: Kernels that genuinely take more than one argument type: specializations
#: allowed (every other kernel: one).
ALLOWED = {
    # the growing tables of cards.deck.deck_level and cards.exact are
    # 1-D columns, and one of deck_level's is 2-D (the card counts of each
    # entry, one row per entry): one machine code per array type
    "hashing.grow": 2,
}


def _literal(signature) -> bool:
    return any(isinstance(t, types.Literal) for t in signature)


def _all_signatures(folder) -> dict[str, list[tuple]]:
    found = {}
    for name, kernel in warm.kernels().items():
        signatures = cached_signatures(kernel, folder)
        assert signatures is not None, f"numba's cache of {name} cannot be read"
        found[name] = signatures
    return found


@pytest.fixture(scope="module")
def signatures(request):
    """Every kernel's cached specializations after the warm-up: those of
    the session's warm-up (xdist), else of this process's cache, warmed
    here (a few minutes when it is cold)."""
    folder = request.getfixturevalue("warmed_cache")
    if folder is None:
        warm.warmup()
        folder = CACHE_DIR
    return _all_signatures(folder)


def test_the_warm_up_compiles_every_kernel_it_lists(signatures):
    # the listing is not vacuous: every kernel a group calls from Python,
    # and the callees that only other kernels call (the largest, and those
    # once called with constants), are there
    for name in [k for g in warm.GROUPS for k in g.kernels] + [
            "board.leg._walk", "board.leg._new_table", "cards.exact._too_many", "cards.track.move",
            "rng.seed_stream", "cards.turns.mixed_seed"]:
        assert signatures[name], name
    assert sum(map(len, signatures.values())) > 90  # 97 when written


def test_no_kernel_is_compiled_for_a_literal_argument(signatures):
    literal = {name: [s for s in sigs if _literal(s)] for name, sigs in signatures.items()}
    literal = {name: sigs for name, sigs in literal.items() if sigs}
    assert not literal, "pass constants to kernels as np.int64(...)/np.bool_(...): " + "; ".join(
        f"{name}{sig}" for name, sigs in sorted(literal.items()) for sig in sigs)


def test_each_kernel_compiles_once_unless_allowed(signatures):
    extra = {name: sigs for name, sigs in signatures.items() if len(sigs) > ALLOWED.get(name, 1)}
    assert not extra, "kernels compiled more often than ALLOWED: " + "; ".join(
        f"{name} x{len(sigs)}: {', '.join(map(str, sigs))}" for name, sigs in sorted(extra.items()))


def test_allowed_table_names_real_kernels_that_need_it(signatures):
    for name, count in ALLOWED.items():
        assert len(signatures[name]) == count, (name, signatures[name])


def test_a_literal_constant_compiles_a_second_specialization(tmp_path, monkeypatch):
    """What the tests above catch, on two throwaway kernels cached in a
    folder of their own: a bare constant compiles the callee for a literal
    type, ``np.int64(...)`` does not."""
    import numba

    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))  # read when a dispatcher is made

    def add(a, b):
        return a + b

    callee = numba.njit(cache=True)(add)

    def bare(x):
        return callee(x, 0)

    def typed(x):
        return callee(x, np.int64(0)) + callee(x, x)

    assert numba.njit(typed)(3) == 9
    assert [_literal(s) for s in cached_signatures(callee)] == [False]
    assert numba.njit(bare)(3) == 3
    assert sorted(_literal(s) for s in cached_signatures(callee)) == [False, True]

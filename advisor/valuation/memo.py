"""The process-wide memo of the valuation and the seeds drawn from a board.

The bots' valuation (:mod:`advisor.valuation.fast`) is a pure function of
the state: its random draws are seeded from the board (:func:`seed_for`, of
the key :func:`board_key_of` gives), so figures computed once for a board
(the leg's outcomes, the race odds, the tile placements' tables, the races
behind the overall cards, the rolls' orders) are kept in one small
least-recently-used memo (:data:`MEMO`), shared by every valuation in the
process, and a game gives the same moves whether or not the memo is hit.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict

__all__ = ["Memo", "MEMO", "MEMO_SIZE", "seed_for", "board_key_of"]

#: Entries the memo keeps (the least recently used goes first).
MEMO_SIZE = 256


class Memo:
    """A small least-recently-used memo of pure functions of the board."""

    def __init__(self, size: int):
        self.size = size
        self.data: OrderedDict = OrderedDict()

    def get(self, key, compute):
        if key in self.data:
            self.data.move_to_end(key)
            return self.data[key]
        value = compute()
        self.data[key] = value
        if len(self.data) > self.size:
            self.data.popitem(last=False)
        return value


#: The one memo of the process, shared by every valuation.
MEMO = Memo(MEMO_SIZE)


def seed_for(key) -> int:
    """A seed that depends on ``key`` only (same in every process)."""
    return int.from_bytes(hashlib.blake2b(repr(key).encode(), digest_size=8).digest(), "little") >> 1


def board_key_of(pos) -> tuple:
    """The key of ``pos``'s board: its rules' name and its packed encoding
    (track, dice left, rolls left, tiles)."""
    from advisor.rules.encode import encode  # loads the kernels: only when first needed

    enc = encode(pos)
    return (pos.rules.name, int(enc.board), int(enc.dice), int(enc.rolls), enc.tiles.tobytes())


"""The leg's enumeration tree, counted level by level (a "perft" of Camel Up).

:func:`leg_levels` runs the exact leg enumeration of
:mod:`advisor.kernels.board.leg` and reports, beside the rank counts, the size of
its tree for every roll left in the leg: the die sequences played up to that
roll, those in which that roll ends the race, and the distinct states the
rolls lead to once equal states are merged.  These numbers pin the
enumeration down far more tightly than the final odds do (a wrong merge, a
lost branch or a miscounted face changes them), and they are cheap: the
test suite keeps a frozen table of them for a set of positions of both
editions (``tests/golden/perft.json``), checked against the slow reference
when the table is written.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from advisor.notation import parse_position
from advisor.rules.position import Position

__all__ = ["LegLevels", "leg_levels"]


@dataclass(frozen=True, eq=False)
class LegLevels:
    """The enumeration tree of the rest of a leg.

    ``sequences[k]``, ``ended[k]``, ``states[k]`` are about roll ``k + 1``
    of the rolls left: die sequences of that many rolls played (the race was
    running before the roll; a racing value counts 2, a grey face 1, as in
    :mod:`advisor.kernels.board.leg`), those in which the roll ends the race, and
    the distinct states (board and dice left, race running) reached, after
    merging (0 for the last roll, whose states are never stored).
    ``merged``: states equal but for the crazy camels, once the grey die is
    out, count as one (as in the odds); else states are whole.
    ``counts`` int64[5, 5]: ``[camel, rank]`` sequence counts of the leg,
    ``total`` all sequences, ``ended_count`` those in which the race ends,
    ``end_states``: distinct end boards (``None`` when ``merged``).
    """

    position: Position
    merged: bool
    sequences: tuple[int, ...]
    ended: tuple[int, ...]
    states: tuple[int, ...]
    counts: np.ndarray
    total: int
    ended_count: int
    end_states: int | None

    def table(self):
        """One row per roll: ``roll`` (1, 2, ...), ``sequences``, ``ended``,
        ``states`` (a pandas DataFrame)."""
        import pandas as pd

        return pd.DataFrame({"roll": range(1, len(self.sequences) + 1), "sequences": self.sequences,
                             "ended": self.ended, "states": self.states})

    def to_dict(self) -> dict:
        """Plain data (JSON-ready)."""
        return {"board": str(self.position), "merged": self.merged, "sequences": list(self.sequences),
                "ended": list(self.ended), "states": list(self.states), "counts": self.counts.tolist(),
                "total": self.total, "ended_count": self.ended_count, "end_states": self.end_states}


def leg_levels(position: Position | str, *, merged: bool = True) -> LegLevels:
    """Count the enumeration tree of the rest of the leg of ``position``
    (a :class:`Position` or a board string), level by level."""
    from advisor.rules.encode import encode
    from advisor.kernels.board.leg import LEVEL_ENDED, LEVEL_FIELDS, LEVEL_SEQUENCES, LEVEL_STATES, completions
    from advisor.kernels.board.leg import leg_levels as kernel
    if isinstance(position, str):
        position = parse_position(position)
    enc = encode(position)
    levels = np.zeros((enc.rolls, LEVEL_FIELDS), np.int64)
    counts = np.zeros((5, 5), np.int64)
    ended, end_states = kernel(enc.board, enc.dice, enc.rolls, enc.tiles, not merged, levels, counts,
                               np.zeros(enc.tiles.size, np.int64))
    return LegLevels(
        position=position,
        merged=merged,
        sequences=tuple(int(n) for n in levels[:, LEVEL_SEQUENCES]),
        ended=tuple(int(n) for n in levels[:, LEVEL_ENDED]),
        states=tuple(int(n) for n in levels[:, LEVEL_STATES]),
        counts=counts,
        total=int(completions(enc.ndice, enc.rolls)),
        ended_count=int(ended),
        end_states=None if merged else int(end_states),
    )

"""Random positions: the game setup of docs/rules.md, and random mid-race
positions for studies, benchmarks and tests.

Every function takes a ``numpy.random.Generator`` (or a seed), so results
are reproducible.
"""

from __future__ import annotations

import numpy as np

from advisor.rules.editions import TRACK_LENGTH, get_edition
from advisor.rules.position import Position, Tile

__all__ = ["setup_position", "random_position"]


def _rng(rng) -> np.random.Generator:
    return rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)


def setup_position(edition: str = "second", rng=None) -> Position:
    """A start-of-game position by the setup rules.

    Each racing die is rolled once and its camel placed on space 1, 2 or 3;
    camels sharing a space are stacked in a random order.  ``second``: the
    grey die is rolled twice, face 1 -> space 16, 2 -> 15, 3 -> 14 (which
    crazy camel goes first is random); if the second lands on the first one's
    space it goes on top.
    """
    ed = get_edition(edition)
    rng = _rng(rng)
    spaces: dict[int, list[str]] = {}
    racing = list(ed.racing)
    rng.shuffle(racing)  # random stacking order on shared spaces
    for camel in racing:
        spaces.setdefault(int(rng.integers(1, 4)), []).append(camel)
    crazy = list(ed.crazy)
    rng.shuffle(crazy)
    for camel in crazy:
        spaces.setdefault(TRACK_LENGTH + 1 - int(rng.integers(1, 4)), []).append(camel)
    return Position(ed.name, {s: "".join(c) for s, c in spaces.items()})


def random_position(
    edition: str = "second",
    rng=None,
    *,
    dice: int | None = None,
    tiles: int = 0,
    spread: tuple[int, int] = (1, TRACK_LENGTH),
) -> Position:
    """A random valid position: racing camels on random spaces of
    ``spread`` (inclusive) in random stacks, crazy camels anywhere on the
    track (also inside stacks), ``tiles`` random legal tiles (random sides,
    owners 0, 1, ...) and a random pyramid of ``dice`` dice (default: any
    valid mid-leg size; the grey die is as likely as any other)."""
    ed = get_edition(edition)
    rng = _rng(rng)
    lo, hi = spread
    camels = list(ed.camels)
    rng.shuffle(camels)
    spaces: dict[int, list[str]] = {}
    for camel in camels:
        if camel in ed.crazy:
            space = int(rng.integers(1, TRACK_LENGTH + 1))
        else:
            space = int(rng.integers(lo, hi + 1))
        spaces.setdefault(space, []).append(camel)
    placed: list[Tile] = []
    free = [s for s in range(2, TRACK_LENGTH + 1) if s not in spaces]
    rng.shuffle(free)
    for space in free:
        if len(placed) == tiles:
            break
        if all(abs(space - t.space) > 1 for t in placed):
            placed.append(Tile(space, "+" if rng.random() < 0.5 else "-", len(placed)))
    if dice is None:
        dice = int(rng.integers(ed.min_pyramid, len(ed.dice) + 1))
    if not ed.min_pyramid <= dice <= len(ed.dice):
        raise ValueError(f"dice must be {ed.min_pyramid}..{len(ed.dice)} in the {ed.name} edition")
    pyramid = "".join(rng.choice(list(ed.dice), size=dice, replace=False))
    return Position(ed.name, {s: "".join(c) for s, c in spaces.items()}, tuple(placed), pyramid)

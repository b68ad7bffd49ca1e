"""Helpers shared by the tests of the bots' valuation: states from played
games, the seed ``fast_values`` draws for a board, money changed."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import numpy as np

import advisor.valuation.engine as fastev  # the one valuation (fast_values lives there)
from advisor import GameState
from advisor.bots.policies import make_bot
from advisor.rules.encode import encode
from advisor.game import Game


def board_seed(state: GameState) -> int:
    """The seed ``fast_values`` uses for ``state``'s board (race odds)."""
    pos = state.position
    enc = encode(pos)
    return fastev._seed((pos.rules.name, int(enc.board), int(enc.dice), int(enc.rolls), enc.tiles.tobytes()))


def game_states(edition: str, bots, seed: int, limit: int = 400):
    """``(view, player)`` before every turn of a game played by ``bots`` (one
    numpy Generator per seat); played once per arguments."""
    return _played(edition, tuple(bots), seed, limit)


@lru_cache(maxsize=None)
def _played(edition: str, bots: tuple[str, ...], seed: int, limit: int):
    game = Game(edition, len(bots), seed)
    policies = [make_bot(name) for name in bots]
    rngs = [np.random.default_rng([seed, p]) for p in range(len(bots))]
    out = []
    while not game.finished and game.turns < limit:
        p = game.to_move
        view = game.view(p)
        out.append((view, p))
        game.apply(policies[p].choose(view, p, rngs[p]))
    return tuple(out)


def with_money(state: GameState, money: dict[int, int]) -> GameState:
    """``state`` with player ``p``'s money set to ``money[p]``."""
    players = list(state.players)
    for p, m in money.items():
        players[p] = replace(players[p], money=m)
    return replace(state, players=tuple(players))

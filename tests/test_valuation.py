"""The one valuation (:mod:`advisor.valuation`): one engine class, no
subclass and no cache hung on it, and its two views (``best_moves``,
``fast_values``) read the same figures.

* ``Valuation`` declares every cache (``__slots__``): an instance has no
  ``__dict__``, so nothing can hang a private cache on it, and nothing in
  the package subclasses it.
* The package's top level (``advisor.best_moves``, ``advisor.evaluate``)
  gives the engine's own functions.
* Leg tiles, pyramid, partnerships and overall cards: the EVs of
  ``fast_values`` and of ``best_moves`` (same seed for the race odds) are
  the same floats, bit for bit (the overall card's EV is one formula,
  ``Valuation.card_values``).
* One pass for both: when the candidate kernel enumerates the tile
  placements exactly (at most ``EXACT_ROLLS`` rolls left), every EV and
  every ``denial`` figure of ``fast_values`` is ``best_moves``'s float, bit
  for bit, tiles included, and hidden hands of the next player too (the
  views of a played game); the two views differ only in the source of the
  tile tables (``exact_tile_tables``, ``sampled_tile_tables``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import advisor
import advisor.valuation.engine as engine
from advisor import GameState, PileCard, PlayerState, best_moves
from advisor.valuation.engine import Valuation, fast_values

sys.path.insert(0, str(Path(__file__).resolve().parent))
from played import board_seed, game_states  # noqa: E402


def test_one_engine_class_without_hung_caches():
    state = GameState("1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx", (PlayerState(), PlayerState(), PlayerState()))
    val = Valuation(state, 0, 0.02, 1)
    assert not hasattr(val, "__dict__")
    with pytest.raises(AttributeError):
        val._made_up_cache = {}
    assert Valuation.__subclasses__() == []


def test_the_package_gives_the_engines_own_functions():
    assert engine.best_moves is advisor.best_moves
    assert engine.evaluate is advisor.evaluate


STATES = [
    # 3 rolls left, cards in hand: overall cards valued on the race odds
    GameState("1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx legtiles:B322",
              (PlayerState(money=1, leg_tiles=(("B", 5),)), PlayerState(), PlayerState())),
    # cards of the other players face down on the piles, a broke player
    GameState("4:B 5:YG 6:PR 12:w 14:k dice:YGx",
              (PlayerState(money=0, overall_cards="BGR"), PlayerState(), PlayerState(), PlayerState()),
              winner_pile=(PileCard(1), PileCard(2)), loser_pile=(PileCard(3),)),
]


@pytest.mark.parametrize("state", STATES)
def test_views_give_the_same_floats(state):
    engine._MEMO.data.clear()
    fast = fast_values(state, 0)
    frame = best_moves(state, 0, precision=0.02, seed=board_seed(state), denial=False).set_index("action")
    checked = 0
    for action, value in zip(fast.actions, fast.ev):
        if action.startswith("tile:"):
            continue
        assert frame.at[action, "ev"] == value, action  # the same float, not merely close
        checked += 1
    assert checked >= 3
    assert np.isfinite(fast.ev).all()


def _exact_regime(state, player):
    """At most EXACT_ROLLS rolls left and no overall card of ``player``'s
    own colour on a pile (so no race simulation per tile)."""
    from advisor.rules.encode import encode

    own = any(c.player == player and c.colour for c in state.winner_pile + state.loser_pile)
    return encode(state.position).rolls <= engine.EXACT_ROLLS and not own


def _played_exact_states():
    out = []
    for view, p in game_states("second", ["advisor", "denial", "rival", "heuristic"], 5):
        nxt = (p + 1) % view.n_players
        placed = any(c.player == nxt and c.colour is None for c in view.winner_pile + view.loser_pile)
        if _exact_regime(view, p) and view.hand_hidden(nxt) and placed:
            out.append((view, p))
    return out[:3]


@pytest.mark.parametrize("state, player, denies", [(s, 0, True) for s in STATES]
                         + [(s, p, False) for s, p in _played_exact_states()])
def test_one_pass_gives_best_moves_floats_tiles_and_denial_included(state, player, denies):
    assert _exact_regime(state, player)
    engine._MEMO.data.clear()
    fast = fast_values(state, player, denial=True)
    frame = best_moves(state, player, precision=0.02, seed=board_seed(state)).set_index("action")
    assert list(frame.index.sort_values()) == sorted(fast.actions)
    for action, value, drop in zip(fast.actions, fast.ev, fast.denial):
        assert frame.at[action, "ev"] == value, action  # the same float, not merely close
        assert frame.at[action, "denial"] == drop, action
    assert any(a.startswith("tile:") and v != 0 for a, v in zip(fast.actions, fast.ev))
    if denies:
        assert np.abs(fast.denial).max() > 0

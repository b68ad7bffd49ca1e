"""camelup-advisor: exact odds and best moves for Camel Up.

Public API (importing this module loads neither numba, pandas nor
matplotlib; they load on first use)::

    from advisor import parse_position, leg_odds
    odds = leg_odds(parse_position("1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx"))
    odds.to_frame()
"""

from __future__ import annotations

from importlib import import_module

from advisor._version import __version__
from advisor.errors import AdvisorError, IllegalActionError, PositionError
from advisor.notation import format_position, parse_position
from advisor.rules.roll import Step, step
from advisor.rules.actions import Action
from advisor.rules.editions import EDITIONS, Edition, RulesError, get_edition, rules_from_json
from advisor.rules.position import Position, Tile
from advisor.rules.setup import random_position, setup_position
from advisor.rules.state import GameState, PileCard, PlayerState, StateError

from advisor import plotting as _plotting  # noqa: E402,F401  (registers the notebook picture of a Position)

__all__ = [
    "__version__",
    "AdvisorError",
    "PositionError",
    "IllegalActionError",
    "Position",
    "Tile",
    "Edition",
    "EDITIONS",
    "get_edition",
    "rules_from_json",
    "RulesError",
    "parse_position",
    "format_position",
    "step",
    "Step",
    "setup_position",
    "random_position",
    "LegOdds",
    "leg_odds",
    "leg_odds_many",
    "sample_leg_odds",
    "RaceOdds",
    "race_odds",
    "best_moves",
    "analyse",
    "review",
    "evaluate",
    "legal_actions",
    "Action",
    "GameState",
    "PlayerState",
    "PileCard",
    "StateError",
    "warmup",
    "EXAMPLE_POSITION",
]

#: The built-in example position (second edition, mid-leg).
EXAMPLE_POSITION = "1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx"
#: An example leg start of the first edition (the page's example of that game).
EXAMPLE_FIRST = "first 1:B 2:YG 3:OW"

_LAZY = {
    "LegOdds": "advisor.odds.exact",
    "leg_odds": "advisor.odds.exact",
    "leg_odds_many": "advisor.odds.exact",
    "sample_leg_odds": "advisor.odds.montecarlo",
    "race_odds": "advisor.odds.montecarlo",
    "RaceOdds": "advisor.odds.montecarlo",
    "best_moves": "advisor.valuation.engine",
    "analyse": "advisor.batch.positions",
    "review": "advisor.reviews.review",
    "evaluate": "advisor.valuation.engine",
    "legal_actions": "advisor.valuation.engine",
    "warmup": "advisor.warm",
}


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'advisor' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))

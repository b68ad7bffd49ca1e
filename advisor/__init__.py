"""camelup-advisor: exact odds and best moves for Camel Up.

Public API (importing this module loads neither numba, pandas nor
matplotlib; they load on first use)::

    from advisor import parse_position, leg_odds
    odds = leg_odds(parse_position("1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx"))
    odds.to_frame()
"""

from __future__ import annotations

from importlib import import_module

from ._version import __version__
from .errors import AdvisorError, IllegalActionError, PositionError
from .notation import format_position, parse_position
from .moves import Step, step
from .rules.actions import Action
from .rules.editions import EDITIONS, Edition, RulesError, get_edition, rules_from_json
from .rules.position import Position, Tile
from .rules.setup import random_position, setup_position
from .state import GameState, PileCard, PlayerState, StateError

from . import plotting as _plotting  # noqa: E402,F401  (registers the notebook picture of a Position)

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

_LAZY = {
    "LegOdds": "exact",
    "leg_odds": "exact",
    "leg_odds_many": "exact",
    "sample_leg_odds": "montecarlo",
    "race_odds": "montecarlo",
    "RaceOdds": "montecarlo",
    "best_moves": "valuation",
    "analyse": "batch",
    "review": "gamereview",
    "evaluate": "valuation",
    "legal_actions": "valuation",
    "warmup": "warm",
}


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'advisor' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))

"""The bots' view of the one valuation (:mod:`advisor.valuation`):
:func:`fast_values`, the EV of every legal action in one pass, kept here
under its former module name."""

from __future__ import annotations

from .valuation import EXACT_ROLLS, RACE_SAMPLES, TILE_SAMPLES, FastValues, fast_values, shared_race_odds

__all__ = ["fast_values", "FastValues", "shared_race_odds", "EXACT_ROLLS", "TILE_SAMPLES", "RACE_SAMPLES"]

"""The advice view of the one valuation (:mod:`advisor.valuation`):
:func:`best_moves`, :func:`evaluate` and :func:`legal_actions`, kept here
under their former module name."""

from __future__ import annotations

from .valuation import (LegOutcomes, Valuation, best_moves, evaluate, legal_actions, partner_options, pile_payout,
                        tile_spaces)

#: The former name of :class:`advisor.valuation.Valuation`.
Context = Valuation

__all__ = ["best_moves", "evaluate", "legal_actions", "pile_payout", "LegOutcomes", "Context", "tile_spaces",
           "partner_options"]

"""Scoring rules shared by the advisor and the game engine."""

from __future__ import annotations

__all__ = ["PILE_PAYOUTS", "pile_payout"]

#: What the first correct cards of an overall pile pay; every later one pays 1.
PILE_PAYOUTS = (8, 5, 3, 2)


def pile_payout(k: int) -> int:
    """Payout of the ``k``-th (0-based) correct card of a pile: 8, 5, 3, 2, 1, 1, ..."""
    return PILE_PAYOUTS[k] if k < len(PILE_PAYOUTS) else 1

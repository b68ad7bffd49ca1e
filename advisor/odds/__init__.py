"""Leg and race odds: exact enumeration, Monte Carlo sampling and the enumeration tree (levels)."""

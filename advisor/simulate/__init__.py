"""Whole simulated games, tournaments and duels."""

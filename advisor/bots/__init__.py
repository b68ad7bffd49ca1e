"""Bots that play the board game (policies) and the inference of the others' hidden overall bets."""

"""Numba kernels of the board game: the track and one roll, leg enumeration, sampling, races, bot candidates, portfolios."""

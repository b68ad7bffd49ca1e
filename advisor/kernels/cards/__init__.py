"""Numba kernels of Camel Up Cards: the track and one card, the deck, exact legs, the others' hands, turns."""

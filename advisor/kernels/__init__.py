"""Numba kernels: arrays in, arrays out.

Kernels never validate input, never raise on user input and never see a
``Position``; :mod:`advisor.rules.encode` owns the array layout they read.
"""

"""Fitted model parameters shipped with the package (read with importlib.resources)."""

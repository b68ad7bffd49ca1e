"""The ``camelup`` command: its parser and one module per command, with the terminal tables for play."""

from advisor.cli.command import main

__all__ = ["main"]

"""A scripted player at the terminal, shared by the tests of ``camelup
play`` for both games: ``read`` functions that answer the prompts."""

from __future__ import annotations


def scripted(lines, then=EOFError):
    """A ``read`` that answers with ``lines``, then raises ``then``."""
    it = iter(lines)

    def read(prompt):
        try:
            return next(it)
        except StopIteration:
            raise then from None

    return read

"""Errors raised for bad user input.

Every error a user can cause is a :class:`ValueError` subclass with a message
that names what is wrong; the CLI prints it on one line and exits with
status 2.  Any other exception is a bug and keeps its traceback.
"""

from __future__ import annotations

__all__ = ["AdvisorError", "PositionError", "IllegalActionError", "Interrupted"]


class AdvisorError(ValueError):
    """Base class of every error caused by user input."""


class PositionError(AdvisorError):
    """A board string or position that breaks the notation or the rules.

    ``token`` is the token at fault (``None`` when the problem concerns the
    position as a whole, e.g. a camel that is missing).
    """

    def __init__(self, message: str, token: str | None = None):
        self.token = token
        if token is not None:
            shown = token if len(token) <= 60 else f"{token[:40]}...{token[-12:]}"  # one readable line
            message = f"invalid token {shown!r}: {message}"
        else:
            message = f"invalid position: {message}"
        super().__init__(message)


class IllegalActionError(AdvisorError):
    """An action that is not legal in the given state."""


class Interrupted(Exception):
    """Long work stopped by the user (Ctrl-C) after cleaning up.

    The message says what was kept and how to continue, e.g. ``"1,200 of
    5,000 rows kept in out.csv.part; run the same command with --resume to
    continue"``.  The CLI prints it on one line and exits with status 130.
    Not an :class:`AdvisorError`: nothing was wrong with the input.
    """

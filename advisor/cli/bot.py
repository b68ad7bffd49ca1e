"""``camelup bot NAME STATE``: a bot's ranking of every legal action from a
game state JSON file (or ``-``: the JSON on standard input), for programs
that host the bots (:func:`advisor.bots.policies.ask` in Python)."""

from __future__ import annotations

import argparse
import time

from advisor.errors import AdvisorError
from advisor._tools.jsonio import dumps
from advisor.inputs import load_state

__all__ = ["run_bot", "bot_json", "format_bot"]

#: Why this module imports inside its functions (tests/test_imports_top.py checks it).
LAZY_IMPORTS = "the command line loads a command's engine only when the command runs: camelup --help stays fast"


def run_bot(args: argparse.Namespace) -> int:
    from advisor.bots.policies import BOTS, make_bot

    if args.name not in BOTS:  # before the state is read
        raise AdvisorError(f"unknown bot {args.name!r} (bots: {', '.join(BOTS)})")

    state = load_state(args.state)
    player = state.check_player(args.player)
    bot = make_bot(args.name)
    import numpy as np

    start = time.perf_counter()
    ranking = bot.ranked(state, player, np.random.default_rng(args.seed))
    seconds = time.perf_counter() - start
    if args.json:
        print(dumps(bot_json(args.name, state, player, ranking, seconds, args.seed)))
    else:
        print(format_bot(args.name, state, player, ranking, seconds))
    return 0


def bot_json(name: str, state, player: int, ranking, seconds: float, seed: int) -> dict:
    """``{"bot", "position", "player", "seed", "choice", "ranking": [{"action",
    "score"}, ...], "seconds"}`` (a score of ``-inf``, an action the bot's
    rule never takes, is ``null``)."""
    return {"bot": name, "position": str(state.position), "player": player, "seed": seed,
            "choice": ranking[0][0], "ranking": [{"action": a, "score": s} for a, s in ranking],
            "seconds": seconds}


def format_bot(name: str, state, player: int, ranking, seconds: float) -> str:
    to_move = " (to move)" if player == state.to_move else ""
    lines = [f"Bot {name}, player {player}{to_move}, {state.position}: {len(ranking)} legal actions, "
             f"best first ({seconds:.3f} s).", f"{'rank':>4}  {'action':<12}{'score':>9}"]
    for k, (action, score) in enumerate(ranking, 1):
        shown = "-" if score == float("-inf") else f"{score:+9.3f}"
        lines.append(f"{k:>4}  {action:<12}{shown:>9}")
    return "\n".join(lines)

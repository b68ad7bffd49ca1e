"""``camelup play``: an interactive game in the terminal, humans and bots at
one table.

On a human's turn the table is shown and the player types an action
(``leg:R``, ``pyramid``, ``tile:+7``, ``winner:B``, ``loser:G``,
``partner:3``) or a command: ``odds`` (leg and race odds), ``best`` (the
advisor's ranking for this player), ``actions``, ``help``, ``quit``.  Bots
play their turns at once and say what they did.
"""

from __future__ import annotations

from typing import Callable, Sequence, TextIO

import numpy as np

from .bots import make_bot
from .errors import AdvisorError
from .game import Game
from .report import format_leg_odds, format_race_odds

__all__ = ["play", "render"]

HELP = """Type an action or a command:
  leg:C        take the top leg bet tile of camel C      pyramid   take a pyramid tile and roll
  tile:+N      place your cheering (+) / booing (-) tile on space N (tile:-N)
  winner:C     overall winner card C                       loser:C   overall loser card C
  partner:P    partnership with player P (2nd edition, 6-8 players)
  odds         leg and race odds                           best      the advisor's ranking for you
  actions      your legal actions                          quit      leave the game"""


def render(game: Game) -> str:
    """The table as text: track, tiles, pyramid, leg tiles, piles, money."""
    st = game.state
    pos = st.position
    ed = pos.rules
    lines = [f"Leg {game.legs}, turn {game.turns + 1}: player {st.to_move} to move.  "
             f"Pyramid: {' '.join(pos.dice)} ({len(pos.dice) - ed.dice_left} roll(s) left this leg)"]
    track = []
    for space in range(1, 17):
        stack = pos.stack_at(space)
        tile = pos.tile_at(space)
        cell = stack or (f"{tile.sign}P{tile.owner}" if tile and tile.owner is not None else (tile.sign if tile else "."))
        track.append(f"{space}:{cell}")
    lines.append("Track (bottom to top): " + "  ".join(track) + "  | finish")
    stacks = "  ".join(f"{c}:{''.join(map(str, s)) or '-'}" for c, s in zip(ed.racing, pos.legtiles))
    lines.append(f"Leg tiles left: {stacks}")
    lines.append(f"Winner pile: {len(st.winner_pile)} card(s)   Loser pile: {len(st.loser_pile)} card(s)")
    for i, p in enumerate(st.players):
        held = " ".join(f"{c}{v}" for c, v in p.leg_tiles) or "-"
        partner = f", partner P{p.partner}" if p.partner is not None else ""
        lines.append(f"  P{i}{'*' if i == st.to_move else ' '} money {p.money:3d}  leg tiles {held}  "
                     f"pyramid {p.pyramid_tiles}  cards in hand {p.overall_cards}{partner}")
    return "\n".join(lines)


def play(seats: Sequence[str], *, edition: str = "second", seed: int | None = None,
         read: Callable[[str], str] = input, out: TextIO | None = None) -> Game:
    """Play a game; ``seats[i]`` is ``"human"`` or a bot name.  ``read`` asks
    a human for a line (EOF or ``quit`` ends the game early)."""
    import sys

    out = out or sys.stdout
    say = lambda text="": print(text, file=out, flush=True)  # noqa: E731
    bots = {i: make_bot(name) for i, name in enumerate(seats) if name != "human"}
    game = Game(edition, len(seats), seed)
    rngs = [np.random.default_rng([game.seed, s]) for s in range(len(seats))]
    say(f"Camel Up ({game.state.position.rules.title}), {len(seats)} players, seed {game.seed}.")
    say("Seats: " + ", ".join(f"P{i} {name}" for i, name in enumerate(seats)) + ".  Type 'help' for commands.")
    while not game.finished:
        p = game.to_move
        if p in bots:
            action = bots[p].choose(game.view(p), p, rngs[p])
            entry = game.apply(action)
            say(f"P{p} ({seats[p]}): {_describe(entry)}")
            continue
        say()
        say(render(game))
        while True:
            try:
                line = read(f"P{p}> ").strip()
            except EOFError:
                say("\nGame left.")
                return game
            if line in ("quit", "exit"):
                say("Game left.")
                return game
            if line == "help":
                say(HELP)
            elif line == "actions":
                say(" ".join(game.legal_actions()))
            elif line == "odds":
                say(_odds_text(game))
            elif line == "best":
                say(_best_text(game, p))
            elif line:
                try:
                    entry = game.apply(line)
                except AdvisorError as exc:
                    say(f"Not possible: {exc}")
                    continue
                say(f"P{p}: {_describe(entry)}")
                break
    say()
    end = game.summary()
    say(f"The race is over: {end['winner_camel']} wins, {end['loser_camel']} is last "
        f"(final board {end['final_board']}).")
    say("Money: " + ", ".join(f"P{i} {m}" for i, m in enumerate(end["money"]))
        + ".  Winner(s): " + ", ".join(f"P{i} ({seats[i]})" for i in end["winners"]) + ".")
    return game


def _describe(entry: dict) -> str:
    text = entry["action"]
    if "roll" in entry:
        roll = entry["roll"]
        colour = f" {roll['colour']}" if "colour" in roll else ""
        text += f": die {roll['die']} shows{colour} {roll['value']}"
        if "landed" in entry:
            text += f", lands on the tile at {entry['landed']}"
        if entry.get("leg_over"):
            text += "; the leg is over and scored"
        if entry.get("race_over"):
            text += "; the race is over"
    return text


def _odds_text(game: Game) -> str:
    from .exact import leg_odds
    from .montecarlo import race_odds

    pos = game.state.position
    return format_leg_odds(leg_odds(pos)) + "\n\n" + format_race_odds(race_odds(pos, precision=0.005, seed=0))


def _best_text(game: Game, player: int) -> str:
    from .ev import best_moves

    frame = best_moves(game.view(player), player, precision=0.005, seed=0)
    rows = [f"  {r['action']:<10} EV {r['ev']:+.3f}  sd {r['sd']:.2f}  P(loss) {100 * r['p_loss']:.0f}%"
            for r in frame.head(10).to_dict(orient="records")]
    return "The advisor's ranking (top 10):\n" + "\n".join(rows)

"""Where every player's money came from: a game record replayed and its
scoring taken apart (docs/rules.md, Money and scoring).

* :func:`score_phases`: one row per player and scoring phase (the start, each
  leg, the race end), with the parts of that phase's change of money;
* :func:`score_breakdown`: one row per player, the parts summed over the game:
  ``start + leg_bets + pyramid + partner + tile_coins + winner_cards +
  loser_cards + floor == final``, exactly;
* :func:`pile_reveal`: the cards of both overall piles in placement order,
  with their owners, colours, and what each paid.

The parts are the rewards *before* the money floor; ``floor`` is what the
floor forgave (the part of a phase's net penalty the player could not pay,
docs/rules.md: rewards and penalties of one scoring phase are summed, then
settled, and money never goes below 0).  Each part is worked out with the
engine's own scoring functions (:func:`advisor.game.leg_rewards`,
:func:`advisor.game.overall_rewards`), and the money after every turn is
checked against the replayed game, so the sheet cannot drift from the rules.

The record may be unfinished: the sheet then covers the turns played, and
``final`` is the money at the record's last turn.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from advisor.game import Game, Replay, overall_rewards, race_order, replay
from advisor.rules import scoring
from advisor.rules.scoring import leg_rewards
from advisor.rules.scoring import settle as settle_money

__all__ = ["PARTS", "score_phases", "score_breakdown", "pile_reveal", "record_seats"]

#: The parts of a player's money, in the order they sum to the final money.
PARTS = ("start", "leg_bets", "pyramid", "partner", "tile_coins", "winner_cards", "loser_cards", "floor")

#: What a unit landing on a spectator / desert tile pays the tile's owner at
#: once (docs/rules.md); checked against the replayed money after every turn.
TILE_COIN = 1


def record_seats(setup: dict) -> list[str] | None:
    """The seat names a record's setup line gives: ``seats`` (``camelup
    play``: ``"human"`` or a bot) or ``bots`` (``camelup simulate``), else
    ``None``."""
    seats = setup.get("seats", setup.get("bots"))
    if isinstance(seats, list) and all(isinstance(s, str) for s in seats):
        return list(seats)
    return None


def _check(record: Sequence[dict]) -> None:
    if not record or not isinstance(record[0], dict) or record[0].get("type") != "setup":
        raise ValueError("a game record starts with its setup line")


def _phases(record: Sequence[dict]) -> tuple[list[dict], Game]:
    """The phase rows and the replayed game."""
    _check(record)
    # the replay checks every action and the end line as it goes: a record
    # that does not replay raises before any sheet is returned
    replayed = Replay(list(record))
    game = replayed.game
    n = game.state.n_players
    rows: list[dict] = []

    money = [pl.money for pl in game.state.players]
    rules = game.state.position.rules

    def new_phase(name: str, leg: int | None) -> list[dict]:
        phase = [{"player": p, "phase": name, "leg": leg, **{k: 0 for k in PARTS}, "money": money[p]}
                 for p in range(n)]
        rows.extend(phase)
        return phase

    for p, row in enumerate(new_phase("start", None)):
        row["start"] = money[p]
    phase = new_phase("leg 1", 1)

    def settle(part_rows: list[dict], rewards: list[int]) -> None:
        for p, r in enumerate(rewards):
            after = settle_money(rules, money[p], r)
            part_rows[p]["floor"] += after - (money[p] + r)
            money[p] = after

    for step in replayed:  # each action line, before it is played (reveal lines are played between)
        before, player = step.before, step.player
        done = step.play()
        if step.roll is not None:
            landed = done.get("landed")
            owner = before.position.tile_at(landed).owner if landed is not None else None
            if owner is not None:
                phase[owner]["tile_coins"] += TILE_COIN
                money[owner] += TILE_COIN
            if done.get("leg_over") or done.get("race_over"):
                racing = before.position.racing
                stacks = game.final_stacks if done.get("race_over") else game.state.position.stacks
                order = race_order(stacks, racing)
                # the players as the leg is scored: the roller holds one more
                # pyramid tile; a landing coin is already paid (money above)
                held = list(before.players)
                held[player] = replace(held[player], pyramid_tiles=held[player].pyramid_tiles + 1)
                total = leg_rewards(rules, tuple(held), order)
                bets = leg_rewards(rules, tuple(replace(pl, pyramid_tiles=0, partner=None) for pl in held), order)
                pyramid = leg_rewards(rules, tuple(replace(pl, leg_tiles=(), partner=None) for pl in held), order)
                for p in range(n):
                    phase[p]["leg_bets"] += bets[p]
                    phase[p]["pyramid"] += pyramid[p]
                    phase[p]["partner"] += total[p] - bets[p] - pyramid[p]
                settle(phase, total)
                for p in range(n):
                    phase[p]["money"] = money[p]
                if done.get("race_over"):
                    phase = new_phase("race end", None)
                    both = overall_rewards(before, game.winner_camel, game.loser_camel)
                    winner = scoring.overall_rewards(rules, n, ((before.winner_pile, game.winner_camel),))
                    for p in range(n):
                        phase[p]["winner_cards"] = winner[p]
                        phase[p]["loser_cards"] = both[p] - winner[p]
                    settle(phase, both)
                else:
                    phase = new_phase(f"leg {game.legs}", game.legs)
        if money != game.money():  # the sheet and the engine disagree: a bug
            raise RuntimeError(f"turn {step.entry.get('turn')}: score sheet money {money} != game money "
                               f"{game.money()}")
        for p in range(n):
            phase[p]["money"] = money[p]
    return rows, game


def score_phases(record: Sequence[dict]):
    """One row per player and scoring phase (``start``, ``leg 1`` ...
    ``leg N``, ``race end``) of a game record: the parts of the phase's change
    of money (columns of :data:`PARTS`; a leg phase holds the tile coins paid
    during that leg and its leg scoring), ``change`` (their sum) and
    ``money`` after the phase.  A pandas DataFrame; ``attrs`` give the
    seats (if the record names them), legs and whether the race is over."""
    import pandas as pd

    rows, game = _phases(record)
    frame = pd.DataFrame(rows, columns=["player", "phase", "leg", *PARTS, "money"])
    frame["leg"] = frame["leg"].astype("Int64")
    frame.insert(len(frame.columns) - 1, "change", frame[list(PARTS)].sum(axis=1))
    frame.attrs.update(seats=record_seats(record[0]), legs=game.legs, finished=game.finished)
    return frame


def score_breakdown(record: Sequence[dict]):
    """Where each player's money came from over the whole game: a pandas
    DataFrame indexed by player with the columns ``seat`` (the record's seat
    names, if any), ``start``, ``leg_bets``, ``pyramid``, ``partner``,
    ``tile_coins``, ``winner_cards``, ``loser_cards``, ``floor`` (coins of
    penalties the money floor forgave) and ``final``; the parts sum to
    ``final`` exactly.  ``final`` is the record's end money (for an
    unfinished record, the money after its last turn)."""
    phases = score_phases(record)
    frame = phases.groupby("player")[list(PARTS)].sum()
    last = phases.groupby("player")["money"].last()
    frame["final"] = last
    seats = phases.attrs["seats"]
    if seats is not None and len(seats) == len(frame):
        frame.insert(0, "seat", seats)
    frame.attrs.update(phases.attrs)
    return frame


def pile_reveal(record: Sequence[dict]):
    """The overall piles of a game record, face up: one row per card in
    placement order per pile (``pile`` "winner" / "loser", ``place`` 1, 2,
    ...), with ``player``, ``seat``, ``colour``, ``turn`` placed, ``correct``
    and ``paid`` (8, 5, 3, 2, 1, ... to the correct cards in order, -1 to a
    wrong one; ``None`` while the race is not over).  A pandas DataFrame."""
    import pandas as pd

    _check(record)
    game = replay(list(record))
    seats = record_seats(record[0])
    rows = []
    for entry in record[1:]:
        if entry.get("type") == "action" and entry["action"].startswith(("winner:", "loser:")):
            pile, colour = entry["action"].split(":")
            rows.append({"pile": pile, "player": entry["player"],
                         "seat": seats[entry["player"]] if seats else None,
                         "colour": colour, "turn": entry["turn"], "correct": None, "paid": None})
    for pile in ("winner", "loser"):
        cards = [r for r in rows if r["pile"] == pile]
        for k, row in enumerate(cards, 1):
            row["place"] = k
        if not game.finished:
            continue
        camel = game.winner_camel if pile == "winner" else game.loser_camel
        stack = getattr(game.state, f"{pile}_pile")
        paid_before = [0] * game.state.n_players
        # a card placed face down unseen (``winner:?``) shows the colour its reveal line gave
        if len(stack) != len(cards) or any(r["colour"] not in ("?", c.colour) for c, r in zip(stack, cards)):
            raise RuntimeError(f"the {pile} pile of the replay does not match the record's actions")  # a bug
        for k, row in enumerate(cards):
            row["colour"] = stack[k].colour
            # what the card paid: the pile's payout with it less without it
            # (a card's payout depends only on the cards placed before it)
            paid_now = scoring.overall_rewards(game.rules, game.state.n_players, ((stack[: k + 1], camel),))
            row["correct"] = row["colour"] == camel
            row["paid"] = paid_now[row["player"]] - paid_before[row["player"]]
            paid_before = paid_now
    frame = pd.DataFrame(rows, columns=["pile", "place", "player", "seat", "colour", "turn", "correct", "paid"])
    frame["pile"] = pd.Categorical(frame["pile"], ["winner", "loser"])
    frame = frame.sort_values(["pile", "place"], kind="stable").reset_index(drop=True)
    frame["pile"] = frame["pile"].astype(str)
    frame.attrs.update(winner_camel=game.winner_camel, loser_camel=game.loser_camel, finished=game.finished)
    return frame

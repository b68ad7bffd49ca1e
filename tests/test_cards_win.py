"""Camel Up Cards advice played to win: the chance of winning the game now
and after every turn (``cards_best(objective=, chances=)``), from the
margin bot's model (:func:`advisor.cards.endgame.turn_win_chances`), on
positions worked out by hand (those of ``tests/test_cards_fast.py``'s
``win_chances`` tests), and carried to ``camelup best`` and its
``--json``."""

from __future__ import annotations

import dataclasses
import json
import math
import re

import numpy as np
import pytest

from advisor.cards import cards_best
from advisor.cards.endgame import SPREAD
from advisor.cards.game import CardsPlayer, CardsSetup, CardsState
from advisor.cards.steps import step_advice
from advisor.errors import AdvisorError
from advisor.valuation.engine import WIN_TIE

PRECISION = 0.05


def _phi(z: float) -> float:
    return 0.5 * (1 + math.erf(z / math.sqrt(2)))


def _ends_state() -> CardsState:
    """Two players, track of 6 spaces: B on 5, O W Y G stacked on 6 (G on
    top); the race deck is one G1, so a reveal ends the race with G Y W O
    B.  Player 0: 3 coins, B1 in hand; player 1: 4 coins, the B5 leg card
    and the Y winner card.  No space is free for a figure."""
    return CardsState(
        setup=CardsSetup(players=2, track="nnn"), track="nnn", sp=(5, 6, 6, 6, 6), ht=(0, 3, 0, 1, 2),
        players=(CardsPlayer(money=3, hand=("B", 1), down=(("G", 1),)),
                 CardsPlayer(money=4, leg=(("B", 5),), winner="Y")),
        legtiles=((3, 2, 2),) + ((5, 3, 2, 2),) * 4, winners="BGOW", deck=(("G", 1),), phase="turn")


def _going_on_state(leg: int = 1) -> CardsState:
    """Two players, a long track: B on 1, O W Y G stacked on 2 (G on top);
    the race deck is one G1: a reveal ends the leg with G Y W O B and the
    race goes on.  Player 0: 3 coins, B1 in hand; player 1: 4 coins, the B5
    leg card."""
    return CardsState(
        setup=CardsSetup(players=2, track="nnnnnnnnn"), track="nnnnnnnnn", sp=(1, 2, 2, 2, 2), ht=(0, 3, 0, 1, 2),
        players=(CardsPlayer(money=3, hand=("B", 1), down=(("G", 1),)), CardsPlayer(money=4, leg=(("B", 5),))),
        legtiles=((3, 2, 2),) + ((5, 3, 2, 2),) * 4, deck=(("G", 1),), phase="turn", leg=leg)


def test_the_chances_of_a_race_that_ends_in_the_leg_by_hand():
    """The reveal ends the race (G Y W O B): player 1 has 4 - 1 (B5) + 3
    (Y winner card, Y 2nd) = 6 coins.  Player 0 (3 coins) wins with G's
    winner card (+7: 10) or leg card (+5: 8), ties with the O loser card
    (+3: 6, half a win), loses with a reveal alone (3: the chance now).
    After the hand card (B G Y W O) player 1 has 4 + 5 - 1 = 8: the B
    winner card (10) wins, B's leg card (now 3: 6) loses."""
    frame = step_advice(_ends_state(), 0, seed=1, precision=PRECISION, objective="win")
    win = dict(zip(frame.action, frame.win))
    assert win["winner:G+reveal"] == 1.0 and win["leg:G+reveal"] == 1.0
    assert win["loser:O+reveal"] == 0.5
    assert win["reveal"] == 0.0 and win["reveal+best"] == 0.0  # the reveal ends the leg: no bet after it
    assert win["hand+winner:B"] == 1.0 and win["hand+leg:B"] == 0.0 and win["hand"] == 0.0
    assert frame.attrs["win_now"] == 0.0 and frame.attrs["objective"] == "win"
    assert frame.attrs["assumptions"] == []  # the table gives the other player and the leg
    assert frame.win.iloc[0] == 1.0


@pytest.mark.parametrize("leg", [1, 3])
def test_the_chances_of_a_race_that_goes_on_by_hand(leg):
    """The reveal ends the leg, not the race.  Player 1's B5 pays -1: 3
    coins.  Player 0 after a reveal alone: 3 (margin 0: the chance now,
    1/2); with G's leg card (5) 8 (+5); with B's (3) 2 (-1); with Y's (5,
    Y 2nd) 4 (+1): ``Phi(margin / spread)``, the spread of the leg
    played."""
    spread = SPREAD[leg - 1]
    frame = step_advice(_going_on_state(leg), 0, seed=1, precision=PRECISION, objective="win")
    win = dict(zip(frame.action, frame.win))
    assert frame.attrs["win_now"] == pytest.approx(0.5) and frame.attrs["spread"] == spread
    assert win["reveal"] == pytest.approx(0.5)
    assert win["leg:G+reveal"] == pytest.approx(_phi(5 / spread))
    assert win["leg:B+reveal"] == pytest.approx(_phi(-1 / spread))
    assert win["leg:Y+reveal"] == pytest.approx(_phi(1 / spread))


def test_a_position_states_what_it_assumes_of_the_others():
    """A position string does not give the other players' money and bets
    nor the leg: each other player holds the start money (3) and no bets,
    leg 1, said in ``attrs["assumptions"]``.  After a reveal the table's
    rival (4 coins, B5 paying -1 with B last) has the assumed rival's 3
    coins: the chances of the reveals are the table's.  Given as
    ``rivals`` and ``leg``, the table's figures are used."""
    state = _going_on_state()
    pos = state.position(0)
    bare = cards_best(pos, seed=1, precision=PRECISION, progress=False)
    assert bare.attrs["assumptions"] == ["the other players hold 3 coins and no bets", "leg 1 is being played"]
    table = step_advice(state, 0, seed=1, precision=PRECISION, objective="win")
    reveals = [a for a, r in zip(table.action, table.race) if r == "reveal"]
    assert len(reveals) > 5
    assert [dict(zip(bare.action, bare.win))[a] for a in reveals] == pytest.approx(
        [dict(zip(table.action, table.win))[a] for a in reveals])
    richer = cards_best(pos, seed=1, precision=PRECISION, progress=False, rivals=[CardsPlayer(money=9)], leg=2)
    assert richer.attrs["assumptions"] == [] and richer.attrs["spread"] == SPREAD[1]
    assert dict(zip(richer.action, richer.win))["reveal"] == pytest.approx(_phi(-6 / SPREAD[1]))


def test_win_ranks_by_the_chance_and_ev_by_coins():
    """``objective="win"`` (default): rows by the chance of winning, chances
    within ``WIN_TIE`` by EV; ``"ev"``: the EV order, no ``win`` column;
    ``chances=True``: the same chances beside the EV order.  The figures
    are the same whichever objective ranks them."""
    pos = _going_on_state().position(0)
    win = cards_best(pos, seed=1, precision=PRECISION, progress=False)
    ev = cards_best(pos, seed=1, precision=PRECISION, progress=False, objective="ev")
    both = cards_best(pos, seed=1, precision=PRECISION, progress=False, objective="ev", chances=True)
    assert win.attrs["objective"] == "win" and ev.attrs["objective"] == "ev" and both.attrs["objective"] == "ev"
    assert "win" not in ev.columns and "win_now" not in ev.attrs
    key = np.round(win.win.to_numpy() / WIN_TIE)
    assert (np.diff(key) <= 0).all()
    for k in np.unique(key):  # within a level of chances, by EV
        assert win.ev[key == k].is_monotonic_decreasing
    assert list(both.action) == list(ev.action) and list(both.ev) == list(ev.ev)
    assert dict(zip(both.action, both.win)) == dict(zip(win.action, win.win))
    assert both.attrs["win_now"] == win.attrs["win_now"]
    assert list(win.action) != list(ev.action)  # here the two orders differ
    with pytest.raises(AdvisorError, match="objective must be one of win, ev, not 'coins'"):
        cards_best(pos, objective="coins")


def test_a_bet_taken_leaves_the_race_actions_with_their_chances():
    """Once the bet of the turn is taken, the step's advice lists the race
    actions alone with their chances (the bet held), ranked by them."""
    from advisor.cards.game import apply

    state = apply(_going_on_state(), "leg:G")
    frame = step_advice(state, 0, seed=1, precision=PRECISION, objective="win")
    assert set(frame.bet) == {""} and "reveal" in set(frame.action)
    assert dict(zip(frame.action, frame.win))["reveal"] == pytest.approx(_phi(5 / SPREAD[0]))
    assert (np.diff(np.round(frame.win.to_numpy() / WIN_TIE)) <= 0).all() and frame.attrs["objective"] == "win"


def test_camelup_best_prints_and_gives_the_chances(capsys):
    from advisor.cli.command import main

    text = str(_going_on_state().position(0))
    argv = ["best", text, "--seed", "1", "--precision", str(PRECISION)]
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[2] == "Assumed (a position, not a game record): the other players hold 3 coins and no bets; " \
                     "leg 1 is being played."
    assert out[3] == f"Your chance of winning: 50% now, {100 * _phi(5 / SPREAD[0]):.0f}% after leg:G+reveal."
    assert out[4] == "  turn                       timing      win      EV"
    assert out[5] == f"  leg:G+reveal               before    {100 * _phi(5 / SPREAD[0]):4.1f}%  +5.000"
    assert out[-1].startswith("win: your chance of winning the game after the turn")
    assert main(argv + ["--objective", "ev"]) == 0
    ev = capsys.readouterr().out
    assert "win" not in ev and "  turn                       timing      EV" in ev
    assert main(argv + ["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["objective"] == "win" and data["win_now"] == pytest.approx(0.5)
    assert data["moves"][0]["action"] == "leg:G+reveal" and data["moves"][0]["win"] == pytest.approx(_phi(5 / 9.8))
    assert data["assumptions"] == ["the other players hold 3 coins and no bets", "leg 1 is being played"]
    assert main(argv + ["--json", "--objective", "ev"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["objective"] == "ev" and "win_now" not in data and "win" not in data["moves"][0]


def test_after_the_race_action_now_is_pass():
    """``next:1`` (the race action is played): the bets now and ``pass``;
    the chance now is that of ``pass`` (the EVs' zero), and with the deck
    alone to end the leg (``others="reveal"``: G Y W O B) G's leg card
    (margin +5) is worth ``Phi(5 / 9.8)``."""
    frame = cards_best(str(_going_on_state().position(0)) + " next:1", seed=1, precision=PRECISION, progress=False,
                       others="reveal")
    win = dict(zip(frame.action, frame.win))
    assert frame.attrs["win_now"] == win["pass"] == pytest.approx(0.5)
    assert win["leg:G"] == pytest.approx(_phi(5 / SPREAD[0])) and frame.action.iloc[0] == "leg:G"


def test_a_game_record_gives_the_table_to_the_chances(tmp_path, capsys):
    """``camelup best CARDS.jsonl --turn T``: the chances of the player to
    act against the other players' money and bets at the table (nothing
    assumed), ranked by them; ``--objective ev`` ranks by EV."""
    from advisor.cards.bots import play_cards_game
    from advisor.cards.record import write_cards_records
    from advisor.cli.command import main

    record = play_cards_game(["heuristic", "random"], seed=3)
    path = tmp_path / "games.jsonl"
    write_cards_records([record], path)
    actions = [e for e in record if e.get("type") == "action"]
    turn = next(i for i, e in enumerate(actions) if not e["action"].startswith("build"))
    argv = ["best", str(path), "--turn", str(turn), "--seed", "1", "--precision", str(PRECISION)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Your chance of winning: " in out and "Assumed" not in out and "timing      win      EV" in out
    assert main(argv + ["--json", "--objective", "ev"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["objective"] == "ev" and "win" not in data["moves"][0]


@pytest.mark.parametrize("kwargs, message", [
    ({"rivals": []}, "rivals: one per other player, 1 for 2 players (given 0)"),
    ({"rivals": [CardsPlayer(money=3)] * 2}, "rivals: one per other player, 1 for 2 players (given 2)"),
    ({"leg": 0}, "leg: the leg being played, 1 or more (given 0)"),
])
def test_rivals_not_one_per_other_player_or_a_leg_below_one_are_refused_before_any_work(kwargs, message, monkeypatch):
    import advisor.cards.best as best

    pos = _going_on_state().position(0)
    assert pos.players == 2
    monkeypatch.setattr(best, "cards_turns", lambda *a, **k: pytest.fail("computed"))
    with pytest.raises(ValueError, match=re.escape(message)):
        best.cards_best(pos, seed=1, rivals=kwargs.get("rivals"), leg=kwargs.get("leg"))


def _four_players_state() -> CardsState:
    """:func:`_going_on_state` with two more players of 3 coins and no bets
    (a race deck of 4 x 3 cards)."""
    s = _going_on_state()
    return dataclasses.replace(s, setup=CardsSetup(players=4, track="nnnnnnnnn", shown=1, down=2),
                               players=s.players + (CardsPlayer(money=3), CardsPlayer(money=3)))


def test_a_race_that_goes_on_is_weighed_against_every_other_player():
    """Four players, the race goes on after the reveal (G Y W O B): player
    0 keeps 3 coins; player 1 has 4 - 1 (the B5 card, B last) = 3, players
    2 and 3 hold 3 and no bets.  Level with all three, the chance is a
    quarter (each player's money the same normal change), not the half a
    comparison with the richest other player alone gave; three coins ahead
    of everyone it is E_z Phi(3 / sigma + z)^3, sigma = spread / sqrt(2)."""
    state = _four_players_state()
    pos = state.position(0)
    rivals = list(state.players[1:])
    level = cards_best(pos, seed=1, precision=PRECISION, progress=False, rivals=rivals, leg=2)
    assert dict(zip(level.action, level.win))["reveal"] == pytest.approx(0.25, abs=1e-6)
    richer = dataclasses.replace(pos, money=6)
    ahead = cards_best(richer, seed=1, precision=PRECISION, progress=False, rivals=rivals, leg=2)
    z, w = np.polynomial.hermite_e.hermegauss(32)
    sigma = SPREAD[1] / math.sqrt(2)
    want = sum(wk * (0.5 * (1 + math.erf((3 / sigma + zk) / math.sqrt(2)))) ** 3 for zk, wk in zip(z, w)) / w.sum()
    assert dict(zip(ahead.action, ahead.win))["reveal"] == pytest.approx(want, abs=1e-6)
    assert 0.25 < want < _phi(3 / SPREAD[1])  # ahead of three is less sure than ahead of one


def test_the_margin_bot_keeps_the_richest_other_player_model_its_duels_measured():
    """The advice weighs every other player; ``against="richest"`` (the
    margin bot's) sets the mover against the richest alone: level with
    three others is then Phi(0) = 1/2.  Any other value is refused."""
    from advisor.cards.advice import cards_turns
    from advisor.cards.bots import make_cards_bot
    from advisor.cards.endgame import turn_win_chances

    state = _four_players_state()
    pos = state.position(0)
    _, turns = cards_turns(pos, seed=1, precision=PRECISION, progress=False)
    rivals = list(state.players[1:])
    assert turn_win_chances(turns, pos, rivals, SPREAD[1], "richest")["reveal"] == pytest.approx(0.5)
    assert turn_win_chances(turns, pos, rivals, SPREAD[1])["reveal"] == pytest.approx(0.25, abs=1e-6)
    with pytest.raises(ValueError, match="against"):
        turn_win_chances(turns, pos, rivals, SPREAD[1], "nobody")
    assert make_cards_bot("margin").against == "richest" and make_cards_bot("shark").against == "all"

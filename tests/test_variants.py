"""Rule variants end to end: a house rule read from JSON, game states and
games under it, and the valuation (``best_moves`` and the bots'
``fast_values``) changing exactly as hand-worked figures say.

The positions are chosen so that every figure can be worked out by hand:
one roll is left in the leg, so the leg has a handful of equally likely
outcomes, and where overall cards are valued the race must end with that
roll (the race odds are then exact).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from advisor.valuation.engine import best_moves
from advisor.valuation.engine import fast_values
from advisor.game import Game, RecordError, replay
from advisor.rules import turn as core
from advisor.rules.actions import Roll
from advisor.rules.editions import FIRST, SECOND, RulesError, parse_rules_text, rules_from_json
from advisor.rules.state import GameState, StateError


def _ev(frame, action: str) -> float:
    return float(frame.set_index("action").loc[action, "ev"])


def _fast(state, player=0) -> dict[str, float]:
    values = fast_values(state, player)
    return dict(zip(values.actions, map(float, values.ev)))


def _close(value: float, fraction: Fraction) -> bool:
    return value == pytest.approx(float(fraction), abs=1e-12)


# --------------------------------------------------------------------------
# A variant without a money floor (negative money allowed)
# --------------------------------------------------------------------------

# First edition, one roll left: G's die.  G moves from 8 to 9, 10 (onto B,
# so on top of it) or 11, each with probability 1/3:
#   G rolls 1: B 1st, G 2nd;  G rolls 2 or 3: G 1st, B 2nd.
# So P(G 1st) = 2/3, P(G 2nd) = 1/3; P(B 1st) = 1/3, P(B 2nd) = 2/3; O, Y, W
# are 3rd, 4th, 5th whatever happens.
NO_FLOOR_BOARD = "first 10:B 8:G 6:O 4:Y 2:W dice:G legtiles:O32"
NO_FLOOR = FIRST.with_rules("nofloor", money_floor=None)


def _broke_state(rules, money: int = 0) -> GameState:
    # player 0 holds the O5 tile (O is 3rd for sure: it pays -1)
    return GameState.from_json({"board": NO_FLOOR_BOARD, "rules": rules.rules_json(),
                                "players": [{"money": money, "leg_tiles": ["O5"]}, {}, {}, {}]})


def test_without_a_money_floor_every_penalty_counts():
    # Standard rules (floor 0), money 0 and a sure -1 already held: the leg
    # settles at max(0, 0 - 1 + X) against max(0, 0 - 1) = 0 without the action.
    #   leg:G (5): 2/3 * max(0, -1 + 5) + 1/3 * max(0, -1 + 1) = 8/3
    #   leg:B (5): 1/3 * 4 + 2/3 * 0                             = 4/3
    #   leg:Y (5): max(0, -1 - 1) = 0                             = 0
    #   pyramid:   max(0, -1 + 1) = 0                             = 0
    # Without a floor the leg settles at -1 + X against -1: the plain payout.
    #   leg:G: 2/3 * 5 + 1/3 * 1 = 11/3;  leg:B: 1/3 * 5 + 2/3 * 1 = 7/3
    #   leg:Y: -1;  leg:O (its next tile, 3): -1;  pyramid: +1
    standard, house = _broke_state(FIRST), _broke_state(NO_FLOOR)
    figures = {
        FIRST: {"leg:G": Fraction(8, 3), "leg:B": Fraction(4, 3), "leg:Y": 0, "leg:O": 0, "pyramid": 0},
        NO_FLOOR: {"leg:G": Fraction(11, 3), "leg:B": Fraction(7, 3), "leg:Y": -1, "leg:O": -1, "pyramid": 1},
    }
    for state in (standard, house):
        frame = best_moves(state, 0, race=False)
        fast = _fast(state)
        for action, want in figures[state.rules].items():
            assert _close(_ev(frame, action), Fraction(want)), (state.rules.variant, action)
            assert _close(fast[action], Fraction(want)), (state.rules.variant, action)
    # the floor column says how much the floor changed each EV: nothing without one
    floor = best_moves(house, 0, race=False).set_index("action")["floor"]
    assert (floor.abs() < 1e-12).all()
    assert _close(float(best_moves(standard, 0, race=False).set_index("action").loc["leg:Y", "floor"]),
                  Fraction(1))


def test_negative_money_is_a_state_only_without_a_floor():
    # Money -2 without a floor: every figure is the plain payout, as with money 0.
    state = _broke_state(NO_FLOOR, money=-2)
    assert state.players[0].money == -2
    fast = _fast(state)
    assert _close(fast["leg:G"], Fraction(11, 3)) and _close(fast["pyramid"], Fraction(1))
    with pytest.raises(StateError, match=r"players\[0\]\.money"):
        _broke_state(FIRST, money=-2)
    # a floor of 1: money never below it
    one = FIRST.with_rules("one", money_floor=1)
    with pytest.raises(StateError, match=r"players\[0\]\.money: must be 1\.\.10,000"):
        _broke_state(one, money=0)
    # the JSON form round-trips the variant and the negative money
    again = GameState.from_json(state.to_json())
    assert again == state and again.to_json()["rules"] == {"name": "nofloor", "money_floor": None}


def test_a_game_without_a_floor_lets_money_go_negative_and_replays():
    # Start money 0.  W (on 2) and Y (on 4) end the leg behind B and G (on 10
    # and 8, each moving at least 1; W and Y at most 3): their tiles pay -1.
    # Players 0 and 1 take W's and Y's three tiles each (-3 each), then roll
    # the five dice: player 0 three times, player 1 twice (+1 each).
    #   player 0: 0 - 3 + 3 = 0;  player 1: 0 - 3 + 2 = -1 (floor 0: 0)
    broke = FIRST.with_rules("broke", money_floor=None, start_money=0)
    floored = FIRST.with_rules("broke0", start_money=0)
    for rules, want in ((broke, [0, -1]), (floored, [0, 0])):
        game = Game("first", 2, seed=5, start=0, rules=rules, position="first 10:B 8:G 6:O 4:Y 2:W")
        for action in ("leg:W", "leg:Y") * 3 + ("pyramid",) * 5:
            game.apply(action)
        assert game.legs == 2 and game.money() == want, rules.variant
        assert game.record[0]["rules"] == rules.rules_json()
        again = replay(game.record)
        assert again.money() == want and again.rules == rules
        assert again.view(1).players[1].money == want[1]


def test_the_floor_of_the_overall_cards_follows_the_variant():
    # First edition, G on 16 with its die left: the roll ends the race, G
    # wins and W is last (exact race odds).  Player 0 has money 0 and holds
    # nothing, so the race-end money is 0.  winner:B is surely wrong:
    #   floor 0:  max(0, 0 - 1) - max(0, 0) = 0 (the penalty is free)
    #   no floor: -1
    #   floor 1 (money 1): max(1, 1 - 1) - max(1, 1) = 0
    board = "first 16:G 10:B 8:O 4:Y 2:W dice:G"
    for rules, money, want in ((FIRST, 0, 0), (NO_FLOOR, 0, -1), (FIRST.with_rules("one", money_floor=1), 1, 0)):
        state = GameState.from_json({"board": board, "rules": rules.rules_json(),
                                     "players": [{"money": money}, {}, {}]})
        frame = best_moves(state, 0, seed=1, denial=False)
        assert _close(_ev(frame, "winner:B"), Fraction(want)), rules.variant
        assert _close(_fast(state)["winner:B"], Fraction(want)), rules.variant
        assert _close(_ev(frame, "winner:G"), Fraction(8)), rules.variant


# --------------------------------------------------------------------------
# The overall ladder 8/5/3/1
# --------------------------------------------------------------------------


def test_a_ladder_8_5_3_1_pays_one_coin_to_the_fourth_right_card():
    # The same sure race end (G wins, W is last).  Players 1, 2, 3 have
    # placed G cards on the winner pile (colours known), player 4 a W card
    # on the loser pile.  Player 0 (money 3, no floor in reach):
    #   winner:G is the 4th right card: 2 (8/5/3/2), 1 (8/5/3/1)
    #   loser:W is the 2nd right card: 5 under both
    #   winner:B, loser:Y are wrong: -1 under both
    ladder = FIRST.with_rules("ladder", pile_payouts=[8, 5, 3, 1])
    data = {"board": "first 16:G 10:B 8:O 4:Y 2:W dice:G", "players": 5,
            "winner_pile": [{"player": p, "colour": "G"} for p in (1, 2, 3)],
            "loser_pile": [{"player": 4, "colour": "W"}]}
    for rules, fourth in ((FIRST, 2), (ladder, 1)):
        state = GameState.from_json({**data, "rules": rules.rules_json()})
        frame = best_moves(state, 0, seed=1, denial=False)
        fast = _fast(state)
        for action, want in (("winner:G", fourth), ("loser:W", 5), ("winner:B", -1), ("loser:Y", -1)):
            assert _close(_ev(frame, action), Fraction(want)), (rules.variant, action)
            assert _close(fast[action], Fraction(want)), (rules.variant, action)


def test_the_ladder_is_scored_by_a_whole_game():
    ladder = SECOND.with_rules("ladder", pile_payouts=[8, 5, 3, 1])
    from advisor.rules.scoring import overall_rewards
    from advisor.rules.state import PileCard

    pile = tuple(PileCard(p, "G") for p in range(4))
    assert overall_rewards(ladder, 4, [(pile, "G")]) == [8, 5, 3, 1]
    assert overall_rewards(SECOND, 4, [(pile, "G")]) == [8, 5, 3, 2]


# --------------------------------------------------------------------------
# Unlimited leg bets: 5/3/2, then tiles of 0 (the leader's pays nothing)
# --------------------------------------------------------------------------

UNLIMITED = SECOND.with_rules("unlimited", leg_stack=[5, 3, 2], leg_unlimited=0)
# Second edition, dice G and B left: one roll (1 die stays), 6 equally likely
# outcomes (die x face 1..3):
#   G 1: G on 9, B on 10: B 1st, G 2nd     B 1, 2, 3: B 1st, G 2nd
#   G 2: G onto B (10): G 1st, B 2nd
#   G 3: G on 11: G 1st, B 2nd
# P(G 1st) = 2/6 = 1/3, P(G 2nd) = 2/3; P(B 1st) = 2/3, P(B 2nd) = 1/3.
UNLIMITED_BOARD = "10:B 8:G 6:P 4:R 2:Y 15:w 16:k dice:GB legtiles:G,B2"


def test_unlimited_leg_bets_offer_a_zero_tile_once_a_stack_is_empty():
    # leg:G, G's stack empty: a 0 tile: 0 * 1/3 + 1 * 2/3 = 2/3
    # leg:B, its last tile 2: 2 * 2/3 + 1 * 1/3 = 5/3
    # leg:P, its top tile 5: P is 3rd whatever happens: -1
    state = GameState.from_json({"board": UNLIMITED_BOARD, "rules": UNLIMITED.rules_json()})
    frame = best_moves(state, 0, race=False)
    fast = _fast(state)
    for action, want in (("leg:G", Fraction(2, 3)), ("leg:B", Fraction(5, 3)), ("leg:P", Fraction(-1))):
        assert _close(_ev(frame, action), want), action
        assert _close(fast[action], want), action
    assert int(frame.set_index("action").loc["leg:G", "value"]) == 0
    # the standard rules offer no G tile there
    standard = GameState.from_board(UNLIMITED_BOARD)
    assert "leg:G" not in map(str, core.legal_actions(standard))
    assert "leg:G" in map(str, core.legal_actions(state))


def test_unlimited_tiles_are_held_taken_and_paid():
    state = GameState.from_json({"board": UNLIMITED_BOARD, "rules": UNLIMITED.rules_json(),
                                 "players": [{"leg_tiles": ["G5", "G3", "G0", "G0"]}, {"leg_tiles": ["G2"]},
                                             {"leg_tiles": ["B5"]}, {"leg_tiles": ["B3"]}]})
    # under the standard rules the extra G0 tiles cannot be held
    with pytest.raises(StateError, match=r"players\[0\]\.leg_tiles"):
        GameState.from_json({**state.to_json(), "rules": None})
    after = core.apply(core.apply(state, "leg:G"), "leg:G")
    assert after.players[0].leg_tiles[-1] == ("G", 0) and after.players[1].leg_tiles[-1] == ("G", 0)
    assert after.position.legtiles[after.position.racing.index("G")] == ()
    # the holdings count in the valuation: player 2 (to move) values leg:G as before
    moved = GameState.from_json({**after.to_json(), "to_move": 2})
    assert _close(_fast(moved, 2)["leg:G"], Fraction(2, 3))
    # and the leg scoring pays them: roll G 3 (G 1st, B 2nd): G tiles pay 5, 3, 0, 0, (0) and 2, 0; B tiles 1
    end = core.apply(moved, "pyramid", Roll("G", 3))
    assert [p.money for p in end.players] == [3 + 5 + 3 + 0 + 0 + 0 + 1 * 0, 3 + 2 + 0, 3 + 1 + 1, 3 + 1]


# --------------------------------------------------------------------------
# Reading variants: errors name the value
# --------------------------------------------------------------------------


@pytest.mark.parametrize("data, where", [
    ({"name": "x", "money_floor": "none"}, "rules.money_floor"),
    ({"name": "x", "pile_payouts": []}, "rules.pile_payouts"),
    ({"money_floor": None}, "rules.name"),
    ("house", "rules"),
])
def test_a_bad_rules_key_names_the_value(data, where):
    with pytest.raises(StateError) as info:
        GameState.from_json({"board": UNLIMITED_BOARD, "rules": data})
    assert info.value.where == where


def test_a_record_with_bad_rules_is_refused():
    game = Game("second", 3, seed=2, rules=UNLIMITED)
    record = [dict(game.record[0], rules={"name": "x", "leg_stack": [10]})]
    with pytest.raises(RecordError, match="leg_stack"):
        replay(record)


def test_inline_rules_text_reads_as_the_json_form():
    assert rules_from_json("first", parse_rules_text("name=nofloor money_floor=none")) == NO_FLOOR
    with pytest.raises(RulesError, match="pile_payouts"):
        parse_rules_text("pile_payouts=8,x")


def test_what_2nd_and_the_rest_pay_follows_the_variant_in_both_valuations():
    # The board of the unlimited test under rules paying +2 for 2nd and 0
    # for 3rd or worse (valued after the standard rules on the same board, so
    # nothing the bots remember of the board may carry the standard payouts):
    #   leg:B (2): 2 * 2/3 + 2 * 1/3 = 2   (standard: 2 * 2/3 + 1/3 = 5/3)
    #   leg:P (5): 0                       (standard: -1)
    flat = SECOND.with_rules("flat", leg_second=2, leg_other=0)
    board = "10:B 8:G 6:P 4:R 2:Y 15:w 16:k dice:GB legtiles:G,B2"
    for rules, leg_b, leg_p in ((SECOND, Fraction(5, 3), -1), (flat, Fraction(2), 0)):
        state = GameState.from_board(board, rules=rules)
        fast = _fast(state)
        frame = best_moves(state, 0, race=False)
        for action, want in (("leg:B", leg_b), ("leg:P", Fraction(leg_p))):
            assert _close(fast[action], want) and _close(_ev(frame, action), want), (rules.variant, action)


# --------------------------------------------------------------------------
# The command line: --rules (a file or inline text)
# --------------------------------------------------------------------------


def _run(capsys, *argv) -> tuple[int, str, str]:
    from advisor.cli.command import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_best_takes_rules_inline_and_from_a_file(capsys, tmp_path):
    import json

    board = "first 10:B 8:G 6:O 4:Y 2:W dice:G legtiles:O32"
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"board": board, "players": [{"money": 0, "leg_tiles": ["O5"]}, {}, {}]}))
    rules = tmp_path / "nofloor.json"
    rules.write_text(json.dumps({"name": "nofloor", "money_floor": None}))
    for source in ("name=nofloor money_floor=none", str(rules)):
        code, out, err = _run(capsys, "best", str(state), "--rules", source, "--json", "--seed", "1", "--no-denial")
        assert code == 0, err
        data = json.loads(out)
        assert data["rules"] == {"name": "nofloor", "money_floor": None}
        ev = {m["action"]: m["ev"] for m in data["moves"]}
        assert _close(ev["leg:G"], Fraction(11, 3)) and _close(ev["pyramid"], Fraction(1))
    # without --rules: the standard floor (and no rules key)
    code, out, _ = _run(capsys, "best", str(state), "--json", "--seed", "1", "--no-denial")
    data = json.loads(out)
    assert "rules" not in data and _close({m["action"]: m["ev"] for m in data["moves"]}["leg:G"], Fraction(8, 3))
    # a state whose rules key differs from --rules
    state.write_text(json.dumps({"board": board, "rules": {"name": "ladder", "pile_payouts": [8, 5, 3, 1]}}))
    code, _, err = _run(capsys, "best", str(state), "--rules", "name=nofloor money_floor=none")
    assert code == 2 and "gives its own rules" in err and err.count("\n") == 1


@pytest.mark.parametrize("rules, named", [
    ("money_floor=x", "money_floor"),
    ("name=h pile_payouts=8,5,x", "pile_payouts"),
    ("name=h money_floor=1 start_money=0", "start_money"),
    ("name=h leg_stack=5,3,12", "leg_stack"),
    ("name=h colour=red", "colour"),
    ("missing.json", "missing.json"),
])
def test_cli_bad_rules_get_one_line_naming_the_value(capsys, rules, named):
    code, out, err = _run(capsys, "odds", "1:B 2:YG 3:PR 14:w 15:k", "--leg-only", "--rules", rules)
    assert code == 2 and out == "" and err.count("\n") == 1 and named in err, err


def test_cli_odds_reads_the_board_under_the_rules(capsys):
    # a tile on space 1 is legal only where the variant lets tiles stand there
    board = "2:B 3:YG 4:PR 14:w 15:k +1"
    code, _, err = _run(capsys, "odds", board, "--leg-only")
    assert code == 2 and "+1" in err
    code, out, err = _run(capsys, "odds", board, "--leg-only", "--rules", "name=anywhere tile_spaces=1,16")
    assert code == 0, err
    assert "anywhere rules" in out


def test_cli_simulate_and_tournament_play_by_the_rules(capsys, tmp_path):
    import json

    from advisor.game import read_records

    out_file = tmp_path / "games.jsonl"
    code, _, err = _run(capsys, "simulate", "--players", "3", "--bots", "random,heuristic,random", "--games", "2",
                        "--processes", "1", "-o", str(out_file), "--rules", "name=ladder pile_payouts=8,5,3,1")
    assert code == 0, err
    records = read_records(out_file)
    assert all(r[0]["rules"] == {"name": "ladder", "pile_payouts": [8, 5, 3, 1]} for r in records)
    assert [replay(r).money() for r in records] == [r[-1]["money"] for r in records]
    code, out, err = _run(capsys, "tournament", "--players", "3", "--bots", "random,heuristic,random", "--games",
                          "2", "--processes", "1", "--json", "--rules", "name=ladder pile_payouts=8,5,3,1")
    assert code == 0, err
    assert json.loads(out)["rules"] == {"name": "ladder", "pile_payouts": [8, 5, 3, 1]}
    # resuming with other rules is refused, naming --rules
    part = tmp_path / "more.jsonl.part"
    part.write_text(out_file.read_text())
    code, _, err = _run(capsys, "simulate", "--players", "3", "--bots", "random,heuristic,random", "--games", "3",
                        "--processes", "1", "-o", str(tmp_path / "more.jsonl"), "--resume")
    assert code == 2 and "--rules" in err

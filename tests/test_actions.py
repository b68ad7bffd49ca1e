"""The actions and the rules core of a turn (advisor.rules.actions: the Action
value type; advisor.rules.turn: legality, the pure apply, and the face-down card of
unknown colour)."""

from __future__ import annotations

import re

import pytest

from advisor import Action, GameState, IllegalActionError, parse_position
from advisor.valuation.engine import legal_actions as advised_legal_actions
from advisor.game import Game, Roll, replay
from advisor.rules import turn as core
from advisor.rules.turn import UnrevealedCards
from advisor.rules.state import PileCard, PlayerState

EXAMPLE = "1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx"
# first edition: B alone on 16 and the last die is B's, so the next roll ends the race
NEAR_END = "first 16:B 1:G 2:O 3:Y 4:W dice:B"


@pytest.mark.parametrize("text", ["leg:B", "pyramid", "tile:+5", "tile:-16", "winner:G", "loser:Y", "winner:?",
                                  "loser:?", "partner:2"])
def test_parse_and_format_round_trip(text):
    action = Action.parse(text)
    assert str(action) == text
    assert Action.parse(action) is action


def test_parsed_fields():
    assert Action.parse("tile:-7") == Action("tile", space=7, sign="-")
    assert Action.parse("leg:R") == Action("leg", colour="R")
    assert Action.parse("partner:3").partner == 3
    assert Action.parse("winner:?").face_down and not Action.parse("winner:B").face_down


@pytest.mark.parametrize("text", ["", "leg", "leg:", "leg:?", "leg:BG", "tile:5", "tile:+", "tile:+x", "pyramid:1",
                                  "partner:x", "fly:B", "winner:1"])
def test_a_bad_action_names_its_token(text):
    with pytest.raises(IllegalActionError, match=re.escape(f"invalid action '{text}'")):
        Action.parse(text)


def test_the_core_lists_what_the_advisor_lists():
    for board, players in ((EXAMPLE, 4), ("1:B 2:YG 3:PR 14:w 15:k", 6)):
        state = GameState.from_board(board, players=players)
        assert [str(a) for a in core.legal_actions(state, 0)] == advised_legal_actions(state, 0)


def test_apply_is_pure_and_plays_the_action():
    state = GameState.from_board(EXAMPLE)
    before = state.to_json()
    after = core.apply(state, "leg:B")
    assert state.to_json() == before  # the state given is not changed
    assert after.players[0].leg_tiles == (("B", 5),) and after.position.legtiles[0] == (3, 2, 2)
    assert after.to_move == 1
    after = core.apply(after, "tile:-10")
    assert after.position.tile_at(10).owner == 1 and after.position.tile_at(10).sign == "-"
    after = core.apply(after, Action.parse("winner:R"))
    assert after.winner_pile == (PileCard(2, "R"),) and after.players[2].overall_cards == "BGPY"
    with pytest.raises(IllegalActionError, match="needs the roll"):
        core.apply(after, "pyramid")
    turn = core.play(after, "pyramid", Roll("G", 1))
    assert turn.state.players[3].pyramid_tiles == 1 and "G" not in turn.state.position.dice
    with pytest.raises(IllegalActionError, match="not legal"):
        core.apply(after, "tile:+1")


def test_a_face_down_card_of_unknown_colour_is_recorded_and_valued():
    state = GameState.from_board(EXAMPLE, to_move=1)
    assert "winner:?" not in advised_legal_actions(state, 1)  # never offered: its owner knows it
    after = core.apply(state, "winner:?")
    assert after.winner_pile == (PileCard(1),)
    assert after.hand_hidden(1) and after.hand_size(1) == 4  # which card left the hand is not seen
    # the same state as a view showing another player's face-down card
    view = GameState(state.position, (PlayerState(), PlayerState(overall_cards=4), PlayerState(), PlayerState()),
                     2, (PileCard(1),))
    assert after == view
    from advisor import evaluate

    assert evaluate(after, "winner:B", precision=0.05, seed=1, denial=False) == \
        evaluate(view, "winner:B", precision=0.05, seed=1, denial=False)
    # a player with no card left cannot place one
    empty = GameState.from_board(EXAMPLE, players=3, to_move=0)
    empty = GameState(empty.position, (PlayerState(overall_cards=""),) + empty.players[1:], 0)
    with pytest.raises(IllegalActionError, match="no overall card"):
        core.apply(empty, "loser:?")


def test_the_race_end_waits_for_unknown_cards_to_be_revealed():
    game = Game("first", 2, seed=0, start=0, position=NEAR_END)
    game.apply("winner:?")
    assert game.state.winner_pile == (PileCard(0),)
    with pytest.raises(UnrevealedCards, match="reveal the colour of the winner pile card 1"):
        game.apply("pyramid", Roll("B", 1))
    assert not game.finished and game.turns == 1  # nothing changed
    with pytest.raises(IllegalActionError, match="cards 0..0"):
        game.reveal("winner", 1, "B")
    game.reveal("winner", 0, "B")
    game.apply("pyramid", Roll("B", 1))
    assert game.finished and game.winner_camel == "B"
    assert game.money() == [3 + 8, 3 + 1]  # the first correct card pays 8; the roller's pyramid tile 1
    again = replay(game.record)  # the reveal line replays
    assert again.money() == game.money() and again.record == game.record


def test_a_drawn_roll_is_kept_until_the_cards_are_revealed():
    game = Game("first", 2, seed=5, start=0, position=NEAR_END)
    game.apply("loser:?")
    with pytest.raises(UnrevealedCards):
        game.apply("pyramid")  # drawn from the game's dice
    game.reveal("loser", 0, "G")
    game.apply("pyramid")  # the same roll
    assert game.finished and replay(game.record).money() == game.money()


def test_reveal_checks_the_colour():
    state = core.apply(GameState.from_board(EXAMPLE), "winner:?")
    with pytest.raises(IllegalActionError, match="one racing camel"):
        core.reveal(state, "winner", 0, "Q")
    with pytest.raises(IllegalActionError, match="piles are"):
        core.reveal(state, "middle", 0, "B")
    shown = core.reveal(state, "winner", 0, "B")
    assert shown.winner_pile == (PileCard(0, "B"),)
    with pytest.raises(IllegalActionError, match="already known"):
        core.reveal(shown, "winner", 0, "G")
    assert parse_position(EXAMPLE) == shown.position


def test_scoring_reads_its_values_from_the_rules_record():
    from advisor.rules.editions import SECOND
    from advisor.rules.scoring import leg_rewards, overall_rewards, pile_payout, settle

    assert [pile_payout(k) for k in range(6)] == [8, 5, 3, 2, 1, 1]
    house = SECOND.with_rules("house", pile_payouts=[8, 5, 3, 1], money_floor=None)
    assert [pile_payout(k, house) for k in range(6)] == [8, 5, 3, 1, 1, 1]
    assert settle(SECOND, 1, -3) == 0 and settle(house, 1, -3) == -2
    assert settle(SECOND.with_rules("one", money_floor=1), 3, -5) == 1
    cards = (PileCard(0, "B"), PileCard(1, "G"), PileCard(2, "B"), PileCard(0, "R"))
    # B wins: player 0 is paid 8 and loses 1 for R; player 1 loses 1; player 2 is paid 5
    assert overall_rewards(SECOND, 3, ((cards, "B"),)) == [7, -1, 5]
    players = (PlayerState(leg_tiles=(("B", 5), ("G", 3))), PlayerState(leg_tiles=(("P", 2),), pyramid_tiles=2))
    assert leg_rewards(SECOND, players, "BGPRY") == [5 + 1, -1 + 2]
    assert leg_rewards(SECOND.with_rules("flat", leg_second=2, leg_other=0), players, "BGPRY") == [5 + 2, 0 + 2]


@pytest.mark.parametrize("data,roll", [
    ({"die": "B", "value": 2}, Roll("B", 2)),
    ({"die": "x", "value": 3, "colour": "black"}, Roll("x", 3, "black")),
    ({"value": 1, "die": "G"}, Roll("G", 1)),
])
def test_a_roll_is_read_back_from_its_json(data, roll):
    assert Roll.from_json(data) == roll
    assert Roll.from_json(roll.to_json()) == roll
    assert roll.to_json() == data


@pytest.mark.parametrize("data,message", [
    (["B", 1], 'a roll is a JSON object {"die": D, "value": V} (and "colour" for the grey die), not list'),
    (None, 'a roll is a JSON object {"die": D, "value": V} (and "colour" for the grey die), not NoneType'),
    ({"die": "B", "value": 1, "face": 2}, "a roll has the keys die, value and colour, not 'face'"),
    ({"value": 1}, "a roll names its die ('die': a letter such as 'B')"),
    ({"die": "BG", "value": 1}, "a roll's 'die' is one letter such as 'B', not 'BG'"),
    ({"die": "", "value": 1}, "a roll's 'die' is one letter such as 'B', not ''"),
    ({"die": 3, "value": 1}, "a roll's 'die' is one letter such as 'B', not 3"),
    ({"die": "B"}, "a roll gives what the die shows ('value': 1, 2 or 3)"),
    ({"die": "B", "value": "1"}, "a roll's 'value' is a whole number, not '1'"),
    ({"die": "B", "value": True}, "a roll's 'value' is a whole number, not True"),
    ({"die": "B", "value": 1.0}, "a roll's 'value' is a whole number, not 1.0"),
    ({"die": "x", "value": 1, "colour": None}, "a roll's 'colour' is a name such as 'white', not None"),
    ({"die": "B\n" * 30, "value": 1}, "a roll's 'die' is one letter such as 'B', not " + repr("B\n" * 30)[:37] + "..."),
])
def test_a_roll_that_is_not_one_is_named_on_one_line(data, message):
    """The shape a record line's roll must have (check_entry refuses the
    same shapes); the message says what is wrong, on one line."""
    from advisor.game import check_entry

    with pytest.raises(IllegalActionError) as info:
        Roll.from_json(data)
    assert str(info.value) == message and "\n" not in str(info.value)
    line = {"type": "action", "player": 0, "action": "pyramid", "roll": data}
    assert check_entry(line) == "'roll' must be {\"die\": D, \"value\": V} (and \"colour\" for the grey die)"


def test_a_roll_of_the_right_shape_is_left_to_the_rules():
    """Whether the die is in the pyramid, its value 1..3 and the grey die's
    colour are checked when the roll is played, not when it is read."""
    from advisor.errors import AdvisorError

    game = Game("second", 3, seed=1, start=0)
    for data, message in (({"die": "Q", "value": 1}, "not in the pyramid"),
                          ({"die": "B", "value": 4}, "1, 2 or 3"),
                          ({"die": "x", "value": 1}, "grey die needs colour")):
        roll = Roll.from_json(data)
        with pytest.raises(AdvisorError, match=message):
            game.apply("pyramid", roll)
    assert game.turns == 0

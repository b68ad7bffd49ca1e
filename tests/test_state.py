"""advisor.rules.state: GameState, PlayerState, PileCard and StateError.

The JSON form and its defaults follow the module docstring of
``advisor/rules/state.py``; the rules behind the checks are docs/rules.md (board games)
(leg tile stacks 5,3,2,2 / 5,3,2, 5 pyramid tiles per leg, one overall card
per racing colour, partnerships only in the second edition with 6-8
players, player counts first 2-8 / second 3-8).
"""

import json

import pytest

from advisor import PositionError, parse_position
from advisor.rules.state import (
    DEFAULT_MONEY,
    DEFAULT_PLAYERS,
    GameState,
    PileCard,
    PlayerState,
    StateError,
)

SECOND_BOARD = "1:B 2:YG 3:PR 14:w 15:k"
MID_LEG = "1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx"  # 2 dice rolled (B, Y)
FIRST_BOARD = "first 1:BG 2:OY 3:W"


def roundtrip(state: GameState) -> GameState:
    again = GameState.from_json(state.to_json())
    assert again.to_json() == state.to_json()
    # also through the JSON text, as a file would hold it
    text = json.dumps(state.to_json())
    assert GameState.from_json(text).to_json() == state.to_json()
    return again


# ---------------------------------------------------------------- round trip

ROUND_TRIP_STATES = {
    "second-3-players-bare": {"board": SECOND_BOARD, "players": 3},
    "second-mid-leg-full": {
        # B: 5 taken; G: 5, 3, 2 taken; 2 dice rolled this leg
        "board": "1:B 2:YG 3:PR 14:w 15:k +5@1 -8@3 dice:GPRx legtiles:B322,G2",
        "players": [
            {"money": 0, "leg_tiles": ["B5", "G3"], "pyramid_tiles": 1, "overall_cards": "GPR"},
            {"money": 7, "leg_tiles": ["G5"], "overall_cards": "BGPRY"},
            {"money": 2, "pyramid_tiles": 1, "overall_cards": "BY"},
            {"money": 3, "leg_tiles": ["G2"]},
            {"money": 11},
        ],
        "to_move": 2,
        # player 0: B on the winner pile and Y on the loser pile (hand GPR);
        # player 2: three cards, colours unknown to us (hand BY)
        "winner_pile": [{"player": 2}, {"player": 0, "colour": "B"}, {"player": 2}],
        "loser_pile": [{"player": 0, "colour": "Y"}, {"player": 2}, {"player": 3, "colour": "R"}],
        "pile_model": {
            "winner": {"B": 0.1, "G": 0.2, "P": 0.3, "R": 0.25, "Y": 0.15},
            "loser": {"B": 0.0, "G": 0.5, "P": 0.5, "R": 0.0, "Y": 0.0},
        },
    },
    "second-6-players-partners": {
        "board": "1:B 2:YG 3:PR 14:w 15:k +6@5 dice:BGPx legtiles:R22",
        "players": [
            {"partner": 3, "leg_tiles": ["R5"], "pyramid_tiles": 1},
            {"partner": 5},
            {"leg_tiles": ["R3"], "pyramid_tiles": 1},
            {"partner": 0},
            {},
            {"partner": 1, "money": 0},
        ],
        "to_move": 4,
    },
    "second-8-players": {
        "board": "4:GBw 9:RPYk -2@7 +12@6 -16@0",
        "players": [{"money": m} for m in range(8)],
        "to_move": 7,
        "loser_pile": [{"player": 7, "colour": "G"}],
    },
    "first-2-players": {
        "board": "first 1:BG 2:OY 3:W +5@0 -12@1 dice:BGO legtiles:B32,O",
        "players": [
            {"money": 1, "leg_tiles": ["B5", "O3"], "pyramid_tiles": 2, "overall_cards": "GOY"},
            {"money": 5, "leg_tiles": ["O5", "O2"], "overall_cards": "GOYW"},
        ],
        "to_move": 1,
        "winner_pile": [{"player": 0, "colour": "W"}, {"player": 1}],
        "loser_pile": [{"player": 0, "colour": "B"}],
        "pile_model": {"loser": {"B": 0.2, "G": 0.2, "O": 0.2, "Y": 0.2, "W": 0.2}},
    },
    "first-8-players": {
        "board": FIRST_BOARD + " +7@3",
        "players": 8,
        "to_move": 5,
    },
}


@pytest.mark.parametrize("name", sorted(ROUND_TRIP_STATES))
def test_json_round_trip(name):
    state = GameState.from_json(ROUND_TRIP_STATES[name])
    again = roundtrip(state)
    assert again == state


def test_round_trip_keeps_the_details():
    state = GameState.from_json(ROUND_TRIP_STATES["second-mid-leg-full"])
    data = state.to_json()
    assert data["board"] == "1:B 2:YG 3:PR 14:w 15:k +5@1 -8@3 dice:GPRx legtiles:B322,G2"
    assert data["players"][0] == {
        "money": 0, "leg_tiles": ["B5", "G3"], "pyramid_tiles": 1, "overall_cards": "GPR", "partner": None,
    }
    # hands not given stay unspecified in the state; hand() derives them
    assert data["players"][3]["overall_cards"] is None and data["players"][4]["overall_cards"] is None
    assert state.hand(3) == "BGPY"  # every colour less the R on the loser pile
    assert state.hand(4) == "BGPRY"
    assert data["to_move"] == 2
    assert data["winner_pile"] == [{"player": 2}, {"player": 0, "colour": "B"}, {"player": 2}]
    assert data["loser_pile"][2] == {"player": 3, "colour": "R"}
    assert data["pile_model"]["winner"]["P"] == 0.3
    assert state.players[0].leg_tiles == (("B", 5), ("G", 3))
    assert state.winner_pile[1] == PileCard(0, "B")
    assert state.winner_pile[0] == PileCard(2)
    partners = GameState.from_json(ROUND_TRIP_STATES["second-6-players-partners"])
    assert [p.partner for p in partners.players] == [3, 5, None, 0, None, 1]


def test_round_trip_of_a_state_built_in_python():
    state = GameState(
        parse_position("first 1:BG 2:OY 3:W dice:GOYW legtiles:W32"),
        (PlayerState(money=4, leg_tiles=(("W", 5),), pyramid_tiles=1, overall_cards="BGOY"), PlayerState(),
         PlayerState(money=0)),
        to_move=2,
        winner_pile=(PileCard(1, "O"),),
        loser_pile=(PileCard(0), PileCard(2, "W")),
    )
    assert state.hand(1) == "BGYW" and state.hand(0) == "BGOY"
    assert state.hand(2) == "BGOY"
    assert roundtrip(state) == state


def test_round_trip_of_the_docstring_example():
    """The example of the state.py docstring: player 2's card on the winner
    pile has an unknown colour and player 2's hand is left to the default.
    BUG: the default hand is all five colours, so to_json() writes 5 cards
    in hand plus 1 on the pile, which from_json() then rejects ('1 cards on
    the piles plus 5 in hand exceed 5')."""
    example = {
        "board": "1:B 2:YG 3:PR 14:w 15:k +5@1 dice:GPRx legtiles:B322",
        "players": [
            {"money": 3, "leg_tiles": ["B5"], "pyramid_tiles": 1, "overall_cards": "GPRY", "partner": None},
            {"money": 4}, {"money": 2}, {"money": 3},
        ],
        "to_move": 0,
        "winner_pile": [{"player": 2}, {"player": 0, "colour": "B"}],
        "loser_pile": [],
        "pile_model": {"winner": {"B": 0.2, "G": 0.2, "P": 0.2, "R": 0.2, "Y": 0.2}},
    }
    state = GameState.from_json(example)
    roundtrip(state)


def test_face_down_cards_of_unknown_colour_leave_the_hand_unspecified():
    """A player with a face-down card of unknown colour and no explicit hand:
    the stored state keeps the hand unspecified (so it round-trips), and
    advising that player asks for their hand instead of guessing it."""
    state = GameState.from_json({"board": SECOND_BOARD, "loser_pile": [{"player": 1}]})
    assert state.players[1].overall_cards is None and state.unknown_cards(1) == 1
    assert GameState.from_json(state.to_json()).to_json() == state.to_json()
    with pytest.raises(StateError) as info:
        state.check_player(1)
    assert info.value.where == "players[1].overall_cards"
    assert state.check_player(0) == 0
    explicit = GameState.from_json({"board": SECOND_BOARD, "players": [{}, {"overall_cards": "BGP"}, {}],
                                    "loser_pile": [{"player": 1}]})
    assert explicit.check_player(1) == 1 and explicit.hand(1) == "BGP"


# ---------------------------------------------------------------- load

def test_load_from_file(tmp_path):
    data = ROUND_TRIP_STATES["second-mid-leg-full"]
    path = tmp_path / "state.json"
    path.write_text(json.dumps(data))
    state = GameState.load(path)
    assert state.to_json() == GameState.from_json(data).to_json()
    assert GameState.load(str(path)).to_json() == state.to_json()


def test_load_unreadable_path(tmp_path):
    with pytest.raises(StateError) as info:
        GameState.load(tmp_path / "missing.json")
    assert "missing.json" in str(info.value)
    with pytest.raises(StateError):
        GameState.load(tmp_path)  # a directory


@pytest.mark.parametrize("text", ["{bad", "", '{"board": "1:B",}', "[1, 2"])
def test_load_invalid_json(tmp_path, text):
    path = tmp_path / "state.json"
    path.write_text(text)
    with pytest.raises(StateError) as info:
        GameState.load(path)
    assert "JSON" in str(info.value)


def test_load_non_utf8_file(tmp_path):
    """A file that is not text is user error. BUG: read_text() raises
    UnicodeDecodeError (a plain ValueError) instead of StateError, so the CLI
    shows a traceback."""
    path = tmp_path / "state.json"
    path.write_bytes(b"\xff\xfe\x00{")
    with pytest.raises(StateError):
        GameState.load(path)


@pytest.mark.parametrize("data", ["[1, 2]", '"board"', "3", "null"])
def test_from_json_needs_an_object(data):
    with pytest.raises(StateError):
        GameState.from_json(data)


# ---------------------------------------------------------------- defaults

def test_from_board_defaults():
    state = GameState.from_board(MID_LEG)
    assert state.n_players == DEFAULT_PLAYERS == 4
    assert state.to_move == 0
    assert str(state.position) == MID_LEG
    for p in state.players:
        assert p.money == DEFAULT_MONEY == 3
        assert p.leg_tiles == () and p.pyramid_tiles == 0 and p.partner is None
        assert p.overall_cards is None
    assert [state.hand(i) for i in range(4)] == ["BGPRY"] * 4
    assert state.winner_pile == () and state.loser_pile == ()
    assert state.pile_model is None
    assert "pile_model" not in state.to_json()


def test_from_board_accepts_a_position_and_player_count():
    state = GameState.from_board(parse_position(FIRST_BOARD), players=2, to_move=1)
    assert state.n_players == 2 and state.to_move == 1
    assert all(state.hand(i) == "BGOYW" for i in range(state.n_players))


def test_from_json_defaults_match_from_board():
    assert GameState.from_json({"board": MID_LEG}).to_json() == GameState.from_board(MID_LEG).to_json()
    # a partial player list: the players listed are the players
    state = GameState.from_json({"board": MID_LEG, "players": [{"money": 5}, {}, {"pyramid_tiles": 1}]})
    assert state.n_players == 3
    assert [p.money for p in state.players] == [5, 3, 3]
    assert state.players[2].pyramid_tiles == 1


def test_default_hand_excludes_the_players_own_pile_cards():
    state = GameState.from_json({
        "board": SECOND_BOARD,
        "winner_pile": [{"player": 1, "colour": "G"}, {"player": 2, "colour": "B"}],
        "loser_pile": [{"player": 1, "colour": "Y"}],
    })
    assert [state.hand(i) for i in range(4)] == ["BGPRY", "BPR", "GPRY", "BGPRY"]
    direct = GameState(parse_position(SECOND_BOARD), winner_pile=(PileCard(3, "R"),))
    assert direct.hand(3) == "BGPY"
    assert direct.hand(0) == "BGPRY"


def test_explicit_empty_hand_is_kept():
    state = GameState.from_json({"board": SECOND_BOARD, "players": [{"overall_cards": ""}, {}, {}]})
    assert state.players[0].overall_cards == ""
    assert roundtrip(state).players[0].overall_cards == ""


def test_hidden_hand_json_and_queries():
    """``"overall_cards": 3``: three cards of unknown colours; the candidates
    are the colours not known to be on a pile as theirs."""
    data = {"board": SECOND_BOARD, "players": [{"overall_cards": "GPY"}, {"overall_cards": 3}, {"overall_cards": 5},
                                               {"overall_cards": 0}],
            "winner_pile": [{"player": 1}, {"player": 0, "colour": "B"}, {"player": 3, "colour": "Y"}],
            "loser_pile": [{"player": 1, "colour": "G"}, {"player": 0, "colour": "R"},
                           {"player": 3}, {"player": 3}, {"player": 3}, {"player": 3}]}
    state = GameState.from_json(data)
    assert state.players[1].overall_cards == 3 and state.players[2].overall_cards == 5
    assert [state.hand_hidden(i) for i in range(4)] == [False, True, True, True]
    assert [state.hand_size(i) for i in range(4)] == [3, 3, 5, 0]
    assert state.hand_candidates(1) == "BPRY"  # its G is known on the loser pile
    assert state.hand_candidates(2) == "BGPRY" and state.hand_candidates(3) == "BGPR"
    assert state.hand_candidates(0) == "GPY" and state.hand(0) == "GPY"
    for i in (1, 2, 3):
        with pytest.raises(StateError) as info:
            state.hand(i)
        assert info.value.where == f"players[{i}].overall_cards" and "hidden" in str(info.value)
    # the advised player's own hand cannot be hidden
    assert state.check_player(0) == 0
    with pytest.raises(StateError) as info:
        state.check_player(1)
    assert info.value.where == "players[1].overall_cards" and "hidden" in str(info.value)
    back = roundtrip(state)
    assert [p.overall_cards for p in back.players] == ["GPY", 3, 5, 0]
    assert json.loads(json.dumps(state.to_json()))["players"][1]["overall_cards"] == 3
    # Python: PlayerState(overall_cards=k)
    direct = GameState(parse_position(FIRST_BOARD), (PlayerState(), PlayerState(overall_cards=4)),
                       loser_pile=(PileCard(1),))
    assert direct.hand_size(1) == 4 and direct.hand_candidates(1) == "BGOYW"


def test_existing_hand_forms_keep_their_meaning():
    """A string and a missing hand mean what they meant before hidden hands
    existed (not hidden; the default is every colour not known placed)."""
    state = GameState.from_json({"board": SECOND_BOARD, "players": [{"overall_cards": "BG"}, {}, {}],
                                 "winner_pile": [{"player": 1}, {"player": 2, "colour": "P"}]})
    assert not any(state.hand_hidden(i) for i in range(3))
    assert [state.hand(i) for i in range(3)] == ["BG", "BGPRY", "BGRY"]
    assert [state.hand_size(i) for i in range(3)] == [2, 5, 4]


# ---------------------------------------------------------------- errors

def P(n, **first):
    """n default players, the first with the given keys."""
    return [dict(first)] + [{} for _ in range(n - 1)]


BAD_STATES = [
    # board
    ("board-token", {"board": "1:B 2:YG 3:PR 14:w 15:k 9:Q"}, "board", "invalid token '9:Q'"),
    ("board-missing-camel", {"board": "1:B 2:YG 3:P 14:w 15:k"}, "board", "'R' is missing"),
    ("board-missing", {"players": 4}, "board", "required"),
    ("board-not-string", {"board": 5}, "board", "board string"),
    # player counts
    ("2-players-second", {"board": SECOND_BOARD, "players": 2}, "players", "3-8"),
    ("9-players-second", {"board": SECOND_BOARD, "players": [{}] * 9}, "players", "not 9"),
    ("9-players-first", {"board": FIRST_BOARD, "players": 9}, "players", "2-8"),
    ("1-player-first", {"board": FIRST_BOARD, "players": [{}]}, "players", "not 1"),
    ("players-not-list", {"board": SECOND_BOARD, "players": "four"}, "players", "list"),
    ("player-not-object", {"board": SECOND_BOARD, "players": [{}, 3, {}]}, "players[1]", "object"),
    # to_move
    ("to-move-too-big", {"board": SECOND_BOARD, "to_move": 4}, "to_move", "0..3"),
    ("to-move-negative", {"board": SECOND_BOARD, "to_move": -1}, "to_move", "0..3"),
    ("to-move-string", {"board": SECOND_BOARD, "to_move": "1"}, "to_move", "0..3"),
    # tile owner
    ("tile-owner", {"board": SECOND_BOARD + " +5@3", "players": 3}, "board", "+5@3"),
    # money
    ("money-negative", {"board": SECOND_BOARD, "players": [{}, {"money": -1}, {}]}, "players[1].money", "-1"),
    ("money-float", {"board": SECOND_BOARD, "players": [{}, {"money": 2.5}, {}]}, "players[1].money", "2.5"),
    ("money-string", {"board": SECOND_BOARD, "players": [{}, {"money": "3"}, {}]}, "players[1].money", "'3'"),
    ("money-bool", {"board": SECOND_BOARD, "players": [{}, {"money": True}, {}]}, "players[1].money", "True"),
    ("money-null", {"board": SECOND_BOARD, "players": [{}, {"money": None}, {}]}, "players[1].money", "None"),
    # leg tiles
    ("leg-colour", {"board": SECOND_BOARD + " legtiles:B322", "players": P(3, leg_tiles=["O5"])},
     "players[0].leg_tiles", "unknown colour 'O'"),
    ("leg-colour-first", {"board": FIRST_BOARD, "players": P(2, leg_tiles=["P5"])},
     "players[0].leg_tiles", "unknown colour 'P'"),
    ("leg-not-taken", {"board": SECOND_BOARD, "players": P(3, leg_tiles=["B5"])},
     "players[0].leg_tiles", "B5"),
    ("leg-not-taken-value", {"board": SECOND_BOARD + " legtiles:B322", "players": P(3, leg_tiles=["B3"])},
     "players[0].leg_tiles", "B3"),
    ("leg-held-twice", {"board": SECOND_BOARD + " legtiles:B322",
                        "players": [{"leg_tiles": ["B5"]}, {"leg_tiles": ["B5"]}, {}]},
     "players[1].leg_tiles", "B5"),
    ("leg-same-player-twice", {"board": SECOND_BOARD + " legtiles:B322", "players": P(3, leg_tiles=["B5", "B5"])},
     "players[0].leg_tiles", "B5"),
    ("leg-first-stack", {"board": FIRST_BOARD + " legtiles:G", "players": P(2, leg_tiles=["G5", "G3", "G2", "G2"])},
     "players[0].leg_tiles", "G2"),
    ("leg-not-list", {"board": SECOND_BOARD, "players": P(3, leg_tiles="B5")}, "players[0].leg_tiles", "list"),
    ("leg-3-chars", {"board": SECOND_BOARD, "players": P(3, leg_tiles=["B55"])}, "players[0].leg_tiles", "B55"),
    ("leg-reversed", {"board": SECOND_BOARD, "players": P(3, leg_tiles=["5B"])}, "players[0].leg_tiles", "5B"),
    ("leg-number", {"board": SECOND_BOARD, "players": P(3, leg_tiles=[5])}, "players[0].leg_tiles", "5"),
    ("leg-colour-only", {"board": SECOND_BOARD, "players": P(3, leg_tiles=["B"])}, "players[0].leg_tiles", "'B'"),
    # pyramid tiles
    ("pyramid-leg-start", {"board": SECOND_BOARD, "players": P(3, pyramid_tiles=1)}, "players", "0 dice rolled"),
    ("pyramid-too-many", {"board": MID_LEG, "players": [{"pyramid_tiles": 2}, {"pyramid_tiles": 1}, {}]},
     "players", "only 2 dice rolled"),
    ("pyramid-first", {"board": FIRST_BOARD + " dice:GOYW", "players": P(2, pyramid_tiles=2)}, "players", "only 1"),
    ("pyramid-negative", {"board": MID_LEG, "players": P(3, pyramid_tiles=-1)}, "players[0].pyramid_tiles", ">= 0"),
    ("pyramid-float", {"board": MID_LEG, "players": P(3, pyramid_tiles=1.5)}, "players[0].pyramid_tiles", "whole"),
    # overall cards in hand
    ("hand-colour", {"board": SECOND_BOARD, "players": P(3, overall_cards="BGQ")}, "players[0].overall_cards", "BGQ"),
    ("hand-first-colour", {"board": FIRST_BOARD, "players": P(2, overall_cards="BP")}, "players[0].overall_cards", "BP"),
    ("hand-duplicate", {"board": SECOND_BOARD, "players": P(3, overall_cards="BB")}, "players[0].overall_cards", "BB"),
    ("hand-list", {"board": SECOND_BOARD, "players": P(3, overall_cards=["B", "G"])}, "players[0].overall_cards", "B"),
    ("hand-lower", {"board": SECOND_BOARD, "players": P(3, overall_cards="bgp")}, "players[0].overall_cards", "bgp"),
    # hidden hands (a count of cards of unknown colours)
    ("hidden-too-many", {"board": SECOND_BOARD, "players": P(3, overall_cards=6)}, "players[0].overall_cards",
     "0..5 cards, not 6"),
    ("hidden-negative", {"board": SECOND_BOARD, "players": P(3, overall_cards=-1)}, "players[0].overall_cards",
     "not -1"),
    ("hidden-first-too-many", {"board": FIRST_BOARD, "players": [{}, {"overall_cards": 7}]},
     "players[1].overall_cards", "0..5"),
    ("hidden-bool", {"board": SECOND_BOARD, "players": P(3, overall_cards=True)}, "players[0].overall_cards",
     "True"),
    ("hidden-float", {"board": SECOND_BOARD, "players": P(3, overall_cards=3.0)}, "players[0].overall_cards",
     "3.0"),
    ("hidden-count-vs-piles", {"board": SECOND_BOARD, "players": [{}, {"overall_cards": 4}, {}],
                               "winner_pile": [{"player": 1}], "loser_pile": [{"player": 1}]},
     "players[1].overall_cards", "4 hidden cards in hand plus 2 on the piles make 6"),
    ("hidden-count-too-few", {"board": SECOND_BOARD, "players": [{}, {"overall_cards": 3}, {}],
                              "winner_pile": [{"player": 1}]},
     "players[1].overall_cards", "(hand 4)"),
    ("hidden-count-no-piles", {"board": SECOND_BOARD, "players": [{}, {}, {"overall_cards": 4}]},
     "players[2].overall_cards", "plus 0 on the piles"),
    # overall piles vs hands
    ("pile-card-in-hand", {"board": SECOND_BOARD, "players": P(3, overall_cards="BGPRY"),
                           "winner_pile": [{"player": 0, "colour": "B"}]}, "winner_pile[0]", "still holds"),
    ("pile-colour-twice", {"board": SECOND_BOARD, "winner_pile": [{"player": 1, "colour": "B"}],
                           "loser_pile": [{"player": 1, "colour": "B"}]}, "loser_pile[0]", "only one B"),
    ("pile-colour-twice-one-pile", {"board": SECOND_BOARD,
                                    "winner_pile": [{"player": 2, "colour": "G"}, {"player": 2, "colour": "G"}]},
     "winner_pile[1]", "only one G"),
    ("more-than-5-cards", {"board": SECOND_BOARD, "players": P(3, overall_cards="GPRY"),
                           "winner_pile": [{"player": 0, "colour": "B"}, {"player": 0}]},
     "players[0].overall_cards", "exceed 5"),
    ("6-unknown-cards", {"board": SECOND_BOARD, "winner_pile": [{"player": 1}] * 3, "loser_pile": [{"player": 1}] * 3},
     "players[1].overall_cards", "exceed 5"),
    ("more-than-5-first", {"board": FIRST_BOARD, "players": [{}, {"overall_cards": "BGOY"}],
                           "loser_pile": [{"player": 1}, {"player": 1}]}, "players[1].overall_cards", "exceed 5"),
    # partners
    ("partner-first", {"board": FIRST_BOARD, "players": [{"partner": 1}, {"partner": 0}, {}, {}, {}, {}]},
     "players[0].partner", "second edition"),
    ("partner-5-players", {"board": SECOND_BOARD, "players": [{"partner": 1}, {"partner": 0}, {}, {}, {}]},
     "players[0].partner", "6-8"),
    ("partner-asymmetric", {"board": SECOND_BOARD, "players": [{"partner": 1}, {}, {}, {}, {}, {}]},
     "players[0].partner", "not partnered"),
    ("partner-of-another", {"board": SECOND_BOARD,
                            "players": [{"partner": 1}, {"partner": 2}, {"partner": 1}, {}, {}, {}]},
     "players[0].partner", "not partnered"),
    ("partner-self", {"board": SECOND_BOARD, "players": [{}, {}, {"partner": 2}, {}, {}, {}]},
     "players[2].partner", "another player"),
    ("partner-out-of-range", {"board": SECOND_BOARD, "players": [{"partner": 6}, {}, {}, {}, {}, {}]},
     "players[0].partner", "0..5"),
    ("partner-string", {"board": SECOND_BOARD, "players": [{"partner": "1"}, {"partner": 0}, {}, {}, {}, {}]},
     "players[0].partner", "another player"),
    # pile entries
    ("pile-entry-no-player", {"board": SECOND_BOARD, "winner_pile": [{"colour": "B"}]}, "winner_pile[0]", "player"),
    ("pile-entry-unknown-key", {"board": SECOND_BOARD, "loser_pile": [{"player": 0, "face": "down"}]},
     "loser_pile[0]", "player"),
    ("pile-entry-not-object", {"board": SECOND_BOARD, "winner_pile": ["B"]}, "winner_pile[0]", "player"),
    ("pile-player-range", {"board": SECOND_BOARD, "winner_pile": [{"player": 4}]}, "winner_pile[0].player", "0..3"),
    ("pile-player-negative", {"board": SECOND_BOARD, "loser_pile": [{"player": 0}, {"player": -1}]},
     "loser_pile[1].player", "0..3"),
    ("pile-player-string", {"board": SECOND_BOARD, "winner_pile": [{"player": "0"}]}, "winner_pile[0].player", "0..3"),
    ("pile-colour-unknown", {"board": SECOND_BOARD, "winner_pile": [{"player": 0, "colour": "Q"}]},
     "winner_pile[0].colour", "'Q'"),
    ("pile-colour-first", {"board": FIRST_BOARD, "winner_pile": [{"player": 0, "colour": "R"}]},
     "winner_pile[0].colour", "'R'"),
    ("pile-not-list", {"board": SECOND_BOARD, "loser_pile": {"player": 0}}, "loser_pile", "list"),
    # unknown keys
    ("top-level-key", {"board": SECOND_BOARD, "bets": []}, "bets", "unknown key"),
    ("top-level-typo", {"board": SECOND_BOARD, "toMove": 1}, "toMove", "unknown key"),
    ("player-key", {"board": SECOND_BOARD, "players": [{}, {"cash": 4}, {}]}, "players[1].cash", "unknown key"),
    # pile_model
    ("model-unknown-pile", {"board": SECOND_BOARD, "pile_model": {"middle": {}}}, "pile_model", "'middle'"),
    ("model-missing-colour", {"board": SECOND_BOARD,
                              "pile_model": {"winner": {"B": 0.25, "G": 0.25, "P": 0.25, "R": 0.25}}},
     "pile_model.winner", "BGPRY"),
    ("model-extra-colour", {"board": FIRST_BOARD,
                            "pile_model": {"loser": {"B": 0.2, "G": 0.2, "O": 0.2, "Y": 0.2, "W": 0.1, "P": 0.1}}},
     "pile_model.loser", "BGOYW"),
    ("model-negative", {"board": SECOND_BOARD,
                        "pile_model": {"loser": {"B": -0.2, "G": 0.4, "P": 0.3, "R": 0.3, "Y": 0.2}}},
     "pile_model.loser", ">= 0"),
    ("model-sum", {"board": SECOND_BOARD,
                   "pile_model": {"winner": {"B": 0.2, "G": 0.2, "P": 0.2, "R": 0.2, "Y": 0.3}}},
     "pile_model.winner", "sum to 1"),
    ("model-string-value", {"board": SECOND_BOARD,
                            "pile_model": {"winner": {"B": "0.2", "G": 0.2, "P": 0.2, "R": 0.2, "Y": 0.2}}},
     "pile_model.winner", "sum to 1"),
    ("model-not-object", {"board": SECOND_BOARD, "pile_model": {"winner": [0.2] * 5}}, "pile_model.winner", "BGPRY"),
]


@pytest.mark.parametrize("data,where,fragment", [c[1:] for c in BAD_STATES], ids=[c[0] for c in BAD_STATES])
def test_invalid_state_names_the_field(data, where, fragment):
    with pytest.raises(StateError) as info:
        GameState.from_json(data)
    err = info.value
    assert err.where == where
    message = str(err)
    assert where in message
    assert fragment in message
    assert "\n" not in message
    # the same from the JSON text
    with pytest.raises(StateError) as again:
        GameState.from_json(json.dumps(data))
    assert again.value.where == where


def test_bad_board_keeps_the_position_error_text():
    board = "1:B 2:YG 3:PR 14:w 15:k -2"  # a tile on camels
    with pytest.raises(PositionError) as pos_err:
        parse_position(board)
    with pytest.raises(StateError) as info:
        GameState.from_json({"board": board})
    assert info.value.where == "board"
    assert str(pos_err.value) in str(info.value)
    with pytest.raises(StateError) as info:
        GameState.from_board(board)
    assert str(pos_err.value) in str(info.value)


def test_errors_through_the_python_api():
    pos = parse_position(MID_LEG)
    with pytest.raises(StateError) as info:
        GameState(pos, (PlayerState(),) * 3, to_move=3)
    assert info.value.where == "to_move"
    with pytest.raises(StateError) as info:
        GameState(pos, (PlayerState(), PlayerState(money=-2), PlayerState()))
    assert info.value.where == "players[1].money"
    with pytest.raises(StateError) as info:
        GameState(pos, (PlayerState(),) * 3, loser_pile=(PileCard(3),))
    assert info.value.where == "loser_pile[0].player"
    with pytest.raises(StateError) as info:
        GameState.from_board(pos, players=9)
    assert info.value.where == "players"
    with pytest.raises(StateError) as info:
        GameState.from_board(pos, players=2)
    assert info.value.where == "players"
    with pytest.raises(StateError) as info:
        GameState.from_board(pos, players="4")
    assert info.value.where == "players"
    with pytest.raises(StateError) as info:
        GameState.from_board(pos, to_move=4)
    assert info.value.where == "to_move"


def test_valid_edge_cases_are_accepted():
    # every B tile taken, held by three players; all 5 pyramid tiles in first
    state = GameState.from_json({
        "board": SECOND_BOARD + " dice:Bx legtiles:B",
        "players": [{"leg_tiles": ["B5", "B2"], "pyramid_tiles": 2}, {"leg_tiles": ["B3"], "pyramid_tiles": 2},
                    {"leg_tiles": ["B2"]}],
    })
    assert state.players[0].leg_tiles == (("B", 5), ("B", 2))
    GameState.from_json({"board": FIRST_BOARD + " dice:W", "players": [{"pyramid_tiles": 4}, {}]})
    # 5 cards on the piles, none in hand
    GameState.from_json({"board": SECOND_BOARD, "players": P(3, overall_cards=""),
                         "winner_pile": [{"player": 0}] * 3, "loser_pile": [{"player": 0}] * 2})
    # partners with 8 players; money 0; a tile of the last player
    GameState.from_json({"board": SECOND_BOARD + " +9@7",
                         "players": [{}, {}, {}, {}, {"partner": 7}, {}, {}, {"partner": 4, "money": 0}]})
    # pile_model values may be integers
    GameState.from_json({"board": SECOND_BOARD, "pile_model": {"winner": {"B": 1, "G": 0, "P": 0, "R": 0, "Y": 0}}})


# ---------------------------------------------------------------- bugs: user errors that escape as other exceptions

@pytest.mark.parametrize("colour", ["BG", "", "GPRY"])
def test_pile_colour_must_be_one_racing_colour(colour):
    """BUG: the colour check is `colour in ed.racing`, a substring test, so
    'BG', '' or 'GPRY' are accepted as the colour of one card (and to_json
    writes them back out)."""
    with pytest.raises(StateError) as info:
        GameState.from_json({"board": SECOND_BOARD, "winner_pile": [{"player": 1, "colour": colour}]})
    assert info.value.where == "winner_pile[0].colour"


@pytest.mark.parametrize("colour", [5, ["B"]])
def test_pile_colour_of_wrong_type(colour):
    """BUG: a non-string colour raises TypeError ('in <string>' requires
    string as left operand) instead of StateError."""
    with pytest.raises(StateError) as info:
        GameState.from_json({"board": SECOND_BOARD, "winner_pile": [{"player": 1, "colour": colour}]})
    assert info.value.where == "winner_pile[0].colour"


@pytest.mark.parametrize("model", [[0.2] * 5, "uniform", 1])
def test_pile_model_must_be_an_object(model):
    """BUG: a pile_model that is not an object raises AttributeError
    ('list' object has no attribute 'items') instead of StateError."""
    with pytest.raises(StateError) as info:
        GameState.from_json({"board": SECOND_BOARD, "pile_model": model})
    assert info.value.where == "pile_model"


def test_pile_model_nan_is_rejected():
    """BUG: NaN passes both checks (NaN < 0 and abs(NaN - 1) > 1e-9 are
    False), so 'probabilities must be >= 0 and sum to 1' lets it through and
    the EVs become NaN. Python's json reads NaN, so a state file can hold it."""
    text = ('{"board": "%s", "pile_model": {"winner": '
            '{"B": NaN, "G": 0.25, "P": 0.25, "R": 0.25, "Y": 0.25}}}' % SECOND_BOARD)
    with pytest.raises(StateError) as info:
        GameState.from_json(text)
    assert info.value.where == "pile_model.winner"


def test_leg_tile_with_a_non_ascii_digit():
    """BUG: '²'.isdigit() is True but int('²') fails, so the leg tile 'B²'
    raises a plain ValueError instead of StateError."""
    with pytest.raises(StateError) as info:
        GameState.from_json({"board": SECOND_BOARD, "players": P(3, leg_tiles=["B²"])})
    assert info.value.where == "players[0].leg_tiles"


# --------------------------------------------------------------------------
# Bounds: every field is bounded before anything is built or computed
# --------------------------------------------------------------------------
HUGE = 10**23
BOUNDS = [
    ("players-count-huge", {"board": SECOND_BOARD, "players": 99_999_999_999}, "players", "3-8"),
    ("players-count-negative", {"board": SECOND_BOARD, "players": -3}, "players", "not -3"),
    ("players-count-first", {"board": FIRST_BOARD, "players": 10**30}, "players", "2-8"),
    ("players-list-long", {"board": SECOND_BOARD, "players": [{}] * 50}, "players", "not 50"),
    ("money-huge", {"board": SECOND_BOARD, "players": P(4, money=HUGE)}, "players[0].money", "0..10,000"),
    ("money-above-bound", {"board": SECOND_BOARD, "players": P(4, money=10_001)}, "players[0].money", "10,001"),
    ("money-enormous", {"board": SECOND_BOARD, "players": P(4, money=10**5000)}, "players[0].money", "5,001 digits"),
    ("money-enormous-negative", {"board": SECOND_BOARD, "players": P(4, money=-10**5000)}, "players[0].money",
     "negative number"),
    ("pyramid-huge", {"board": MID_LEG, "players": P(3, pyramid_tiles=HUGE)}, "players[0].pyramid_tiles", "0..6"),
    ("to-move-huge", {"board": SECOND_BOARD, "to_move": HUGE}, "to_move", "0..3"),
    ("partner-huge", {"board": SECOND_BOARD, "players": [{"partner": HUGE}, {}, {}, {}, {}, {}]},
     "players[0].partner", "0..5"),
    ("pile-long", {"board": SECOND_BOARD, "winner_pile": [{"player": 0}] * 100_000}, "winner_pile", "20 in all"),
    ("pile-player-huge", {"board": SECOND_BOARD, "loser_pile": [{"player": HUGE}]}, "loser_pile[0].player", "0..3"),
    ("model-huge-int", {"board": SECOND_BOARD,
                        "pile_model": {"winner": {"B": 10**400, "G": 0, "P": 0, "R": 0, "Y": 0}}},
     "pile_model.winner", "sum to 1"),
    ("model-infinite", {"board": SECOND_BOARD,
                        "pile_model": {"winner": {"B": float("inf"), "G": 0, "P": 0, "R": 0, "Y": 0}}},
     "pile_model.winner", "sum to 1"),
    ("long-unknown-key", {"board": SECOND_BOARD, "k" * 10_000: 1}, "k" * 10_000, "unknown key"),
]


@pytest.mark.parametrize("data,where,fragment", [c[1:] for c in BOUNDS], ids=[c[0] for c in BOUNDS])
def test_every_field_is_bounded(data, where, fragment):
    """BUG: a player count of 99999999999 built a list that long
    (MemoryError); money 10**23 passed and overflowed a float in the
    advice; a 10**400 pile probability raised OverflowError."""
    with pytest.raises(StateError) as info:
        GameState.from_json(data)
    assert info.value.where == where
    assert fragment in str(info.value)
    assert "\n" not in str(info.value) and len(str(info.value)) < 300


def test_bounds_hold_for_python_construction():
    """The bounds live in GameState itself: Python users, batch and the web
    API get them, not only the command line."""
    with pytest.raises(StateError, match="money"):
        GameState(SECOND_BOARD, (PlayerState(money=HUGE),) * 4)
    with pytest.raises(StateError, match="players"):
        GameState.from_board(SECOND_BOARD, players=99_999_999_999)
    with pytest.raises(StateError, match="leg_tiles"):
        GameState(SECOND_BOARD, (PlayerState(leg_tiles=("B5",)),) * 4)
    assert GameState(SECOND_BOARD, (PlayerState(money=10_000),) * 4).players[0].money == 10_000


@pytest.mark.parametrize("text,fragment", [
    ("[" * 100_000 + "]" * 100_000, "nested more than"),
    ('{"board": "%s", "players": %s}' % (SECOND_BOARD, "[" * 40 + "]" * 40), "nested more than"),
    ('{"board": "%s", "players": %s}' % (SECOND_BOARD, "1" * 5000), "not valid JSON"),
    (" " * 1_000_001, "larger than 1,000,000 bytes"),
])
def test_json_text_is_bounded(tmp_path, text, fragment):
    """BUG: JSON nested 100,000 deep raised RecursionError."""
    with pytest.raises(StateError) as info:
        GameState.from_json(text)
    assert fragment in str(info.value) and info.value.where == "(file)"
    path = tmp_path / "state.json"
    path.write_text(text)
    with pytest.raises(StateError) as info:
        GameState.load(path)
    assert fragment in str(info.value) and str(path) in str(info.value)


def test_large_money_is_valued_without_overflow():
    """BUG: money 10**23 passed validation and the advice raised
    OverflowError; money at the bound is valued."""
    from advisor.valuation.engine import best_moves

    state = GameState.from_json({"board": SECOND_BOARD, "players": P(4, money=10_000)})
    frame = best_moves(state, precision=0.05, seed=1, denial=False)
    assert len(frame) > 0


def test_a_field_name_with_control_characters_is_shown_on_one_line():
    with pytest.raises(StateError) as info:
        GameState.from_json({"\n": None})
    assert "\n" not in str(info.value) and "\\n" in str(info.value)

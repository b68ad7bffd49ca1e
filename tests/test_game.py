"""advisor.game: whole games of Camel Up (docs/rules.md, board games).

Every expected state and amount of money below is worked out by hand from
docs/rules.md, not taken from the engine.  Situations are set up with a start
position (``Game(..., position=..., start=0)``) and played with forced rolls;
each scripted turn also names the player expected to move, so the clockwise
turn order is checked all along.

Board strings: ``space:camels`` lists a stack bottom to top; ``+N@P`` /
``-N@P`` is player P's cheering / booing tile; ``dice:`` is the pyramid
mid-leg; ``legtiles:`` the leg bet tiles left where a stack is not full.
"""

import copy
from dataclasses import fields, replace

import numpy as np
import pytest

from advisor import AdvisorError, IllegalActionError
from advisor.bots.policies import HeuristicBot, RandomBot
from advisor.rules import scoring
from advisor.rules.editions import get_edition
from advisor.game import (
    Game,
    Roll,
    boards,
    overall_rewards,
    race_order,
    read_records,
    replay,
    write_records,
)
from advisor.rules.state import GameState, PileCard, PlayerState, StateError
from advisor._tools.jsonio import SCHEMA

# Racing camels spread out (order Y R P G B), crazy camels apart at 14, 15.
SPREAD = "2:B 4:G 6:P 8:R 10:Y 14:w 15:k"
# Y one roll of 2 from the finish, the crazy camels out of the way.
NEAR_END = "2:B 4:G 6:P 8:R 12:w 13:k 15:Y"
FIRST_SPREAD = "first 2:B 4:G 6:O 8:Y 10:W"


def play(game, script):
    """Play ``(player, action)`` or ``(player, action, roll)`` turns,
    checking that ``player`` is the one to move; returns the record entries."""
    entries = []
    for turn in script:
        player, action, *roll = turn
        assert game.to_move == player, f"expected player {player} to move before {action!r}, not {game.to_move}"
        entries.append(game.apply(action, *roll))
    return entries


def snapshot(game):
    return (game.state, copy.deepcopy(game.record), game.turns, game.legs, game.finished, game.board())


def tile_actions(spaces):
    return {f"tile:{sign}{s}" for s in spaces for sign in "+-"}


def legal_tiles(game):
    return {a for a in game.legal_actions() if a.startswith("tile:")}


def legal_partners(game):
    return [a for a in game.legal_actions() if a.startswith("partner:")]


def bot_game(seed, bots, edition="second"):
    """A whole game between ``bots`` (seat rngs ``[seed, seat]``)."""
    game = Game(edition, len(bots), seed)
    rngs = [np.random.default_rng([seed, seat]) for seat in range(len(bots))]
    while not game.finished:
        p = game.to_move
        game.apply(bots[p].choose(game.view(p), p, rngs[p]))
    return game


# ======================================================================
# Leg bet tiles
# ======================================================================


def test_leg_tiles_second_edition_5_3_2_2_then_gone():
    game = Game("second", 4, position=SPREAD, start=0)
    play(game, [(0, "leg:B"), (1, "leg:B"), (2, "leg:B")])
    pos = game.state.position
    assert pos.legtiles[pos.racing.index("B")] == (2,)
    assert game.can("leg:B")
    play(game, [(3, "leg:B")])
    assert [p.leg_tiles for p in game.state.players] == [(("B", 5),), (("B", 3),), (("B", 2),), (("B", 2),)]
    pos = game.state.position
    assert pos.legtiles[pos.racing.index("B")] == ()
    assert game.board() == SPREAD + " legtiles:B"
    # the B stack is empty: no player may take a B tile; the others are full
    assert "leg:B" not in game.legal_actions()
    assert not game.can("leg:B")
    assert {"leg:G", "leg:P", "leg:R", "leg:Y"} <= set(game.legal_actions())
    before = snapshot(game)
    with pytest.raises(IllegalActionError):
        game.verify("leg:B")
    with pytest.raises(IllegalActionError):
        game.apply("leg:B")
    assert snapshot(game) == before


def test_leg_tiles_first_edition_5_3_2_then_gone():
    game = Game("first", 3, position=FIRST_SPREAD, start=0)
    play(game, [(0, "leg:W"), (1, "leg:W")])
    assert game.can("leg:W")
    play(game, [(2, "leg:W")])
    assert [p.leg_tiles for p in game.state.players] == [(("W", 5),), (("W", 3),), (("W", 2),)]
    assert not game.can("leg:W")
    assert game.board() == FIRST_SPREAD + " legtiles:W"
    with pytest.raises(IllegalActionError):
        game.apply("leg:W")


def test_a_player_may_hold_several_tiles_of_one_colour():
    game = Game("first", 3, position=FIRST_SPREAD, start=0)
    play(game, [(0, "leg:O"), (1, "leg:B"), (2, "leg:B"), (0, "leg:O"), (1, "leg:G")])
    assert game.state.players[0].leg_tiles == (("O", 5), ("O", 3))
    assert game.state.players[1].leg_tiles == (("B", 5), ("G", 5))
    assert game.state.players[2].leg_tiles == (("B", 3),)
    assert game.board() == FIRST_SPREAD + " legtiles:B2,G32,O2"
    assert game.money() == [3, 3, 3]  # taking a leg tile costs nothing


def test_leg_action_passes_the_turn_and_records_it():
    game = Game("second", 3, position=SPREAD, start=2)
    entry = game.apply("leg:P")
    assert entry == {"type": "action", "turn": 0, "player": 2, "action": "leg:P", "board": game.board()}
    assert entry["board"] == "2:B 4:G 6:P 8:R 10:Y 14:w 15:k legtiles:P322"
    assert game.record[-1] == entry
    assert game.to_move == 0  # clockwise: 2 -> 0 with 3 players
    assert game.turns == 1


# ======================================================================
# Spectator / desert tiles
# ======================================================================


def test_tile_placement_legality_and_moving_own_tile():
    # SPREAD: camels on 2 4 6 8 10 14 15; empty: 1 3 5 7 9 11 12 13 16
    game = Game("second", 4, position=SPREAD, start=0)
    # never space 1, never on camels (racing or crazy): 3 5 7 9 11 12 13 16
    assert legal_tiles(game) == tile_actions([3, 5, 7, 9, 11, 12, 13, 16])
    for bad in ("tile:+1", "tile:-1", "tile:+2", "tile:-14", "tile:+15", "tile:+17", "tile:+0"):
        assert not game.can(bad)
    play(game, [(0, "tile:+12")])
    assert game.board() == SPREAD + " +12@0"
    # player 1: not on player 0's tile nor next to it (11, 12, 13)
    assert legal_tiles(game) == tile_actions([3, 5, 7, 9, 16])
    play(game, [(1, "tile:-16")])
    assert game.board() == SPREAD + " +12@0 -16@1"
    # player 2: 11-13 and 15-16 (15 also holds k) are out
    assert legal_tiles(game) == tile_actions([3, 5, 7, 9])
    play(game, [(2, "leg:B"), (3, "leg:G")])
    # player 0 moves their own tile: it is lifted first, so 11 and 13 (next to
    # its old space) are fine, but it may not stay on 12 (either side)
    assert legal_tiles(game) == tile_actions([3, 5, 7, 9, 11, 13])
    assert not game.can("tile:+12") and not game.can("tile:-12")
    play(game, [(0, "tile:-13")])
    assert game.board() == SPREAD + " -13@0 -16@1 legtiles:B322,G322"
    assert game.state.own_tile(0).sign == "-" and game.state.own_tile(0).space == 13
    # player 1 may now use 11 and 12 again (13's neighbours 12, 14 are out)
    assert legal_tiles(game) == tile_actions([3, 5, 7, 9, 11])
    assert game.money() == [3, 3, 3, 3]


def test_tiles_in_the_first_edition_both_sides():
    game = Game("first", 2, position=FIRST_SPREAD, start=1)
    assert legal_tiles(game) == tile_actions([3, 5, 7, 9, 11, 12, 13, 14, 15, 16])
    play(game, [(1, "tile:-3"), (0, "tile:+5")])
    assert game.board() == FIRST_SPREAD + " -3@1 +5@0"
    assert legal_tiles(game) == tile_actions([7, 9, 11, 12, 13, 14, 15, 16])  # player 1: 3 is their own


# ======================================================================
# Overall winner / loser cards
# ======================================================================


def test_overall_cards_each_colour_once_across_both_piles():
    game = Game("second", 3, position=SPREAD, start=0)
    play(game, [(0, "winner:B")])
    st = game.state
    assert st.players[0].overall_cards == "GPRY"
    assert st.winner_pile == (PileCard(0, "B"),)
    assert game.can("winner:B") and game.can("loser:B")  # player 1 still holds B
    play(game, [(1, "winner:B"), (2, "loser:Y")])
    assert not game.can("winner:B") and not game.can("loser:B")  # player 0's B is gone
    assert game.can("loser:G")
    play(game, [(0, "loser:G")])
    st = game.state
    assert st.players[0].overall_cards == "PRY"
    assert st.winner_pile == (PileCard(0, "B"), PileCard(1, "B"))
    assert st.loser_pile == (PileCard(2, "Y"), PileCard(0, "G"))
    assert game.money() == [3, 3, 3]
    # player 0 plays the rest; then no overall card action is left
    play(game, [(1, "leg:B"), (2, "leg:B"), (0, "winner:P"), (1, "leg:B"), (2, "leg:B"),
                (0, "loser:R"), (1, "leg:G"), (2, "leg:G"), (0, "winner:Y")])
    assert game.state.players[0].overall_cards == ""
    assert game.to_move == 1
    play(game, [(1, "leg:G"), (2, "leg:G")])
    assert game.to_move == 0
    assert not [a for a in game.legal_actions() if a.startswith(("winner:", "loser:"))]
    with pytest.raises(IllegalActionError):
        game.apply("winner:B")


def test_view_hides_other_players_pile_cards():
    game = Game("second", 3, position=SPREAD, start=0)
    play(game, [(0, "winner:B"), (1, "loser:G"), (2, "winner:Y")])
    view = game.view(1)
    assert view.winner_pile == (PileCard(0), PileCard(2))
    assert view.loser_pile == (PileCard(1, "G"),)
    assert game.state.winner_pile == (PileCard(0, "B"), PileCard(2, "Y"))  # the engine knows
    # hands: player 1's own colours; of the others only how many they hold
    assert [pl.overall_cards for pl in view.players] == [4, "BPRY", 4]
    assert view.hand(1) == "BPRY" and view.hand_size(0) == 4 and view.hand_hidden(2)
    with pytest.raises(StateError):
        view.hand(0)


def test_view_of_a_player_whose_card_went_face_down_unseen():
    # winner:? leaves that player's hand a count in the engine's own state
    game = Game("second", 3, position=SPREAD, start=0)
    play(game, [(0, "winner:?"), (1, "loser:G")])
    assert game.state.players[0].overall_cards == 4
    for p in range(3):
        view = game.view(p)
        assert view.hand_size(0) == 4 and view.hand_hidden(0)
        assert view.winner_pile == (PileCard(0),)
    assert game.view(1).hand(1) == "BPRY"


def assert_view_shows_only_what_player_sees(game, p):
    """``game.view(p)`` against the engine's state: everything public as it
    is; player p's own cards with colours; another player's hand only as its
    size and their pile cards face down (in the JSON form too)."""
    st, view = game.state, game.view(p)
    # every field of the state is considered here: a new one must be too
    assert [f.name for f in fields(GameState)] == ["position", "players", "to_move", "winner_pile", "loser_pile",
                                                   "pile_model"]
    assert [f.name for f in fields(PlayerState)] == ["money", "leg_tiles", "pyramid_tiles", "overall_cards",
                                                     "partner"]
    assert view.position == st.position and view.to_move == st.to_move and view.pile_model is None
    assert view.players[p] == st.players[p] and view.hand(p) == st.hand(p)
    for q, (mine, seen) in enumerate(zip(st.players, view.players)):
        if q == p:
            continue
        assert seen.overall_cards == len(mine.overall_cards) and view.hand_hidden(q)
        assert replace(seen, overall_cards=mine.overall_cards) == mine  # the rest is public
    for name in ("winner_pile", "loser_pile"):
        true, shown = getattr(st, name), getattr(view, name)
        assert [c.player for c in shown] == [c.player for c in true]
        assert all(s == (t if t.player == p else PileCard(t.player)) for s, t in zip(shown, true))
    data = view.to_json()
    for q, player in enumerate(data["players"]):
        assert isinstance(player["overall_cards"], str if q == p else int)
    for name in ("winner_pile", "loser_pile"):
        assert all(("colour" in card) == (card["player"] == p) for card in data[name])
    assert GameState.from_json(data) == view


@pytest.mark.parametrize("edition, bots, seed", [
    ("second", ("rival", "advisor", "denial", "heuristic", "random"), 4),
    ("first", ("random", "rival", "advisor"), 9),
    ("second", ("random",) * 6, 3),
])
def test_a_view_never_holds_another_players_hand_or_pile_colours(edition, bots, seed):
    """Every player's view at every turn of whole games played by every bot
    (the bots decide from these views)."""
    from advisor.bots.policies import make_bot

    game = Game(edition, len(bots), seed)
    policies = [make_bot(b) for b in bots]
    rngs = [np.random.default_rng([seed, seat]) for seat in range(len(bots))]
    hidden_partly = 0
    while not game.finished:
        for p in range(len(bots)):
            assert_view_shows_only_what_player_sees(game, p)
        p = game.to_move
        view = game.view(p)
        hidden_partly += any(0 < view.hand_size(q) < 5 for q in range(len(bots)) if q != p)
        action = policies[p].choose(view, p, rngs[p])
        assert action in game.legal_actions()
        game.apply(action)
    for p in range(len(bots)):
        assert_view_shows_only_what_player_sees(game, p)
    assert hidden_partly >= 10  # other players' cards were on the piles
    assert game.state.winner_pile + game.state.loser_pile  # and the engine knows their colours
    assert all(c.colour for c in game.state.winner_pile + game.state.loser_pile)


# ======================================================================
# Partnerships
# ======================================================================


def test_partnership_legality_six_players():
    game = Game("second", 6, position=SPREAD, start=0)
    assert legal_partners(game) == ["partner:1", "partner:2", "partner:3", "partner:4", "partner:5"]
    assert not game.can("partner:0")  # never with oneself
    play(game, [(0, "partner:2")])
    assert game.state.players[0].partner == 2 and game.state.players[2].partner == 0
    # player 1: not 0 or 2 (partnered), not 1 (self)
    assert legal_partners(game) == ["partner:3", "partner:4", "partner:5"]
    for bad in ("partner:0", "partner:1", "partner:2", "partner:6"):
        before = snapshot(game)
        with pytest.raises(IllegalActionError):
            game.apply(bad)
        assert snapshot(game) == before
    play(game, [(1, "leg:B")])
    assert legal_partners(game) == []  # player 2 is already partnered
    play(game, [(2, "leg:G"), (3, "partner:4")])
    assert legal_partners(game) == []  # player 4 likewise
    play(game, [(4, "leg:B"), (5, "leg:G")])
    assert legal_partners(game) == []  # player 0 likewise
    play(game, [(0, "leg:P"), (1, "partner:5")])
    assert [p.partner for p in game.state.players] == [2, 5, 0, 4, 3, 1]
    assert game.money() == [3] * 6


@pytest.mark.parametrize("edition,players,expected", [
    ("second", 3, []),
    ("second", 4, []),
    ("second", 5, []),
    ("second", 7, [f"partner:{q}" for q in range(1, 7)]),
    ("second", 8, [f"partner:{q}" for q in range(1, 8)]),
    ("first", 2, []),
    ("first", 6, []),
    ("first", 8, []),
])
def test_partnership_only_second_edition_six_to_eight(edition, players, expected):
    board = SPREAD if edition == "second" else FIRST_SPREAD
    game = Game(edition, players, position=board, start=0)
    assert legal_partners(game) == expected
    if not expected:
        with pytest.raises(IllegalActionError):
            game.apply("partner:1")


# ======================================================================
# Illegal actions change nothing; no action after the end
# ======================================================================


def _mid_game():
    game = Game("second", 4, position=SPREAD, start=0)
    play(game, [
        (0, "tile:+12"),
        (1, "leg:B"), (2, "leg:B"), (3, "leg:B"), (0, "leg:B"),  # B stack empty
        (1, "winner:Y"),
        (2, "pyramid", Roll("G", 1)),  # G 4 -> 5
    ])
    assert game.to_move == 3
    return game


@pytest.mark.parametrize("action,roll", [
    ("leg:B", None),          # B stack empty
    ("leg:Z", None),          # no such camel
    ("leg:w", None),          # nobody bets on crazy camels
    ("tile:+1", None),        # space 1
    ("tile:-5", None),        # camel G on 5
    ("tile:+14", None),       # crazy camel w on 14
    ("tile:+12", None),       # player 0's tile
    ("tile:-11", None),       # next to player 0's tile
    ("tile:+13", None),       # next to player 0's tile
    ("tile:+17", None),       # off the track
    ("tile:*7", None),        # no such side
    ("winner:w", None),       # no card for crazy camels
    ("winner:X", None),
    ("partner:1", None),      # 4 players: no partnerships
    ("partner:3", None),
    ("pyramid", Roll("G", 1)),   # G's die was rolled this leg
    ("leg:G", Roll("B", 1)),     # only the pyramid action takes a roll
    ("", None),
    ("roll", None),
])
def test_illegal_actions_raise_and_change_nothing(action, roll):
    game = _mid_game()
    before = snapshot(game)
    with pytest.raises(IllegalActionError):
        game.apply(action, roll)
    assert snapshot(game) == before
    if roll is None:
        assert not game.can(action)
        with pytest.raises(IllegalActionError):
            game.verify(action)
    assert snapshot(game) == before


def test_player_cannot_replay_a_used_overall_card():
    game = _mid_game()
    play(game, [(3, "leg:G"), (0, "leg:G")])
    before = snapshot(game)
    for action in ("winner:Y", "loser:Y"):  # player 1 played Y
        with pytest.raises(IllegalActionError):
            game.apply(action)
    assert snapshot(game) == before
    play(game, [(1, "loser:P")])  # other colours are fine


@pytest.mark.parametrize("roll", [Roll("B", 4), Roll("B", 0), Roll("x", 2), Roll("x", 2, "grey")])
def test_impossible_forced_rolls_are_rejected_and_change_nothing(roll):
    game = _mid_game()
    before = snapshot(game)
    with pytest.raises(AdvisorError):
        game.apply("pyramid", roll)
    assert snapshot(game) == before


def test_no_action_after_the_game_ends():
    game = Game("second", 4, position=NEAR_END, start=0)
    play(game, [(0, "pyramid", Roll("Y", 2))])
    assert game.finished
    before = snapshot(game)
    assert game.legal_actions() == []
    for action in ("pyramid", "leg:B", "tile:+3", "winner:B", "loser:B"):
        assert not game.can(action)
        with pytest.raises(IllegalActionError):
            game.verify(action)
        with pytest.raises(IllegalActionError):
            game.apply(action)
    with pytest.raises(IllegalActionError):
        game.apply("pyramid", Roll("B", 1))
    assert snapshot(game) == before
    assert game.record[-1] == game.summary()


# ======================================================================
# Pyramid
# ======================================================================


def test_pyramid_moves_the_unit_and_gives_a_pyramid_tile():
    game = Game("second", 4, position="2:B 4:GP 6:R 8:Y 14:w 15:k", start=3)
    entry = game.apply("pyramid", Roll("G", 2))
    # G carries P onto R's stack, on top
    assert game.board() == "2:B 6:RGP 8:Y 14:w 15:k dice:BPRYx"
    assert entry == {"type": "action", "turn": 0, "player": 3, "action": "pyramid",
                     "roll": {"die": "G", "value": 2}, "board": "2:B 6:RGP 8:Y 14:w 15:k dice:BPRYx"}
    assert [p.pyramid_tiles for p in game.state.players] == [0, 0, 0, 1]
    assert game.money() == [3, 3, 3, 3]  # pyramid tiles pay at leg end
    assert game.to_move == 0  # clockwise, wrapping 3 -> 0
    # the bottom camel carries the whole stack
    play(game, [(0, "pyramid", Roll("R", 3))])
    assert game.board() == "2:B 8:Y 9:RGP 14:w 15:k dice:BPYx"
    play(game, [(1, "pyramid", Roll("P", 1))])
    assert game.board() == "2:B 8:Y 9:RG 10:P 14:w 15:k dice:BYx"
    # Y, alone, lands on P's space: on top
    play(game, [(2, "pyramid", Roll("Y", 2))])
    assert game.board() == "2:B 9:RG 10:PY 14:w 15:k dice:Bx"
    assert [p.pyramid_tiles for p in game.state.players] == [1, 1, 1, 1]
    assert game.legs == 1 and game.to_move == 3
    # the 5th racing die ends the leg with the grey die left in the pyramid
    entry = play(game, [(3, "pyramid", Roll("B", 1))])[0]
    assert entry.get("leg_over") is True
    assert game.money() == [4, 4, 4, 5]  # one pyramid tile each, two for P3
    assert game.board() == "3:B 9:RG 10:PY 14:w 15:k"
    assert game.to_move == 0 and game.legs == 2
    # a camel in the middle of a stack carries only what is above it
    game = Game("second", 3, position="3:BGP 4:R 8:Y 14:w 15:k", start=0)
    play(game, [(0, "pyramid", Roll("G", 1))])
    assert game.board() == "3:B 4:RGP 8:Y 14:w 15:k dice:BPRYx"


def test_pyramid_draws_a_die_still_in_the_pyramid():
    game = Game("second", 4, seed=7, position=SPREAD, start=0)
    seen = []
    for player in range(4):
        entry = play(game, [(player, "pyramid")])[0]
        die = entry["roll"]["die"]
        assert die not in seen
        assert entry["roll"]["value"] in (1, 2, 3)
        assert ("colour" in entry["roll"]) == (die == "x")
        seen.append(die)
        assert die not in game.state.position.dice


def test_cheering_tile_pays_its_owner_at_once_and_moves_on_top():
    game = Game("second", 4, position=SPREAD, start=0)
    play(game, [(0, "leg:B"), (1, "tile:+5")])
    assert game.money() == [3, 3, 3, 3]
    entry = play(game, [(2, "pyramid", Roll("G", 1))])[0]  # G 4 -> 5 (+) -> 6, on P
    assert entry["landed"] == 5
    assert game.money() == [3, 4, 3, 3]  # paid at once, mid-leg
    assert game.board() == "2:B 6:PG 8:R 10:Y 14:w 15:k +5@1 dice:BPRYx legtiles:B322"
    assert game.to_move == 3


def test_booing_tile_pays_its_owner_and_puts_the_unit_under():
    game = Game("second", 4, position="2:B 4:GR 6:P 8:Y 14:w 15:k", start=0)
    play(game, [(0, "tile:-7")])
    entry = play(game, [(1, "pyramid", Roll("G", 3))])[0]  # G+R 4 -> 7 (-) -> 6, under P
    assert entry["landed"] == 7
    assert game.money() == [4, 3, 3, 3]
    assert game.board() == "2:B 6:GRP 8:Y 14:w 15:k -7@0 dice:BPRYx"
    assert game.state.players[1].pyramid_tiles == 1


def test_crazy_unit_landing_on_a_tile_pays_and_is_mirrored():
    game = Game("second", 4, position=SPREAD, start=0)
    play(game, [(0, "tile:+12"), (1, "tile:-9")])
    # white 2: w 14 -> 12; cheering sends a crazy unit one further backward, on top
    play(game, [(2, "pyramid", Roll("x", 2, "white"))])
    assert game.money() == [4, 3, 3, 3]
    assert game.board() == "2:B 4:G 6:P 8:R 10:Y 11:w 15:k -9@1 +12@0 dice:BGPRY"
    # black 3: k 15 -> 12 (+) -> 11, on top of w
    game = Game("second", 4, position="2:B 4:G 6:P 8:R 10:Y 11:w 15:k", start=0)
    play(game, [(0, "tile:+12"), (1, "pyramid", Roll("x", 3, "black"))])
    assert game.money() == [4, 3, 3, 3]
    assert game.board() == "2:B 4:G 6:P 8:R 10:Y 11:wk +12@0 dice:BGPRY"


def test_crazy_unit_on_a_booing_tile_moves_forward_under():
    game = Game("second", 4, position="2:B 4:G 6:P 8:R 9:Y 12:w 15:k", start=0)
    play(game, [(0, "tile:-10")])
    # w 12 -> 10 (-) -> 11 (forward for a crazy unit), nobody there
    play(game, [(1, "pyramid", Roll("x", 2, "white"))])
    assert game.money() == [4, 3, 3, 3]
    assert game.board() == "2:B 4:G 6:P 8:R 9:Y 11:w 15:k -10@0 dice:BGPRY"


def test_crazy_camel_carrying_racing_camels_moves_whatever_the_colour():
    game = Game("second", 4, position="2:B 4:G 6:P 8:kR 10:Y 14:w", start=0)
    # white rolled, but k carries R, so k moves 2 back with R
    play(game, [(0, "pyramid", Roll("x", 2, "white"))])
    assert game.board() == "2:B 4:G 6:PkR 10:Y 14:w dice:BGPRY"


@pytest.mark.parametrize("board,roll,after", [
    # rule 2: k sits directly on w: k moves, whatever the colour
    ("2:B 4:G 6:P 8:R 10:Y 14:wk", Roll("x", 1, "white"), "2:B 4:G 6:P 8:R 10:Y 13:k 14:w"),
    ("2:B 4:G 6:P 8:R 10:Y 14:kw", Roll("x", 2, "black"), "2:B 4:G 6:P 8:R 10:Y 12:w 14:k"),
    # rule 1: only w carries a racing camel: w moves with everything above it
    ("2:B 4:G 6:P 8:R 12:wY 15:k", Roll("x", 1, "black"), "2:B 4:G 6:P 8:R 11:wY 15:k"),
    ("2:G 4:P 6:R 8:Y 14:wBk", Roll("x", 1, "black"), "2:G 4:P 6:R 8:Y 13:wBk"),
    # both carry racing camels, not stacked: the rolled colour moves
    ("2:B 6:P 10:Y 12:wR 14:kG", Roll("x", 1, "black"), "2:B 6:P 10:Y 12:wR 13:kG"),
    ("2:B 6:P 10:Y 12:wR 14:kG", Roll("x", 3, "white"), "2:B 6:P 9:wR 10:Y 14:kG"),
])
def test_which_crazy_camel_moves(board, roll, after):
    game = Game("second", 3, position=board, start=0)
    play(game, [(0, "pyramid", roll)])
    assert game.board() == after + " dice:BGPRY"


# ======================================================================
# Leg end and leg scoring
# ======================================================================


def test_leg_end_second_edition_scoring_and_reset():
    game = Game("second", 4, position=SPREAD, start=0)
    play(game, [
        (0, "leg:Y"),                          # Y5
        (1, "leg:Y"),                          # Y3
        (2, "leg:R"),                          # R5
        (3, "leg:B"),                          # B5
        (0, "pyramid", Roll("B", 1)),          # B 2 -> 3          (1 die)
        (1, "tile:+12"),
        (2, "pyramid", Roll("G", 1)),          # G 4 -> 5          (2 dice)
        (3, "pyramid", Roll("P", 1)),          # P 6 -> 7          (3 dice)
        (0, "pyramid", Roll("R", 1)),          # R 8 -> 9          (4 dice)
    ])
    # 4 of 6 dice rolled: still the same leg
    assert game.legs == 1
    assert game.board() == "3:B 5:G 7:P 9:R 10:Y 14:w 15:k +12@1 dice:Yx legtiles:B322,R322,Y22"
    assert game.money() == [3, 3, 3, 3]
    entry = play(game, [(1, "pyramid", Roll("x", 1, "white"))])[0]  # w 14 -> 13: 5th die, leg over
    assert entry.get("leg_over") is True
    # order Y(10) R(9) P(7) G(5) B(3)
    # P0: Y5 first +5, two pyramid tiles +2 -> 10
    # P1: Y3 first +3, one pyramid tile +1  -> 7
    # P2: R5 second +1, one pyramid tile +1 -> 5
    # P3: B5 last -1, one pyramid tile +1   -> 3
    assert game.money() == [10, 7, 5, 3]
    # reset: full leg tiles, no tiles, all dice back, holdings cleared
    assert game.board() == "3:B 5:G 7:P 9:R 10:Y 13:w 15:k"
    pos = game.state.position
    assert pos.dice == "BGPRYx" and pos.tiles == () and all(s == (5, 3, 2, 2) for s in pos.legtiles)
    assert all(p.leg_tiles == () and p.pyramid_tiles == 0 and p.partner is None for p in game.state.players)
    assert all(p.overall_cards == "BGPRY" for p in game.state.players)
    assert game.legs == 2 and game.turns == 10
    # the player left of the one who rolled the last die (P1) starts
    assert game.to_move == 2
    assert not game.finished


def test_leg_end_first_edition_needs_all_five_dice():
    game = Game("first", 3, position=FIRST_SPREAD, start=0)
    play(game, [
        (0, "leg:W"),                          # W5
        (1, "leg:W"),                          # W3
        (2, "leg:Y"),                          # Y5
        (0, "pyramid", Roll("B", 1)),          # B 2 -> 3
        (1, "pyramid", Roll("G", 1)),          # G 4 -> 5
        (2, "pyramid", Roll("O", 1)),          # O 6 -> 7
        (0, "pyramid", Roll("Y", 1)),          # Y 8 -> 9
    ])
    assert game.legs == 1 and game.state.position.dice == "W"  # one die left: still the leg
    assert game.money() == [3, 3, 3]
    play(game, [(1, "pyramid", Roll("W", 3))])  # W 10 -> 13, last die
    # order W(13) Y(9) O(7) G(5) B(3)
    # P0: W5 +5, 2 pyramid +2 -> 10; P1: W3 +3, 2 pyramid +2 -> 8; P2: Y5 second +1, 1 pyramid -> 5
    assert game.money() == [10, 8, 5]
    assert game.board() == "first 3:B 5:G 7:O 9:Y 13:W"
    assert game.legs == 2 and game.to_move == 2


def test_leg_scoring_floor_is_applied_after_summing():
    game = Game("second", 3, position=SPREAD, start=0)
    play(game, [
        (0, "leg:B"),                          # B5
        (1, "leg:B"),                          # B3
        (2, "pyramid", Roll("Y", 1)),          # Y 10 -> 11   #1
        (0, "leg:G"),                          # G5
        (1, "leg:G"),                          # G3
        (2, "pyramid", Roll("R", 1)),          # R 8 -> 9     #2
        (0, "leg:B"),                          # B2
        (1, "tile:-3"),
        (2, "pyramid", Roll("P", 1)),          # P 6 -> 7     #3
        (0, "leg:G"),                          # G2
        (1, "tile:+16"),
        (2, "pyramid", Roll("G", 1)),          # G 4 -> 5     #4
        (0, "leg:B"),                          # B2 (the last B)
        (1, "tile:-3"),
        (2, "pyramid", Roll("x", 1, "white")),  # w 14 -> 13  #5: leg over
    ])
    # order Y(11) R(9) P(7) G(5) B(2)
    # P0: five losing tiles, -5 from 3 coins -> 0 (not -2)
    # P1: two losing tiles -> 1;  P2: five pyramid tiles -> 8
    assert game.money() == [0, 1, 8]
    assert game.board() == "2:B 5:G 7:P 9:R 11:Y 13:w 15:k"
    assert game.to_move == 0
    play(game, [
        (0, "leg:Y"),                          # Y5
        (1, "leg:B"),                          # B5
        (2, "pyramid", Roll("Y", 1)),          # Y 11 -> 12   #1
        (0, "pyramid", Roll("R", 1)),          # R 9 -> 10    #2
        (1, "leg:G"),                          # G5
        (2, "pyramid", Roll("P", 1)),          # P 7 -> 8     #3
        (0, "pyramid", Roll("G", 1)),          # G 5 -> 6     #4
        (1, "pyramid", Roll("x", 1, "white")),  # w 13 -> 12  #5: leg over
    ])
    # order Y(12) R(10) P(8) G(6) B(2)
    # P0: Y5 +5, 2 pyramid -> 0 + 7 = 7
    # P1: B5 -1, G5 -1, 1 pyramid +1: 1 coin + (-1) -> 0
    #     (penalties first with a floor each would give 1)
    # P2: 2 pyramid -> 10
    assert game.money() == [7, 0, 10]
    assert game.board() == "2:B 6:G 8:P 10:R 12:Yw 15:k"
    assert game.to_move == 2 and game.legs == 3


def test_partners_copy_the_best_non_negative_reward():
    game = Game("second", 6, position=SPREAD, start=0)
    play(game, [
        (0, "partner:1"),
        (1, "leg:Y"),                          # Y5
        (2, "leg:B"),                          # B5
        (3, "partner:2"),
        (4, "leg:Y"),                          # Y3
        (5, "leg:R"),                          # R5
        (0, "pyramid", Roll("B", 1)),          # B 2 -> 3     #1
        (1, "leg:P"),                          # P5
        (2, "leg:G"),                          # G5
        (3, "pyramid", Roll("P", 1)),          # P 6 -> 7     #2
        (4, "pyramid", Roll("R", 1)),          # R 8 -> 9     #3
        (5, "pyramid", Roll("x", 1, "black")),  # k 15 -> 14, on w  #4
    ])
    assert [p.partner for p in game.state.players] == [1, 0, 3, 2, None, None]
    assert game.money() == [3] * 6
    play(game, [(0, "pyramid", Roll("G", 1))])  # G 4 -> 5  #5: leg over
    # order Y(10) R(9) P(7) G(5) B(3)
    # own rewards: P0 [+1 +1]; P1 [Y5 +5, P5 -1]; P2 [B5 -1, G5 -1]; P3 [+1];
    #              P4 [Y3 +3, +1]; P5 [R5 +1, +1]
    # P0: 2 + best of P1 (5)           = 7 -> 10
    # P1: 4 + best of P0 (1)           = 5 -> 8
    # P2: -2 + best of P3 (1)          = -1 -> 2
    # P3: 1 + nothing (P2 has only -1) = 1 -> 4
    # P4: 4 -> 7;  P5: 2 -> 5
    assert game.money() == [10, 8, 2, 4, 7, 5]
    assert game.board() == "3:B 5:G 7:P 9:R 10:Y 14:wk"
    assert all(p.partner is None for p in game.state.players)
    assert game.to_move == 1
    # partnerships are available again in the new leg
    assert legal_partners(game) == ["partner:0", "partner:2", "partner:3", "partner:4", "partner:5"]


def test_leg_rewards_function_by_hand():
    order = list("YRPGB")
    players = (
        PlayerState(leg_tiles=(("Y", 5), ("B", 3)), pyramid_tiles=1, partner=1),  # 5 - 1 + 1 = 5, + best 1
        PlayerState(leg_tiles=(("R", 5),), pyramid_tiles=1, partner=0),           # 1 + 1 = 2, + best 5
        PlayerState(leg_tiles=(("G", 2), ("P", 2))),                              # -2 (no floor here)
        PlayerState(),
    )
    assert scoring.leg_rewards(get_edition("second"), players, order) == [6, 7, -2, 0]
    # a partner whose tiles all lose gives nothing
    players = (PlayerState(leg_tiles=(("B", 5),), partner=1), PlayerState(leg_tiles=(("G", 5),), partner=0))
    assert scoring.leg_rewards(get_edition("second"), players, order) == [-1, -1]


def test_race_order_by_space_then_height():
    stacks = ((0, "kBG"), (5, "P"), (9, "RwY"))
    assert race_order(stacks, "BGPRY") == ["Y", "R", "P", "G", "B"]
    assert race_order(((17, "GB"), (16, "YPR")), "BGPRY") == ["B", "G", "R", "P", "Y"]


def test_overall_rewards_function_by_hand():
    state = GameState(
        SPREAD,
        tuple(PlayerState(overall_cards="") for _ in range(3)),
        winner_pile=(PileCard(0, "Y"), PileCard(1, "B"), PileCard(2, "Y"), PileCard(1, "Y")),
        loser_pile=(PileCard(2, "G"), PileCard(0, "B")),
    )
    # winner Y: P0 8, P1 -1, P2 5, P1 3; loser B: P2 -1, P0 8
    assert overall_rewards(state, "Y", "B") == [16, 2, 4]


# ======================================================================
# End of the race
# ======================================================================


def test_race_end_mid_leg_scores_the_leg_then_the_piles():
    game = Game("second", 4, position=NEAR_END, start=0)
    play(game, [
        (0, "winner:Y"), (1, "winner:B"), (2, "winner:Y"), (3, "winner:Y"),
        (0, "loser:B"), (1, "loser:G"), (2, "loser:B"), (3, "loser:R"),
        (0, "leg:Y"),                          # Y5
        (1, "leg:B"),                          # B5
        (2, "leg:R"),                          # R5
        (3, "pyramid", Roll("B", 1)),          # B 2 -> 3
        (0, "winner:R"),
        (1, "winner:P"),
    ])
    assert not game.finished
    entry = play(game, [(2, "pyramid", Roll("Y", 2))])[0]  # Y 15 -> 17: over
    assert entry.get("race_over") is True
    assert game.finished
    # order Y(17) R(8) P(6) G(4) B(3): winner Y, loser B
    # leg: P0 Y5 +5 -> 8; P1 B5 -1 -> 2; P2 R5 +1, pyramid +1 -> 5; P3 pyramid -> 4
    # winner pile Y:  P0 Y +8, P1 B -1, P2 Y +5, P3 Y +3, P0 R -1, P1 P -1
    # loser pile B:   P0 B +8, P1 G -1, P2 B +5, P3 R -1
    # P0 8+15 = 23; P1 2-3 -> 0; P2 5+10 = 15; P3 4+2 = 6
    assert game.money() == [23, 0, 15, 6]
    assert game.winners() == [0]
    summary = game.summary()
    assert summary == {
        "type": "end", "money": [23, 0, 15, 6], "winners": [0], "winner_camel": "Y", "loser_camel": "B",
        "legs": 1, "turns": 15, "final_board": "3:B 4:G 6:P 8:R 12:w 13:k 17:Y",
    }
    assert game.record[-1] == summary
    assert game.board() == "3:B 4:G 6:P 8:R 12:w 13:k 17:Y"
    assert game.legal_actions() == []


def test_race_end_leg_and_pile_phases_are_settled_separately():
    game = Game("second", 4, position=NEAR_END, start=0)
    play(game, [
        (0, "leg:B"), (1, "leg:B"), (2, "leg:Y"), (3, "leg:Y"),            # B5 B3 Y5 Y3
        (0, "leg:G"), (1, "leg:G"),                                        # G5 G3
        (2, "pyramid", Roll("B", 1)),                                      # B 2 -> 3
        (3, "leg:Y"),                                                      # Y2
        (0, "leg:P"), (1, "leg:P"), (2, "leg:R"), (3, "leg:R"),            # P5 P3 R5 R3
        (0, "leg:P"),                                                      # P2
        (1, "winner:G"), (2, "loser:B"), (3, "loser:G"), (0, "winner:Y"), (1, "loser:B"),
        (2, "pyramid", Roll("Y", 2)),                                      # Y 15 -> 17
    ])
    assert game.finished
    # order Y(17) R(8) P(6) G(4) B(3)
    # leg:   P0 B5 G5 P5 P2: -4 from 3 -> 0;  P1 B3 G3 P3: -3 -> 0
    #        P2 Y5 +5, R5 +1, 2 pyramid -> 11;  P3 Y3 +3, Y2 +2, R3 +1 -> 9
    # piles: winner: P1 G -1, P0 Y +8;  loser: P2 B +8, P3 G -1, P1 B +5
    #        P0 0+8 = 8 (not 3-4+8 = 7); P1 0+(-1+5) = 4 (not 0->0->5);
    #        P2 11+8 = 19; P3 9-1 = 8
    assert game.money() == [8, 4, 19, 8]
    assert game.winners() == [2]


def test_race_end_mid_leg_partners_copy_too():
    game = Game("second", 6, position=NEAR_END, start=0)
    play(game, [(0, "partner:1"), (1, "leg:Y"), (2, "pyramid", Roll("Y", 2))])
    assert game.finished
    # P0 nothing + P1's Y5 -> 8; P1 Y5 +5 -> 8; P2 pyramid -> 4
    assert game.money() == [8, 8, 4, 3, 3, 3]


def test_pile_payouts_8_5_3_2_1_1():
    game = Game("second", 6, position=NEAR_END, start=0)
    play(game, [
        (0, "winner:Y"), (1, "winner:B"), (2, "winner:Y"), (3, "winner:Y"), (4, "winner:Y"), (5, "winner:Y"),
        (0, "loser:G"), (1, "winner:Y"),
        (2, "pyramid", Roll("Y", 2)),
    ])
    # correct Y cards in order: P0 8, P2 5, P3 3, P4 2, P5 1, P1 1; wrong: P1 B -1, P0 G -1 (loser is B)
    # P2 also has a pyramid tile
    assert game.money() == [10, 3, 9, 6, 5, 4]
    assert game.summary()["winner_camel"] == "Y" and game.summary()["loser_camel"] == "B"


def test_race_end_on_a_cheering_tile_on_16_pays_the_owner():
    game = Game("second", 4, position="2:B 4:G 6:P 8:R 10:w 11:k 13:Y", start=0)
    play(game, [(0, "leg:Y"), (1, "tile:+16")])
    entry = play(game, [(2, "pyramid", Roll("Y", 3))])[0]  # Y 13 -> 16 (+) -> 17
    assert entry["landed"] == 16 and entry["race_over"] is True
    assert game.finished
    # P0 Y5 +5 -> 8; P1 tile coin -> 4; P2 pyramid -> 4
    assert game.money() == [8, 4, 4, 3]
    assert game.board() == "2:B 4:G 6:P 8:R 10:w 11:k 17:Y"
    assert (game.summary()["winner_camel"], game.summary()["loser_camel"]) == ("Y", "B")


def test_booing_tile_on_16_keeps_the_race_going():
    game = Game("second", 4, position="2:B 4:G 6:P 10:w 11:k 13:Y 15:R", start=0)
    play(game, [(0, "tile:-16")])
    play(game, [(1, "pyramid", Roll("Y", 3))])  # Y 13 -> 16 (-) -> 15, under R
    assert not game.finished
    assert game.money() == [4, 3, 3, 3]
    assert game.board() == "2:B 4:G 6:P 10:w 11:k 15:YR -16@0 dice:BGPRx"


def test_crazy_camel_carrying_racing_camels_below_space_1_ends_the_race():
    game = Game("second", 4, position="2:kBG 5:P 6:R 7:Y 10:w", start=0)
    play(game, [(0, "loser:B"), (1, "loser:G"), (2, "winner:Y")])
    # white 2, but k carries B and G, so k moves: 2 -> 0 with B and G
    entry = play(game, [(3, "pyramid", Roll("x", 2, "white"))])[0]
    assert entry["race_over"] is True and game.finished
    # order Y(7) R(6) P(5) G(0, above B) B(0): loser B
    # P0 +8 -> 11; P1 -1 -> 2; P2 +8 -> 11; P3 pyramid -> 4
    assert game.money() == [11, 2, 11, 4]
    assert game.winners() == [0, 2]
    summary = game.summary()
    assert (summary["winner_camel"], summary["loser_camel"]) == ("Y", "B")
    assert summary["final_board"] == "0:kBG 5:P 6:R 7:Y 10:w"


def test_lone_crazy_camel_below_space_1_ends_the_race():
    game = Game("second", 3, position="2:w 3:B 4:G 5:P 6:R 7:Y 12:k", start=0)
    play(game, [(0, "leg:Y"), (1, "pyramid", Roll("x", 2, "white"))])  # w 2 -> 0
    assert game.finished
    assert game.money() == [8, 4, 3]
    assert (game.summary()["winner_camel"], game.summary()["loser_camel"]) == ("Y", "B")


def test_race_end_on_the_last_die_of_a_leg_scores_the_leg_once():
    game = Game("second", 4, position=NEAR_END, start=0)
    play(game, [
        (0, "leg:Y"),
        (1, "pyramid", Roll("B", 1)),
        (2, "pyramid", Roll("G", 1)),
        (3, "pyramid", Roll("P", 1)),
        (0, "pyramid", Roll("R", 1)),
        (1, "pyramid", Roll("Y", 2)),  # 5th die and past 16
    ])
    assert game.finished and game.legs == 1
    # P0 Y5 +5, pyramid +1 -> 9; P1 2 pyramid -> 5; P2, P3 1 pyramid -> 4
    assert game.money() == [9, 5, 4, 4]


def test_race_end_first_edition():
    game = Game("first", 2, position="first 2:B 4:G 6:O 8:Y 14:W", start=1)
    play(game, [(1, "winner:W"), (0, "loser:W"), (1, "loser:B"), (0, "pyramid", Roll("W", 3))])
    assert game.finished
    # W 14 -> 17; P0: pyramid +1, loser W wrong -1 -> 3; P1: +8 +8 -> 19
    assert game.money() == [3, 19]
    assert game.summary()["final_board"].split()[-5:] == ["2:B", "4:G", "6:O", "8:Y", "17:W"]


# ======================================================================
# Setup by the rules and player counts
# ======================================================================


def test_setup_second_edition_many_seeds():
    racing_spaces, crazy_spaces, starts = set(), set(), set()
    for seed in range(300):
        game = Game("second", 4, seed)
        pos = game.state.position
        for camel in "BGPRY":
            assert pos.space_of(camel) in (1, 2, 3)
            racing_spaces.add(pos.space_of(camel))
        for camel in "wk":
            assert pos.space_of(camel) in (14, 15, 16)
            crazy_spaces.add(pos.space_of(camel))
        assert pos.tiles == () and pos.dice == "BGPRYx"
        assert all(s == (5, 3, 2, 2) for s in pos.legtiles)
        assert game.money() == [3, 3, 3, 3]
        assert all(p.overall_cards == "BGPRY" and p.leg_tiles == () for p in game.state.players)
        assert 0 <= game.to_move < 4
        starts.add(game.to_move)
        assert game.record == [{"type": "setup", "schema": SCHEMA, "edition": "second", "players": 4, "seed": seed,
                                "board": str(pos), "start": game.to_move}]
    assert racing_spaces == {1, 2, 3} and crazy_spaces == {14, 15, 16} and starts == {0, 1, 2, 3}


def test_setup_first_edition_many_seeds():
    for seed in range(200):
        game = Game("first", 2, seed)
        pos = game.state.position
        assert str(pos).startswith("first ")
        assert sorted(c for _, s in pos.stacks for c in s) == sorted("BGOYW")  # no crazy camels
        assert all(space in (1, 2, 3) for space, _ in pos.stacks)
        assert pos.dice == "BGOYW" and all(s == (5, 3, 2) for s in pos.legtiles)


def test_setup_is_seeded():
    assert Game("second", 5, 42).record == Game("second", 5, 42).record
    assert len({str(Game("second", 5, s).state.position) for s in range(20)}) > 1


@pytest.mark.parametrize("edition,players", [("first", n) for n in range(2, 9)] + [("second", n) for n in range(3, 9)])
def test_allowed_player_counts(edition, players):
    game = Game(edition, players, seed=1)
    assert len(game.state.players) == players and game.money() == [3] * players


@pytest.mark.parametrize("edition,players", [("first", 1), ("first", 9), ("second", 1), ("second", 2), ("second", 9)])
def test_rejected_player_counts(edition, players):
    with pytest.raises(AdvisorError):
        Game(edition, players, seed=1)
    with pytest.raises(AdvisorError):
        Game(edition, players, seed=1, start=0)


@pytest.mark.parametrize("edition", ["first", "second"])
def test_zero_players_rejected_as_a_user_error(edition):
    # errors.py: every error a user can cause is an AdvisorError naming what is wrong
    with pytest.raises(AdvisorError):
        Game(edition, 0, seed=1)


def test_start_position_must_match_the_edition():
    with pytest.raises(AdvisorError):
        Game("first", 3, position=SPREAD, start=0)


# ======================================================================
# Records
# ======================================================================

BOTS4 = [RandomBot(), HeuristicBot(), RandomBot(), HeuristicBot()]


@pytest.fixture(scope="module")
def games():
    return [bot_game(11, BOTS4), bot_game(12, [RandomBot(), RandomBot(), HeuristicBot()]),
            bot_game(13, [HeuristicBot(), RandomBot(), RandomBot()], "first"),
            bot_game(14, [RandomBot()] * 7)]


def test_bot_games_are_complete(games):
    for game in games:
        assert game.finished
        rec = game.record
        assert rec[0]["type"] == "setup" and rec[-1] == game.summary()
        actions = [e for e in rec if e["type"] == "action"]
        assert len(actions) == game.turns == len(rec) - 2
        assert [e["turn"] for e in actions] == list(range(game.turns))
        assert actions[-1].get("race_over") is True
        assert sum(1 for e in actions if e.get("leg_over")) == game.legs - 1
        assert all(m >= 0 for m in game.money())
    assert any(e.get("action", "").startswith("partner:") for e in games[3].record)


def test_replay_reproduces_the_game(games):
    for game in games:
        again = replay(game.record)
        assert again.finished
        assert again.money() == game.money()
        assert again.summary() == game.summary()
        assert again.record == game.record
        assert again.state == game.state


def test_replay_upto(games):
    game = games[0]
    board_list = boards(game.record)
    for k in (0, 1, 5, game.turns // 2, game.turns - 1, game.turns):
        part = replay(game.record, upto=k)
        assert part.turns == k
        assert part.board() == board_list[k]
        assert part.finished == (k == game.turns)


def test_boards_has_one_entry_per_turn_and_the_end(games):
    for game in games:
        board_list = boards(game.record)
        assert len(board_list) == game.turns + 1
        assert board_list[0] == game.record[0]["board"]
        assert board_list[-1] == game.summary()["final_board"] == game.board()


def test_write_and_read_records_round_trip(games, tmp_path):
    path = tmp_path / "games.jsonl"
    write_records([g.record for g in games], path)
    back = read_records(path)
    assert back == [g.record for g in games]
    assert len(path.read_text().splitlines()) == sum(len(g.record) for g in games)
    for game, record in zip(games, back):
        assert replay(record).summary() == game.summary()


def _first(record, pred):
    return next(i for i, e in enumerate(record) if e.get("type") == "action" and pred(e))


def test_tampered_roll_fails_on_replay(games):
    for game in games:
        record = copy.deepcopy(game.record)
        i = _first(record, lambda e: "roll" in e)
        record[i]["roll"]["value"] = record[i]["roll"]["value"] % 3 + 1
        with pytest.raises(ValueError):
            replay(record)


def test_tampered_die_fails_on_replay(games):
    record = copy.deepcopy(games[0].record)
    rolls = [i for i, e in enumerate(record) if "roll" in e]
    record[rolls[1]]["roll"] = dict(record[rolls[0]]["roll"])  # a die already rolled this leg
    with pytest.raises(ValueError):
        replay(record)


def test_tampered_action_fails_on_replay(games):
    # another colour for the first overall card: illegal now or later, or a
    # different pile payout
    for game in games:
        record = copy.deepcopy(game.record)
        i = _first(record, lambda e: e["action"].startswith(("winner:", "loser:")))
        kind, colour = record[i]["action"].split(":")
        racing = "BGPRY" if record[0]["edition"] == "second" else "BGOYW"
        record[i]["action"] = f"{kind}:{racing[(racing.index(colour) + 1) % 5]}"
        with pytest.raises(ValueError):
            replay(record)
    # another colour for the first leg tile (seed 11: R -> Y changes the money)
    record = copy.deepcopy(games[0].record)
    i = _first(record, lambda e: e["action"].startswith("leg:"))
    assert record[i]["action"] == "leg:R"
    record[i]["action"] = "leg:Y"
    with pytest.raises(ValueError):
        replay(record)
    # a pyramid turn replaced by a leg tile: every later roll is off
    for game in games:
        record = copy.deepcopy(game.record)
        i = _first(record, lambda e: e["action"] == "pyramid")
        del record[i]["roll"]
        record[i]["action"] = "leg:B"
        with pytest.raises(ValueError):
            replay(record)


def test_tampered_last_action_fails_on_replay(games):
    # the race-ending roll replaced by another legal action: the game is not
    # over when the record's end line comes, which must be reported as a
    # ValueError like any other mismatch
    for game in games:
        record = copy.deepcopy(game.record)
        alt = [a for a in replay(record, upto=game.turns - 1).legal_actions() if a != "pyramid"][0]
        record[-2] = {"type": "action", "turn": record[-2]["turn"], "player": record[-2]["player"], "action": alt}
        with pytest.raises(ValueError):
            replay(record)


def test_record_cut_short_fails_on_replay(games):
    for game in games:
        record = copy.deepcopy(game.record)
        del record[-2]  # the last action gone, the end line kept
        with pytest.raises(ValueError):
            replay(record)


def test_tampered_end_line_or_player_fails_on_replay(games):
    record = copy.deepcopy(games[0].record)
    record[-1]["money"][0] += 1
    with pytest.raises(ValueError):
        replay(record)
    record = copy.deepcopy(games[0].record)
    record[3]["player"] = (record[3]["player"] + 1) % 4
    with pytest.raises(ValueError):
        replay(record)


# ======================================================================
# Seeded determinism
# ======================================================================


@pytest.mark.parametrize("seed", [3, 4])
def test_same_seed_same_bots_same_record(seed):
    a = bot_game(seed, [RandomBot(), HeuristicBot(), HeuristicBot(), RandomBot(), RandomBot()])
    b = bot_game(seed, [RandomBot(), HeuristicBot(), HeuristicBot(), RandomBot(), RandomBot()])
    assert a.record == b.record
    assert a.summary() == b.summary()


def test_same_seed_same_bots_first_edition():
    a = bot_game(21, [HeuristicBot(), RandomBot()], "first")
    b = bot_game(21, [HeuristicBot(), RandomBot()], "first")
    assert a.record == b.record


def test_different_seeds_differ():
    a = bot_game(5, [RandomBot()] * 4)
    b = bot_game(6, [RandomBot()] * 4)
    assert a.record != b.record


def test_every_action_line_carries_the_board_and_replay_checks_it():
    from advisor.game import Game, Roll, replay

    game = Game("second", 3, seed=12, start=0, position="2:B 4:G 6:P 8:R 10:Y 14:w 15:k")
    game.apply("leg:Y")
    game.apply("pyramid", Roll("B", 1))
    record = [dict(e) for e in game.record]
    assert record[1]["board"] == "2:B 4:G 6:P 8:R 10:Y 14:w 15:k legtiles:Y322"
    record[1]["action"] = "leg:B"  # a different tile: same money now, a different board
    with pytest.raises(ValueError, match="board"):
        replay(record)


def test_first_edition_final_board_names_the_edition():
    from advisor.game import Game, Roll

    game = Game("first", 2, seed=1, start=0, position="first 16:B 1:G 2:O 3:Y 4:W")
    game.apply("pyramid", Roll("B", 1))
    assert game.finished and game.board() == "first 1:G 2:O 3:Y 4:W 17:B"
    assert game.summary()["final_board"] == game.board()

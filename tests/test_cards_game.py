"""The Camel Up Cards game engine (``advisor.cards.game``): hand-worked rule
examples (state, action, state after), illegal actions, and whole random
games checked step by step against the slow reference ``naive_cards.py``.

States are built from the set-up cards and a deal given literally, so every
expected value below is worked out by hand from docs/rules.md (Camel Up Cards) and the
Rulings in the engine's docstring.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from advisor.cards.actions import CardsAction
from advisor.cards.game import (
    FULL_CARDS, CardsGame, CardsPlayer, CardsSetup, apply, deal, legal_actions, shuffle, start_game,
)
from advisor.cards.position import CAMELS
from advisor.errors import IllegalActionError

try:
    from . import naive_cards as N
except ImportError:  # pragma: no cover - depends on how pytest imports
    import naive_cards as N


def cards(text: str):
    return tuple((text[i], int(text[i + 1])) for i in range(0, len(text), 2))


# ---------------------------------------------------------------- actions
@pytest.mark.parametrize("text", ["reveal", "hand", "pass", "palm:7", "fennec:12", "leg:B", "mid:Y", "winner:O",
                                  "loser:W", "build:B1/G2/O1W1/Y1", "build:B1//G2O1W1W2Y1/"])
def test_action_round_trip(text):
    action = CardsAction.parse(text)
    assert str(action) == text and CardsAction.parse(str(action)) == action


def test_action_kinds():
    assert CardsAction.parse("reveal").is_race and not CardsAction.parse("reveal").is_bet
    assert CardsAction.parse("mid:B").is_bet and not CardsAction.parse("pass").is_race
    assert CardsAction.parse("palm:3") == CardsAction("palm", space=3)
    # build cards are kept sorted: the same build, whatever the order typed
    assert CardsAction.parse("build:B1/G2/W1O1/Y1") == CardsAction.parse("build:B1/G2/O1W1/Y1")


@pytest.mark.parametrize("text,words", [
    ("jump", "'jump': unknown action"), ("reveal:3", "takes no argument"), ("palm:x", "palm:N"),
    ("leg:P", "camel colour"), ("mid:", "camel colour"), ("build:B1/G2", "HAND/SHOWN/DOWN/DISCARD"),
    ("build:B3/G2/O1/", "B3 is not a racing card"), ("build:B1G1/G2/O1/", "one hand card"),
    ("build:B1/G2G1/O1/", "at most one card shown"), ("", "empty action"), ("build:B/G2/O1/", "pairs"),
])
def test_bad_action_names_token(text, words):
    with pytest.raises(IllegalActionError, match=words) as info:
        CardsAction.parse(text)
    if text:
        assert repr(text.strip()) in str(info.value) or text.strip() in str(info.value)


# ---------------------------------------------------------------- set-up
@pytest.mark.parametrize("players,decksize,shown,down,dealt", [
    (2, 10, 0, 5, 7), (3, 12, 1, 3, 6), (4, 12, 1, 2, 5), (5, 10, 1, 1, 4), (6, 12, 1, 1, 4),
])
def test_setup_defaults(players, decksize, shown, down, dealt):
    setup = CardsSetup(players=players)
    assert (setup.decksize, setup.shown, setup.down, setup.dealt) == (decksize, shown, down, dealt)
    assert setup.track == "n" * ((13 + players) // 2) + "h" * ((13 + players) % 2)


@pytest.mark.parametrize("kwargs,words", [
    ({"players": 7}, "2..6 players"), ({"players": 4, "dealt": 8}, "more than the 30"),
    ({"players": 4, "dealt": 3}, "too few"), ({"start_money": 0}, "at least 1"), ({"track": "nhn"}, "track"),
    ({"shown": 2}, "0 or 1"),
])
def test_bad_setup(kwargs, words):
    with pytest.raises(IllegalActionError, match=words):
        CardsSetup(**kwargs)


def test_start_game_moves_from_the_start_card():
    # B G O W Y side by side (B last): Y+2 -> 2:Y; B+1 -> 1:B; G+1 -> 1:BG;
    # O+2 -> 2:YO; B+1: B carries G onto 2: 2:YOBG; W stays on the start card
    state = start_game(CardsSetup(), cards("Y2B1G1O2B1"))
    assert state.stacks() == ((0, "W"), (2, "YOBG"))
    assert state.phase == "deal" and state.leg == 1 and [p.money for p in state.players] == [3] * 4
    with pytest.raises(IllegalActionError, match="5 racing cards"):
        start_game(CardsSetup(), cards("Y2B1"))


# ---------------------------------------------------------------- a leg, by hand
DEAL = cards("B1B1B1G1G1" "O1O1O1W1W1" "Y1Y1Y1B2G2" "O2W2Y2B1G1"  # 4 players, 5 cards each
             "G1O1O1W1W1Y1Y1B1G1W1")


def dealt_state(players=4, first="B1G1O1W1Y1"):
    """Every camel one space ahead of the start card after the set-up:
    1:BGOWY; then the literal deal above."""
    state = start_game(CardsSetup(players=players), cards(first))
    assert state.stacks() == ((1, "BGOWY"),)
    return deal(state, _complete(DEAL))


def _complete(head):
    rest = list(FULL_CARDS)
    for c in head:
        rest.remove(c)
    return tuple(head) + tuple(rest)


BUILDS = ["build:B1/B1/B1G1/G1", "build:O1/O1/O1W1/W1", "build:Y1/B2/G2Y1/Y1", "build:O2/W2/B1Y2/G1"]
DECK = "G2O1B1B2O1Y1Y2W2B1G1W1B1"  # the shown and face-down cards, shuffled


def built_state():
    state = dealt_state()
    assert state.phase == "build" and state.players[0].dealt == cards("B1B1B1G1G1")
    for i, b in enumerate(BUILDS):
        assert state.current == i
        state = apply(state, b)
    assert state.phase == "shuffle" and state.shown == cards("B1O1B2W2")
    return state


def test_build_and_shuffle():
    state = built_state()
    assert tuple(p.hand for p in state.players) == cards("B1O1Y1O2")
    assert state.players[2].discard == cards("Y1") and state.players[3].down == cards("B1Y2")
    assert all(p.dealt == () for p in state.players)
    deck = cards(DECK)
    state = shuffle(state, deck)
    assert state.phase == "turn" and state.current == 0 and state.deck == deck


@pytest.mark.parametrize("action,words", [
    ("build:B1/B1/G1G1/B1B1", "exactly those dealt"),  # three B1 and two G1 were dealt
    ("build:B1//B1G1/B1G1", "show 1 card"), ("build:B1/B1/B1G1G1/", "2 cards face down"),
    ("reveal", "must build"), ("leg:B", "must build"),
])
def test_bad_builds_raise(action, words):
    state = dealt_state()
    with pytest.raises(IllegalActionError, match=words):
        apply(state, action)
    assert state == dealt_state()  # states are values: nothing changed


def test_shuffle_must_hold_the_deck_cards():
    with pytest.raises(IllegalActionError, match="face-down and shown"):
        shuffle(built_state(), cards(DECK.replace("W2", "Y2")))


def turn_state(head="G2"):
    """The leg's turns: the deck's top cards ``head``, the rest sorted."""
    rest = list(cards(DECK))
    for c in cards(head):
        rest.remove(c)
    return shuffle(built_state(), cards(head) + tuple(sorted(rest)))


def test_reveal_then_bet_ends_the_turn():
    state = turn_state()
    after = apply(state, "reveal")  # G+2: G (with O W Y above it) from 1 to 3
    assert after.stacks() == ((1, "B"), (3, "GOWY")) and after.current == 0 and after.raced
    assert after.revealed == cards("G2") and len(after.deck) == 11
    later = apply(after, "leg:Y")
    assert later.current == 1 and not later.raced and later.players[0].leg == (("Y", 5),)
    assert later.legtiles[CAMELS.index("Y")] == (3, 2, 2)
    # a second leg-winner card of Y is the 3
    assert apply(apply(later, "leg:Y"), "reveal").players[1].leg == (("Y", 3),)


def test_bet_then_race_and_pass():
    state = turn_state()
    after = apply(state, "mid:O")
    assert after.bet and after.current == 0 and after.mid == "BGWY"
    with pytest.raises(IllegalActionError, match="one bet per turn"):
        apply(after, "leg:B")
    with pytest.raises(IllegalActionError, match="pass ends a turn"):
        apply(after, "pass")
    done = apply(after, "hand")  # player 0's hand card B1: B, at the bottom, carries the stack to 2
    assert done.current == 1 and done.stacks() == ((2, "BGOWY"),) and done.played == cards("B1")
    assert done.players[0].hand is None
    raced = apply(done, "reveal")
    with pytest.raises(IllegalActionError, match="one race action"):
        apply(raced, "hand")
    assert apply(raced, "pass").current == 2


def test_hand_card_of_two_moves_one():
    state = turn_state("G2O1B1")
    state = apply(apply(state, "reveal"), "pass")  # player 0: G+2
    state = apply(apply(state, "reveal"), "pass")  # player 1: O+1: O W Y from 3 to 4
    assert state.stacks() == ((1, "B"), (3, "G"), (4, "OWY"))
    # player 2 holds Y1, player 3 holds O2: skip to 3
    state = apply(apply(state, "reveal"), "pass")  # player 2: B+1: B to 2
    assert state.current == 3 and state.players[3].hand == ("O", 2)
    after = apply(state, "hand")  # the O+2 card moves O W Y 1 space
    assert after.stacks() == ((2, "B"), (3, "G"), (5, "OWY")) and after.players[3].hand is None
    with pytest.raises(IllegalActionError, match="no hand card"):
        apply(dataclasses.replace(after, raced=False), "hand")


def test_overall_card_swap_returns_the_old_one():
    a = apply(apply(turn_state(), "winner:B"), "reveal")
    assert a.winners == "GOWY" and a.players[0].winner == "B" and a.current == 1
    for _ in range(3):
        a = apply(apply(a, "reveal"), "pass")
    assert a.current == 0
    b = apply(a, "winner:W")
    assert b.players[0].winner == "W" and b.winners == "BGOY"
    c = apply(b, "reveal")
    with pytest.raises(IllegalActionError, match="not on the table"):
        apply(c, "winner:W")
    d = apply(c, "loser:W")
    assert d.players[1].loser == "W" and d.losers == "BGOY" and d.bet


def test_figures_placement_and_effect():
    state = turn_state()
    assert [str(a) for a in legal_actions(state) if a.kind == "palm"] == [f"palm:{s}" for s in range(2, 18)]
    with pytest.raises(IllegalActionError, match="empty space ahead"):
        apply(state, "palm:1")  # the camels' space
    with pytest.raises(IllegalActionError, match="empty space ahead"):
        apply(state, "palm:18")  # the finish card (17 track spaces for 4 players)
    a = apply(state, "palm:3")
    assert a.palm == 3 and a.palm_holder == 0 and a.raced
    with pytest.raises(IllegalActionError, match="the palm is on the track"):
        apply(apply(a, "pass"), "palm:5")
    with pytest.raises(IllegalActionError, match="empty space ahead"):
        apply(apply(a, "pass"), "fennec:3")  # the palm's space
    b = apply(apply(a, "pass"), "reveal")  # G+2 onto the palm: G O W Y to 3, then 4; the palm returns
    assert b.stacks() == ((1, "B"), (4, "GOWY")) and b.palm == 0 and b.palm_holder is None


def test_fennec_sends_back_under():
    state = turn_state("O1")
    a = apply(state, "fennec:2")
    b = apply(apply(a, "pass"), "reveal")  # O+1: O W Y to 2, the fennec: back to 1, under B G
    assert b.stacks() == ((1, "OWYBG"),) and b.fennec == 0 and b.fennec_holder is None


# ---------------------------------------------------------------- leg end
def play_out(state, script):
    for step in script:
        state = apply(state, step)
    return state


def test_leg_end_scoring_floor_and_next_leg():
    # a leg of 8 cards, everyone reveals; bets along the way (hands: p0 B1,
    # p1 O1, p2 Y1, p3 O2; 3 coins each)
    state = dataclasses.replace(turn_state(), deck=cards("G2O1B1B2O1Y1Y2W2"))
    state = play_out(state, [
        "leg:G", "reveal",      # p0: G5; G+2: 1:B 3:GOWY
        "reveal", "mid:B",      # p1: O+1: 1:B 3:G 4:OWY; midfield B
        "fennec:9", "leg:Y",    # p2: the fennec on 9 (its card held); Y5
        "reveal", "leg:G",      # p3: B+1: 2:B 3:G 4:OWY; G3
        "reveal", "pass",       # p0: B+2: 3:G 4:OWYB
        "reveal", "pass",       # p1: O+1, carrying W Y B: 3:G 5:OWYB
        "reveal", "pass",       # p2: Y+1, carrying B: 3:G 5:OW 6:YB
        "reveal", "pass",       # p3: Y+2: 3:G 5:OW 8:YB
    ])
    assert state.current == 0 and state.deck == cards("W2") and state.fennec == 9
    assert state.stacks() == ((3, "G"), (5, "OW"), (8, "YB"))
    assert [p.money for p in state.players] == [3, 3, 3, 3]
    end = apply(state, "reveal")  # p0: W+2: W from 5 to 7; the deck is empty: the leg ends
    # order B Y W O G.  p0: G5, G 5th: -1.  p1: midfield B, 1st: -1.
    # p2: Y5, Y 2nd: +1; the fennec card, its figure on the track: -1.  p3: G3: -1
    assert [p.money for p in end.players] == [2, 2, 3, 2]
    assert end.phase == "deal" and end.leg == 2 and end.fennec == 0 and end.fennec_holder is None
    # the poorest (2 coins): players 0, 1, 3; player 0 ended the leg: player 1 starts
    assert end.start_player == 1 == end.current
    assert end.legtiles == ((5, 3, 2, 2),) * 5 and end.mid == CAMELS and end.revealed == () and end.shown == ()
    assert all(p.leg == () and p.mid == () and p.hand is None for p in end.players)
    # sandstorm: last camel 3, leader 8: of the cards 3-4, 5-6, 7-8 only 5-6
    # lies strictly between them, and O stands on 5: nothing flips; 17 - 8
    # >= 3 spaces ahead of the leader: no extension
    assert end.track == state.track and end.stacks() == ((3, "G"), (5, "O"), (7, "W"), (8, "YB"))
    with pytest.raises(IllegalActionError, match="no player acts now"):
        apply(end, "reveal")


def test_sandstorm_and_extension_between_legs():
    state = dataclasses.replace(turn_state(), sp=(1, 6, 12, 14, 15), ht=(0,) * 5, deck=cards("Y1"))
    end = apply(state, "reveal")  # Y to 16; then the leg ends
    # cards 1-2 (B), 3-4, 5-6 (G), 7-8, 9-10, 11-12 (O), 13-14 (W), 15-16 (Y), 17 (half)
    # empty and strictly between 1 and 16: 3-4, 7-8, 9-10 flip (one space each);
    # the camels ahead move back 1, 2, 3: G 5, O 9, W 11, Y 13; 14 spaces, 1
    # ahead of Y: the half card turns whole and one more half card follows
    assert end.track == "nsnssnnnnh" and end.length == 16
    assert end.stacks() == ((1, "B"), (5, "G"), (9, "O"), (11, "W"), (13, "Y"))


def test_sandstorm_before_the_first_leg_too():
    # the rulebook: before each leg, always check for empty cards between
    # the leader and the last camel.  Set-up B+2, B+1 x4: B on space 6 (the
    # card 5-6), G O W Y on the start card.  Cards 1-2 and 3-4 are empty and
    # between them: both flip to one space each, so B's card 5-6 becomes
    # spaces 3-4 and B stands on 4.
    state = start_game(CardsSetup(players=3), (("B", 2), ("B", 1), ("B", 1), ("B", 1), ("B", 1)))
    assert state.track == "ssnnnnnn"
    assert state.stacks() == ((0, "GOWY"), (4, "B"))
    # one set-up card per camel: every camel on space 1, nothing between them
    state = start_game(CardsSetup(players=3), (("B", 1), ("G", 1), ("O", 1), ("W", 1), ("Y", 1)))
    assert state.track == "nnnnnnnn" and state.stacks() == ((1, "BGOWY"),)


def test_money_floor_at_leg_end():
    state = turn_state()
    players = list(state.players)
    players[0] = dataclasses.replace(players[0], money=1, leg=(("G", 5), ("O", 3)), mid=("G",))
    state = dataclasses.replace(state, players=tuple(players), deck=cards("B1"))
    end = apply(state, "reveal")  # B, at the bottom, carries the stack to 2: order Y W O G B
    # p0: G5 (4th) -1, O3 (3rd) -1, midfield G (4th) +1: 1 - 1 = 0 -> the floor, 1
    assert [p.money for p in end.players] == [1, 3, 3, 3]


def test_race_end_scores_leg_then_overall():
    state = turn_state()
    players = list(state.players)
    players[0] = dataclasses.replace(players[0], money=2, leg=(("G", 5),), winner="B", loser="G")
    players[1] = dataclasses.replace(players[1], money=1, winner="G", loser="Y", mid=("G",))
    state = dataclasses.replace(state, players=tuple(players), sp=(16, 17, 15, 15, 15), ht=(0, 0, 0, 1, 2),
                                deck=cards("B2O1"), winners="OWY", losers="BOW")
    end = apply(state, "reveal")  # B+2 from 16 to 18, the finish card (17 spaces): over
    assert end.phase == "over"
    # order B, G, Y, W, O: p0 leg G5 (2nd) +1 -> 3; overall B 1st +7, G loser (2nd) -1 -> 9
    # p1 mid G (2nd) +1 -> 2; winner G (2nd) +3, loser Y (3rd) -1 -> 4
    assert [p.money for p in end.players][:2] == [9, 4]
    assert end.winners_of_game() == [0]
    with pytest.raises(IllegalActionError):
        apply(end, "reveal")


# ---------------------------------------------------------------- the game
def random_build(state, rnd):
    setup = state.setup
    mine = list(state.players[state.current].dealt)
    rnd.shuffle(mine)
    shown = mine[1] if setup.shown else None
    down = tuple(mine[1 + setup.shown:1 + setup.shown + setup.down])
    return CardsAction("build", hand=mine[0], shown=shown, down=down,
                       discard=tuple(mine[1 + setup.shown + setup.down:]))


def naive_board(state):
    stacks = {}
    for space, stack in state.stacks():
        stacks[space] = list(stack)
    return N.Board(stacks, state.length, state.palm or None, state.fennec or None)


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (4, 6)])
def test_random_games_against_reference(players, seed):
    """Every step of whole random games checked against the reference:
    camel moves and figures, legal figure spaces, leg and race scoring with
    the floor, the next leg's track and start player."""
    game = CardsGame(CardsSetup(players=players), seed=seed)
    rnd = random.Random(seed)
    legs = 0
    while not game.state.over:
        before = game.state
        if before.phase == "build":
            game.play(random_build(before, rnd))
            continue
        actions = game.legal_actions()
        spaces = sorted({a.space for a in actions if a.kind in ("palm", "fennec")})
        if not before.raced and (not before.palm or not before.fennec):
            assert spaces == N.figure_spaces(naive_board(before))
        action = rnd.choice(actions)
        game.play(action)
        after = game.state
        if action.kind in ("reveal", "hand"):
            card = before.deck[0] if action.kind == "reveal" else before.players[before.current].hand
            board, over = N.move(naive_board(before), card[0], card[1] if action.kind == "reveal" else 1)
            order = N.ranking(board)
            if over or action.kind == "reveal" and len(before.deck) == 1:
                legs += 1
                money = []
                for i, p in enumerate(before.players):
                    figures = sum(1 for f, h in ((board.palm, before.palm_holder), (board.fennec,
                                                                                      before.fennec_holder))
                                  if f is not None and h == i)
                    pay = N.leg_payout(p.leg, p.mid, figures, order)
                    m = N.settle(p.money, pay)
                    if over:
                        m = N.settle(m, N.overall_payout(p.winner, p.loser, order))
                    money.append(m)
                assert [p.money for p in after.players] == money
                if over:
                    assert after.phase == "over"
                else:
                    nb, track = N.leg_start(board, before.track)
                    assert after.track == track
                    assert naive_board(after) == nb
                    assert after.start_player == N.poorest_start(money, before.current)
            else:
                assert naive_board(after) == board
    assert legs >= 2


def test_same_seed_same_game():
    def run(seed):
        game = CardsGame(CardsSetup(players=3), seed=seed)
        rnd = random.Random(0)
        while not game.state.over:
            s = game.state
            game.play(random_build(s, rnd) if s.phase == "build" else rnd.choice(game.legal_actions()))
        return game.record, game.state

    assert run(7) == run(7)
    assert run(7)[0] != run(8)[0]


def test_illegal_play_changes_nothing():
    game = CardsGame(CardsSetup(players=2), seed=3)
    state, record = game.state, [dict(e) for e in game.record]
    for bad in ("reveal", "leg:B", "build:B1//B1/", "palm:1"):
        with pytest.raises(IllegalActionError):
            game.play(bad)
        assert game.state is state and game.record == record and game.turns == 0


# ---------------------------------------------------------------- records
def random_game(players=3, seed=4, rnd_seed=1):
    game = CardsGame(CardsSetup(players=players), seed=seed)
    rnd = random.Random(rnd_seed)
    while not game.finished:
        s = game.state
        game.play(random_build(s, rnd) if s.phase == "build" else rnd.choice(game.legal_actions()))
    return game


def test_record_replays_to_the_same_game():
    from advisor.cards.record import replay_cards

    game = random_game()
    record = game.record
    assert [e["type"] for e in record[:3]] == ["setup", "deal", "action"] and record[-1]["type"] == "end"
    assert record[-1]["money"] == [p.money for p in game.state.players]
    again = replay_cards(record)
    assert again.state == game.state and again.record == record
    # part of the way: the first 10 actions
    part = replay_cards(record, upto=10)
    assert part.turns == 10 and not part.finished
    # an unfinished record (no end line) replays to its last action
    cut = [e for e in record if e["type"] != "end"][:-3]
    assert replay_cards(cut).turns == game.turns - 3


@pytest.mark.parametrize("change,words", [
    (lambda r, k: r[k].update(board=r[k]["board"] + " palm:3"), "board"),
    (lambda r, k: r[k].update(money=[1] * len(r[k]["money"])), "money"),
    (lambda r, k: r[k].update(player=(r[k]["player"] + 1) % 3), "is not to act"),
    (lambda r, k: r[-1].update(money=[0, 0, 0]), "end line does not match"),
    (lambda r, k: r[1].update(cards=r[1]["cards"][2:] + r[1]["cards"][:2]), "board|money|card|dealt"),
    (lambda r, k: r.insert(2, {"type": "shuffle", "leg": 1, "deck": "B1"}), "no shuffle now"),
    (lambda r, k: r[0].update(board="track:nnnnnnnn 0:BGOWY"), "line 1 of the game"),
    (lambda r, k: r[k].update(type="roll"), "'type' of a line"),
])
def test_tampered_record_raises(change, words):
    from advisor.cards.record import replay_cards
    from advisor.game import RecordError

    record = [dict(e) for e in random_game().record]
    k = next(i for i, e in enumerate(record) if e.get("action") == "reveal")
    change(record, k)
    with pytest.raises((RecordError, IllegalActionError), match=words):
        replay_cards(record)


def test_view_record_shows_what_the_player_saw():
    from advisor.cards.record import view_record

    game = random_game()
    record = game.record
    view = view_record(record, 1)
    assert len(view) == len(record)
    dealt = game.setup.dealt
    for full, seen in zip(record, view):
        if full["type"] == "deal":
            assert seen["cards"] == full["cards"][2 * dealt:4 * dealt]  # player 1's cards only
        elif full["type"] == "shuffle":
            assert "deck" not in seen
        elif full["type"] == "action" and full["action"].startswith("build:"):
            if full["player"] == 1:
                assert seen == full
            else:
                assert seen["action"] == "build" and seen["shown"] == full["action"].split("/")[1]
        else:
            assert seen == full  # reveals, hand cards played, bets, boards: public
    with pytest.raises(Exception, match="player must be 0..2"):
        view_record(record, 3)


def test_records_file_round_trip(tmp_path):
    from advisor.cards.record import read_cards_records, replay_cards, write_cards_records

    games = [random_game(seed=s).record for s in (1, 2)]
    path = tmp_path / "cards.jsonl"
    write_cards_records(games, path)
    assert [p.name for p in tmp_path.iterdir()] == ["cards.jsonl"]
    back = read_cards_records(path)
    assert back == games
    assert replay_cards(back[1]).state.board() == games[1][-1]["board"]


# ---------------------------------------------------------------- a player's position
def test_position_as_a_player_sees_it():
    from advisor.cards.position import parse_cards

    state = play_out(turn_state("G2O1"), ["leg:G", "reveal", "fennec:9"])  # p0: G5, G+2; p1: the fennec
    pos = state.position(1)
    # p1 dealt O1O1O1W1W1: hand O1, showed O1, put O1 W1 down, discarded W1;
    # shown: B1 O1 B2 W2; revealed: G2
    assert pos.hand == ("O", 1) and pos.out == cards("W1") and pos.revealed == cards("G2")
    assert pos.known == tuple(sorted(cards("O1W1B1O1B2W2")))
    assert pos.deck == 11 and pos.decksize == 12 and pos.unknown == 5
    assert pos.fennec == (9, 0) and pos.legtiles[CAMELS.index("G")] == (3, 2, 2) and pos.money == 3
    assert pos.stacks == ((1, "B"), (3, "GOWY"))
    # player 0 holds G5; the fennec's card is with player 1, i.e. 3 seats on from 2
    assert state.position(0).bets == ("G5",) and state.position(2).fennec == (9, 3)
    assert parse_cards(str(pos)) == pos
    # a revealed card of a kind known to be in the deck: one fewer known
    after = apply(apply(state, "pass"), "reveal")  # p2 reveals O1
    assert after.position(1).known == tuple(sorted(cards("O1W1B1B2W2")))
    with pytest.raises(IllegalActionError, match="during a leg's turns"):
        dealt_state().position(0)


# ---------------------------------------------------------------- bots
@pytest.mark.parametrize("bots", [("random", "random"), ("heuristic", "random", "heuristic"),
                                  ("heuristic",) * 5])
def test_bot_games_finish_and_replay(bots):
    from advisor.cards.bots import play_cards_game
    from advisor.cards.record import replay_cards

    record = play_cards_game(bots, seed=3)
    assert record[0]["bots"] == list(bots) and record[-1]["type"] == "end"
    assert replay_cards(record).record == record
    assert play_cards_game(bots, seed=3) == record  # same seed, same game
    assert all(m >= 1 for m in record[-1]["money"])


def test_heuristic_bot_takes_the_leaders_card_then_reveals():
    from advisor.cards.bots import HeuristicCardsBot

    bot = HeuristicCardsBot()
    rng = __import__("numpy").random.default_rng(0)
    state = turn_state()  # 1:BGOWY: Y leads
    assert str(bot.choose(state, 0, rng)) == "leg:Y"
    state = apply(state, "leg:Y")
    assert str(bot.choose(state, 0, rng)) == "reveal"
    state = apply(apply(apply(state, "reveal"), "reveal"), "pass")  # p1's turn over
    assert state.current == 2
    # the build keeps a +2 card in hand: player 2 was dealt Y1Y1Y1B2G2
    built = bot.choose(dealt_state(), 0, rng)
    assert built.kind == "build" and built.hand == ("B", 1)  # player 0 has no +2 card


def test_greedy_bot_plays_a_whole_turn_legally():
    from advisor.cards.best import cards_best
    from advisor.cards.bots import GreedyCardsBot

    bot = GreedyCardsBot(precision=0.05)
    rng = __import__("numpy").random.default_rng(1)
    state = turn_state()
    # a short deck of cards nobody put in (exact legs, a quick test)
    state = dataclasses.replace(state, deck=cards("G2O1B1"), shown=(),
                                players=tuple(dataclasses.replace(p, down=()) for p in state.players))
    first = bot.choose(state, 0, rng)
    best = cards_best(state.position(0), seed=int(__import__("numpy").random.default_rng(1).integers(2**31)),
                      precision=0.05, progress=False, objective="ev").iloc[0]
    assert str(first) == (best.bet if best.bet and best.timing != "after" else best.race)
    steps = 0
    start = state.current
    while state.current == start and state.phase == "turn":
        action = bot.choose(state, start, rng)
        assert action in legal_actions(state)
        state = apply(state, action)
        steps += 1
    assert 1 <= steps <= 2

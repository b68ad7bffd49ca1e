"""The score sheet: every player's money taken apart from a game record."""

import copy

import pytest

from advisor.game import Game, Roll
from advisor.reviews.scoresheet import PARTS, pile_reveal, score_breakdown, score_phases
from advisor.simulate.games import simulate


def scripted_game(edition, players, position, actions):
    game = Game(edition, players, seed=1, start=0, position=position)
    for action in actions:
        if isinstance(action, Roll):
            game.apply("pyramid", action)
        else:
            game.apply(action)
    return game


def test_a_leg_by_hand_leg_bets_tile_coin_pyramid_and_the_floor():
    # P0 takes all four B tiles and B comes last: -4 from 3 coins, the floor
    # forgives 1; P1's cheering tile on 7 is landed on (+1) and P1 rolls three
    # times; P2 rolls twice and holds the R 5 tile of the leg's winner
    game = scripted_game("second", 3, "1:B 2:G 3:P 4:R 5:Y 14:w 15:k", [
        "leg:B", "tile:+7", Roll("R", 3),
        "leg:B", Roll("G", 1), Roll("P", 1),
        "leg:B", Roll("Y", 1), "leg:R",
        "leg:B", Roll("B", 1),
    ])
    assert game.legs == 2 and game.money() == [0, 7, 10]
    frame = score_breakdown(game.record)
    assert frame.loc[0, ["start", "leg_bets", "pyramid", "tile_coins", "floor", "final"]].tolist() == [3, -4, 0, 0, 1, 0]
    assert frame.loc[1, ["leg_bets", "pyramid", "tile_coins", "floor", "final"]].tolist() == [0, 3, 1, 0, 7]
    assert frame.loc[2, ["leg_bets", "pyramid", "tile_coins", "floor", "final"]].tolist() == [5, 2, 0, 0, 10]
    phases = score_phases(game.record)
    leg1 = phases[phases["phase"] == "leg 1"].set_index("player")
    assert leg1["change"].tolist() == [-3, 4, 7] and leg1["money"].tolist() == [0, 7, 10]
    assert "seat" not in frame.columns  # a record from Python names no seats


def test_the_race_end_by_hand_piles_and_a_floor_at_the_end():
    game = scripted_game("second", 3, "10:B 11:G 12:P 13:R 15:Y 16:wk", [
        "winner:Y", "winner:Y", "loser:Y",
        "loser:B", "leg:Y", "winner:B",
        "leg:R", "leg:G", "leg:B",
        "leg:P", "leg:G", "leg:B",
        "leg:R", "leg:P", "leg:B",
        Roll("Y", 2),
    ])
    assert game.finished and game.money() == [21, 10, 0]
    frame = score_breakdown(game.record)
    assert frame["leg_bets"].tolist() == [1, 2, -3] and frame["pyramid"].tolist() == [1, 0, 0]
    assert frame["winner_cards"].tolist() == [8, 5, -1] and frame["loser_cards"].tolist() == [8, 0, -1]
    assert frame["floor"].tolist() == [0, 0, 2] and frame["final"].tolist() == [21, 10, 0]
    phases = score_phases(game.record)
    end = phases[phases["phase"] == "race end"].set_index("player")
    assert end["floor"].tolist() == [0, 0, 2] and end["money"].tolist() == [21, 10, 0]
    piles = pile_reveal(game.record)
    assert piles[["pile", "place", "player", "colour", "correct", "paid"]].values.tolist() == [
        ["winner", 1, 0, "Y", True, 8], ["winner", 2, 1, "Y", True, 5], ["winner", 3, 2, "B", False, -1],
        ["loser", 1, 2, "Y", False, -1], ["loser", 2, 0, "B", True, 8],
    ]
    assert piles["turn"].tolist() == [0, 1, 5, 2, 3]
    assert piles.attrs["winner_camel"] == "Y" and piles.attrs["loser_camel"] == "B"


def test_partners_copy_by_hand():
    game = scripted_game("second", 6, "1:G 2:P 3:R 4:Y 9:B 14:w 15:k", [
        "partner:1", "leg:B", Roll("G", 1), Roll("P", 1), Roll("R", 1), Roll("Y", 1), Roll("B", 1),
    ])
    assert game.money() == [9, 9, 4, 4, 4, 4]
    frame = score_breakdown(game.record)
    assert frame["partner"].tolist() == [5, 1, 0, 0, 0, 0]
    assert frame["leg_bets"].tolist() == [0, 5, 0, 0, 0, 0] and frame["pyramid"].tolist() == [1, 0, 1, 1, 1, 1]


LINE_UPS = [
    ("second", ["advisor", "rival", "denial", "heuristic"], 2),
    ("second", ["random", "heuristic", "random"], 10),
    ("second", ["random", "random", "heuristic", "random", "random", "random"], 10),
    ("second", ["random", "heuristic", "random", "random", "random", "random", "advisor"], 4),
    ("second", ["random"] * 8, 10),
    ("first", ["advisor", "random"], 3),
    ("first", ["heuristic", "random", "rival", "random", "denial"], 3),
    ("first", ["random"] * 8, 8),
]


@pytest.fixture(scope="module")
def records():
    out = []
    for k, (edition, bots, games) in enumerate(LINE_UPS):
        out += [(edition, len(bots), r) for r in simulate(bots, games, edition=edition, seed=100 + k, processes=1)]
    return out


def test_the_parts_add_up_to_the_final_money_in_every_game(records):
    partnered = 0
    for edition, n, record in records:
        frame = score_breakdown(record)
        end = record[-1]["money"]
        assert (frame[list(PARTS)].sum(axis=1) == frame["final"]).all()
        assert frame["final"].tolist() == end
        assert (frame["start"] == 3).all() and (frame["floor"] >= 0).all() and (frame["tile_coins"] >= 0).all()
        assert frame["seat"].tolist() == record[0]["bots"]
        if edition == "first" or n < 6:
            assert (frame["partner"] == 0).all()
        partnered += (frame["partner"] != 0).any()
        # the piles face up: every card, and what they paid adds up per player
        piles = pile_reveal(record)
        cards = [e for e in record if e.get("action", "").startswith(("winner:", "loser:"))]
        assert len(piles) == len(cards)
        paid = piles.groupby("player")["paid"].sum().reindex(range(n), fill_value=0)
        assert paid.tolist() == (frame["winner_cards"] + frame["loser_cards"]).tolist()
        # phases: money after each phase follows from the parts
        phases = score_phases(record)
        for p in range(n):
            mine = phases[phases["player"] == p]
            assert mine["change"].cumsum().tolist() == mine["money"].tolist()
    assert partnered  # partnerships happened and were counted


def test_a_tampered_record_is_refused(records):
    record = copy.deepcopy(records[0][2])
    record[-1]["money"][0] += 1
    with pytest.raises(ValueError):
        score_breakdown(record)
    with pytest.raises(ValueError):
        score_breakdown([])

"""The page takes every rule from the server: ``GET /api/games`` (and its
alias ``GET /api/rules``) answers each game's camels and their names, tile
names, player counts, start money and money floor as the rules modules hold
them, and the page's JavaScript restates none of them."""

from __future__ import annotations

import re
from importlib import resources

import pytest

from advisor import EXAMPLE_FIRST, EXAMPLE_POSITION
from advisor.cards.game import CardsSetup, floor_money
from advisor.cards.position import CAMELS as CARD_CAMELS, DECK_SIZES, EXAMPLE_CARDS, LEG_STACK, PLAYERS, parse_cards
from advisor.rules.editions import CAMEL_NAMES, EDITIONS
from advisor.game import Game

pytest.importorskip("starlette")


@pytest.fixture(scope="module", params=["/api/games", "/api/rules"])
def info(request, client):
    r = client.get(request.param)
    assert r.status_code == 200, r.text
    return r.json()


def test_the_editions_come_from_the_rules(info):
    for name, ed in EDITIONS.items():
        got = info[name]
        assert got["racing"] == ed.racing and got["crazy"] == ed.crazy and got["dice"] == ed.dice
        assert got["leg_stack"] == list(ed.leg_stack)
        assert (got["min_players"], got["max_players"]) == (ed.min_players, ed.max_players)
        assert got["partnership_players"] == ed.partnership_players
        assert got["tile_names"] == list(ed.tile_names)
        assert got["start_money"] == ed.start_money and got["money_floor"] == ed.money_floor
        assert got["rolls_per_leg"] == ed.rolls_per_leg
        # the start money the page fills in is the money a game starts with
        assert {p.money for p in Game(name, ed.min_players, 0).state.players} == {got["start_money"]}
    assert info["first"]["tile_names"] == ["oasis", "mirage"]
    assert info["second"]["tile_names"] == ["cheering", "booing"]


def test_camel_up_cards_comes_from_its_rules(info):
    got = info["cards"]
    assert got["racing"] == CARD_CAMELS and got["leg_stack"] == list(LEG_STACK)
    assert list(range(got["min_players"], got["max_players"] + 1)) == list(PLAYERS)
    assert got["start_money"] == CardsSetup().start_money == parse_cards(EXAMPLE_CARDS).money
    assert got["money_floor"] == floor_money(-100)
    assert sorted(got["default_track"], key=int) == [str(n) for n in PLAYERS]
    assert got["card_values"] == [1, 2]
    assert got["deck_sizes"] == [DECK_SIZES[0], DECK_SIZES[-1]] == [8, 14]


def test_names_and_examples_come_from_the_package(info):
    assert info["names"] == CAMEL_NAMES
    for ed in EDITIONS.values():
        assert set(ed.camels) <= set(info["names"]) and set(ed.camels) <= set(info["ink"])
    assert set(CARD_CAMELS) <= set(info["names"])
    assert info["examples"] == {"second": EXAMPLE_POSITION, "first": EXAMPLE_FIRST, "cards": EXAMPLE_CARDS}


def test_the_rules_alias_serves_the_same_document(client):
    assert client.get("/api/rules").json() == client.get("/api/games").json()


# --------------------------------------------------------------------------
# The JavaScript restates no rule
# --------------------------------------------------------------------------

#: (what, pattern) of rule copies the page must not hold: it reads them from /api/games.
FORBIDDEN = [
    ("start money", re.compile(r"\bmoney:\s*\d")),
    ("a camel's name", re.compile(r"\b[BGPRYOWwk]:\s*[\"'](blue|green|purple|red|yellow|orange|white)")),
    ("a tile's name", re.compile(r"[\"'`](cheering|booing|oasis|mirage)[\"'`]")),
    ("a list of player counts", re.compile(r"\[\s*2\s*,\s*3\s*,\s*4\s*,\s*5\s*,\s*6")),
    ("a player limit", re.compile(r"(min|max)_players\s*\?\?|players\s*[<>]=?\s*\d|\?\?\s*99\b")),
    ("a set of camel letters", re.compile(r"[\"'`][BGPRYOWwk]{3,}[\"'`]")),
    ("a racing card list", re.compile(r"[\"'][BGOWY][12][\"']\s*,\s*[\"'][BGOWY][12][\"']")),
    ("a leg bet value", re.compile(r"\$\{c\}[235]`")),
    ("a race deck's size", re.compile(r"deck[\w\s\",'`.]*,\s*\d+\s*,\s*1[0-4]\b")),
]


def rule_copies(source: str) -> list[str]:
    """``what: line`` for each line of JavaScript ``source`` restating a rule."""
    return [f"{what}: {line.strip()}" for line in source.splitlines()
            for what, pattern in FORBIDDEN if pattern.search(line)]


def test_the_page_restates_no_rule():
    static = resources.files("advisor.web") / "static"
    found = [f"{item.name}: {hit}" for item in static.iterdir() if item.name.endswith(".js")
             for hit in rule_copies(item.read_text(encoding="utf-8"))]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("planted", [
    'players.push({ money: 3, leg_tiles: [] });',
    'const NAMES = { B: "blue", G: "green" };',
    'const names = info.tile_names ?? ["cheering", "booing"];',
    'const t = game === "first" ? "oasis" : "x";',
    'select("p", "players", [2, 3, 4, 5, 6].map((n) => [n, n]));',
    'color: "BGPRO".includes(c) ? "#fff" : "#111"',
    'const KINDS = ["B1", "B2", "G1"];',
    '[[`${c}5`, `${c} 5`]]',
    'if (t.n >= (info.partnership_players ?? 99)) {}',
    "number(\"cards-decksize\", \"cards per leg's deck\", d.decksize, 8, 14, (v) => {})",
])
def test_the_scan_finds_a_planted_copy(planted):
    assert rule_copies(f"const a = 1;\n{planted}\n") and not rule_copies("const a = info.start_money;\n")


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_the_game_log_names_the_editions_tiles(edition):
    from advisor.web.work import game_view

    game = Game(edition, 3, 0)
    first, plus = game.to_move, next(a for a in game.legal_actions() if a.startswith("tile:+"))
    game.apply(plus)
    second, minus = game.to_move, next(a for a in game.legal_actions() if a.startswith("tile:-"))
    game.apply(minus)
    names = EDITIONS[edition].tile_names
    assert game_view(game, infer=False)["log"][-2:] == [f"P{first + 1} put their {names[0]} tile on {plus[6:]}",
                                                         f"P{second + 1} put their {names[1]} tile on {minus[6:]}"]

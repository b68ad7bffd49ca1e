"""The page at a real table, in Chromium (see test_web_browser.py for the
set-up): whole games of both board editions (2nd: 4 players; 1st: 3 players,
leg tiles and desert tiles too) with overall cards placed face down from
every seat, advised and drawn at every turn, every card turned over at the
end; a whole Camel Up Cards game (a human and two bots) to the end of the
race, saved and replayed; the user's own seat entered by colour and kept; a
shared link with a bad board; a 63-bit seed through the page and back into a
saved file.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import quote

import pytest

from advisor.game import replay
from advisor.web.app import seeds_as_numbers

from cards_page import cards_build, cards_deal, cards_step, cards_view
from test_web_browser import Page, browser, server, shot  # noqa: F401  (fixtures)

try:
    from playwright.sync_api import expect
except ImportError:  # pragma: no cover - test_web_browser skips or fails first
    expect = None

pytestmark = [pytest.mark.browser, pytest.mark.processes]

BIG_SEED = 9099855075906872930


@pytest.fixture
def page(browser, server):  # noqa: F811
    p = Page(browser, server)
    yield p
    p.close()


def _turn_done(page, turns: int, players: int = 4) -> None:
    """The page shows turn ``turns`` played, advised (the options from the
    leg at least) and the table drawn, with no error and no "undefined"."""
    p = page.page
    expect(p.locator("#game-log li")).to_have_count(turns)
    finished = p.evaluate("() => window.camelup.S.view.finished")
    if not finished:
        page.done("advice_leg")
        expect(p.locator("#best-move")).to_be_visible()
        expect(p.locator("#analysis-error")).to_have_count(0)
    expect(p.locator("#side-block table.players tbody tr")).to_have_count(players)
    expect(p.locator("#game-error")).to_have_count(0)
    assert "undefined" not in p.inner_text("body")


def _play(p, what: str) -> None:
    """One turn at the table by a click: ``winner:?``/``loser:?`` (a card face
    down, unseen), ``leg`` (the first leg tile offered), ``+ oasis`` and the
    like (a desert tile on the first space offered, by its button)."""
    if what == "leg":
        p.click('.actions [data-action^="leg:"] >> nth=0')
    elif what.startswith(("+ ", "− ")):
        p.select_option("#tile-space", index=0)
        p.click(f".actions >> text={what}")
    else:
        p.click(f'[data-action="{what}"]')


def _hidden_hand_advised(p) -> bool:
    return p.evaluate("""() => { const v = window.camelup.S.view;
        return !v.finished && typeof v.hands[v.to_move] === 'number'; }""")


def _play_whole_game(page, game: str, players: int, tiles: tuple[str, str], plan: dict[int, str]) -> tuple[dict, int]:
    """A whole game of ``game`` set up by the rules, P1 first: turn k plays
    ``plan[k]`` (see _play), every other turn rolls the first racing die in
    the pyramid showing 3; the roll that ends the race asks for the colour of
    every face-down card, given a colour each.  Every turn is checked with
    _turn_done.  Returns the final view and how many turns advised a player
    with cards face down unseen."""
    p = page.page
    if game != "second":
        p.click(f'#game-tabs [data-game="{game}"]')
    p.click('#mode-tabs [data-mode="game"]')
    p.select_option("#game-players", str(players))
    p.select_option("#game-start", "0")
    p.click("#new-random")
    expect(p.locator("#to-move")).to_have_text("P1 to move")
    assert p.evaluate("() => window.camelup.S.view.edition") == game
    turns = 0
    hidden_advised = 0
    while not p.evaluate("() => window.camelup.S.view.finished"):
        view = p.evaluate("() => window.camelup.S.view")
        if view.get("reveal_needed"):
            # the race ends: every face-down card is turned over, a colour each
            for k in range(p.locator(".reveal-colour").count()):
                p.select_option(f".reveal-colour >> nth={k}", index=1 + k % 4)
            p.click("#reveal-play")
            turns += 1
            _turn_done(page, turns, players)
            continue
        if turns in plan:
            _play(p, plan[turns])
        else:  # a racing die out of the pyramid, showing 3
            p.click('.dierow .face[data-roll$="3"]:not(.white):not(.black) >> nth=0')
            p.wait_for_function("() => !window.camelup.S.gameBusy")
            if p.evaluate("() => !!window.camelup.S.view.reveal_needed"):
                continue  # the roll ends the race: the colours first
        turns += 1
        _turn_done(page, turns, players)
        if _hidden_hand_advised(p):
            # advised from what the table knows, said in one line above the advice
            expect(p.locator("#hidden-hand-note")).to_contain_text("face down unseen")
            hidden_advised += 1
            if hidden_advised == 1:
                expect(p.locator("#side-block")).to_contain_text("in hand (not seen)")
                shot(p, "desktop-game-hidden-hand" if game == "second" else f"desktop-{game}-game-hidden-hand")
                page.done("advice")  # the overall cards valued too
                moves = p.evaluate("() => window.camelup.S.results.advice.best.moves.map((m) => m.action)")
                assert any(m.startswith("winner:") for m in moves)
                hints = p.evaluate("() => [...document.querySelectorAll('#board title')].map((t) => t.textContent)"
                                   ".filter((t) => t.includes('tile here'))")
                assert hints and all(t.startswith(f"A {tiles[0]} tile here: ") for t in hints), hints
    expect(p.locator(".turn")).to_contain_text("the race is over")
    assert "undefined" not in p.inner_text("body")
    p.evaluate("() => window.scrollTo(0, 0)")
    shot(p, f"desktop-{game}-game-over")
    return p.evaluate("() => window.camelup.S.view"), hidden_advised


#: whole games: the edition, the players, its tiles' names, the turns that are not rolls
WHOLE_GAMES = {
    # every seat places a card face down, unseen, and P2 (seat 1) one more later
    "second": (4, ("cheering", "booing"), {0: "winner:?", 1: "loser:?", 2: "winner:?", 3: "loser:?", 9: "winner:?"}),
    # no crazy camels, five racing camels, oasis and mirage tiles
    "first": (3, ("oasis", "mirage"), {0: "winner:?", 1: "loser:?", 2: "leg", 3: "+ oasis", 4: "winner:?", 5: "leg",
                                       8: "loser:?", 12: "− mirage"}),
}


@pytest.mark.parametrize("game", list(WHOLE_GAMES))
def test_a_whole_game_with_cards_face_down_from_every_seat(page, game):
    players, tiles, plan = WHOLE_GAMES[game]
    view, hidden_advised = _play_whole_game(page, game, players, tiles, plan)
    placed = sum(what.endswith(":?") for what in plan.values())
    assert view["finished"] and hidden_advised >= players
    assert sum(e.get("type") == "reveal" for e in view["record"]) == placed
    actions = [e["action"] for e in view["record"] if e.get("type") == "action"]
    assert sum(a.startswith("leg:") for a in actions) == sum(w == "leg" for w in plan.values())
    placed_tiles = [w for w in plan.values() if w[0] in "+−"]
    assert sum(a.startswith("tile:") for a in actions) == len(placed_tiles)
    # the log names the edition's tiles
    named = [m.group(1) for line in view["log"] if (m := re.search(r" put their (\w+) tile on ", line))]
    assert named == [tiles[w[0] != "+"] for w in placed_tiles]
    # the record replays to the page's end: the same money
    assert replay(seeds_as_numbers(view["record"])).money() == view["summary"]["money"]


def _cards_checked(page, advised: bool) -> None:
    """After a step of Camel Up Cards: no error, no "undefined", the review
    once the race is over, else the human's controls (deck building, or a
    turn with the leg odds of their own position drawn, and with ``advised``
    the whole advice too)."""
    p = page.page
    expect(p.locator("#game-error")).to_have_count(0)
    view = cards_view(p)
    if view["finished"]:
        expect(p.locator("#review")).to_be_visible()
    elif view["phase"] == "build":
        expect(p.locator("#build-form")).to_be_visible()
    else:
        expect(p.locator("#turn-actions")).to_be_visible()
        stage = "advice" if advised else "leg"
        p.wait_for_function("""(stage) => { const S = window.camelup.S;
            return S.results?.body?.board === S.view.table.position && !!S.results[stage]; }""", arg=stage,
                            timeout=120_000)
        expect(p.locator("#leg-table tbody tr")).to_have_count(5)
        if advised:
            expect(p.locator("#best-move")).not_to_be_empty()
        expect(p.locator("#analysis-error")).to_have_count(0)
    assert "undefined" not in p.inner_text("body")


#: the human's race actions in turn, and bets (the first kind offered of these)
RACE_ACTIONS = ("reveal", "hand", "palm", "reveal", "fennec")
BETS = ("leg", "winner", "mid", "loser")


def _cards_race(p, k: int) -> str:
    """The human's race action number ``k``: by RACE_ACTIONS, a reveal when that one is not legal."""
    legal = cards_view(p)["legal"]
    want = RACE_ACTIONS[k % len(RACE_ACTIONS)]
    if not any(a == want or a.startswith(f"{want}:") for a in legal):
        want = "reveal"
    cards_step(p, f'#race-actions [data-action="{want}"]')
    return want


def _cards_bet(p, k: int) -> str | None:
    """The human's bet number ``k``: of the kind BETS names in turn, else
    the first one offered; None when none is."""
    bets = [a for a in cards_view(p)["legal"] if a.split(":")[0] in BETS]
    if not bets:
        return None
    kind = BETS[k % len(BETS)]
    bet = next((a for a in bets if a.startswith(f"{kind}:")), bets[0])
    cards_step(p, f'#bet-actions [data-action="{bet}"]')
    return bet


def test_a_whole_camel_up_cards_game_to_the_end_of_the_race(page, tmp_path):
    from advisor.cards.record import replay_cards

    p = page.page
    cards_deal(p, ["human", "heuristic", "random"], 5)
    played: list[str] = []  # the human's actions
    builds = 0
    turn = -1  # the human's turns: a bet then the race action, the race action then a bet, or then none
    while not cards_view(p)["finished"]:
        view = cards_view(p)
        assert view["viewer"] == 0 and len(played) < 200
        step = "build" if view["phase"] == "build" else view["table"]["step"]
        bets = sum(a.split(":")[0] in BETS for a in played)
        races = sum(a in RACE_ACTIONS for a in played)
        if step == "build":
            cards_build(p)
            builds += 1
        elif step == "turn":
            turn += 1
            bet = _cards_bet(p, bets) if turn % 3 == 0 else None
            played.append(bet or _cards_race(p, races))
        elif step == "race":
            played.append(_cards_race(p, races))
        elif turn % 3 == 1 and (bet := _cards_bet(p, bets)):
            played.append(bet)
        else:
            cards_step(p, "#pass")
            played.append("pass")
        _cards_checked(page, advised=step == "build")  # the whole advice at the first turn of each leg
    view = cards_view(p)
    kinds = {a.split(":")[0] for a in played}
    assert builds == view["legs"] and view["legs"] >= 2
    assert {"reveal", "pass", *BETS} <= kinds and kinds & {"hand", "palm", "fennec"}, kinds
    # the page shows the game over: the winners and the final money
    expect(p.locator(".turn")).to_contain_text("the race is over")
    money = view["summary"]["money"]
    expect(p.locator("#review .lead")).to_contain_text(f"with {max(money)} coins (money {', '.join(map(str, money))})")
    expect(p.locator("#cards-table tbody tr")).to_have_count(3)
    p.evaluate("() => window.scrollTo(0, 0)")
    shot(p, "desktop-cards-game-over")
    # the record saved is the page's, and replays to its end: the same money and winners
    with p.expect_download() as dl:
        p.click("#save-game")
    path = tmp_path / "cards.jsonl"
    dl.value.save_as(path)
    record = [json.loads(line) for line in path.read_text().splitlines()]
    assert record == seeds_as_numbers(view["record"])
    game = replay_cards(record)
    assert game.finished and game.summary()["money"] == money
    assert game.summary()["winners"] == view["summary"]["winners"]


def test_my_seat_is_entered_by_colour_and_kept(browser, server):  # noqa: F811
    page = Page(browser, server)
    p = page.page
    try:
        p.click('#mode-tabs [data-mode="game"]')
        p.select_option("#game-start", "0")
        p.click("#new-random")
        p.select_option("#me-seat", "0")
        expect(p.locator("#to-move")).to_have_text("P1 to move")
        # my own card: by colour, never face down
        expect(p.locator('[data-action="winner:?"]')).to_have_count(0)
        p.click('[data-action="winner:B"]')
        expect(p.locator("#to-move")).to_have_text("P2 to move")
        # another player's card: face down, its colour not seen
        expect(p.locator('[data-action="winner:B"]')).to_have_count(0)
        p.click('[data-action="loser:?"]')
        expect(p.locator("#game-log li")).to_have_count(2)
        expect(p.locator("#side-block table.players tbody tr >> nth=0")).to_contain_text("GPRY")
        expect(p.locator("#side-block table.players tbody tr >> nth=1")).to_contain_text("4 in hand (not seen)")
        # kept: a new page in this browser remembers the seat
        p.reload()
        p.wait_for_selector("body[data-ready]")
        p.click('#mode-tabs [data-mode="game"]')
        p.click("#new-random")
        expect(p.locator("#me-seat")).to_have_value("0")
    finally:
        page.close()


def test_a_shared_link_with_a_bad_board_keeps_the_text_and_the_address(browser, server):  # noqa: F811
    bad = "1:B 17:k"
    page = Page(browser, server, path=f"?board={quote(bad)}&seed=7")
    p = page.page
    try:
        expect(p.locator("#text-error")).to_be_visible()
        page.done("leg")  # the example is analysed behind it, and changes nothing of the above
        assert page.board_text() == bad
        expect(p.locator("#text-error")).to_be_visible()
        assert "board=" + quote(bad).replace("%20", "+") in p.url or f"board={quote(bad)}" in p.url, p.url
    finally:
        page.close()


def test_a_63_bit_seed_goes_through_the_page_and_back_exactly(page, tmp_path):
    p = page.page
    cards_deal(p, ["human", "random"], BIG_SEED)
    assert p.evaluate("() => window.camelup.S.view.record[0].seed") == str(BIG_SEED)
    with p.expect_download() as dl:
        p.click("#save-game")
    head = json.loads(Path(dl.value.path()).read_text().splitlines()[0])
    assert head["seed"] == BIG_SEED  # a whole number in the file, every digit kept


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_game_mode_screenshots(browser, server, size):  # noqa: F811
    w, h = size
    page = Page(browser, server, w, h, path="?mode=game")
    p = page.page
    try:
        p.select_option("#game-start", "0")
        p.click("#new-random")
        p.click('[data-action="winner:?"]')
        expect(p.locator("#game-log li")).to_have_count(1)
        for k in range(3):
            p.wait_for_function("() => !window.camelup.S.gameBusy")
            p.click('.dierow .face[data-roll$="2"]:not(.white):not(.black) >> nth=0')
            expect(p.locator("#game-log li")).to_have_count(2 + k)
        expect(p.locator("#to-move")).to_have_text("P1 to move")
        page.done("advice")
        expect(p.locator("#hidden-hand-note")).to_be_visible()
        assert p.evaluate("() => document.documentElement.scrollWidth") <= w
        shot(p, f"{'desktop' if w > 500 else 'phone'}-game-table")
    finally:
        page.close()

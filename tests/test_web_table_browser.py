"""The page at a real table, in Chromium (see test_web_browser.py for the
set-up): a whole 4-player game with overall cards placed face down from
every seat, advised and drawn at every turn; the user's own seat entered by
colour and kept; a shared link with a bad board; a 63-bit seed through the
page and back into a saved file.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

import pytest

from test_web_browser import Page, browser, server, shot  # noqa: F401  (fixtures)

try:
    from playwright.sync_api import expect
except ImportError:  # pragma: no cover - test_web_browser skips or fails first
    expect = None

BIG_SEED = 9099855075906872930


@pytest.fixture
def page(browser, server):  # noqa: F811
    p = Page(browser, server)
    yield p
    p.close()


def _turn_done(page, turns: int) -> None:
    """The page shows turn ``turns`` played, advised (the options from the
    leg at least) and the table drawn, with no error and no "undefined"."""
    p = page.page
    expect(p.locator("#game-log li")).to_have_count(turns)
    finished = p.evaluate("() => window.camelup.S.view.finished")
    if not finished:
        page.done("advice_leg")
        expect(p.locator("#best-move")).to_be_visible()
        expect(p.locator("#analysis-error")).to_have_count(0)
    expect(p.locator("#side-block table.players tbody tr")).to_have_count(4)
    expect(p.locator("#game-error")).to_have_count(0)
    assert "undefined" not in p.inner_text("body")


def test_a_whole_game_with_cards_face_down_from_every_seat(page):
    p = page.page
    p.click('#mode-tabs [data-mode="game"]')
    p.select_option("#game-players", "4")
    p.select_option("#game-start", "0")
    p.click("#new-random")
    expect(p.locator("#to-move")).to_have_text("P1 to move")
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
            _turn_done(page, turns)
            continue
        if turns < 4:  # every seat places a card face down, unseen
            p.click(f'[data-action="{"winner" if turns % 2 == 0 else "loser"}:?"]')
        elif turns == 9:  # and one more from P2 (seat 1), later in the game
            p.click('[data-action="winner:?"]')
        else:  # a racing die out of the pyramid, showing 3
            p.click('.dierow .face[data-roll$="3"]:not(.white):not(.black) >> nth=0')
            p.wait_for_function("() => !window.camelup.S.gameBusy")
            if p.evaluate("() => !!window.camelup.S.view.reveal_needed"):
                continue  # the roll ends the race: the colours first
        turns += 1
        _turn_done(page, turns)
        if p.evaluate("() => !window.camelup.S.view.finished && window.camelup.S.view.hands[window.camelup.S.view"
                      ".to_move] !== null && typeof window.camelup.S.view.hands[window.camelup.S.view.to_move]"
                      " === 'number'"):
            # advised from what the table knows, said in one line above the advice
            expect(p.locator("#hidden-hand-note")).to_contain_text("face down unseen")
            hidden_advised += 1
            if hidden_advised == 1:
                expect(p.locator("#side-block")).to_contain_text("in hand (not seen)")
                shot(p, "desktop-game-hidden-hand")
                page.done("advice")  # the overall cards valued too
                moves = p.evaluate("() => window.camelup.S.results.advice.best.moves.map((m) => m.action)")
                assert any(m.startswith("winner:") for m in moves)
    view = p.evaluate("() => window.camelup.S.view")
    assert view["finished"] and hidden_advised >= 4
    assert sum(e.get("type") == "reveal" for e in view["record"]) == 5
    expect(p.locator(".turn")).to_contain_text("the race is over")


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
    p.click('#game-tabs [data-game="cards"]')
    p.click('#mode-tabs [data-mode="game"]')
    p.select_option("#cards-players", "2")
    p.select_option("#cards-seat-0", "human")
    p.select_option("#cards-seat-1", "random")
    p.fill("#cards-seed", str(BIG_SEED))
    p.click("#cards-new")
    expect(p.locator("#build-form")).to_be_visible()
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

"""The page in a real browser: Chromium (Debian's `chromium` package)
driven by Playwright, against `camelup serve --port 0` run as a process.

Builds a position by clicks, drag and keyboard and checks the leg table
against `advisor.leg_odds`; types a board string with an error and sees the
inline message while the board stays; plays turns in game mode entering
dice, undoes one, saves the record and replays it with
`advisor.game.replay`, loads records back; Camel Up Cards and the first
edition; share link and PNG export; screenshots at desktop (1280x800) and
phone (390x844) size into tests/artifacts/ (git-ignored).

In CI (CI=true) a missing browser or Playwright is a failure, never a skip.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path


import pytest

from advisor.web.app import seeds_as_numbers

import advisor
from advisor.game import replay
from cards_page import cards_build, cards_deal, cards_step, cards_view

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run"]
IN_CI = os.environ.get("CI", "").lower() == "true"

pytestmark = [pytest.mark.browser, pytest.mark.processes]


def _missing(what: str):
    if IN_CI:
        pytest.fail(f"{what} is missing: CI runs the browser test (.ci/run installs chromium)")
    pytest.skip(f"{what} is missing (apt-get install -y chromium; pip install playwright)")


try:
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=20_000)  # the machine may be busy: waits are generous, never timed
except ImportError:  # pragma: no cover - the test extra installs it
    sync_playwright = None


@pytest.fixture(scope="module")
def server():
    proc = subprocess.Popen([sys.executable, "-m", "advisor.cli", "serve", "--port", "0", "--workers", "1"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    url = None
    lines = []
    deadline = time.time() + 240  # a generous start-up bound
    while time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        m = re.search(r"ready at (http://\S+)", line)
        if m:
            url = m.group(1)
            break
    if url is None:
        proc.kill()
        raise AssertionError("camelup serve did not start:\n" + "".join(lines) + proc.stderr.read())
    yield url
    proc.terminate()
    out, err = proc.communicate(timeout=60)
    assert "Traceback" not in err, err
    assert "WARNING" not in err  # bound to loopback: no warning


@pytest.fixture(scope="module")
def browser():
    if sync_playwright is None:
        _missing("playwright")
    if not Path(CHROMIUM).exists():
        _missing("chromium")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


class Page:
    """A page with its console errors collected."""

    def __init__(self, browser, url, width=1280, height=800, path=""):
        self.context = browser.new_context(viewport={"width": width, "height": height}, accept_downloads=True)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        # a 400 answer is how the page learns of bad input: the browser logs it, the page explains it
        self.page.on("console", lambda m: self.errors.append(m.text)
                     if m.type == "error" and "status of 400" not in m.text else None)
        self.page.goto(url + path)
        self.page.wait_for_selector("body[data-ready]", timeout=30_000)

    def done(self, stage="advice"):
        self.page.wait_for_selector(f'.stages li[data-stage="{stage}"].done', timeout=90_000)

    def board_text(self) -> str:
        return self.page.input_value("#board-text")

    def close(self):
        self.context.close()
        assert not self.errors, self.errors


@pytest.fixture
def page(browser, server):
    p = Page(browser, server)
    yield p
    p.close()


def shot(page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def post_json(url: str, body: dict) -> dict:
    """POST ``body`` to the server, as the page does; the answer's JSON."""
    from urllib.request import Request, urlopen

    request = Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urlopen(request, timeout=120) as response:
        return json.loads(response.read())


def percent(p: float) -> str:
    """A chance as the page writes it (board.js ``pct``)."""
    v = 100 * p
    return "<1%" if 0 < v < 0.5 else ">99%" if 99.5 < v < 100 else f"{v:.0f}%"


def leg_cells(page) -> dict[str, list[float]]:
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#leg-table tbody tr')].map(
        (tr) => [tr.dataset.camelRow, [...tr.querySelectorAll('td[data-p]')].map((td) => Number(td.dataset.p))]))""")


# --------------------------------------------------------------------------
# The editor
# --------------------------------------------------------------------------


def test_a_position_built_by_clicks_shows_the_exact_leg_odds(page):
    p = page.page
    p.click("#clear-board")
    expect(p.locator(".hint")).to_contain_text("Put")
    # click a camel off the board, then a space (bottom to top)
    for camel, space in [("B", 1), ("Y", 2), ("G", 2), ("P", 3), ("R", 3), ("w", 14), ("k", 15)]:
        p.click(f'#tray [data-camel="{camel}"]')
        p.click(f'#board [data-space="{space}"] rect >> nth=0')
    expect(p.locator("#board-text")).to_have_value("1:B 2:YG 3:PR 14:w 15:k")
    # restack: Y picked up and put under G... then back on top of G by keyboard
    p.click('#board [data-camel="R"]')
    p.click('#board [data-camel="P"]')  # R goes under P
    expect(p.locator("#board-text")).to_have_value("1:B 2:YG 3:RP 14:w 15:k")
    p.focus('#board [data-camel="R"]')
    p.keyboard.press("ArrowUp")  # swap R with the camel above it
    expect(p.locator("#board-text")).to_have_value("1:B 2:YG 3:PR 14:w 15:k")
    # drag: blue from space 1 to space 4, then back by keyboard
    page.done("advice")
    src = p.locator('#board [data-camel="B"]').bounding_box()
    dst = p.locator('#board [data-space="4"] rect >> nth=0').bounding_box()
    p.mouse.move(src["x"] + 10, src["y"] + 5)
    p.mouse.down()
    p.mouse.move(dst["x"] + 30, dst["y"] + 30, steps=8)
    p.mouse.up()
    expect(p.locator("#board-text")).to_have_value("2:YG 3:PR 4:B 14:w 15:k")
    for _ in range(3):
        p.focus('#board [data-camel="B"]')
        p.keyboard.press("ArrowLeft")
    expect(p.locator("#board-text")).to_have_value("1:B 2:YG 3:PR 14:w 15:k")
    # tiles with owners, dice out of the pyramid, a leg tile taken
    p.click('[data-tool="+"]')
    p.select_option("#owner", "1")
    p.click('#board [data-space="5"] rect >> nth=0')
    p.click('[data-tool="-"]')
    p.select_option("#owner", "")
    p.click('#board [data-space="8"] rect >> nth=0')
    p.click('#board [data-die="B"]')
    p.click('#board [data-die="Y"]')
    # each click re-draws the board: wait for it before the next one
    expect(p.locator("#board-text")).to_have_value("1:B 2:YG 3:PR 14:w 15:k +5@1 -8 dice:GPRx")
    p.click('#board [data-legtile="R"]')
    board = "1:B 2:YG 3:PR 14:w 15:k +5@1 -8 dice:GPRx legtiles:R322"
    expect(p.locator("#board-text")).to_have_value(board)
    page.done("leg")
    exact = advisor.leg_odds(board)
    cells = leg_cells(p)
    assert set(cells) == set(exact.camels)
    for i, c in enumerate(exact.camels):
        assert cells[c] == [float(x) for x in exact.rank[i]]
    # the camels carry P(1st) and the best move is the advisor's
    expect(p.locator('#board [data-camel="R"]')).to_contain_text("54%")
    page.done("advice")
    state = advisor.GameState.from_json({"board": board})
    frame = advisor.best_moves(state, 0, seed=1)
    assert p.get_attribute("#advice-list li >> nth=0", "data-action") == frame["action"][0]
    expect(p.locator("#best-move")).to_contain_text(p.inner_text("#advice-list li >> nth=0 >> .what"))
    shot(p, "desktop-second-built")


def test_a_typed_board_string_with_an_error_is_explained_inline_and_the_board_stays(page):
    p = page.page
    page.done("leg")
    before = page.board_text()
    url = p.url
    p.fill("#board-text", "1:B 2:YG 3:PR 14:w 17:k")
    p.press("#board-text", "Enter")
    expect(p.locator("#text-error")).to_have_text("invalid token '17:k': space must be 1..16")
    assert p.get_attribute("#board-text", "aria-invalid") == "true"
    # the board and the results are those of the last good position
    expect(p.locator('#board [data-space="15"] [data-camel="k"]')).to_have_count(1)
    assert p.url == url and p.input_value("#board-text") == "1:B 2:YG 3:PR 14:w 17:k"
    # the bad token is selected for the user to fix
    assert p.evaluate("() => { const i = document.getElementById('board-text'); "
                      "return i.value.slice(i.selectionStart, i.selectionEnd); }") == "17:k"
    shot(p, "desktop-second-typed-error")
    p.fill("#board-text", "1:B 2:YG 3:PR 14:w 16:k")
    p.press("#board-text", "Enter")
    expect(p.locator("#text-error")).to_be_hidden()
    expect(p.locator('#board [data-space="16"] [data-camel="k"]')).to_have_count(1)
    assert "16%3Ak" in p.url and before != page.board_text()


def test_players_panel_changes_the_advice(page):
    p = page.page
    page.done("advice")
    p.fill("#money-0", "0")
    p.press("#money-0", "Enter")
    p.select_option("#players-n", "6")
    page.done("advice")
    p.click("text=/show all \\d+ actions/")
    expect(p.locator("#advice-list")).to_contain_text("Partnership with P6")
    p.select_option("#partner-0", "1")
    # face-down cards of P3 and P4 on the piles
    p.select_option("#winner_pile-who", "2")
    p.click("#players-panel .pile >> nth=0 >> text=add")
    p.select_option("#loser_pile-who", "3")
    p.click("#players-panel .pile >> nth=1 >> text=add")
    page.done("advice")
    state = p.evaluate("() => window.camelup.S.results.body.state")
    assert state["winner_pile"] == [{"player": 2}] and state["loser_pile"] == [{"player": 3}]
    assert state["players"][0]["money"] == 0 and state["players"][0]["partner"] == 1
    frame = advisor.best_moves(advisor.GameState.from_json(state), 0, seed=1)
    assert p.get_attribute("#advice-list li >> nth=0", "data-action") == frame["action"][0]
    # the advised player's own card shows its colour, and leaves their hand
    p.select_option("#loser_pile-who", "0")
    p.select_option("#loser_pile-colour", "B")
    p.click("#players-panel .pile >> nth=1 >> text=add")
    expect(p.locator("#players-panel .hand >> nth=0 >> .cardtoggle.on")).to_have_count(4)
    state = p.evaluate("() => window.camelup.S.results.body.state")
    assert state["loser_pile"] == [{"player": 3}, {"player": 0, "colour": "B"}]
    # an impossible state is named, not computed
    p.fill("#pyr-0", "5")
    p.press("#pyr-0", "Enter")
    expect(p.locator("#players-error")).to_contain_text("pyramid tiles")


# --------------------------------------------------------------------------
# Game mode
# --------------------------------------------------------------------------


def test_a_game_followed_turn_by_turn_with_undo_save_and_load(page, tmp_path):
    p = page.page
    p.click('#mode-tabs [data-mode="game"]')
    p.select_option("#game-players", "4")
    p.select_option("#game-start", "0")
    p.click("#new-random")
    expect(p.locator("#to-move")).to_have_text("P1 to move")
    # P1 takes a leg tile, P2 rolls (which die came out, what it showed), P3 places a tile, P4 rolls the grey die
    p.click('.actions [data-action^="leg:"] >> nth=0')
    expect(p.locator("#to-move")).to_have_text("P2 to move")
    p.click('.dierow >> nth=0 >> .face >> nth=1')  # the first die in the pyramid showed 2
    expect(p.locator("#to-move")).to_have_text("P3 to move")
    p.select_option("#tile-space", index=0)
    p.click(".actions >> text=+ cheering")
    expect(p.locator("#to-move")).to_have_text("P4 to move")
    p.click('[data-roll="x1b"]')
    expect(p.locator("#game-log li")).to_have_count(4)
    expect(p.locator("#game-log")).to_contain_text("grey die: black 1")
    page.done("advice")
    expect(p.locator(".curves svg.curve")).to_have_count(3)
    shot(p, "desktop-game")
    # undo the last turn
    p.click("#undo")
    expect(p.locator("#game-log li")).to_have_count(3)
    expect(p.locator("#to-move")).to_have_text("P4 to move")
    p.click('.dierow >> nth=0 >> .face >> nth=2')
    expect(p.locator("#game-log li")).to_have_count(4)
    # save: the download is a game record that replays
    with p.expect_download() as dl:
        p.click("#save-game")
    path = tmp_path / "game.jsonl"
    dl.value.save_as(path)
    record = [json.loads(line) for line in path.read_text().splitlines()]
    game = replay(record)
    assert game.turns == 4 and record[0]["type"] == "setup"
    shown = p.evaluate("() => window.camelup.S.view.board")
    assert game.board() == shown
    # the board drawn is the game's: each camel where the replay puts it
    for space, camels in game.state.position.stacks:
        for c in camels:
            expect(p.locator(f'#board [data-space="{space}"] [data-camel="{c}"]')).to_have_count(1)
    # load it back into a fresh game panel
    p.click("text=New game")
    p.set_input_files("#load-game", str(path))
    expect(p.locator("#game-log li")).to_have_count(4)
    assert p.evaluate("() => window.camelup.S.view.board") == shown


def test_the_new_game_choices_survive_a_redraw_of_the_page(page):
    # results arriving redraw the page; what the user picked must stay picked
    p = page.page
    page.done("leg")
    p.click('#mode-tabs [data-mode="game"]')
    p.select_option("#game-players", "3")
    p.select_option("#game-start", "1")
    p.evaluate("() => window.camelup.render()")
    expect(p.locator("#game-players")).to_have_value("3")
    expect(p.locator("#game-start")).to_have_value("1")
    p.click("#new-random")
    expect(p.locator("#to-move")).to_have_text("P2 to move")
    assert p.evaluate("() => window.camelup.S.view.players") == 3


def test_cards_placed_face_down_at_the_table_are_turned_over_when_the_race_ends(page):
    p = page.page
    p.fill("#board-text", "13:w 14:Pk 15:RY 16:BG dice:Bx")
    p.press("#board-text", "Enter")
    page.done("leg")
    p.click('#mode-tabs [data-mode="game"]')
    p.select_option("#game-players", "3")
    p.select_option("#game-start", "0")
    p.click("#new-from-board")
    expect(p.locator("#to-move")).to_have_text("P1 to move")
    # P1 and P2 put a card face down; nobody at the table saw its colour
    p.click('[data-action="winner:?"]')
    expect(p.locator("#to-move")).to_have_text("P2 to move")
    p.click('[data-action="loser:?"]')
    expect(p.locator("#face-down-note")).to_contain_text("P1 on the winner pile, P2 on the loser pile")
    # P3 rolls B 1: the race ends, so the page asks for the colours first
    p.click('[data-roll="B1"]')
    expect(p.locator("#reveal-form")).to_contain_text("ends the race")
    p.click("#reveal-play")
    expect(p.locator("#reveal-form")).to_contain_text("give the colour of every face-down card")
    shot(p, "desktop-game-reveal")
    p.select_option(".reveal-colour >> nth=0", "G")
    p.select_option(".reveal-colour >> nth=1", "P")
    p.click("#reveal-play")
    expect(p.locator(".turn")).to_contain_text("the race is over")
    view = p.evaluate("() => window.camelup.S.view")
    assert view["finished"] and view["summary"]["winner_camel"] == "G"
    assert [e["type"] for e in view["record"][-4:]] == ["reveal", "reveal", "action", "end"]
    # the page carries seeds as strings of digits (exact beyond 2**53); a saved record has numbers
    assert replay(seeds_as_numbers(view["record"])).money() == view["summary"]["money"]


def test_records_written_by_camelup_simulate_open_with_their_curves(browser, server, tmp_path):
    from advisor.game import write_records
    from advisor.simulate.games import play_game

    records = [play_game(["heuristic", "random", "random"], seed=s) for s in (3, 4)]
    path = tmp_path / "games.jsonl"
    write_records(records, path)
    page = Page(browser, server, path="?mode=game")
    p = page.page
    try:
        p.set_input_files("#load-game", str(path))
        expect(p.locator("#pick-game option")).to_have_count(2)
        p.select_option("#pick-game", "1")
        expect(p.locator("#best-block")).to_contain_text("The race is over")
        winner = records[1][-1]["winner_camel"]
        names = {"B": "blue", "G": "green", "P": "purple", "R": "red", "Y": "yellow"}
        expect(p.locator("#best-block")).to_contain_text(f"{names[winner]} won")
        turns = records[1][-1]["turns"]
        expect(p.locator("#game-log li")).to_have_count(turns)
        expect(p.locator(".curves svg.curve")).to_have_count(3, timeout=60_000)
        thick = p.get_attribute(f'.curves svg.curve >> nth=1 >> [data-camel-curve="{winner}"]', "stroke-width")
        assert thick == "4"
        shot(p, "desktop-game-loaded")
    finally:
        page.close()


# --------------------------------------------------------------------------
# Playing to win: the chance of winning and the objective switch
# --------------------------------------------------------------------------


def _api_best(p, body: dict) -> dict:
    """/api/best of the page's own server, asked from the page."""
    return p.evaluate("""async (body) => {
        const r = await fetch('/api/best', {method: 'POST', headers: {'Content-Type': 'application/json'},
                                            body: JSON.stringify(body)});
        return await r.json(); }""", body)


def _shown_actions(p) -> list[str]:
    return p.evaluate("() => [...document.querySelectorAll('#advice-list li')].map((li) => li.dataset.action)")


def _ranked(page, objective: str) -> None:
    """The advice is drawn, ranked by ``objective``, nothing pending."""
    p = page.page
    page.done("advice")
    expect(p.locator("#ranked-by")).to_have_attribute("data-objective", objective)
    expect(p.locator("#advice[aria-busy=false]")).to_have_count(1)


def test_the_advice_plays_to_win_and_the_switch_ranks_by_coins(browser, server):
    from urllib.parse import quote

    board = "1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx"
    page = Page(browser, server, path=f"?board={quote(board)}")
    p = page.page
    try:
        _ranked(page, "win")
        expect(p.locator('#objective-switch [data-objective="win"]')).to_have_attribute("aria-pressed", "true")
        expect(p.locator('#objective-switch [data-objective="ev"]')).to_have_attribute("aria-pressed", "false")
        assert "objective=" not in p.url  # the default is not written
        body = p.evaluate("() => window.camelup.S.results.body")
        assert body["objective"] == "win"
        win = _api_best(p, body)
        assert win["objective"] == "win"
        p.click("text=/show all \\d+ actions/")
        # the list is /api/best's, in its order, each option's chance beside its EV
        assert _shown_actions(p) == [m["action"] for m in win["moves"]]
        figures = p.evaluate("() => [...document.querySelectorAll('#advice-list li .win b')].map((b) => b.textContent)")
        assert figures == [f"{100 * m['win']:.1f}%" for m in win["moves"]]
        # each figure's tooltip carries its standard error from the sampled race odds (/api/best's win_se)
        assert "win_now_se" in win and all(m["win_se"] >= 0 for m in win["moves"])
        titles = p.evaluate("() => [...document.querySelectorAll('#advice-list li .win')].map((s) => s.title)")
        assert titles == [f"chance of winning the game after it: {100 * m['win']:.1f}% ± {100 * m['win_se']:.2f} "
                          "points (standard error from the sampled race odds; 0: exact; not the model's own error)"
                          for m in win["moves"]]
        # the headline: the chance now and after the best move, as the page rounds them
        expect(p.locator("#win-now")).to_have_text(f"{100 * win['win_now']:.0f}%")
        expect(p.locator("#win-after")).to_have_text(f"{100 * win['moves'][0]['win']:.0f}%")
        expect(p.locator("#win-headline")).to_contain_text("Your chance of winning:")
        expect(p.locator("#win-headline")).to_contain_text(p.inner_text("#advice-list li >> nth=0 >> .what"))
        expect(p.locator("#ranked-by")).to_contain_text("chance of winning")
        expect(p.locator("#win-note")).to_contain_text("1/k")
        expect(p.locator("#win-note")).to_contain_text("held-out")
        assert p.evaluate("() => document.documentElement.scrollWidth") <= 1280
        shot(p, "desktop-second-win")

        # coins: the server ranks again by EV; the address keeps the choice
        p.click('#objective-switch [data-objective="ev"]')
        _ranked(page, "ev")
        expect(p.locator('#objective-switch [data-objective="ev"]')).to_have_attribute("aria-pressed", "true")
        assert "objective=ev" in p.url
        assert p.evaluate("() => window.camelup.S.results.body.objective") == "ev"
        ev = _api_best(p, {**body, "objective": "ev"})
        assert ev["objective"] == "ev"
        order = [m["action"] for m in ev["moves"]]
        assert _shown_actions(p) == order and order != [m["action"] for m in win["moves"]]
        expect(p.locator("#ranked-by")).to_contain_text("coins")
        expect(p.locator("#win-headline")).to_have_count(0)
        expect(p.locator("#advice-list .win")).to_have_count(0)
        expect(p.locator("#best-move")).to_contain_text(p.inner_text("#advice-list li >> nth=0 >> .what"))
        shot(p, "desktop-second-coins")

        # the link opens ranked by coins; back to win, the address drops it
        other = Page(browser, server, path=p.url[len(server):])
        try:
            _ranked(other, "ev")
            expect(other.page.locator('#objective-switch [data-objective="ev"]')).to_have_attribute(
                "aria-pressed", "true")
            assert other.page.evaluate("() => window.camelup.S.results.body.objective") == "ev"
        finally:
            other.close()
        p.click('#objective-switch [data-objective="win"]')
        _ranked(page, "win")
        assert "objective=" not in p.url
        assert _shown_actions(p) == [m["action"] for m in win["moves"]]

        # an edit keeps the objective in the address (and in what is asked)
        p.click('#objective-switch [data-objective="ev"]')
        _ranked(page, "ev")
        p.fill("#board-text", board.replace("+5", "+6"))
        p.press("#board-text", "Enter")
        expect(p.locator("#board-text")).to_have_value(board.replace("+5", "+6"))
        # the address follows the edit once the page has read it (wait for it, not for the old advice)
        expect(p).to_have_url(re.compile(r"board=[^&]*%2B6[^&]*&.*objective=ev"))
        _ranked(page, "ev")
        assert p.evaluate("() => window.camelup.S.results.body.objective") == "ev"

        # following a game: the advice of the player to move, ranked as chosen
        p.click('#mode-tabs [data-mode="game"]')
        p.click("#new-random")
        expect(p.locator("#to-move")).to_contain_text("to move")
        _ranked(page, "ev")
        p.click('#objective-switch [data-objective="win"]')
        _ranked(page, "win")
        expect(p.locator("#win-headline")).to_be_visible()

        # Camel Up Cards' advice plays to win too: the switch, the headline, the column
        p.click('#mode-tabs [data-mode="analyse"]')
        p.click('#game-tabs [data-game="cards"]')
        expect(p.locator("#board-text")).to_have_value(re.compile("^cards "))
        page.done("advice")
        expect(p.locator("#objective-switch")).to_be_visible()
        _ranked(page, "win")
        expect(p.locator("#win-headline")).to_be_visible()
        expect(p.locator("#win-note")).to_contain_text("every player's money by a normal change")
        p.click('#objective-switch [data-objective="ev"]')
        _ranked(page, "ev")
        expect(p.locator("#advice-list .win")).to_have_count(0)
    finally:
        page.close()


def test_the_chance_of_winning_at_phone_size(browser, server):
    from urllib.parse import quote

    board = "1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx"
    page = Page(browser, server, 390, 844, path=f"?board={quote(board)}")
    p = page.page
    try:
        _ranked(page, "win")
        assert p.evaluate("() => document.documentElement.scrollWidth") <= 390
        # the headline is on the first screen, with the best move
        box = p.locator("#win-headline").bounding_box()
        assert box["y"] + box["height"] < 844, box
        # every figure is whole and readable: the win and EV cells do not overflow their row
        cells = p.evaluate("""() => [...document.querySelectorAll('#advice-list li summary')].slice(0, 8).map((s) => {
            const r = s.getBoundingClientRect();
            return [...s.querySelectorAll('.win, .ev')].map((c) => {
              const b = c.getBoundingClientRect();
              return [b.left >= r.left - 0.5, b.right <= r.right + 0.5, c.scrollWidth <= c.clientWidth + 1,
                      parseFloat(getComputedStyle(c).fontSize)]; }); })""")
        for row in cells:
            for inside_left, inside_right, whole, size in row:
                assert inside_left and inside_right and whole and size >= 12
        shot(p, "phone-second-win")
        p.locator("#advice-block").scroll_into_view_if_needed()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        p.locator("#advice-block").screenshot(path=str(ARTIFACTS / "phone-second-win-list.png"))
        p.click('#objective-switch [data-objective="ev"]')
        _ranked(page, "ev")
        assert p.evaluate("() => document.documentElement.scrollWidth") <= 390
        p.locator("#advice-block").screenshot(path=str(ARTIFACTS / "phone-second-coins-list.png"))
    finally:
        page.close()


# --------------------------------------------------------------------------
# The other games, sharing, phones
# --------------------------------------------------------------------------


def test_first_edition(page):
    p = page.page
    p.click('#game-tabs [data-game="first"]')
    expect(p.locator("#board-text")).to_have_value("first 1:B 2:YG 3:OW")
    page.done("advice")
    exact = advisor.leg_odds("first 1:B 2:YG 3:OW")
    cells = leg_cells(p)
    for i, c in enumerate(exact.camels):
        assert cells[c] == [float(x) for x in exact.rank[i]]
    expect(p.locator("#tools")).to_contain_text("Oasis tile")
    expect(p.locator('#board [data-die="x"]')).to_have_count(0)
    shot(p, "desktop-first")


def test_camel_up_cards(page):
    p = page.page
    p.click('#game-tabs [data-game="cards"]')
    expect(p.locator("#board-text")).to_have_value("cards 0:BG 2:OW 3:Y deck:4 known:B1G2")
    page.done("leg")
    p.fill("#cards-deck", "3")
    p.press("#cards-deck", "Enter")
    p.select_option("#cards-hand", "W1")
    board = "cards 0:BG 2:OW 3:Y deck:3 known:B1G2 hand:W1"
    expect(p.locator("#board-text")).to_have_value(board)
    page.done("leg")
    from advisor.cards import cards_odds

    odds = cards_odds(board, seed=1, race=False)
    cells = leg_cells(p)
    for i, c in enumerate(odds.camels):
        assert cells[c] == [float(x) for x in odds.leg[i]]
    # the palm placed by a click
    p.click('[data-tool="palm"]')
    p.click('#board [data-space="6"] rect >> nth=0')
    expect(p.locator("#board-text")).to_have_value(board.replace("deck:3", "palm:6 deck:3"))
    page.done("advice")
    expect(p.locator("#best-move")).not_to_be_empty()
    shot(p, "desktop-cards")


def test_share_link_and_png(browser, server, page):
    p = page.page
    board = "1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx"
    p.fill("#board-text", board)
    p.press("#board-text", "Enter")
    expect(p.locator("#board-text")).to_have_value(board)
    link = p.url
    other = Page(browser, server, path=link[len(server):])
    try:
        expect(other.page.locator("#board-text")).to_have_value(board)
    finally:
        other.close()
    p.click("#share-button")
    with p.expect_download() as dl:
        p.click("#save-png")
    data = Path(dl.value.path()).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000
    p.click("#share-button")
    with p.expect_download() as dl:
        p.click("#save-state")
    state = json.loads(Path(dl.value.path()).read_text())
    assert advisor.GameState.from_json(state).position == advisor.parse_position(board)


@pytest.mark.parametrize("game", ["second", "first", "cards"])
def test_screenshots_at_desktop_and_phone_size(browser, server, game):
    boards = {"second": "1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx", "first": "first 1:B 2:YG 3:OW +6 dice:BGO",
              "cards": "cards 0:BG 2:OW 3:Y deck:4 known:B1G2"}
    from urllib.parse import quote

    for name, (w, h) in {"desktop": (1280, 800), "phone": (390, 844)}.items():
        page = Page(browser, server, w, h, path=f"?board={quote(boards[game])}")
        p = page.page
        try:
            page.done("advice")
            # nothing wider than the screen
            assert p.evaluate("() => document.documentElement.scrollWidth") <= w
            if name == "phone":
                # the board and the best move fit on the first screen
                box = p.locator("#best-block").bounding_box()
                assert box["y"] < h, box
            shot(p, f"{name}-{game}")
        finally:
            page.close()


def test_phone_game_mode(browser, server):
    page = Page(browser, server, 390, 844, path="?mode=game")
    p = page.page
    try:
        p.click("#new-random")
        p.click('.actions [data-action^="leg:"] >> nth=0')
        p.click('.dierow >> nth=0 >> .face >> nth=0')
        expect(p.locator("#game-log li")).to_have_count(2)
        page.done("advice")
        assert p.evaluate("() => document.documentElement.scrollWidth") <= 390
        shot(p, "phone-game")
    finally:
        page.close()


# --------------------------------------------------------------------------
# Camel Up Cards: a game played on the page, a recorded game reviewed
# --------------------------------------------------------------------------


def cards_rivals(state, player: int) -> list[dict]:
    """The other players of ``state`` after ``player``, in turn order, as
    /api/best takes them: money and bets (all public at the table)."""
    n = state.setup.players
    out = []
    for k in range(1, n):
        q = state.players[(player + k) % n]
        bets = [f"{c}{v}" for c, v in q.leg] + [f"m{c}" for c in q.mid]
        bets += [f"{kind[0]}{getattr(q, kind)}" for kind in ("winner", "loser") if getattr(q, kind)]
        out.append({"money": q.money, "bets": bets})
    return out


def test_a_camel_up_cards_game_played_on_the_page_saved_and_loaded(page, server, tmp_path):
    from advisor.cards.record import replay_cards
    from advisor.web.cardsgame import advice_step

    p = page.page
    cards_deal(p, ["human", "heuristic", "random"], 12)
    # the build is checked before it is sent: nothing chosen yet
    expect(p.locator("#build-go")).to_be_disabled()
    expect(p.locator("#build-status")).to_contain_text("choose 1 card in hand")
    cards_build(p)
    expect(p.locator("#turn-actions")).to_be_visible()
    expect(p.locator("#to-move")).to_have_text("P1 to move")
    # a bet first, then the race action; then reveal turns until the leg ends
    cards_step(p, '#bet-actions [data-action^="leg:"] >> nth=0')
    expect(p.locator("#turn-actions")).to_contain_text("now your race action")
    page.done("advice")  # the advice for the race action alone (the bet is taken)
    best = p.evaluate("() => window.camelup.S.results.advice.best")
    assert best["step"] == "race" and all(not m["bet"] for m in best["moves"])
    cards_step(p, '#race-actions [data-action="reveal"]')
    for _ in range(30):  # turns: reveal, then no bet
        view = cards_view(p)
        if view["phase"] == "build" or view["legs"] > 1:
            break
        cards_step(p, '#race-actions [data-action="reveal"]')
        if cards_view(p)["table"]["step"] == "bet":
            expect(p.locator("#turn-actions")).to_contain_text("take a bet, or end the turn")
            cards_step(p, "#pass")
    view = cards_view(p)
    assert view["legs"] == 2, "the first leg ended by reveals"
    # the table shows P1's own cards and hides the others'
    assert view["viewer"] == 0 and all("hand" not in pl for pl in view["table"]["players"][1:])
    for row in (1, 2):
        expect(p.locator(f"#cards-table tbody tr >> nth={row} >> .racecard")).to_have_count(0)
    if view["phase"] == "build":
        cards_build(p)
    expect(p.locator("#turn-actions")).to_be_visible()
    page.done("advice")
    expect(p.locator("#best-move")).not_to_be_empty()
    # the advice is for the game as P1 sees it: the others' money and bets and the leg go with the
    # request, and the chance of winning shown is the API's for that whole game state
    state = replay_cards(seeds_as_numbers(cards_view(p)["record"])).state
    body = p.evaluate("() => window.camelup.S.results.body")
    assert body["leg"] == state.leg == 2 and body["rivals"] == cards_rivals(state, 0)
    assert any(r["money"] != 3 for r in body["rivals"]), "leg 1 was scored: the start money no longer holds"
    full = {"board": str(state.position(0)), "step": advice_step(state), "rivals": cards_rivals(state, 0),
            "leg": state.leg, "seed": body["seed"], "objective": body["objective"]}
    best = post_json(server + "api/best", full)
    assert "assumptions" not in best
    shown = p.evaluate("() => window.camelup.S.results.advice.best")
    assert str(shown.pop("seed")) == str(best.pop("seed"))  # the page keeps seeds as digit strings
    assert shown == best
    expect(p.locator("#win-now")).to_have_text(percent(best["win_now"]))
    expect(p.locator("#advice-block")).not_to_contain_text("no bets")  # no assumption left to state
    expect(p.locator(".curves svg.curve")).to_have_count(3, timeout=180_000)
    shot(p, "desktop-cards-game")
    # the board drawn is the game's
    view = cards_view(p)
    game = replay_cards(seeds_as_numbers(view["record"]))  # the page keeps seeds as digit strings
    for space, camels in game.state.stacks():
        for c in camels:
            expect(p.locator(f'#board [data-space="{space}"] [data-camel="{c}"]')).to_have_count(1)
    # save: the download is the record, and it replays
    with p.expect_download() as dl:
        p.click("#save-game")
    path = tmp_path / "cards.jsonl"
    dl.value.save_as(path)
    record = [json.loads(line) for line in path.read_text().splitlines()]
    assert record == seeds_as_numbers(view["record"]) and record[0]["seats"] == ["human", "heuristic", "random"]
    assert replay_cards(record).state == game.state
    # load it back and go on from there
    p.click("text=New game")
    expect(p.locator("#cards-new")).to_be_visible()
    p.set_input_files("#load-game", str(path))
    expect(p.locator("#game-log li")).to_have_count(len(view["log"]))
    expect(p.locator("#to-move")).to_have_text("P1 to move")
    assert seeds_as_numbers(cards_view(p)["record"]) == record
    cards_step(p, '#race-actions [data-action="reveal"]')
    # undo: back to before P1's reveal
    expect(p.locator("#undo")).to_be_enabled()
    p.click("#undo")
    p.wait_for_function("n => window.camelup.S.view.record.length === n && !window.camelup.S.gameBusy",
                        arg=len(record), timeout=60_000)
    assert seeds_as_numbers(cards_view(p)["record"]) == record
    # the same game at phone size: one column, nothing wider than the screen
    p.set_viewport_size({"width": 390, "height": 844})
    page.done("advice")
    assert p.evaluate("() => document.documentElement.scrollWidth") <= 390
    # every label of the track (the figures' name and holder too) inside its card
    assert p.evaluate(TEXT_OUTSIDE_ITS_SPACE) == []
    shot(p, "phone-cards-game")


TEXT_OUTSIDE_ITS_SPACE = """() => [...document.querySelectorAll('#board [data-space]')].flatMap((g) => {
  const card = g.querySelector('rect').getBoundingClientRect();
  return [...g.querySelectorAll('text')].filter((t) => {
    const r = t.getBoundingClientRect();
    return r.left < card.left - 1 || r.right > card.right + 1;
  }).map((t) => [g.dataset.space, t.textContent]);
})"""


def test_a_simulated_camel_up_cards_record_opens_step_by_step_with_its_curves(browser, server, tmp_path):
    from advisor.cards.bots import play_cards_game
    from advisor.cards.game import CardsSetup
    from advisor.cards.record import replay_cards, write_cards_records

    records = [play_cards_game(["heuristic", "random"], CardsSetup(players=2), seed=s) for s in (1, 2)]
    path = tmp_path / "cards-games.jsonl"
    write_cards_records(records, path)
    page = Page(browser, server, path="?mode=game")
    p = page.page
    try:
        p.set_input_files("#load-game", str(path))
        expect(p.locator("#pick-game option")).to_have_count(2)
        p.select_option("#pick-game", "1")
        record = records[1]
        actions = [e for e in record if e["type"] == "action"]
        expect(p.locator("#step-label")).to_have_text(f"step {len(actions)} of {len(actions)}")
        expect(p.locator("#best-block")).to_contain_text("The race is over")
        expect(p.locator("#game-log li")).to_have_count(len(actions))
        # step back to a turn in the middle: the board and the advice are those of that step
        k = next(i for i, e in enumerate(actions, start=1) if e["action"] == "reveal" and i > len(actions) // 2)
        p.fill("#step-range", str(k - 1))
        p.dispatch_event("#step-range", "change")
        expect(p.locator("#step-label")).to_have_text(f"step {k - 1} of {len(actions)}")
        game = replay_cards(record, upto=k - 1)
        for space, camels in game.state.stacks():
            for c in camels:
                expect(p.locator(f'#board [data-space="{space}"] [data-camel="{c}"]')).to_have_count(1)
        mover = game.state.current
        expect(p.locator("#step-mover")).to_contain_text(f"P{mover + 1} to move")
        page.done("advice")
        body = p.evaluate("() => window.camelup.S.results.body")
        assert body["board"] == str(game.state.position(mover))
        assert body["leg"] == game.state.leg and body["rivals"] == cards_rivals(game.state, mover)
        expect(p.locator("#best-move")).not_to_be_empty()
        p.click("#step-next")
        expect(p.locator("#step-text")).to_contain_text("revealed")
        expect(p.locator(".curves svg.curve")).to_have_count(3, timeout=240_000)
        expect(p.locator(".curves svg.curve >> nth=0 >> line.marker")).to_have_count(1)
        shot(p, "desktop-cards-review")
    finally:
        page.close()

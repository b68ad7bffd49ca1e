"""The page at a real table, in Chromium (Debian's `chromium`) driven by
Playwright against `camelup serve` run as a process: players read from 1,
undo/redo and the browser's Back through the editor's edits with the whole
table in the address, results that stay put while later stages arrive,
camels told apart without colour, phone sizes (tap targets, text, no
overflow), and reaching the page from a phone (LAN address and QR code in
the terminal, a web app manifest with icons).  Screenshots go to
tests/artifacts/ (git-ignored).

In CI (CI=true) a missing browser or Playwright is a failure, never a skip.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import struct
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run"]
IN_CI = os.environ.get("CI", "").lower() == "true"


def _missing(what: str):
    if IN_CI:
        pytest.fail(f"{what} is missing: CI runs the browser test (.ci/run installs chromium)")
    pytest.skip(f"{what} is missing (apt-get install -y chromium; pip install playwright)")


try:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=20_000)
except ImportError:  # pragma: no cover - the test extra installs it
    sync_playwright = None


def _start(*extra: str):
    """`camelup serve --port 0` as a process: (process, url, stdout lines up to the ready line)."""
    proc = subprocess.Popen([sys.executable, "-m", "advisor.cli", "serve", "--port", "0", "--workers", "1", *extra],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    lines = []
    deadline = time.time() + 300
    while time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        m = re.search(r"ready at (http://\S+)", line)
        if m:
            return proc, m.group(1), lines
    proc.kill()
    raise AssertionError("camelup serve did not start:\n" + "".join(lines) + proc.stderr.read())


@pytest.fixture(scope="module")
def server():
    proc, url, _ = _start()
    yield url
    proc.terminate()
    _, err = proc.communicate(timeout=60)
    assert "Traceback" not in err, err


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

    def __init__(self, browser, url, width=1280, height=800, path="", touch=False):
        self.context = browser.new_context(viewport={"width": width, "height": height}, has_touch=touch,
                                           is_mobile=touch, device_scale_factor=2 if touch else 1)
        self.page = self.context.new_page()
        self.url = url
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text)
                     if m.type == "error" and "status of 400" not in m.text else None)
        self.page.goto(url + path)
        self.page.wait_for_selector("body[data-ready]", timeout=30_000)

    def done(self, stage="advice"):
        self.page.wait_for_selector(f'.stages li[data-stage="{stage}"].done', timeout=120_000)

    def board_text(self) -> str:
        return self.page.input_value("#board-text")

    def shot(self, name: str):
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / name), full_page=True)

    def wait_for_game(self, timeout: float = 180_000):
        """Wait for the turn buttons of the game just started; when they do
        not come, say what the game panel shows and what the server was
        doing (its lanes and what it still prepares)."""
        try:
            self.page.wait_for_selector('.actions [data-action^="leg:"]', timeout=timeout)
        except Exception as exc:
            said = {"panel": self.page.inner_text("#game-block")[:2000]}
            for path in ("api/health", "api/status"):
                said[path] = self.page.evaluate(f"() => fetch('/{path}').then((r) => r.json())")
            raise AssertionError(f"the game's turn buttons did not come: {json.dumps(said)[:6000]}") from exc

    def close(self):
        self.context.close()
        assert not self.errors, self.errors


@pytest.fixture
def page(browser, server):
    p = Page(browser, server)
    yield p
    p.close()


# ---------------------------------------------------------------- reaching the page from a phone

def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_manifest_and_icons_let_a_phone_add_the_page(page):
    p = page.page
    href = p.get_attribute('link[rel="manifest"]', "href")
    assert href
    out = p.evaluate("""async (href) => {
        const r = await fetch(href);
        const m = await r.json();
        const icons = [];
        for (const i of m.icons) {
            const b = new Uint8Array(await (await fetch(new URL(i.src, location.href))).arrayBuffer());
            icons.push({ ...i, bytes: Array.from(b.slice(0, 32)), ok: true });
        }
        return { type: r.headers.get('content-type'), manifest: m, icons };
    }""", href)
    assert "manifest+json" in out["type"]
    m = out["manifest"]
    assert m["name"] and m["start_url"] == "/" and m["display"] == "standalone"
    sizes = set()
    for icon in out["icons"]:
        if icon["type"] == "image/png":
            w, h = _png_size(bytes(icon["bytes"]))
            assert f"{w}x{h}" == icon["sizes"]
            sizes.add(w)
    assert {192, 512} <= sizes  # what Android asks for to install a web app
    assert p.get_attribute('link[rel="apple-touch-icon"]', "href")


def _matrix_from_text(text: str) -> list[list[int]]:
    """The dark modules of a QR code segno drew with half blocks (light on dark terminal: a full block is light)."""
    rows = []
    for line in text.splitlines():
        if not line or set(line) - set("█▀▄ "):
            continue
        top = [0 if ch in "█▀" else 1 for ch in line]
        bottom = [0 if ch in "█▄" else 1 for ch in line]
        rows += [top, bottom]
    return rows


def test_serve_on_every_interface_prints_the_lan_address_and_its_qr_code():
    import segno

    from advisor.web.server import lan_address

    if lan_address() is None:
        pytest.skip("this machine has no network address beyond the loopback")
    proc, _, lines = _start("--host", "0.0.0.0")
    try:
        more = []
        deadline = time.time() + 30
        while time.time() < deadline:
            line = proc.stdout.readline()
            more.append(line)
            if line.strip() == "" and len(more) > 10:
                break
    finally:
        proc.terminate()
        proc.communicate(timeout=60)
    text = "".join(lines + more)
    m = re.search(r"On a phone on the same network, open (http://(\S+?):\d+/) or scan this code", text)
    assert m, text
    assert m.group(2) == lan_address() and m.group(2) not in ("0.0.0.0", "127.0.0.1")
    drawn = _matrix_from_text(text[m.end():])
    code = segno.make(m.group(1), error="m")
    border = 4
    want = [[int(bool(v)) for v in row] for row in code.matrix]
    size = len(want)
    got = [row[border:border + size] for row in drawn[border:border + size]]
    assert got == want


# ---------------------------------------------------------------- players from 1

def test_players_are_read_from_one_and_camels_by_name(page):
    p = page.page
    expect(p.locator("#players-panel tbody th").first).to_contain_text("P1")
    # tile owners: only the seated players (4 by default), from P1
    p.click('[data-tool="+"]')
    assert p.locator("#owner option").all_inner_texts() == ["owner: nobody tracked", "owner: P1", "owner: P2",
                                                            "owner: P3", "owner: P4"]
    # names typed for the table replace P1, P2 everywhere
    p.fill("#player-names", "Ann, Bob")
    p.dispatch_event("#player-names", "change")
    expect(p.locator("#players-panel tbody th").nth(0)).to_contain_text("Ann")
    expect(p.locator("#players-panel tbody th").nth(2)).to_contain_text("P3")
    p.click('#mode-tabs [data-mode="game"]')
    p.select_option("#game-players", "4")
    p.select_option("#game-start", "0")
    p.click("#new-random")
    expect(p.locator("#to-move")).to_have_text("Ann to move")
    # the purple camel is "purple" in the log, never "P" beside a player
    p.click('.actions [data-action="leg:P"]')
    expect(p.locator("#game-log")).to_contain_text("Ann took the purple leg tile")
    expect(p.locator("#to-move")).to_have_text("Bob to move")
    p.click('.dierow >> nth=0 >> .face >> nth=1')
    expect(p.locator("#game-log li").first).to_contain_text(re.compile(r"^Bob rolled the \w+ die: 2"))
    expect(p.locator("#to-move")).to_have_text("P3 to move")
    log = " ".join(p.locator("#game-log li").all_inner_texts())
    assert not re.search(r"\bP0\b|\b[BGPRY] leg tile", log), log


# ---------------------------------------------------------------- undo, redo, Back, the address

def _query(url: str) -> dict:
    from urllib.parse import parse_qs, urlparse

    return {k: v[0] for k, v in parse_qs(urlparse(url).query).items()}


def test_edits_undo_redo_back_and_an_address_with_the_whole_table(browser, server, page):
    p = page.page
    first = page.board_text()
    p.click('#board [data-die="B"]')  # the blue die out of the pyramid
    expect(p.locator("#board-text")).not_to_have_value(first)
    second = page.board_text()
    assert "dice:" in second and _query(p.url)["board"] == second
    p.fill("#money-1", "7")  # P2's money
    p.wait_for_function("() => (new URLSearchParams(location.search).get('table') || '').includes('\"money\":7')")
    table = json.loads(_query(p.url)["table"])
    assert [x["money"] for x in table["players"]] == [3, 7, 3, 3]
    # undo, redo: the editor's buttons
    p.click("#undo-edit")
    expect(p.locator("#money-1")).to_have_value("3")
    expect(p.locator("#board-text")).to_have_value(second)
    expect(p.locator("#redo-edit")).to_be_enabled()
    p.click("#redo-edit")
    expect(p.locator("#money-1")).to_have_value("7")
    expect(p.locator("#redo-edit")).to_be_disabled()
    # the browser's Back: the previous positions, still in the page
    p.go_back()
    expect(p.locator("#money-1")).to_have_value("3")
    p.go_back()
    expect(p.locator("#board-text")).to_have_value(first)
    expect(p.locator("#undo-edit")).to_be_disabled()
    assert p.url.startswith(server)
    p.go_forward()
    p.go_forward()
    expect(p.locator("#money-1")).to_have_value("7")
    # the address alone opens the same table elsewhere
    other = Page(browser, p.url)
    try:
        expect(other.page.locator("#money-1")).to_have_value("7")
        assert other.board_text() == second
    finally:
        other.close()
    # clearing the board: the board string and the address at once, and Back undoes it
    p.click("#clear-board")
    expect(p.locator("#board-text")).to_have_value("second")
    assert _query(p.url)["board"] == "second"
    p.go_back()
    expect(p.locator("#board-text")).to_have_value(second)


# ---------------------------------------------------------------- results stay put

# holds the analysis stream after the first advice stage until the test lets it go
HOLD_STAGES = """
(() => {
  const real = window.fetch.bind(window);
  window.__release = null;
  window.fetch = async (input, init) => {
    const url = typeof input === "string" ? input : input.url;
    if (!url.includes("/api/analyse")) return real(input, init);
    const resp = await real(input, init);
    const lines = (await resp.text()).split("\\n").filter(Boolean);
    const cut = lines.findIndex((l) => JSON.parse(l).stage === "advice_leg") + 1;
    let release;
    const gate = new Promise((r) => { release = r; });
    window.__release = release;
    const enc = new TextEncoder();
    const stream = new ReadableStream({ async start(c) {
      for (const l of lines.slice(0, cut)) c.enqueue(enc.encode(l + "\\n"));
      await gate;
      for (const l of lines.slice(cut)) c.enqueue(enc.encode(l + "\\n"));
      c.close();
    } });
    return new Response(stream, { status: resp.status, headers: { "Content-Type": "application/x-ndjson" } });
  };
})();
"""


def test_an_opened_option_stays_open_and_rows_do_not_move_while_stages_arrive(browser, server):
    pg = Page.__new__(Page)
    pg.context = browser.new_context(viewport={"width": 1280, "height": 800})
    pg.context.add_init_script(HOLD_STAGES)
    pg.page = pg.context.new_page()
    pg.errors = []
    pg.page.on("pageerror", lambda e: pg.errors.append(str(e)))
    p = pg.page
    p.goto(server)
    p.wait_for_selector("body[data-ready]", timeout=30_000)
    try:
        pg.done("advice_leg")
        p.wait_for_function("() => window.__release !== null")
        p.click("#advice-list li:nth-child(3) summary")
        opened = p.get_attribute("#advice-list li:nth-child(3)", "data-action")
        before = p.locator("#advice-list li").evaluate_all("els => els.map((e) => e.dataset.action)")
        assert not p.locator('.stages li[data-stage="advice"].done').count()
        p.evaluate("window.__release()")
        pg.done("advice")
        after = p.locator("#advice-list li").evaluate_all("els => els.map((e) => e.dataset.action)")
        assert after[:len(before)] == before  # nothing moved; new options come below
        assert p.locator(f'#advice-list li[data-action="{opened}"] details').get_attribute("open") is not None
        expect(p.locator(f'#advice-list li[data-action="{opened}"] .why')).to_be_visible()
        ranks = p.locator("#advice-list li").evaluate_all("els => els.map((e) => Number(e.dataset.rank))")
        if ranks != sorted(ranks):  # what changed is marked, and the user may sort again
            assert p.locator("#advice-list .moved").count() > 0
            p.click("#resort")
            ranks = p.locator("#advice-list li").evaluate_all("els => els.map((e) => Number(e.dataset.rank))")
            assert ranks == sorted(ranks)
    finally:
        pg.close()


# ---------------------------------------------------------------- colour-blind players

# Machado, Oliveira & Fernandes (2009) matrices, severity 1.0
SIMULATE = """(matrix) => {
  const ns = "http://www.w3.org/2000/svg";
  const s = document.createElementNS(ns, "svg");
  s.setAttribute("style", "position:absolute;width:0;height:0");
  s.innerHTML = `<filter id="cvd" color-interpolation-filters="linearRGB"><feColorMatrix type="matrix" values="${matrix}"/></filter>`;
  document.body.append(s);
  document.documentElement.style.filter = "url(#cvd)";
}"""
DEUTERANOPIA = "0.367 0.861 -0.228 0 0  0.280 0.673 0.047 0 0  -0.012 0.043 0.969 0 0  0 0 0 1 0"
PROTANOPIA = "0.152 1.053 -0.205 0 0  0.115 0.786 0.099 0 0  -0.004 -0.048 1.052 0 0  0 0 0 1 0"


def test_leg_tiles_and_curves_name_the_camels_without_colour(page):
    p = page.page
    # the leg-tile stacks carry the camel's letter
    letters = p.locator("#board [data-legtile]").evaluate_all(
        "els => els.map((e) => [e.dataset.legtile, e.querySelector('.legtile-letter')?.textContent])")
    assert letters and all(c == t for c, t in letters), letters
    p.click('#mode-tabs [data-mode="game"]')
    p.select_option("#game-players", "3")
    p.click("#new-random")
    p.click('.actions [data-action^="leg:"] >> nth=0')
    p.click('.dierow >> nth=0 >> .face >> nth=0')
    expect(p.locator("#game-log li")).to_have_count(2)
    p.wait_for_function("() => document.querySelectorAll('#curves svg.curve').length === 3"
                        " && !document.getElementById('curve-progress')", timeout=120_000)
    p.locator("#curve-block").scroll_into_view_if_needed()
    for curve in p.locator("#curves svg.curve").all():
        dashes = curve.locator("polyline").evaluate_all("els => els.map((e) => e.getAttribute('stroke-dasharray') || '')")
        camels = curve.locator("polyline").evaluate_all("els => els.map((e) => e.dataset.camelCurve)")
        labels = curve.locator(".curve-label").evaluate_all("els => els.map((e) => e.textContent)")
        assert len(set(dashes)) == len(dashes) == len(camels)  # each line its own pattern
        assert sorted(labels) == sorted(camels)  # and its letter at the end
    for name, matrix in (("deuteranopia", DEUTERANOPIA), ("protanopia", PROTANOPIA)):
        p.evaluate(SIMULATE, matrix)
        page.shot(f"table-{name}-1280.png")
        p.locator("#curve-block").screenshot(path=str(ARTIFACTS / f"table-{name}-curves.png"))
        p.evaluate("document.documentElement.style.filter = ''")


# ---------------------------------------------------------------- phones

TOO_SMALL = """() => {
  const seen = (e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden'; };
  const out = [];
  for (const e of document.querySelectorAll('button, select, input:not([type=file]), .filebutton, summary')) {
    if (!seen(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.width < 44 || r.height < 44) out.push(`${e.tagName} ${e.id || e.className} "${(e.textContent || '').trim().slice(0, 20)}" ${r.width.toFixed(0)}x${r.height.toFixed(0)}`);
  }
  return out;
}"""
SMALL_TEXT = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const e = n.parentElement;
    if (!n.textContent.trim() || e.closest('svg, option, title, script')) continue;
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const size = parseFloat(getComputedStyle(e).fontSize);
    if (size < 12) out.push(`${e.tagName}.${e.className} "${n.textContent.trim().slice(0, 20)}" ${size}px`);
  }
  return out;
}"""
OVERFLOW = """() => {
  const w = document.documentElement.clientWidth;
  const out = [];
  if (document.documentElement.scrollWidth > w) out.push(`the page is ${document.documentElement.scrollWidth} px wide`);
  for (const e of document.body.querySelectorAll('*')) {
    const r = e.getBoundingClientRect();
    if (!r.width || e.closest('svg > *') || e.closest('.scroll')) continue;
    if (r.right > w + 0.5) out.push(`${e.tagName}#${e.id}.${e.className} ends at ${r.right.toFixed(0)}`);
  }
  return out.slice(0, 20);
}"""


@pytest.mark.parametrize("width,height", [(390, 844), (320, 640)])
def test_phone_tap_targets_text_and_width(browser, server, width, height):
    pg = Page(browser, server, width=width, height=height, touch=True)
    p = pg.page
    try:
        pg.done("advice")
        pg.shot(f"table-position-{width}.png")
        assert p.evaluate(OVERFLOW) == []
        if width == 390:
            assert p.evaluate(TOO_SMALL) == []
            assert p.evaluate(SMALL_TEXT) == []
        p.click('#mode-tabs [data-mode="game"]')
        p.click("#new-random")
        expect(p.locator("#follow-note")).to_have_text(re.compile(r"record each turn below\.$"), use_inner_text=True)
        # on a first start the game waits for the board game's kernels (compiled while the page is in use)
        pg.wait_for_game()
        p.click('.actions [data-action^="leg:"] >> nth=0')
        expect(p.locator("#game-log li")).to_have_count(1)
        pg.done("advice")
        pg.shot(f"table-game-{width}.png")
        assert p.evaluate(OVERFLOW) == []
        if width == 390:
            assert p.evaluate(TOO_SMALL) == []
            assert p.evaluate(SMALL_TEXT) == []
    finally:
        pg.close()


def test_desktop_game_text_says_on_the_right(page):
    p = page.page
    p.click('#mode-tabs [data-mode="game"]')
    expect(p.locator("#follow-note")).to_have_text(re.compile(r"record each turn on the right\.$"), use_inner_text=True)
    page.shot("table-position-1280.png")


SVG_TEXT = """() => {
  const svg = document.querySelector('#board svg');
  const k = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  return [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim())
    .map((t) => [t.textContent.trim(), parseFloat(t.getAttribute('font-size')) * k]);
}"""


LAID_OUT = """() => {
  const big = (e) => { const r = e.getBoundingClientRect(); return r.width >= 44 && r.height >= 44; };
  const spaces = [...document.querySelectorAll('#board [data-space]')];
  const picks = [...document.querySelectorAll('#phone-pick button')];
  return spaces.length === 16 && spaces.every(big) && picks.length > 0 && picks.every(big);
}"""


# what decides the board's size on the page: the viewport, the page's state, and each box from the board up
LAYOUT_STATE = """() => {
  const box = (e) => { const r = e.getBoundingClientRect(); const c = getComputedStyle(e);
    return `${e.tagName.toLowerCase()}#${e.id}.${e.getAttribute('class') || ''} ${r.width.toFixed(0)}x${r.height.toFixed(0)} `
      + `display:${c.display} visibility:${c.visibility}${e.hidden ? ' hidden' : ''}`; };
  const chain = [];
  for (let e = document.querySelector('#board svg') || document.getElementById('board'); e; e = e.parentElement) chain.push(box(e));
  return { inner: [innerWidth, innerHeight], dpr: devicePixelRatio, visibility: document.visibilityState,
           ready: document.readyState, svgs: document.querySelectorAll('#board svg').length, chain };
}"""


def test_phone_board_pieces_are_reachable_by_finger_and_readable(browser, server):
    pg = Page(browser, server, width=390, height=844, touch=True)
    p = pg.page
    try:
        # the board and the pick row drawn (a busy machine may draw them after the page says ready)
        expect(p.locator("#board [data-space]")).to_have_count(16)
        expect(p.locator("#phone-pick [data-pick-legtile]").first).to_be_visible()
        # and laid out.  CI measured every space at 0x0 twice (never seen on this machine, idle or loaded):
        # what the page looked like then is said (a warning), the page brought to the front and its viewport
        # set again (a resize redraws the board), then reloaded, and the sizes asserted as before
        try:
            p.wait_for_function(LAID_OUT, timeout=30_000)
        except PlaywrightTimeout:  # said in the run's warnings summary even when the retries below pass
            warnings.warn(f"phone board not laid out after 30 s: {p.evaluate(LAYOUT_STATE)} {pg.errors}")
            p.bring_to_front()
            p.set_viewport_size({"width": 391, "height": 844})
            p.set_viewport_size({"width": 390, "height": 844})
            try:
                p.wait_for_function(LAID_OUT, timeout=30_000)
            except PlaywrightTimeout:
                warnings.warn(f"... nor after a resize: {p.evaluate(LAYOUT_STATE)}; the page reloaded")
                p.reload()
                p.wait_for_selector("body[data-ready]", timeout=30_000)
                try:
                    p.wait_for_function(LAID_OUT, timeout=30_000)
                except PlaywrightTimeout:
                    pass
        sizes = p.locator("#board [data-space]").evaluate_all(
            "els => els.map((e) => { const r = e.getBoundingClientRect(); return [r.width, r.height]; })")
        assert len(sizes) == 16 and all(w >= 44 and h >= 44 for w, h in sizes), (sizes, p.evaluate(LAYOUT_STATE))
        # every camel, die and leg tile of the board has a button of 44 px
        for kind, attr in (("camel", "data-camel"), ("die", "data-die"), ("legtile", "data-legtile")):
            on_board = set(p.locator(f"#board [{attr}]").evaluate_all(f"els => els.map((e) => e.getAttribute('{attr}'))"))
            boxes = p.locator(f"#phone-pick [data-pick-{kind}]").evaluate_all(
                f"els => els.map((e) => {{ const r = e.getBoundingClientRect(); return [e.dataset.pick{kind.capitalize()}, r.width, r.height]; }})")
            assert on_board and on_board <= {b[0] for b in boxes}, (kind, on_board, boxes)
            assert all(w >= 44 and h >= 44 for _, w, h in boxes), boxes
        small = [(t, round(px, 1)) for t, px in p.evaluate(SVG_TEXT) if px < 11.95]
        assert small == [], small
        # a tap on the blue camel's button, then on space 10
        p.tap('#phone-pick [data-pick-camel="B"]')
        p.tap('#board [data-space="10"] rect >> nth=0')
        expect(p.locator("#board-text")).to_have_value(re.compile(r"(^| )10:B( |$)"))
        p.tap('#phone-pick [data-pick-die="G"]')
        expect(p.locator("#board-text")).to_have_value(re.compile(r"dice:B?PRY?x"))
        pg.shot("table-editor-390.png")
    finally:
        pg.close()


@pytest.mark.parametrize("game", ["board", "cards"])
def test_a_new_game_looks_busy_until_the_server_answers(browser, server, game):
    """On a first start the server may take a while to set up a game (its
    engine is still being prepared): while the request is out the start
    buttons wait and a line says the game is being set up; the answer
    brings the game.  The request is held here to see that moment."""
    page = Page(browser, server)
    p = page.page
    held = []
    p.route("**/api/game/new", lambda route: held.append(route))
    try:
        if game == "cards":
            p.click('#game-tabs [data-game="cards"]')
        p.click('#mode-tabs [data-mode="game"]')
        start = "#cards-new" if game == "cards" else "#new-random"
        expect(p.locator(start)).to_be_enabled()
        expect(p.locator("#game-starting")).to_have_count(0)
        p.click(start)
        p.wait_for_function("() => document.querySelector('#game-starting') !== null", timeout=15_000)
        expect(p.locator("#game-starting")).to_contain_text("Setting up the game")
        expect(p.locator(start)).to_be_disabled()
        expect(p.locator(".newgame")).to_have_attribute("aria-busy", "true")
        if game == "board":
            expect(p.locator("#new-from-board")).to_be_disabled()
        page.shot(f"new-game-busy-{game}.png")
        for _ in range(600):  # the request is out (the note shows): the route holds it
            if held:
                break
            p.wait_for_timeout(50)
        assert held, "the new game's request never reached the route"
        held[0].continue_()
        expect(p.locator("#game-starting")).to_have_count(0, timeout=180_000)
        if game == "board":
            page.wait_for_game()
        else:
            expect(p.locator("#game-panel .newgame")).to_have_count(0, timeout=180_000)
    finally:
        p.unroute("**/api/game/new")
        page.close()

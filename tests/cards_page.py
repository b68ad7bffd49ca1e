"""Camel Up Cards played on the page, in Chromium: the steps the browser
tests share (see test_web_browser.py for the browser and the server)."""

from __future__ import annotations

try:
    from playwright.sync_api import expect
except ImportError:  # pragma: no cover - test_web_browser skips or fails first
    expect = None


def cards_view(p) -> dict:
    return p.evaluate("() => window.camelup.S.view")


def cards_step(p, click: str) -> None:
    """Click, then wait until the server's answer is on the page (the record
    grew and nothing is pending)."""
    n = p.evaluate("() => window.camelup.S.view.record.length")
    p.click(click)
    p.wait_for_function("n => window.camelup.S.view.record.length > n && !window.camelup.S.gameBusy", arg=n,
                        timeout=120_000)


def cards_build(p) -> None:
    """Deck building by clicks: the first dealt card in hand, the next shown,
    the next ones face down, the rest discarded."""
    build = cards_view(p)["build"]
    roles = ["hand"] + ["show"] * build["shown"] + ["deck"] * build["down"]
    for i, role in enumerate(roles):
        p.click(f'#build-form .buildcard[data-index="{i}"] [data-role="{role}"]')
        expect(p.locator(f'#build-form .buildcard[data-index="{i}"] [data-role="{role}"]')).to_have_attribute(
            "aria-pressed", "true")
    expect(p.locator("#build-go")).to_be_enabled()
    cards_step(p, "#build-go")


def cards_deal(p, seats: list[str], seed: int) -> None:
    """A new Camel Up Cards game on the page: a seat each (human or a bot), dealt with ``seed``."""
    p.click('#game-tabs [data-game="cards"]')
    p.click('#mode-tabs [data-mode="game"]')
    p.select_option("#cards-players", str(len(seats)))
    for i, seat in enumerate(seats):
        p.select_option(f"#cards-seat-{i}", seat)
    p.fill("#cards-seed", str(seed))
    p.click("#cards-new")
    expect(p.locator("#build-form")).to_be_visible()

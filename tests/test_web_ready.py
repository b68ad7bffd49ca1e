"""`camelup serve` serves the page at once while the kernels the cache lacks
compile in one process of their own, leg odds first; requests wait for
their kernels (never compiling them again in a worker), and GET /api/status
and the page say what is still being prepared, for about how long."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from advisor import warm  # noqa: E402
from advisor.web import create_app  # noqa: E402
from advisor.web.ready import ORDER, PARTS, TASK_GROUPS, Readiness, groups_for  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def test_status_counts_down_the_measured_compile_times_in_order():
    async def go():
        r = Readiness(("leg", "race"), share=0.5, command=["true"])
        r.bind()
        # before the preparer has looked in the cache: no estimate said
        assert r.status()["preparing"]["leg"] is None and r.status()["preparing"]["race"] is None
        assert [g["state"] for g in r.status()["groups"]] == ["checking", "checking"]
        r.update(group="leg", state="compiling")
        status = r.status()
        leg, race = warm.estimate(("leg",), share=0.5), warm.estimate(("race",), share=0.5)
        assert status["ready"] is False
        assert abs(status["preparing"]["leg"] - round(leg, 1)) <= 0.2
        assert abs(status["preparing"]["race"] - round(leg + race, 1)) <= 0.2  # after the leg odds
        assert [g["state"] for g in status["groups"]] == ["compiling", "waiting"]
        waiter = asyncio.ensure_future(r.wait_for("leg"))
        await asyncio.sleep(0.01)
        assert not waiter.done()
        r.update(group="leg", state="ready", seconds=3.0)
        await asyncio.wait_for(waiter, 1)
        status = r.status()
        assert "leg" not in status["preparing"] and status["preparing"]["race"] == round(race, 1)
        assert r.ready_for("leg") and not r.ready_for("race") and r.ready_for("ping")
        assert groups_for("advice", {"race": False}) == ("leg", "joint")
        assert groups_for("advice", {"race": True}) == ("leg", "joint", "race")
        r.update(group="race", state="ready", seconds=0.0)
        assert r.status() == {**r.status(), "ready": True, "preparing": {}}

    asyncio.run(go())


def test_every_task_and_part_needs_known_groups_leg_odds_first():
    assert ORDER[0] == "leg" and set(ORDER) == {g.name for g in warm.GROUPS}
    for groups in [*TASK_GROUPS.values(), *PARTS.values()]:
        assert set(groups) <= set(ORDER)


# a stand-in preparer: compiling until the file argv[1] exists (at most 10 minutes), then ready
_FAKE = """
import json, os, sys, time
print(json.dumps({"group": "leg", "state": "compiling"}), flush=True)
deadline = time.monotonic() + 600
while not os.path.exists(sys.argv[1]) and time.monotonic() < deadline:
    time.sleep(0.02)
print(json.dumps({"group": "leg", "state": "ready", "seconds": 1.5}), flush=True)
"""


class _ReleasedOnWait(Readiness):
    """The stand-in preparer says the leg odds are ready only once a request
    has begun waiting for them (``waited``: the tasks that waited)."""

    def __init__(self, go: Path, **kwargs):
        super().__init__(**kwargs)
        self.go, self.waited = go, []

    async def wait_for(self, task, kwargs=None):
        self.waited.append(task)
        self.go.touch()
        await super().wait_for(task, kwargs)


def test_the_page_works_while_the_leg_odds_wait_for_their_kernels(tmp_path):
    go = tmp_path / "go"
    readiness = _ReleasedOnWait(go, order=("leg",), share=1.0, command=[sys.executable, "-c", _FAKE, str(go)])
    app = create_app(workers=1, prepare=readiness)
    with TestClient(app, raise_server_exceptions=False) as client:
        assert client.get("/").status_code == 200  # the page at once
        status = client.get("/api/status").json()
        assert status["ready"] is False and "leg" in status["preparing"]
        assert [g["state"] for g in status["groups"]] == ["compiling"]
        assert not go.exists() and readiness.took == {}
        odds = client.post("/api/odds", json={"board": "1:B 2:YG 3:PR 14:w 15:k", "leg_only": True})
        assert odds.status_code == 200, odds.text
        assert readiness.waited == ["leg"]  # the request (the leg odds task) waited for its kernels
        assert readiness.took == {"leg": 1.5}  # answered once the preparer said the leg odds were ready
        assert client.get("/api/status").json() == {"ready": True, "groups": [
            {"name": "leg", "title": warm._BY_NAME["leg"].title, "state": "ready", "seconds_left": 0.0}],
            "preparing": {}}


def _get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=30) as res:
        return json.loads(res.read())


def test_serve_answers_from_the_cache_and_its_own_process_runs_no_kernel(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen([sys.executable, "-m", "advisor.cli", "serve", "--port", "0", "--workers", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    try:
        url = None
        for line in proc.stdout:
            found = re.search(r"ready at (http://\S+)", line)
            if found:
                url = found.group(1)
                break
        assert url, proc.stderr.read()
        deadline = time.monotonic() + 1200
        while not _get(url + "api/status")["ready"]:
            assert time.monotonic() < deadline
            time.sleep(1)
        req = urllib.request.Request(url + "api/odds", data=json.dumps({"board": "1:B 2:YG 3:PR 14:w 15:k",
                                                                        "leg_only": True}).encode(),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=600) as res:
            assert res.status == 200
        maps = Path(f"/proc/{proc.pid}/maps")
        if maps.exists():  # the server's process never loaded numba's compiler
            assert "llvmlite" not in maps.read_text()
    finally:
        proc.terminate()
        proc.wait(30)


# a stand-in preparer: compiling until the file argv[1] exists (at most 10 minutes), then every group ready
_FAKE_ALL = """
import json, os, sys, time
print(json.dumps({"group": "leg", "state": "compiling"}), flush=True)
deadline = time.monotonic() + 600
while not os.path.exists(sys.argv[1]) and time.monotonic() < deadline:
    time.sleep(0.02)
for name in sys.argv[2:]:
    print(json.dumps({"group": name, "state": "ready", "seconds": 1.0}), flush=True)
"""


def test_the_page_says_what_is_still_being_prepared_then_clears_it(tmp_path):
    import threading

    import uvicorn

    from advisor.web.server import bind

    from test_web_browser import ARGS, CHROMIUM, _missing, sync_playwright

    if sync_playwright is None:
        _missing("playwright")
    go = tmp_path / "go"  # the preparer ends once the page has been seen preparing
    readiness = Readiness(ORDER, share=1.0, command=[sys.executable, "-c", _FAKE_ALL, str(go), *ORDER])
    app = create_app(workers=1, prepare=readiness)
    sock = bind("127.0.0.1", 0)
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/"
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 120
        while not server.started:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(url)
            banner = page.locator("#preparing")
            banner.wait_for(state="visible", timeout=20_000)
            text = banner.inner_text()
            assert "still preparing" in text and "leg odds (about" in text and "Camel Up Cards" in text
            note = page.locator("#leg-block > .preparing-note")
            assert "Being prepared" in note.inner_text() and " s more" in note.inner_text()
            assert page.locator("#advice-block > .preparing-note").count() == 1
            (ROOT / "tests" / "artifacts").mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ROOT / "tests" / "artifacts" / "preparing.png"))
            go.touch()
            banner.wait_for(state="hidden", timeout=60_000)  # everything ready: every note gone
            assert page.locator(".preparing-note").count() == 0
            browser.close()
    finally:
        server.should_exit = True
        thread.join(30)


def test_a_game_task_waits_for_its_own_game_kernels_only():
    # on a first start the board game's bots come before Camel Up Cards (whose kernels take the longest),
    # and a board game's move never waits for Camel Up Cards, nor a Camel Up Cards move for the board bots
    board = {"moves", "leg", "joint", "race", "bots"}
    cards = {"cards_legs", "cards_races", "cards_bots"}
    assert ORDER.index("bots") < ORDER.index("cards_legs")
    assert max(ORDER.index(g) for g in board) < min(ORDER.index(g) for g in cards)
    board_record = [{"type": "setup", "edition": "second", "players": 4}]
    cards_record = [{"type": "setup", "game": "cards", "players": 4}]
    assert set(groups_for("game_new", {"edition": "second", "players": 4})) == board
    assert set(groups_for("game_new", {"edition": "first", "players": 4})) == board
    assert set(groups_for("game_new", {"edition": "cards", "players": 4})) == cards
    for task in ("game_act", "game_replay"):
        assert set(groups_for(task, {"record": board_record, "action": "leg:B"})) == board
        assert set(groups_for(task, {"record": cards_record, "action": "reveal"})) == cards
    assert set(groups_for("game_load", {"text": '\n{"type": "setup", "game": "cards"}\n', "index": 0})) == cards
    assert set(groups_for("game_load", {"text": '{"type": "setup", "edition": "second"}\n', "index": 0})) == board
    # the page's note for game mode follows the game on the page
    assert set(PARTS["game"]) == board and set(PARTS["cards_game"]) == cards

"""The web server at a real table: only the user's own browser may drive it
(Origin, Host when bound to loopback, idle connections closed), a client
that leaves mid-upload is one line in the log, seeds travel as strings, a
player whose overall cards went face down unseen is still advised, and game
moves have their own lane.

The checks of the connection itself run uvicorn with ``camelup serve``'s
configuration on a free loopback port, in a thread, with no worker
processes (the requests are refused or fail before any computation).
"""

from __future__ import annotations

import logging
import socket
import threading
import time

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from advisor.web import create_app  # noqa: E402
from advisor.web import server as web_server  # noqa: E402

BIG_SEED = 9099855075906872930  # beyond 2**53: a JavaScript number would round it


class NoLanes:
    """Stands in for the worker pools where no computation is asked for."""

    workers = 1
    stats: dict = {}

    async def run(self, lane, task, **kwargs):  # pragma: no cover - never reached
        raise AssertionError(f"no computation expected, got {task}")


@pytest.fixture(scope="module")
def client():
    app = create_app(workers=1, warm=False)  # each worker loads the kernels it is asked for
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def guarded(base_url: str, loopback: bool = True) -> TestClient:
    return TestClient(create_app(lanes=NoLanes(), loopback=loopback), base_url=base_url,
                      raise_server_exceptions=False)


# --------------------------------------------------------------------------
# Origin and Host
# --------------------------------------------------------------------------


def test_a_cross_origin_text_plain_post_is_refused():
    # a text/plain POST needs no preflight: any page the user visits could send it
    with guarded("http://127.0.0.1:8000") as c:
        r = c.post("/api/position", content='{"board": "1:B 2:YG 3:PR 14:w 15:k"}',
                   headers={"Content-Type": "text/plain", "Origin": "https://evil.example"})
        assert r.status_code == 403
        assert "another site" in r.json()["error"]
        r = c.get("/api/games", headers={"Sec-Fetch-Site": "cross-site"})
        assert r.status_code == 403
        # the page's own origin, and clients that send none (curl, scripts), are served
        ok = c.post("/api/position", json={"board": "1:B 2:YG 3:PR 14:w 15:k"},
                    headers={"Origin": "http://127.0.0.1:8000", "Sec-Fetch-Site": "same-origin"})
        assert ok.status_code == 200, ok.text
        assert c.post("/api/position", json={"board": "1:B 2:YG 3:PR 14:w 15:k"}).status_code == 200


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "192.168.1.7:8000", "127.0.0.1.evil.example"])
def test_a_foreign_host_header_is_refused_when_bound_to_loopback(host):
    # DNS rebinding: another site's name made to point at 127.0.0.1
    with guarded(f"http://{host}") as c:
        r = c.get("/api/games")
        assert r.status_code == 421
        assert "loopback" in r.json()["error"]


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000", "localhost", "127.0.0.2",
                                  "app.localhost:8000"])
def test_loopback_host_names_are_served(host):
    with guarded(f"http://{host}") as c:
        assert c.get("/api/games").status_code == 200


def test_any_host_is_served_when_bound_beyond_loopback():
    # --host 0.0.0.0: a phone reaches it by the computer's address
    with guarded("http://192.168.1.7:8000", loopback=False) as c:
        assert c.get("/api/games").status_code == 200
        r = c.post("/api/position", json={"board": "1:B 2:YG 3:PR 14:w 15:k"},
                   headers={"Origin": "http://192.168.1.7:8000"})
        assert r.status_code == 200
        r = c.post("/api/position", json={"board": "1:B 2:YG 3:PR 14:w 15:k"},
                   headers={"Origin": "http://192.168.1.8:8000"})
        assert r.status_code == 403


# --------------------------------------------------------------------------
# The connection: a real uvicorn with camelup serve's configuration
# --------------------------------------------------------------------------


class HeldLanes(NoLanes):
    """Lanes whose every computation takes 30 s, recording its cancellation."""

    def __init__(self):
        self.cancelled: list[str] = []

    async def run(self, lane, task, **kwargs):
        import asyncio

        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            self.cancelled.append(task)
            raise
        return {}


@pytest.fixture
def live(monkeypatch, request):
    import uvicorn

    monkeypatch.setattr(web_server, "IDLE_SECONDS", 1.0)
    sock = web_server.bind("127.0.0.1", 0)
    lanes = getattr(request, "param", None) or NoLanes()
    server = uvicorn.Server(web_server.server_config(create_app(lanes=lanes, loopback=True)))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.time() + 30
    while not server.started and time.time() < deadline:
        time.sleep(0.02)
    assert server.started
    yield sock.getsockname()[1]
    server.should_exit = True
    thread.join(10)
    sock.close()


def _closed_within(conn: socket.socket, seconds: float) -> bool:
    conn.settimeout(seconds)
    try:
        while conn.recv(4096):
            pass
        return True
    except socket.timeout:
        return False


def test_a_client_that_drops_mid_upload_is_one_info_line(live, caplog):
    caplog.set_level(logging.INFO)
    with socket.create_connection(("127.0.0.1", live)) as conn:
        conn.sendall(b"POST /api/odds HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 1000\r\n\r\n{\"board\":")
        time.sleep(0.3)
    deadline = time.time() + 10
    while time.time() < deadline and not any("closed the connection" in r.getMessage() for r in caplog.records):
        time.sleep(0.05)
    lines = [r for r in caplog.records if r.name.startswith(("advisor", "uvicorn"))]
    assert [r.levelname for r in lines] == ["INFO"], [r.getMessage() for r in lines]
    assert "during the upload to POST /api/odds" in lines[0].getMessage()
    assert lines[0].exc_info is None and "Traceback" not in caplog.text


HELD = HeldLanes()


@pytest.mark.parametrize("live", [HELD], indirect=True)
def test_work_whose_client_left_is_stopped(live, caplog):
    # the page aborts its curve and analysis requests when a move makes them stale
    import json as _json

    body = _json.dumps({"boards": ["1:B 2:YG 3:PR 14:w 15:k"]}).encode()
    with socket.create_connection(("127.0.0.1", live)) as conn:
        conn.sendall(b"POST /api/curve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
        time.sleep(0.5)
    deadline = time.time() + 10
    while time.time() < deadline and not HELD.cancelled:
        time.sleep(0.05)
    assert HELD.cancelled == ["curve"]
    time.sleep(0.5)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text


def test_idle_connections_are_closed(live):
    started = time.time()
    with socket.create_connection(("127.0.0.1", live)) as silent:  # opens and sends nothing
        assert _closed_within(silent, 10)
    assert time.time() - started < 8
    with socket.create_connection(("127.0.0.1", live)) as slow:  # a request head that never ends
        slow.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        for _ in range(3):
            time.sleep(0.4)
            try:
                slow.sendall(b"X-Slow: 1\r\n")
            except OSError:
                break
        assert _closed_within(slow, 10)
    # a whole request is answered, then the kept-alive idle connection closed too
    with socket.create_connection(("127.0.0.1", live)) as conn:
        conn.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        conn.settimeout(10)
        assert conn.recv(64).startswith(b"HTTP/1.1 200")
        assert _closed_within(conn, 10)


def test_a_stalled_upload_gets_408(monkeypatch, live):
    from advisor.web import app as web_app

    monkeypatch.setattr(web_app, "BODY_SECONDS", 0.5)
    with socket.create_connection(("127.0.0.1", live)) as conn:
        conn.sendall(b"POST /api/odds HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 1000\r\n\r\n{\"board\":")
        conn.settimeout(10)
        assert conn.recv(64).startswith(b"HTTP/1.1 408")


# --------------------------------------------------------------------------
# Seeds as strings
# --------------------------------------------------------------------------


def test_seeds_are_taken_as_strings_and_records_come_back_with_them(client):
    # the page reads every seed as a string of digits and sends it back so
    r = client.post("/api/game/new", json={"edition": "cards", "players": 2, "seats": ["human", "random"],
                                           "seed": str(BIG_SEED)})
    assert r.status_code == 200, r.text
    view = r.json()
    assert view["record"][0]["seed"] == BIG_SEED
    assert f'"seed":{BIG_SEED}' in r.text.replace(" ", "")  # every digit on the wire
    record = [{**view["record"][0], "seed": str(BIG_SEED)}, *view["record"][1:]]
    again = client.post("/api/game/replay", json={"record": record})
    assert again.status_code == 200, again.text
    assert again.json()["record"] == view["record"]
    same = client.post("/api/game/new", json={"edition": "cards", "players": 2, "seats": ["human", "random"],
                                              "seed": BIG_SEED}).json()
    assert same["record"] == view["record"]
    board = client.post("/api/game/new", json={"edition": "second", "seed": str(BIG_SEED)}).json()
    act = client.post("/api/game/act", json={"record": [{**board["record"][0], "seed": str(BIG_SEED)}],
                                             "action": "pyramid", "random": True})
    assert act.status_code == 200, act.text
    assert act.json()["record"][0]["seed"] == BIG_SEED
    odds = client.post("/api/odds", json={"board": "cards 0:BG 2:OW 3:Y deck:4 known:B1G2", "leg_only": True,
                                          "seed": str(BIG_SEED)})
    assert odds.status_code == 200, odds.text
    assert odds.json()["seed"] == BIG_SEED


# --------------------------------------------------------------------------
# A hand that went face down unseen
# --------------------------------------------------------------------------

HIDDEN = {"board": "3:BY 4:P 5:RG 14:k 15:w +2@2 dice:BG legtiles:B322",
          "players": [{"money": 3, "overall_cards": 5},
                      {"money": 3, "leg_tiles": ["B5"], "pyramid_tiles": 1, "overall_cards": 5},
                      {"money": 3, "pyramid_tiles": 1, "overall_cards": 5},
                      {"money": 3, "overall_cards": 4}],
          "to_move": 3, "winner_pile": [{"player": 3}], "loser_pile": []}


def test_a_player_whose_card_went_face_down_unseen_is_advised(client):
    r = client.post("/api/best", json={"state": HIDDEN, "precision": 0.02, "seed": 1})
    assert r.status_code == 200, r.text
    best = r.json()
    hh = best["hidden_hand"]
    assert hh["player"] == 3 and hh["size"] == 4 and len(hh["hand"]) == 4
    assert set(hh["held"]) == set("BGPRY") and abs(sum(hh["held"].values()) - 4) < 1e-9
    actions = {m["action"] for m in best["moves"]}
    # every colour the player may still hold is valued, on both piles
    assert {f"{pile}:{c}" for pile in ("winner", "loser") for c in "BGPRY"} <= actions
    assert "pyramid" in actions
    lines = [line for line in client.post("/api/analyse", json={"state": HIDDEN, "precision": 0.02, "seed": 1})
             .text.splitlines()]
    assert '"stage": "error"' not in "".join(lines) and '"stage": "done"' in lines[-1]


def test_a_hidden_hand_is_ranked_by_the_objective_asked(client):
    """The advice for a hand that went face down unseen ranks as
    ``best_moves`` does: by the chance of winning by default (the rows of
    every hand modelled among them), by EV with ``objective: ev``."""
    from advisor.valuation.engine import WIN_TIE
    from advisor.valuation.explain import EV_TIE

    win = client.post("/api/best", json={"state": HIDDEN, "precision": 0.02, "seed": 1}).json()
    assert win["objective"] == "win" and 0 < win["win_now"] < 1
    keys = [(round(m["win"] / WIN_TIE), m["ev"]) for m in win["moves"]]
    assert keys == sorted(keys, reverse=True)
    ev = client.post("/api/best", json={"state": HIDDEN, "precision": 0.02, "seed": 1, "objective": "ev"}).json()
    assert ev["objective"] == "ev" and "win_now" not in ev and "win" not in ev["moves"][0]
    evs = [round(m["ev"] / EV_TIE) for m in ev["moves"]]
    assert evs == sorted(evs, reverse=True)
    assert {m["action"] for m in ev["moves"]} == {m["action"] for m in win["moves"]}
    assert ev["hidden_hand"] == win["hidden_hand"]


# --------------------------------------------------------------------------
# Game moves never wait behind analysis
# --------------------------------------------------------------------------


def test_a_game_move_never_waits_behind_analysis(client):
    lanes = client.app.state.lanes

    def hold(lane):
        async def task():
            return await lanes.run(lane, "sleep", seconds=4.0)
        return task

    # every analysis worker busy, more analysis waiting
    busy = [client.portal.start_task_soon(hold(lane)) for lane in ("slow", "fast") for _ in range(lanes.workers + 1)]
    try:
        time.sleep(0.3)
        started = time.time()
        r = client.post("/api/game/new", json={"edition": "second", "players": 4, "seed": 5})
        took = time.time() - started
        assert r.status_code == 200, r.text
        assert not any(f.done() for f in busy)
        assert took < 3.0
        assert lanes.stats["game"].by_task.get("game_new", 0) >= 1
    finally:
        for f in busy:
            f.result(timeout=60)

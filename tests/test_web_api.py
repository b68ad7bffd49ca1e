"""The web API (`camelup serve`), in process through Starlette's test client.

Every endpoint; the same JSON and the same one-line errors as the command
line; bad input of every kind (400, one line, never a traceback); size
limits (413); static files only from the package (path traversal);
concurrency (a slow request never holds up a fast one); cancellation of a
progressive analysis when the client goes away; and `camelup serve` as a
process.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from pathlib import Path

import pytest

pytest.importorskip("starlette")

import advisor  # noqa: E402
from advisor.cli.command import main  # noqa: E402
from advisor.game import Game, replay  # noqa: E402
from advisor.web.app import BODY_LIMIT, ROUTES  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BOARD = "1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx"
START = "1:B 2:YG 3:PR 14:w 15:k"
CARDS = "cards 0:BG 2:OW 3:Y deck:4 known:B1G2"
STATE = {
    "board": "1:B 2:YG 3:PR 14:w 15:k +7@2 -10@0 dice:GPRx legtiles:B322",
    "players": [{"money": 3}, {"money": 4, "overall_cards": "GPRY"},
                {"money": 1, "leg_tiles": ["B5"], "pyramid_tiles": 1}, {"money": 2, "pyramid_tiles": 1}],
    "to_move": 0,
    "winner_pile": [{"player": 2, "colour": "R"}, {"player": 1}],
    "loser_pile": [{"player": 2, "colour": "B"}],
}


def cli_json(argv, capsys) -> dict:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def cli_error(argv, capsys) -> str:
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2
    assert err.startswith("camelup: error: ")
    return err[len("camelup: error: "):].strip()


def assert_one_line_error(response, status=400) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) <= {"error", "token"}
    assert body["error"] and "\n" not in body["error"]
    assert "Traceback" not in response.text
    return body["error"]


def stream(client, body) -> list[dict]:
    response = client.post("/api/analyse", json=body)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/x-ndjson")
    return [json.loads(line) for line in response.text.splitlines()]


# --------------------------------------------------------------------------
# The page and its files
# --------------------------------------------------------------------------


def test_static_files_ship_in_the_package():
    static = resources.files("advisor.web") / "static"
    names = {p.name for p in static.iterdir()}
    for name in ("index.html", "app.js", "style.css", "board.js", "api.js", "screenshot.png"):
        assert name in names, f"{name} missing from advisor/web/static"
    html = (static / "index.html").read_text()
    # offline: nothing is loaded from another host
    for path in static.iterdir():
        if path.suffix in (".html", ".js", ".css"):
            text = path.read_text()
            assert not re.search(r"(src|href)=[\"']?(https?:)?//", text), f"{path.name} loads from the network"
            assert "@import url(http" not in text and "fetch(\"http" not in text
    assert 'type="module"' in html


def test_pyproject_declares_the_static_files_as_package_data():
    text = (ROOT / "pyproject.toml").read_text()
    assert '"advisor.web" = ["static/*"' in text
    deps = text.split("dependencies = [", 1)[1].split("]", 1)[0]
    assert "starlette" in deps and "uvicorn" in deps


def test_page_and_static_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "Camel Up" in page.text
    for name in ("app.js", "board.js", "api.js", "style.css"):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200, name
        assert r.content == (resources.files("advisor.web") / "static" / name).read_bytes()
    assert client.get("/static/app.js").headers["content-type"].split(";")[0] in (
        "text/javascript", "application/javascript")


@pytest.mark.parametrize("path", [
    "/static/../app.py", "/static/%2e%2e/app.py", "/static/..%2fapp.py", "/static/%2e%2e%2f%2e%2e%2fcli.py",
    "/static//etc/passwd", "/static/../../../../etc/passwd", "/static/%2fetc%2fpasswd", "/static/..\\app.py",
])
def test_no_path_traversal(client, path):
    r = client.get(path)
    assert r.status_code == 404
    assert "create_app" not in r.text and "root:" not in r.text


def test_unknown_route_and_wrong_method_answer_one_line_json(client):
    assert_one_line_error(client.get("/api/nothing"), 404)
    assert_one_line_error(client.get("/api/odds"), 405)


# --------------------------------------------------------------------------
# Same JSON as the command line
# --------------------------------------------------------------------------


def test_odds_is_the_json_of_camelup_odds(client, capsys):
    api = client.post("/api/odds", json={"board": BOARD, "seed": 3, "precision": 0.01}).json()
    assert api == cli_json(["odds", "--json", BOARD, "--seed", "3", "--precision", "0.01"], capsys)
    leg = client.post("/api/odds", json={"board": BOARD, "leg_only": True}).json()
    assert leg == cli_json(["odds", "--json", BOARD, "--leg-only"], capsys)


def test_best_is_the_json_of_camelup_best(client, capsys, tmp_path):
    api = client.post("/api/best", json={"board": BOARD, "seed": 5, "precision": 0.01, "players": 5,
                                         "player": 1}).json()
    assert api == cli_json(["best", "--json", BOARD, "--seed", "5", "--precision", "0.01", "--players", "5",
                            "--player", "1"], capsys)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(STATE))
    api = client.post("/api/best", json={"state": STATE, "seed": 2, "precision": 0.01, "denial": False}).json()
    assert api == cli_json(["best", "--json", str(path), "--seed", "2", "--precision", "0.01", "--no-denial"],
                           capsys)


def test_best_objective_is_that_of_camelup_best(client, capsys):
    """The chance of winning ranks the API's advice by default, as the
    CLI's; ``objective: ev`` the EV, as ``--objective ev``."""
    api = client.post("/api/best", json={"board": BOARD, "seed": 3, "precision": 0.02, "objective": "ev"}).json()
    assert api["objective"] == "ev" and "win" not in api["moves"][0]
    assert api == cli_json(["best", "--json", BOARD, "--seed", "3", "--precision", "0.02", "--objective", "ev"],
                           capsys)
    win = client.post("/api/best", json={"board": BOARD, "seed": 3, "precision": 0.02}).json()
    assert win["objective"] == "win" and 0 < win["win_now"] < 1 and "win" in win["moves"][0]


def test_the_analysis_ranks_its_advice_by_the_objective_asked(client):
    """The page's progressive analysis carries ``objective``: its full
    advice is /api/best's for the same objective; the advice from the leg
    alone (no race odds, no chance of winning) is ranked by EV either way."""
    body = {"board": BOARD, "seed": 3, "precision": 0.02}
    for objective in ("win", "ev"):
        lines = {line["stage"]: line for line in stream(client, {**body, "objective": objective})}
        best = client.post("/api/best", json={**body, "objective": objective}).json()
        assert lines["advice"]["best"] == best and best["objective"] == objective
        assert ("win_now" in best) == (objective == "win")
        assert lines["advice_leg"]["best"]["objective"] == "ev"
        assert "win" not in lines["advice_leg"]["best"]["moves"][0]


def test_cards_odds_and_best_are_the_json_of_the_cli(client, capsys):
    api = client.post("/api/odds", json={"board": CARDS, "seed": 4}).json()
    assert api == cli_json(["odds", "--json", CARDS, "--seed", "4"], capsys)
    api = client.post("/api/best", json={"board": CARDS, "seed": 4, "others": "reveal"}).json()
    assert api == cli_json(["best", "--json", CARDS, "--seed", "4", "--others", "reveal"], capsys)


def test_cards_advice_plays_to_win_as_camelup_best(client, capsys):
    """The Camel Up Cards advice carries the chance of winning now and after
    each turn, ranked by it by default; ``objective: ev`` ranks by EV
    without it: the JSON of ``camelup best --objective``."""
    win = client.post("/api/best", json={"board": CARDS, "seed": 4, "others": "reveal"}).json()
    assert win["objective"] == "win" and 0 < win["win_now"] < 1
    assert all(0 <= m["win"] <= 1 for m in win["moves"])
    ev = client.post("/api/best", json={"board": CARDS, "seed": 4, "others": "reveal", "objective": "ev"}).json()
    assert ev["objective"] == "ev" and "win_now" not in ev and "win" not in ev["moves"][0]
    assert ev == cli_json(["best", "--json", CARDS, "--seed", "4", "--others", "reveal", "--objective", "ev"], capsys)
    lines = {line["stage"]: line for line in stream(client, {"board": CARDS, "seed": 4, "others": "reveal"})}
    assert lines["advice"]["best"] == win
    # the step of a turn: the bets once the race action is played, with the reveal's chance for pass
    bet = client.post("/api/best", json={"board": CARDS, "seed": 4, "others": "reveal", "step": "bet"}).json()
    reveal = next(m for m in win["moves"] if m["action"] == "reveal")
    assert next(m for m in bet["moves"] if m["action"] == "pass")["win"] == reveal["win"]
    key = [round(m["win"] / 1e-3) for m in bet["moves"]]  # ranked by the chance (advisor.valuation.engine.WIN_TIE)
    assert key == sorted(key, reverse=True)


#: A Camel Up Cards game past its start: leg-winner, midfield and overall cards taken by the other players.
CARDS_GAME = "cards 0:BG 2:OW 3:Y deck:4 known:B1G2 legtiles:B322,O2 mid:BGWY winners:BGOW money:5"
RIVALS = [{"money": 12, "bets": ["B5", "mO"]}, {"money": 4, "bets": ["O5", "wY"]}, {"money": 9, "bets": ["O3"]}]


def test_cards_chance_of_winning_in_the_game_given(client):
    """``rivals`` and ``leg``: the chance of winning is ``cards_best``'s in
    that game (the JSON of ``cards_best(..., rivals=, leg=)``, the same
    seed), not the start-of-game defaults', and ``assumptions`` names only
    what was not given."""
    from advisor.cards import cards_best, parse_cards
    from advisor.cards.game import CardsPlayer
    from advisor.present.jsonout import cards_best_json

    base = {"board": CARDS_GAME, "seed": 4, "others": "reveal"}
    api = client.post("/api/best", json={**base, "rivals": RIVALS, "leg": 3}).json()
    rivals = [CardsPlayer(money=12, leg=(("B", 5),), mid=("O",)), CardsPlayer(money=4, leg=(("O", 5),), winner="Y"),
              CardsPlayer(money=9, leg=(("O", 3),))]
    pos = parse_cards(CARDS_GAME)
    frame = cards_best(pos, seed=4, others="reveal", rivals=rivals, leg=3)
    assert api == cards_best_json(pos, frame) and "assumptions" not in api
    default = client.post("/api/best", json=base).json()
    assert default == cards_best_json(pos, cards_best(pos, seed=4, others="reveal"))
    assert len(default["assumptions"]) == 2
    # rich rivals holding bets: a lower chance, and other turns' chances (the EVs are the same)
    assert api["win_now"] < default["win_now"] - 0.05
    win = {m["action"]: m["win"] for m in api["moves"]}
    assert any(abs(win[m["action"]] - m["win"]) > 0.01 for m in default["moves"])
    assert {m["action"]: m["ev"] for m in api["moves"]} == {m["action"]: m["ev"] for m in default["moves"]}
    # one of the two given: the other is assumed, and said
    leg_only = client.post("/api/best", json={**base, "leg": 3}).json()
    assert leg_only["assumptions"] == ["the other players hold 3 coins and no bets"]
    rivals_only = client.post("/api/best", json={**base, "rivals": RIVALS}).json()
    assert rivals_only["assumptions"] == ["leg 1 is being played"]
    assert rivals_only["win_now"] != api["win_now"]  # the leg changes the spread of the game still to come
    # the progressive analysis and a step of the turn take them too
    lines = {x["stage"]: x for x in stream(client, {**base, "rivals": RIVALS, "leg": 3, "race": False})}
    assert lines["advice"]["best"] == api
    bet = client.post("/api/best", json={**base, "rivals": RIVALS, "leg": 3, "step": "bet"}).json()
    reveal = next(m for m in api["moves"] if m["action"] == "reveal")
    assert next(m for m in bet["moves"] if m["action"] == "pass")["win"] == reveal["win"]


@pytest.mark.parametrize("extra, part", [
    ({"rivals": RIVALS[:2]}, "rivals: one {money, bets} object per other player, 3 for 4 players (2 given)"),
    ({"rivals": RIVALS + [{"money": 3}]}, "rivals: one {money, bets} object per other player"),
    ({"rivals": {"money": 3}}, "rivals: one {money, bets}"),
    ({"rivals": [{"money": -2}, {"money": 3}, {"money": 3}]}, "rivals[0].money: must be 1..10000"),
    ({"rivals": [{"money": 3}, {"money": 0}, {"money": 3}]}, "rivals[1].money: must be 1..10000"),
    ({"rivals": [{"money": 3}, {"money": 3}, {"bets": []}]}, "rivals[2].money: expected a whole number"),
    ({"rivals": [{"money": "3"}, {"money": 3}, {"money": 3}]}, "rivals[0].money: expected a whole number"),
    ({"rivals": [{"money": 3, "bets": ["X7"]}, {"money": 3}, {"money": 3}]}, "rivals[0].bets: 'X7': a bet is"),
    ({"rivals": [{"money": 3, "bets": "B5"}, {"money": 3}, {"money": 3}]}, "rivals[0].bets: expected a list"),
    ({"rivals": [{"money": 3}, {"money": 3, "bets": ["mB"]}, {"money": 3}]},
     "rivals[1].bets: 'mB': that midfield card is still on offer"),
    ({"rivals": [{"money": 3, "bets": ["mO"]}, {"money": 3, "bets": ["mO"]}, {"money": 3}]},
     "rivals[1].bets: 'mO': there is one such card and rivals[0] holds it"),
    ({"rivals": [{"money": 3, "bets": ["B5"]}, {"money": 3, "bets": ["B5"]}, {"money": 3}]},
     "rivals[1].bets: 'B5': more B leg-winner cards of value 5"),
    ({"rivals": [{"money": 3, "cash": 1}, {"money": 3}, {"money": 3}]}, "rivals[0]: unknown key 'cash'"),
    ({"leg": 0}, "leg: must be 1..99, got 0"),
    ({"leg": -1}, "leg: must be 1..99"),
    ({"leg": "2"}, "leg: expected a whole number"),
    ({"leg": True}, "leg: expected a whole number"),
    ({"board": BOARD, "others": None, "rivals": RIVALS}, "rivals applies to Camel Up Cards positions only"),
    ({"board": BOARD, "others": None, "leg": 2}, "leg applies to Camel Up Cards positions only"),
    ({"board": None, "others": None, "state": STATE, "leg": 2}, "leg applies to Camel Up Cards positions only"),
    ({"board": CARDS_GAME.replace(" money:5", "") + " hands:????", "rivals": RIVALS},
     "rivals: a spectator's position"),
])
def test_bad_rivals_and_leg_are_named_and_nothing_is_computed(client, extra, part):
    body = {"board": CARDS_GAME, "seed": 4, "others": "reveal", **extra}
    body = {k: v for k, v in body.items() if v is not None}
    before = client.get("/api/health").json()["lanes"]
    for path in ("/api/best", "/api/analyse"):
        message = assert_one_line_error(client.post(path, json=body))
        assert part in message, (path, message)
    after = client.get("/api/health").json()["lanes"]
    assert [after[x]["submitted"] for x in after] == [before[x]["submitted"] for x in before]


def test_json_is_strict(client):
    text = client.post("/api/best", json={"board": BOARD, "seed": 1, "precision": 0.02}).text

    def refuse(token):
        raise AssertionError(f"non-JSON number {token}")

    json.loads(text, parse_constant=refuse)


# --------------------------------------------------------------------------
# Progressive analysis
# --------------------------------------------------------------------------


def test_analysis_streams_leg_odds_first_then_advice_then_race(client):
    lines = stream(client, {"board": START, "seed": 9, "precision": 0.01})
    assert [x["stage"] for x in lines] == ["start", "leg", "advice_leg", "race", "advice", "done"]
    start, leg, quick, race, full, _ = lines
    assert start["seed"] == 9 and start["board"] == START and start["game"] == "second"
    exact = advisor.leg_odds(START)
    for i, c in enumerate(exact.camels):
        assert leg["odds"]["leg"][c]["rank"] == [float(x) for x in exact.rank[i]]
    assert leg["race_ends"] == 0.0
    # the quick advice is best_moves(race=False); the full one equals /api/best
    frame = advisor.best_moves(START, seed=9, precision=0.01, race=False)
    assert [m["action"] for m in quick["best"]["moves"]] == list(frame["action"])
    assert all(m["denial"] is None for m in quick["best"]["moves"])
    assert not any(m["action"].startswith(("winner", "loser")) for m in quick["best"]["moves"])
    assert full["best"] == client.post("/api/best", json={"board": START, "seed": 9, "precision": 0.01}).json()
    assert race["odds"] == client.post("/api/odds", json={"board": START, "seed": 9, "precision": 0.01}).json()
    # every action valued without race odds has the same EV in both
    full_ev = {m["action"]: m["ev"] for m in full["best"]["moves"]}
    for m in quick["best"]["moves"]:
        assert m["ev"] == pytest.approx(full_ev[m["action"]], abs=1e-12)


def test_analysis_of_a_game_state_and_of_camel_up_cards(client):
    lines = stream(client, {"state": STATE, "seed": 1, "precision": 0.02, "race": False})
    assert [x["stage"] for x in lines] == ["start", "leg", "advice_leg", "done"]
    assert lines[0]["state"]["players"][2]["leg_tiles"] == ["B5"]
    lines = stream(client, {"board": CARDS, "seed": 1, "others": "reveal"})
    assert [x["stage"] for x in lines] == ["start", "leg", "race", "advice", "done"]
    assert lines[0]["game"] == "cards"
    assert lines[-2]["best"]["others"] == "reveal"


def test_analysis_without_advice(client):
    lines = stream(client, {"board": "first 1:B 2:YG 3:OW", "seed": 1, "advice": False, "precision": 0.02})
    assert [x["stage"] for x in lines] == ["start", "leg", "race", "done"]


# --------------------------------------------------------------------------
# Bad input: 400 and one line, as on the command line
# --------------------------------------------------------------------------


@pytest.mark.parametrize("board", [
    "1:B 2:YG 3:PR 14:w 17:k", "1:B 2:YG 3:PR 14:w", "1:B 2:YG 3:PR 14:w 15:k dice:GG", "first 1:B 2:YG 3:OW 4:k",
    "1:B 2:YG 3:PR 14:w 15:k +1", "1:B 2:YG 3:PR 14:w 15:k +5 +6", "", "cards 0:BGOWY deck:99",
    "cards 0:BGOWY players:9", "1:B 2:YG 3:PR 14:w 15:k legtiles:B9",
])
def test_bad_boards_get_the_cli_message(client, capsys, board):
    message = assert_one_line_error(client.post("/api/odds", json={"board": board}))
    if board:
        assert message == cli_error(["odds", board], capsys)
    for path in ("/api/best", "/api/analyse", "/api/position"):
        assert assert_one_line_error(client.post(path, json={"board": board})) == message


def test_a_bad_board_names_its_token(client):
    body = client.post("/api/position", json={"board": "1:B 2:YG 3:PR 14:w 17:k"}).json()
    assert body["token"] == "17:k"


def test_bad_game_states_get_the_cli_message(client, capsys, tmp_path):
    bad = [
        {**STATE, "to_move": 9},
        {**STATE, "players": [{"money": -1}, {}, {}, {}]},
        {**STATE, "players": 2},
        {**STATE, "extra": 1},
        {"players": 4},
        {**STATE, "winner_pile": [{"player": 7}]},
    ]
    for i, st in enumerate(bad):
        path = tmp_path / f"s{i}.json"
        path.write_text(json.dumps(st))
        message = assert_one_line_error(client.post("/api/best", json={"state": st}))
        assert message == cli_error(["best", str(path)], capsys)
        assert assert_one_line_error(client.post("/api/state", json={"state": st})) == message


@pytest.mark.parametrize("body, part", [
    ({"board": BOARD, "precision": "fine"}, "precision"),
    ({"board": BOARD, "precision": 0.0001}, "precision"),
    ({"board": BOARD, "precision": 2}, "precision"),
    ({"board": BOARD, "seed": -1}, "seed"),
    ({"board": BOARD, "seed": 1.5}, "seed"),
    ({"board": BOARD, "player": True}, "player"),
    ({"board": BOARD, "player": 9}, "player"),
    ({"board": BOARD, "players": 99}, "players"),
    ({"board": BOARD, "players": 2}, "players"),
    ({"board": BOARD, "state": STATE}, "either"),
    ({}, "either"),
    ({"board": 5}, "board"),
    ({"board": BOARD, "colour": "B"}, "unknown field 'colour'"),
    ({"board": BOARD, "others": "reveal"}, "others"),
    ({"board": CARDS, "others": "bots"}, "others"),
    ({"board": CARDS, "players": 4}, "players"),
    ({"state": STATE, "players": 4}, "players"),
    ({"state": "1:B"}, "state"),
    ({"state": {**STATE, "players": 99999999999}}, "players"),
    ({"state": {**STATE, "players": [{"money": "lots"}, {}, {}, {}]}}, "money"),
    ({"state": {**STATE, "players": [{"leg_tiles": "B5"}, {}, {}, {}]}}, "leg_tiles"),
    ({"board": BOARD, "leg_only": "yes"}, "leg_only"),
    ({"board": BOARD, "objective": "coins"}, "objective"),
])
def test_bad_fields_are_named(client, body, part):
    paths = ["/api/odds"] if "leg_only" in body else ["/api/odds", "/api/best", "/api/analyse"]
    for path in paths:
        message = assert_one_line_error(client.post(path, json=body))
        assert part in message, (path, message)


@pytest.mark.parametrize("raw, part", [
    (b"", "empty"), (b"not json", "not valid JSON"), (b"[1, 2]", "JSON object"), (b'"1:B"', "JSON object"),
    (b'{"board": NaN}', "strict JSON"), (b'{"board": Infinity}', "strict JSON"),
    (b"\xff\xfe", "UTF-8"), (b'{"seed": ' + b"9" * 5000 + b"}", "JSON"),
    (b"[" * 100_000 + b"]" * 100_000, "nested"), (b'{"a": ' * 40 + b"1" + b"}" * 40, "nested"),
])
def test_malformed_bodies(client, raw, part):
    for path in [p for p, methods, _ in ROUTES if "POST" in methods]:
        message = assert_one_line_error(client.post(path, content=raw, headers={"content-type": "application/json"}))
        assert part in message, (path, message)


def test_bodies_are_size_limited(client):
    big = json.dumps({"board": BOARD, "pad": "x" * (BODY_LIMIT + 10)})
    assert "larger than" in assert_one_line_error(client.post("/api/odds", content=big), 413)

    def chunks():  # no content-length: counted as it arrives
        yield b'{"board": "'
        for _ in range(BODY_LIMIT // 1000 + 2):
            yield b"x" * 1000
        yield b'"}'

    assert "larger than" in assert_one_line_error(client.post("/api/best", content=chunks()), 413)
    # a file of game records may be larger
    text = "\n" * (BODY_LIMIT + 10)
    message = assert_one_line_error(client.post("/api/game/load", json={"text": text}))
    assert "empty (no game in it)" in message  # the empty-input message of every records reader


def test_an_unexpected_error_is_one_line_and_logged(client, monkeypatch, caplog):
    from advisor.web import inputs

    def boom(body):
        raise RuntimeError("deliberate\nfailure")

    monkeypatch.setattr(inputs, "subject", boom)
    with caplog.at_level("ERROR", logger="advisor.web"):
        r = client.post("/api/odds", json={"board": BOARD})
    message = assert_one_line_error(r, 500)
    assert "RuntimeError" in message and "deliberate" not in message
    assert any("deliberate" in (rec.exc_text or "") or rec.exc_info for rec in caplog.records)


# --------------------------------------------------------------------------
# Positions and states for the editor
# --------------------------------------------------------------------------


def test_position_reads_and_writes_board_strings(client):
    for text in (BOARD, "first 1:B 2:YG 3:OW +6@1 dice:BGO legtiles:B32", START + " legtiles:B322,R"):
        obj = client.post("/api/position", json={"board": text}).json()
        pos = advisor.parse_position(text)
        assert obj["board"] == str(pos)
        assert obj["game"] == pos.rules.name
        again = client.post("/api/position", json={"position": obj}).json()
        assert again == obj
    obj = client.post("/api/position", json={"board": BOARD}).json()
    obj["stacks"] = [[1, "BY"], [2, "G"], [3, "PR"], [14, "w"], [15, "k"]]
    obj["tiles"].append({"space": 11, "sign": "-", "owner": 2})
    obj["dice"] = "GPx"
    obj["legtiles"]["R"] = [2]
    out = client.post("/api/position", json={"position": obj}).json()
    assert out["board"] == "1:BY 2:G 3:PR 14:w 15:k +5 -8 -11@2 dice:GPx legtiles:R2"


def test_position_errors_name_the_token(client):
    obj = client.post("/api/position", json={"board": BOARD}).json()
    obj["tiles"].append({"space": 6, "sign": "+", "owner": None})
    r = client.post("/api/position", json={"position": obj})
    assert "next to the tile" in assert_one_line_error(r)
    assert r.json()["token"] == "+6"
    for bad, part in [
        ({**obj, "stacks": "1:B"}, "stacks"), ({**obj, "stacks": [[1, 2]]}, "stacks"),
        ({**obj, "tiles": [{"space": 5, "sign": "*"}]}, "tiles"), ({**obj, "dice": 5}, "dice"),
        ({**obj, "legtiles": {"B": "5"}}, "legtiles"), ({**obj, "game": "third"}, "game"),
        ({**obj, "colour": 1}, "unknown key"), ("1:B", "position"),
    ]:
        assert part in assert_one_line_error(client.post("/api/position", json={"position": bad}))


def test_camel_up_cards_positions_round_trip(client):
    from advisor.cards import parse_cards

    text = "cards players:5 0:BG 2:OW 3:Y palm:7@0 fennec:9 deck:4 known:B1G2 revealed:O1 hand:W1 legtiles:B322 mid:BOWY bets:B5,mG money:4"
    obj = client.post("/api/position", json={"board": text}).json()
    assert obj["game"] == "cards" and obj["palm"] == {"space": 7, "holder": 0}
    assert obj["board"] == str(parse_cards(text))
    assert client.post("/api/position", json={"position": obj}).json() == obj
    bad = {**obj, "track": "nn 1:B"}
    assert "space" in assert_one_line_error(client.post("/api/position", json={"position": bad}))
    bad = {**obj, "known": "B1Z3"}
    assert "B1Z3" in assert_one_line_error(client.post("/api/position", json={"position": bad}))


def test_state_validates_and_lists_the_legal_actions(client):
    body = client.post("/api/state", json={"state": STATE}).json()
    assert body["state"] == advisor.GameState.from_json(STATE).to_json()
    assert body["legal"] == advisor.legal_actions(advisor.GameState.from_json(STATE))


def test_games_describe_the_editions(client):
    info = client.get("/api/games").json()
    assert info["second"]["racing"] == "BGPRY" and info["second"]["dice"] == "BGPRYx"
    assert info["first"]["leg_stack"] == [5, 3, 2]
    assert info["cards"]["racing"] == "BGOWY"
    assert set(info["colours"]) >= set("BGPRYOWwk")


def test_openapi_documents_every_route(client):
    from advisor.web.inputs import FIELDS

    doc = client.get("/api/openapi.json").json()
    documented = {(path, m.upper()) for path, ops in doc["paths"].items() for m in ops}
    served = {(r.path, m) for r in client.app.routes if hasattr(r, "methods") for m in r.methods if m != "HEAD"}
    assert documented == served
    for path, ops in doc["paths"].items():
        if "post" in ops:
            props = ops["post"]["requestBody"]["content"]["application/json"]["schema"]["properties"]
            assert set(props) == set(FIELDS[path])
            # the server refuses what the document does not list
            r = client.post(path, json={"not_a_field": 1})
            assert "unknown field 'not_a_field'" in assert_one_line_error(r)


# --------------------------------------------------------------------------
# Games: the browser holds the record
# --------------------------------------------------------------------------


def test_a_game_played_through_the_api_replays(client):
    view = client.post("/api/game/new", json={"players": 4, "seed": 11, "start": 0}).json()
    record = view["record"]
    assert view["to_move"] == 0 and view["legal"][0].startswith("leg:")
    game = Game("second", 4, 11, start=0)
    assert view["board"] == game.board()
    moves = ["leg:" + view["state"]["board"].split()[0][-1], "pyramid", "tile:+9", "pyramid", "winner:B"]
    rolls = [None, {"die": "G", "value": 2}, None, {"die": "x", "value": 1, "colour": "black"}, None]
    for action, roll in zip(moves, rolls):
        body = {"record": record, "action": action}
        if roll:
            body["roll"] = roll
        view = client.post("/api/game/act", json=body).json()
        assert "error" not in view, view
        record = view["record"]
    assert len(view["log"]) == 5 and "rolled the green die: 2" in view["log"][1] and "grey die: black 1" in view["log"][3]
    assert view["log"][0].startswith("P1 took the ") and view["log"][0].endswith(" leg tile")  # players from 1, camels by name
    again = replay(record)
    assert again.board() == view["board"] and again.state.to_json() == view["state"]
    # the player to move sees other players' pile cards face down, their
    # colours inferred from the game's history (advisor.bots.inference)
    [card] = view["advised"]["winner_pile"]
    assert card["player"] == 0 and "colour" not in card and sum(card["model"].values()) == pytest.approx(1)
    # undo: the record less its last entry
    undone = client.post("/api/game/replay", json={"record": record[:-1]}).json()
    assert undone["turns"] == 4 and undone["record"] == record[:-1]
    # a random roll is a legal roll of a die in the pyramid
    view = client.post("/api/game/act", json={"record": record, "action": "pyramid", "random": True}).json()
    roll = view["record"][-1]["roll"]
    assert roll["die"] in again.state.position.dice and 1 <= roll["value"] <= 3
    replay(view["record"])


def test_cards_placed_face_down_unseen_are_revealed_when_the_race_ends(client):
    # every camel near the line: any roll of B ends the race
    board = "13:w 14:Pk 15:RY 16:BG dice:Bx"
    view = client.post("/api/game/new", json={"players": 3, "seed": 5, "start": 0, "board": board}).json()
    assert view["face_down"] and view["hidden_cards"] == []
    for action in ("winner:?", "loser:?"):
        view = client.post("/api/game/act", json={"record": view["record"], "action": action}).json()
        assert "error" not in view, view
    assert view["hands"][:2] == [4, 4]  # P0's and P1's hands are now counts only
    assert [(c["pile"], c["player"]) for c in view["hidden_cards"]] == [("winner", 0), ("loser", 1)]
    assert "placed a card on the overall winner pile" in view["log"][0]
    # P2 rolls B 1: the race ends, so the cards must be turned over first
    record = view["record"]
    asked = client.post("/api/game/act", json={"record": record, "action": "pyramid",
                                               "roll": {"die": "B", "value": 1}}).json()
    assert not asked["finished"] and asked["record"] == record
    assert asked["reveal_needed"]["roll"] == {"die": "B", "value": 1}
    assert [(c["pile"], c["index"]) for c in asked["reveal_needed"]["cards"]] == [("winner", 0), ("loser", 0)]
    reveals = [{"pile": "winner", "index": 0, "colour": "G"}, {"pile": "loser", "index": 0, "colour": "P"}]
    done = client.post("/api/game/act", json={"record": record, "action": "pyramid", "roll": {"die": "B", "value": 1},
                                              "reveals": reveals}).json()
    assert "error" not in done, done
    assert done["finished"] and done["hidden_cards"] == []
    assert [e["type"] for e in done["record"][-4:]] == ["reveal", "reveal", "action", "end"]
    again = replay(done["record"])
    assert again.finished and again.money() == done["summary"]["money"]
    # G (on top of B) wins: P0's winner card pays 8; P (last) on the loser pile pays P1 8
    start = replay(record[:1]).money()
    assert done["summary"]["money"][0] == start[0] + 8 and done["summary"]["money"][1] == start[1] + 8
    # a colour the player cannot hold, or a bad reveal, is one clear error
    bad = client.post("/api/game/act", json={"record": record, "action": "pyramid", "roll": {"die": "B", "value": 1},
                                             "reveals": [{"pile": "winner", "index": 3, "colour": "B"}]})
    assert bad.status_code == 400 and "winner pile holds cards 0..0" in bad.json()["error"]
    bad = client.post("/api/game/act", json={"record": record, "action": "pyramid", "reveals": {"pile": "x"}})
    assert bad.status_code == 400 and "reveals" in bad.json()["error"]


def test_game_from_a_board_and_first_edition(client):
    view = client.post("/api/game/new", json={"edition": "first", "players": 2, "board": "first 1:B 2:YG 3:OW",
                                              "start": 1}).json()
    assert view["board"] == "first 1:B 2:YG 3:OW" and view["to_move"] == 1 and view["edition"] == "first"
    view = client.post("/api/game/act", json={"record": view["record"], "action": "pyramid",
                                              "roll": {"die": "W", "value": 3}}).json()
    assert view["board"].startswith("first 1:B 2:YG 3:O 6:W")
    view = client.post("/api/game/act", json={"record": view["record"], "action": "tile:-9"}).json()
    assert view["log"][-1] == "P1 put their mirage tile on 9"  # the 1st edition's desert tiles: oasis and mirage


def test_a_whole_simulated_game_loads_and_its_end_is_reported(client):
    from advisor.simulate.games import play_game

    records = [play_game(["heuristic", "random", "random"], seed=s) for s in (1, 2)]
    text = "".join(json.dumps(e) + "\n" for rec in records for e in rec)
    view = client.post("/api/game/load", json={"text": text, "game": 1}).json()
    assert [g["index"] for g in view["games"]] == [0, 1]
    assert view["games"][1]["winner_camel"] == records[1][-1]["winner_camel"]
    assert view["finished"] and view["summary"] == records[1][-1] and view["legal"] == []
    assert view["record"] == records[1]
    assert "advised" not in view
    # no action after the end
    r = client.post("/api/game/act", json={"record": view["record"], "action": "pyramid", "random": True})
    assert "over" in assert_one_line_error(r)


@pytest.mark.parametrize("body, part", [
    ({"record": []}, "record"),
    ({"record": "x"}, "record"),
    ({"record": [{"type": "action"}]}, "setup"),
    ({"record": [{"type": "setup", "edition": "second"}]}, "players"),
    ({"record": [{"type": "setup", "edition": "second", "players": 4, "seed": 1, "board": "1:B", "start": 0}]},
     "invalid"),
])
def test_bad_records(client, body, part):
    message = assert_one_line_error(client.post("/api/game/replay", json=body))
    assert part in message


def test_bad_actions_and_rolls(client):
    view = client.post("/api/game/new", json={"players": 3, "seed": 5, "start": 0}).json()
    record = view["record"]
    cases = [
        ({"action": "leg:Q"}, "not legal"),
        ({"action": "pyramid"}, "which die"),
        ({"action": "pyramid", "roll": {"die": "B", "value": 4}}, "value"),
        ({"action": "pyramid", "roll": {"die": "x", "value": 1}}, "grey"),
        ({"action": "pyramid", "roll": {"die": "B", "value": 1, "colour": "white"}}, "grey"),
        ({"action": "pyramid", "roll": {"die": "Z", "value": 1}}, "Z"),
        ({"action": "leg:B", "roll": {"die": "B", "value": 1}}, "only the pyramid"),
        ({"action": 5}, "action"),
        ({}, "action"),
    ]
    for extra, part in cases:
        r = client.post("/api/game/act", json={"record": record, **extra})
        assert part in assert_one_line_error(r), extra
    played = client.post("/api/game/act", json={"record": record, "action": "leg:B"}).json()["record"]
    tampered = [played[0], dict(played[1], board="1:B 2:YG 3:PR 14:w 15:k")]
    assert "does not match" in assert_one_line_error(client.post("/api/game/replay", json={"record": tampered}))
    tampered = [played[0], dict(played[1], player=2)]
    assert "not to move" in assert_one_line_error(client.post("/api/game/replay", json={"record": tampered}))
    bad_game = client.post("/api/game/new", json={"players": 2})
    assert "3-8 players" in assert_one_line_error(bad_game)
    assert assert_one_line_error(client.post("/api/game/new", json={"board": "1:B"}))


def test_bad_record_files(client):
    message = assert_one_line_error(client.post("/api/game/load", json={"text": "{not json\n"}))
    assert "line" in message or ":1:" in message
    assert "/tmp" not in message and "camelup-upload" not in message
    assert assert_one_line_error(client.post("/api/game/load", json={"text": "5\n"}))
    assert assert_one_line_error(client.post("/api/game/load", json={"text": 5}))
    game = Game("second", 3, 1)
    text = json.dumps(game.record[0]) + "\n"
    assert "holds 1 game" in assert_one_line_error(client.post("/api/game/load", json={"text": text, "game": 3}))


# --------------------------------------------------------------------------
# Camel Up Cards games: the browser holds the record, the server plays the bots
# --------------------------------------------------------------------------

#: What a player's row of the table shows of another player.
PUBLIC_KEYS = {"money", "leg", "mid", "winner", "loser", "has_hand", "figures", "building"}


def assert_only_the_viewers_cards(view: dict) -> None:
    """The view (all but the record) holds the viewer's own hidden cards and
    nobody else's: the others' rows are public only, the deck is a count,
    shown cards wait for the shuffle, the advice's position is the viewer's."""
    from advisor.cards.record import replay_cards

    state = replay_cards(view["record"]).state
    viewer = view["viewer"]
    table = view["table"]
    assert table["viewer"] == viewer and isinstance(table["deck"], int)
    for i, row in enumerate(table["players"]):
        if i == viewer:
            me = state.players[i]
            assert row["dealt"] == "".join(f"{c}{v}" for c, v in me.dealt)
            assert row["hand"] == ("".join(map(str, me.hand)) if me.hand else None)
        else:
            assert set(row) == PUBLIC_KEYS, row
    if state.phase == "build":
        assert table["shown"] == "" and table["position"] is None
        assert view["build"]["dealt"] == table["players"][viewer]["dealt"]
    if state.phase == "turn" and viewer is not None:
        assert table["position"] == str(state.position(viewer))
        assert table["spectator"] == str(state.position(None))
    assert view["steps"] is None  # the steps of a review come once the game is over
    others = [line for line, e in zip(view["log"], [e for e in view["record"] if e["type"] == "action"])
              if e["action"].startswith("build:")]
    assert all("kept a card in hand" in line for line in others)


def _cards_new(client, **body) -> dict:
    r = client.post("/api/game/new", json={"edition": "cards", **body})
    assert r.status_code == 200, r.text
    return r.json()


def _cards_act(client, record, action) -> dict:
    r = client.post("/api/game/act", json={"record": record, "action": action})
    assert r.status_code == 200, r.text
    return r.json()


def test_a_camel_up_cards_game_played_through_the_api_is_the_engines_game(client):
    # every seat human, each move chosen by the bots of play_cards_game: the
    # record is the engine's for the same seed and moves (deals, shuffles, all)
    import numpy as np

    from advisor.cards.bots import make_cards_bot, play_cards_game
    from advisor.cards.record import replay_cards

    names, seed = ["heuristic", "random", "random"], 7
    view = _cards_new(client, seats=["human"] * 3, seed=seed)
    bots = [make_cards_bot(n) for n in names]
    rngs = [np.random.default_rng([seed, s]) for s in range(3)]
    steps = 0
    while not view["finished"]:
        assert_only_the_viewers_cards(view)
        state = replay_cards(view["record"]).state
        p = state.current
        assert view["to_move"] == view["viewer"] == p
        action = str(bots[p].choose(state, p, rngs[p]))
        if state.phase == "turn":
            assert action in view["legal"]
        view = _cards_act(client, view["record"], action)
        steps += 1
    expected = play_cards_game(names, seed=seed)
    record = view["record"]
    assert record[0].pop("seats") == ["human"] * 3 and expected[0].pop("bots") == names
    assert record == expected and steps == expected[-1]["turns"]
    # the game's end: every step of the review, the summary, the log
    assert view["summary"]["money"] == expected[-1]["money"] and view["legal"] == []
    assert len(view["steps"]) == steps + 1 and len(view["log"]) == steps


def test_camel_up_cards_bots_move_until_a_human_is_to_move(client):
    import numpy as np

    from advisor.cards.bots import HeuristicCardsBot, make_cards_bot
    from advisor.cards.game import CardsGame
    from advisor.cards.record import replay_cards

    seats, seed = ["heuristic", "human", "random", "human"], 5
    view = _cards_new(client, seats=seats, seed=seed)
    assert view["players"] == 4 and view["record"][0]["seats"] == seats
    # P0 (a bot) built at once; P1 is the first human
    assert view["to_move"] == view["viewer"] == 1 and view["phase"] == "build"
    assert [e["player"] for e in view["record"] if e["type"] == "action"] == [0]
    assert _cards_new(client, seats=seats, seed=seed) == view  # the same seed, the same game
    local = HeuristicCardsBot()
    while not view["finished"]:
        assert view["viewer"] in (1, 3)
        assert_only_the_viewers_cards(view)
        state = replay_cards(view["record"]).state
        view = _cards_act(client, view["record"], str(local.choose(state, state.current, None)))
    record = view["record"]
    game = replay_cards(record)
    assert game.finished and view["summary"]["money"] == [p.money for p in game.state.players]
    # each bot's move is its choice with the stream (seed, seat, actions so far)
    again = CardsGame(game.setup, seed=seed)
    for entry in [e for e in record if e["type"] == "action"]:
        p = entry["player"]
        if seats[p] != "human":
            rng = np.random.default_rng([seed, p, again.turns])
            assert str(make_cards_bot(seats[p]).choose(again.state, p, rng)) == entry["action"]
        again.play(entry["action"])
    assert again.record[1:] == record[1:]


def test_a_camel_up_cards_margin_seat_plays_the_margin_bot(client):
    """A margin seat (a valuing bot) moves as the margin bot does with the
    stream (seed, seat, actions so far): its deck building here."""
    import numpy as np

    from advisor.cards.bots import make_cards_bot
    from advisor.cards.game import CardsGame
    from advisor.cards.record import replay_cards
    from advisor.web.cardsgame import SEATS, SEATS_TEXT, VALUING

    assert "margin" in SEATS and "margin" in VALUING and "margin" in SEATS_TEXT
    seats, seed = ["margin", "human"], 3
    view = _cards_new(client, seats=seats, seed=seed)
    built = [e for e in view["record"] if e["type"] == "action"]
    assert [e["player"] for e in built] == [0] and view["to_move"] == 1
    game = CardsGame(replay_cards(view["record"]).setup, seed=seed)
    rng = np.random.default_rng([seed, 0, 0])
    assert str(make_cards_bot("margin").choose(game.state, 0, rng)) == built[0]["action"]


def test_a_finished_camel_up_cards_game_is_reviewed_step_by_step(client):
    from advisor.cards.bots import play_cards_game
    from advisor.cards.game import CardsSetup
    from advisor.cards.record import replay_cards

    records = [play_cards_game(["random", "heuristic", "random"], seed=s) for s in (1, 2)]
    records.append(play_cards_game(["heuristic", "random"], CardsSetup(players=2), seed=3))
    text = "".join(json.dumps(e) + "\n" for rec in records for e in rec)
    view = client.post("/api/game/load", json={"text": text, "game": 1}).json()
    assert [g["players"] for g in view["games"]] == [3, 3, 2] and view["index"] == 1
    assert view["games"][1]["bots"] == ["random", "heuristic", "random"]
    record = records[1]
    assert view["record"] == record and view["finished"] and view["viewer"] is None
    actions = [e for e in record if e["type"] == "action"]
    assert len(view["steps"]) == len(actions) + 1 and len(view["log"]) == len(actions)
    assert view["summary"]["winners"] == record[-1]["winners"]
    for k in (0, 1, len(actions) // 2, len(actions) - 1, len(actions)):
        state = replay_cards(record, upto=k).state
        step = view["steps"][k]
        assert step["stacks"] == [list(x) for x in state.stacks()] and step["track"] == state.track
        if state.phase == "turn":  # the advice at a step: from the view of the player to move
            assert step["viewer"] == state.current
            assert step["position"] == str(state.position(state.current))
    # a reveal in words
    k, entry = next((k, e) for k, e in enumerate(actions) if e["action"] == "reveal")
    colour, value = entry["card"]
    name = {"B": "blue", "G": "green", "O": "orange", "W": "white", "Y": "yellow"}[colour]
    assert view["log"][k].startswith(f"P{entry['player'] + 1} revealed {colour}+{value}: {name} moves {value}")
    assert "the race is over" in view["log"][-1]
    # no move after the end
    r = client.post("/api/game/act", json={"record": record, "action": "reveal"})
    assert "over" in assert_one_line_error(r)


def test_a_camel_up_cards_record_cut_anywhere_goes_on(client):
    view = _cards_new(client, seats=["human", "random"], seed=9)
    record = view["record"]
    # cut before the first shuffle's chance line: it is drawn again from the seed
    build = "build:" + "/".join([view["build"]["dealt"][:2], "", view["build"]["dealt"][2:12],
                                 view["build"]["dealt"][12:]])
    after = _cards_act(client, record, build)
    cut = [e for e in after["record"] if e["type"] != "shuffle"][:len(record) + 2]
    again = client.post("/api/game/replay", json={"record": cut}).json()
    assert again["record"][:len(cut) + 1] == after["record"][:len(cut) + 1]
    # a record whose deals are not its seed's (another seed in its setup line) goes on too
    other = [dict(after["record"][0], seed=10)] + after["record"][1:]
    moved = _cards_act(client, other, "reveal")
    assert moved["record"][:len(other)] == other and "error" not in moved


def test_bad_camel_up_cards_games_and_moves(client):
    view = _cards_new(client, seats=["human", "random", "random"], seed=4)
    record = view["record"]
    dealt = view["build"]["dealt"]
    cards = [dealt[i:i + 2] for i in range(0, len(dealt), 2)]
    good = f"build:{cards[0]}/{cards[1]}/{''.join(cards[2:5])}/{''.join(cards[5:])}"
    cases = [
        ("reveal", "must build the race deck"),
        ("leg:Q", "invalid action 'leg:Q'"),
        (f"build:{cards[0]}/{cards[1]}/{''.join(cards[2:4])}/{''.join(cards[4:])}", "put 3 cards face down"),
        (f"build:{cards[0]}/{cards[1]}/{''.join(cards[2:5])}/{cards[0]}", "exactly those dealt"),
    ]
    for action, part in cases:
        assert part in assert_one_line_error(client.post("/api/game/act", json={"record": record, "action": action}))
    turn = _cards_act(client, record, good)["record"]
    for action, part in [("palm:99", "a figure goes on"), ("pass", "after its race action"), ("build:B1//B1/B1", "leg's start")]:
        r = client.post("/api/game/act", json={"record": turn, "action": action})
        assert part in assert_one_line_error(r), action
    bet = _cards_act(client, turn, "leg:B")["record"]
    assert "one bet per turn" in assert_one_line_error(client.post("/api/game/act", json={"record": bet, "action": "mid:G"}))
    r = client.post("/api/game/act", json={"record": turn, "action": "reveal", "roll": {"die": "B", "value": 1}})
    assert "no dice" in assert_one_line_error(r)
    # new games
    for body, part in [
        ({"seats": ["human", "robot"]}, "unknown seat 'robot'"),
        ({"seats": ["random", "random"]}, "at least one human"),
        ({"seats": "human"}, "seats"),
        ({"players": 3, "seats": ["human", "random"]}, "2 seats for a game of 3 players"),
        ({"players": 7, "seats": ["human"] * 7}, "2..6 players"),
        ({"players": 1}, "2..6 players"),
        ({"start": 1}, "start applies to the board games"),
        ({"board": "1:B"}, "board applies to the board games"),
        ({"track": "nnx"}, "track"),
        ({"seed": -1}, "seed"),
    ]:
        assert part in assert_one_line_error(client.post("/api/game/new", json={"edition": "cards", **body})), body
    assert "Camel Up Cards" in assert_one_line_error(client.post("/api/game/new", json={"seats": ["human"] * 4}))
    # records that do not replay: one clear line
    tampered = [dict(e) for e in turn]
    tampered[-2]["board"] = "track:nnnnnnnn 0:BGOWY"  # the last build's line
    for bad, part in [
        (tampered, "does not match the replay"),
        ([dict(turn[0], seed="x")] + turn[1:], "seed"),
        ([dict(turn[0], seats=["human", "robot", "random"])] + turn[1:], "seats"),
        ([dict(turn[0], players="3")] + turn[1:], "line 1"),
        ([turn[0], dict(turn[1], cards="B1")] + turn[2:], "line 2"),
        ([turn[0], {"type": "action", "player": 0, "action": "reveal"}], "no player acts now"),
    ]:
        assert part in assert_one_line_error(client.post("/api/game/replay", json={"record": bad})), part


def test_the_advice_for_the_rest_of_a_camel_up_cards_turn(client):
    board = "cards 0:BG 2:OW 3:Y deck:4 known:B1G2 hand:O1"
    whole = client.post("/api/best", json={"board": board, "seed": 3}).json()["moves"]
    race = client.post("/api/best", json={"board": board, "seed": 3, "step": "race"}).json()
    assert race["step"] == "race" and race["moves"] == [m for m in whole if not m["bet"]]
    bet = client.post("/api/best", json={"board": board, "seed": 3, "step": "bet", "objective": "ev"}).json()["moves"]
    reveal = next(m["ev"] for m in whole if m["action"] == "reveal")
    expected = {m["bet"]: m["ev"] - reveal for m in whole if m["race"] == "reveal" and m["timing"] == "before"}
    assert {m["action"]: m["ev"] for m in bet} == {**expected, "pass": 0.0}
    assert [m["ev"] for m in bet] == sorted((m["ev"] for m in bet), reverse=True)
    lines = stream(client, {"board": board, "seed": 3, "step": "bet", "race": False, "objective": "ev"})
    assert lines[-2]["best"]["moves"] == bet
    r = client.post("/api/best", json={"board": START, "step": "bet"})
    assert "step applies to Camel Up Cards" in assert_one_line_error(r)
    assert "step" in assert_one_line_error(client.post("/api/best", json={"board": board, "step": "later"}))


def test_the_curve_of_a_camel_up_cards_game_is_that_of_camelup_chart(client):
    from advisor.cards.bots import play_cards_game
    from advisor.cards.odds import cards_odds
    from advisor.cards.record import replay_cards

    record = play_cards_game(["heuristic", "random", "random"], seed=2)
    view = client.post("/api/game/replay", json={"record": record}).json()
    starts = []
    replay_cards(record, visit=lambda g: starts.append(g.state) if g.state.phase == "turn" and not g.state.raced
                 and not g.state.bet else None)
    assert view["curve_boards"] == [str(s.position(None)) for s in starts]
    assert view["curve_legs"] == [s.leg for s in starts]
    boards = view["curve_boards"][:3]
    rows = client.post("/api/curve", json={"boards": boards}).json()["rows"]
    for row, state in zip(rows, starts):  # as advisor.plotting.cards_game_odds computes each turn
        odds = cards_odds(state.position(None), precision=0.01, seed=0)
        for i, c in enumerate(odds.camels):
            assert row["leg"][c] == odds.leg[i, 0] and row["win"][c] == odds.win[i] and row["lose"][c] == odds.lose[i]
    r = client.post("/api/curve", json={"boards": [boards[0], START]})
    assert "one game" in assert_one_line_error(r)


def test_curve_is_the_computation_of_game_odds(client):
    from advisor.plotting import game_odds
    from advisor.simulate.games import play_game

    record = play_game(["heuristic", "heuristic", "random"], seed=4)
    frame = game_odds(record)  # precision 0.01, seed 0
    boards = replay(record).boards()[:-1]
    rows = client.post("/api/curve", json={"boards": boards}).json()["rows"]
    assert len(rows) == len(frame)
    for row, (_, ref) in zip(rows, frame.iterrows()):
        for c in "BGPRY":
            assert row["leg"][c] == ref[f"{c}_leg"]
            assert row["win"][c] == ref[f"{c}_win"] and row["lose"][c] == ref[f"{c}_lose"]
    assert "missing from the board" in assert_one_line_error(client.post("/api/curve", json={"boards": ["1:B"]}))
    assert "at most" in assert_one_line_error(client.post("/api/curve", json={"boards": [START] * 401}))


# --------------------------------------------------------------------------
# Concurrency and cancellation
# --------------------------------------------------------------------------


def test_concurrent_requests_all_answer_correctly(client):
    exact = advisor.leg_odds(BOARD).to_dict()

    def one(i):
        kind = i % 4
        if kind == 0:
            return "leg", client.post("/api/odds", json={"board": BOARD, "leg_only": True})
        if kind == 1:
            return "best", client.post("/api/best", json={"board": START, "seed": 1, "precision": 0.02})
        if kind == 2:
            return "bad", client.post("/api/odds", json={"board": "1:B"})
        return "game", client.post("/api/game/new", json={"players": 4, "seed": i})

    with ThreadPoolExecutor(16) as pool:
        results = list(pool.map(one, range(40)))
    bests = set()
    for kind, r in results:
        if kind == "bad":
            assert r.status_code == 400
            continue
        assert r.status_code == 200, r.text
        if kind == "leg":
            assert r.json()["leg"] == exact
        if kind == "best":
            bests.add(json.dumps(r.json()))
    assert len(bests) == 1  # the same seed gives the same answer whatever the load


def _occupy_slow_lane(client, seconds: float, count: int) -> list:
    lanes = client.app.state.lanes

    async def hold():
        return await lanes.run("slow", "sleep", seconds=seconds)

    return [client.portal.start_task_soon(hold) for _ in range(count)]


def test_a_slow_request_never_holds_up_a_fast_one(client):
    lanes = client.app.state.lanes
    busy = _occupy_slow_lane(client, 4.0, lanes.workers + 2)
    try:
        time.sleep(0.3)
        r = client.post("/api/odds", json={"board": BOARD, "leg_only": True})
        assert r.status_code == 200
        # every slow task is still running or waiting when the fast one is done
        assert not any(f.done() for f in busy)
        assert lanes.stats["slow"].waiting >= lanes.workers + 2
    finally:
        for f in busy:
            f.result(timeout=60)


def _drive(client, body: dict, stop_after: str, also=lambda: True) -> list[dict]:
    """Post an analysis straight to the ASGI app and disconnect as soon as
    the line of stage ``stop_after`` has arrived (and ``also()`` holds)."""
    import anyio

    app = client.app
    raw = json.dumps(body).encode()

    async def go():
        sent: list[bytes] = []
        gone = anyio.Event()
        given = False

        async def receive():
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": raw, "more_body": False}
            await gone.wait()
            while not also():
                await anyio.sleep(0.01)
            return {"type": "http.disconnect"}

        async def send(message):
            if message["type"] == "http.response.body" and message.get("body"):
                sent.append(message["body"])
                if json.loads(message["body"])["stage"] == stop_after:
                    gone.set()

        scope = {"type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"}, "http_version": "1.1",
                 "method": "POST", "scheme": "http", "path": "/api/analyse", "raw_path": b"/api/analyse",
                 "query_string": b"", "root_path": "", "headers": [(b"content-type", b"application/json")],
                 "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80), "state": {}, "app": app}
        with anyio.fail_after(60):
            await app(scope, receive, send)
        return [json.loads(x) for x in sent]

    return client.portal.call(go)


def test_a_disconnect_cancels_the_stages_not_yet_started(client):
    lanes = client.app.state.lanes
    slow, fast = lanes.stats["slow"], lanes.stats["fast"]
    before = (dict(slow.by_task), fast.cancelled + fast.dropped)
    lines = _drive(client, {"board": START, "seed": 3}, stop_after="leg")
    assert [x["stage"] for x in lines] == ["start", "leg"]
    deadline = time.time() + 30
    while fast.waiting and time.time() < deadline:
        time.sleep(0.05)
    # the quick advice under way was dropped; race odds and advice never started
    assert fast.cancelled + fast.dropped == before[1] + 1
    assert slow.by_task == before[0]


def test_a_queued_stage_is_cancelled_before_it_starts(client):
    lanes = client.app.state.lanes
    slow = lanes.stats["slow"]
    busy = _occupy_slow_lane(client, 3.0, lanes.workers + 2)
    try:
        time.sleep(0.3)
        cancelled = slow.cancelled
        races = slow.by_task.get("race", 0)
        advices = slow.by_task.get("advice", 0)
        lines = _drive(client, {"board": START, "seed": 3}, stop_after="advice_leg",
                       also=lambda: slow.by_task.get("race", 0) > races)
        assert [x["stage"] for x in lines] == ["start", "leg", "advice_leg"]
        time.sleep(0.3)
        # the race stage was submitted behind the busy workers and cancelled unstarted
        assert slow.by_task.get("race", 0) == races + 1
        assert slow.cancelled == cancelled + 1
        assert slow.by_task.get("advice", 0) == advices  # never submitted
    finally:
        for f in busy:
            f.result(timeout=60)


# --------------------------------------------------------------------------
# camelup serve, as a process
# --------------------------------------------------------------------------


def _serve(*args, timeout=240):
    proc = subprocess.Popen([sys.executable, "-m", "advisor.cli", "serve", "--port", "0", "--workers", "1", *args],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    lines = []
    deadline = time.time() + timeout  # a generous start-up bound
    while time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        m = re.search(r"ready at (http://\S+)", line)
        if m:
            return proc, m.group(1), lines
    proc.kill()
    raise AssertionError("camelup serve did not become ready:\n" + "".join(lines) + proc.stderr.read())


def _get(url: str) -> tuple[int, bytes]:
    import urllib.request

    with urllib.request.urlopen(url, timeout=30) as r:
        return r.status, r.read()


@pytest.mark.processes
def test_camelup_serve_prints_its_address_and_warns_beyond_loopback():
    # (the browser test runs it on the default loopback address, and checks it gives no warning)
    proc, url, lines = _serve("--host", "0.0.0.0")
    try:
        assert url.startswith("http://127.0.0.1:") and not url.endswith(":0/")
        # the page serves at once; what the cache lacks compiles in the background (tests/test_web_ready.py)
        assert any("compile in the background" in x for x in lines)
        status, body = _get(url)  # the loopback address serves it too
        assert status == 200 and b"Camel Up" in body
        status, body = _get(url + "api/health")
        assert json.loads(body)["status"] == "ok"
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=60)
    assert "Traceback" not in err
    assert "WARNING: --host 0.0.0.0" in err and "network" in err
    assert proc.returncode == 0 and out.strip().endswith("Stopped.")


def test_camelup_serve_on_a_port_in_use_fails_with_one_line(capsys):
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(1)
    try:
        message = cli_error(["serve", "--port", str(sock.getsockname()[1])], capsys)
    finally:
        sock.close()
    assert message.startswith("cannot listen on 127.0.0.1:")
    assert main(["serve", "--port", "70000"]) == 2
    assert capsys.readouterr().err.strip() == "camelup serve: error: argument --port: must be 0..65535, got 70000"


def test_health_reports_the_lanes(client):
    body = client.get("/api/health").json()
    assert body["status"] == "ok" and body["version"] == advisor.__version__
    assert body["workers"] == 1 and set(body["lanes"]) == {"fast", "slow", "game"}
    assert body["lanes"]["fast"]["submitted"] >= body["lanes"]["fast"]["completed"]

"""`camelup best`, through advisor.cli.command.main(argv) and once as a process.

The JSON contract is docs/notation.md ("Machine output"): moves sorted by ev,
highest first, every legal action once, action names leg:C, pyramid,
tile:+N / tile:-N, winner:C / loser:C, partner:P.
"""

import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.valuation.explain import EV_TIE
from advisor import EXAMPLE_POSITION
from advisor.valuation.engine import advice_table, best_moves, legal_actions
from advisor.rules.state import GameState
from helpers import run

ROOT = Path(__file__).resolve().parents[1]
FAST = ["--precision", "0.02", "--seed", "7"]
BOARD = "1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx"

# player 2 owns +7, player 0 owns -10; player 2 holds B5 and has R on the
# winner pile, B on the loser pile; player 1 has a face-down card
STATE_P2 = {
    "board": "1:B 2:YG 3:PR 14:w 15:k +7@2 -10@0 dice:GPRx legtiles:B322",
    "players": [
        {"money": 3},
        {"money": 4, "overall_cards": "GPRY"},
        {"money": 1, "leg_tiles": ["B5"], "pyramid_tiles": 1},
        {"money": 2, "pyramid_tiles": 1},
    ],
    "to_move": 0,
    "winner_pile": [{"player": 2, "colour": "R"}, {"player": 1}],
    "loser_pile": [{"player": 2, "colour": "B"}],
}

PARTNERS_6 = {
    "board": "1:B 2:YG 3:PR 14:w 15:k",
    "players": [{"partner": 1}, {"partner": 0}, {}, {}, {}, {}],
}



def _no_nan(token):
    raise AssertionError(f"non-JSON number {token} in the output")


def best_json(argv, capsys):
    code, out, err = run(["best", "--json", *argv], capsys)
    assert code == 0, err
    assert len(out.splitlines()) == 1
    return json.loads(out, parse_constant=_no_nan)


def write_state(tmp_path, data, name="state.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def action_pattern(racing):
    c = f"[{racing}]"
    return re.compile(
        rf"^(leg:{c}|pyramid|tile:[+-]([2-9]|1[0-6])|winner:{c}|loser:{c}|partner:[0-7])$"
    )


def check_moves(data, state, player):
    """The docs/notation.md contract for the moves of `player` in `state`."""
    assert set(data) >= {"position", "moves"}
    assert data["position"] == str(state.position)
    moves = data["moves"]
    actions = [m["action"] for m in moves]
    legal = legal_actions(state, player)
    assert len(actions) == len(set(actions)), "an action is listed twice"
    assert sorted(actions) == sorted(legal)
    pattern = action_pattern(state.position.racing)
    for m in moves:
        assert pattern.match(m["action"]), m["action"]
        assert isinstance(m["ev"], (int, float)) and not isinstance(m["ev"], bool)
        assert math.isfinite(m["ev"])
    evs = [m["ev"] for m in moves]
    if data.get("objective") == "win":
        # best first by the chance of winning; chances within WIN_TIE are ranked by EV
        from advisor.valuation.engine import WIN_TIE

        keys = [round(m["win"] / WIN_TIE) for m in moves]
        assert all(0 <= m["win"] <= 1 for m in moves)
        assert all(a > b or (a == b and e >= f) for a, b, e, f in zip(keys, keys[1:], evs, evs[1:]))
        return actions
    assert data.get("objective", "ev") == "ev"
    # best first; EVs within EV_TIE are ties, kept in the order of the legal actions
    assert all(a >= b - EV_TIE for a, b in zip(evs, evs[1:]))
    return actions


# ---------------------------------------------------------------- JSON contract

def test_json_bare_board_follows_notation(capsys):
    data = best_json([*FAST, BOARD], capsys)
    state = GameState.from_board(BOARD)
    actions = check_moves(data, state, 0)
    assert data["player"] == 0
    assert data["position"] == BOARD
    # the bare board's defaults are stated
    assert isinstance(data["assumptions"], list) and data["assumptions"]
    assert all(isinstance(a, str) for a in data["assumptions"])
    assert any("4 players" in a for a in data["assumptions"])
    # every kind of action is there for this position (no partners with 4 players)
    kinds = {a.split(":")[0] for a in actions}
    assert kinds == {"leg", "pyramid", "tile", "winner", "loser"}
    assert "tile:+10" in actions and "tile:-10" in actions and "tile:+9" not in actions
    # some columns are undefined for some kinds: null, never NaN
    assert any(v is None for m in data["moves"] for v in m.values())
    # with denial on, at least one action denies the next player something
    assert any(m["denial"] != 0 for m in data["moves"])


def test_json_first_edition(capsys):
    board = "first 1:BG 2:OY 3:W +6 dice:GOW legtiles:B32"
    data = best_json(["--no-denial", *FAST, "--players", "2", board], capsys)
    state = GameState.from_board(board, players=2)
    actions = check_moves(data, state, 0)
    assert "winner:O" in actions and "loser:W" in actions
    assert not any(a.startswith("partner:") for a in actions)


def test_json_leg_tile_stack_empty_is_not_offered(capsys):
    board = "1:B 2:YG 3:PR 14:w 15:k legtiles:G,B2"
    data = best_json(["--no-denial", *FAST, board], capsys)
    actions = check_moves(data, GameState.from_board(board), 0)
    assert "leg:G" not in actions and "leg:B" in actions
    leg_b = next(m for m in data["moves"] if m["action"] == "leg:B")
    assert leg_b["value"] == 2


def test_state_file_advice_for_player_2(tmp_path, capsys):
    path = write_state(tmp_path, STATE_P2)
    data = best_json(["--no-denial", *FAST, "--player", "2", path], capsys)
    state = GameState.load(path)
    actions = check_moves(data, state, 2)
    assert data["player"] == 2
    assert "assumptions" not in data  # a full game state assumes nothing
    # player 2's own cards are on the piles: R (winner) and B (loser)
    for colour in "RB":
        assert f"winner:{colour}" not in actions and f"loser:{colour}" not in actions
    for colour in "GPY":
        assert f"winner:{colour}" in actions and f"loser:{colour}" in actions
    # player 2's own tile (+7) is not placed on its own space again; the
    # spaces next to it are free once it is lifted; player 0's tile (-10)
    # blocks 9, 10, 11
    assert "tile:+7" not in actions and "tile:-7" not in actions
    assert {"tile:+6", "tile:-6", "tile:+8", "tile:-8"} <= set(actions)
    assert not any(a in actions for a in ("tile:+9", "tile:+10", "tile:+11"))
    # B has 3, 2, 2 left; 4 players: no partnerships
    assert "leg:B" in actions
    assert next(m for m in data["moves"] if m["action"] == "leg:B")["value"] == 3
    assert not any(a.startswith("partner:") for a in actions)


def test_state_file_advice_for_player_0_differs(tmp_path, capsys):
    path = write_state(tmp_path, STATE_P2)
    data = best_json(["--no-denial", *FAST, path], capsys)  # to_move is 0
    state = GameState.load(path)
    actions = check_moves(data, state, 0)
    assert data["player"] == 0
    assert "winner:R" in actions and "loser:B" in actions  # player 0 holds every card
    assert "tile:+10" not in actions and {"tile:+9", "tile:+11"} <= set(actions)
    assert "tile:+8" not in actions and "tile:+6" not in actions  # next to player 2's tile


def test_state_file_to_move_is_the_default_player(tmp_path, capsys):
    path = write_state(tmp_path, {**STATE_P2, "to_move": 3})
    data = best_json(["--no-denial", *FAST, path], capsys)
    assert data["player"] == 3
    check_moves(data, GameState.load(path), 3)


def test_partner_actions_only_for_players_without_a_partner(tmp_path, capsys):
    path = write_state(tmp_path, PARTNERS_6)
    state = GameState.load(path)
    data = best_json(["--no-denial", *FAST, "--player", "2", path], capsys)
    actions = check_moves(data, state, 2)
    assert sorted(a for a in actions if a.startswith("partner:")) == ["partner:3", "partner:4", "partner:5"]
    for q in (0, 1):
        data = best_json(["--no-denial", *FAST, "--player", str(q), path], capsys)
        actions = check_moves(data, state, q)
        assert not any(a.startswith("partner:") for a in actions)


@pytest.mark.parametrize("data", [
    {"board": "1:B 2:YG 3:PR 14:w 15:k", "players": 5},
    {"board": "first 1:BG 2:OY 3:W", "players": 6},
    {"board": "first 1:BG 2:OY 3:W", "players": 8},
])
def test_no_partner_actions_outside_second_edition_6_to_8(tmp_path, capsys, data):
    path = write_state(tmp_path, data)
    out = best_json(["--no-denial", *FAST, "--player", "1", path], capsys)
    actions = check_moves(out, GameState.load(path), 1)
    assert not any(a.startswith("partner:") for a in actions)


def test_players_6_on_a_board_string_adds_partner_actions(capsys):
    data = best_json(["--no-denial", *FAST, "--players", "6", BOARD], capsys)
    actions = check_moves(data, GameState.from_board(BOARD, players=6), 0)
    assert sorted(a for a in actions if a.startswith("partner:")) == [f"partner:{p}" for p in range(1, 6)]
    assert any("6 players" in a for a in data["assumptions"])
    data = best_json(["--no-denial", *FAST, "--players", "8", "--player", "3", BOARD], capsys)
    actions = check_moves(data, GameState.from_board(BOARD, players=8), 3)
    assert sorted(a for a in actions if a.startswith("partner:")) == [
        f"partner:{p}" for p in (0, 1, 2, 4, 5, 6, 7)
    ]


# ---------------------------------------------------------------- options

def test_without_position_the_example_is_used(capsys):
    code, out, err = run(["best", "--no-denial", *FAST], capsys)
    assert code == 0
    assert "built-in example" in out and EXAMPLE_POSITION in out
    data = best_json(["--no-denial", *FAST], capsys)
    assert data["position"] == EXAMPLE_POSITION
    code, out, err = run(["best", "--json", "--no-denial", *FAST], capsys)
    assert "built-in example" in err and EXAMPLE_POSITION in err
    assert json.loads(out)["position"] == EXAMPLE_POSITION


def test_table_output_names_the_player(tmp_path, capsys):
    path = write_state(tmp_path, STATE_P2)
    code, out, err = run(["best", "--no-denial", *FAST, "--player", "2", path], capsys)
    assert code == 0 and err == ""
    assert "Advice for player 2" in out and "money 1" in out and "B5" in out
    assert "Assumed" not in out
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("action"))
    listed = [line.split()[0] for line in lines[header + 1:]
              if line.strip() and not line.startswith(("EV:", "cov:", "win:", "+-:"))]
    assert sorted(listed) == sorted(legal_actions(GameState.load(path), 2))


def test_seed_makes_json_identical(capsys):
    argv = ["best", "--json", "--precision", "0.02", "--seed", "12345", BOARD]
    code1, out1, _ = run(argv, capsys)
    code2, out2, _ = run(argv, capsys)
    assert code1 == code2 == 0
    assert out1 == out2
    assert json.loads(out1)["seed"] == 12345


def test_no_denial_gives_zero_denial(capsys):
    data = best_json(["--no-denial", *FAST, BOARD], capsys)
    assert data["moves"] and all(m["denial"] == 0 for m in data["moves"])


def test_module_run_as_a_process(tmp_path, capsys):
    path = write_state(tmp_path, STATE_P2)
    argv = ["best", "--json", "--no-denial", *FAST, "--player", "2", path]
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.run([sys.executable, "-m", "advisor.cli", *argv], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout, parse_constant=_no_nan)
    assert data["player"] == 2
    check_moves(data, GameState.load(path), 2)
    code, out, _ = run(argv, capsys)
    assert code == 0 and json.loads(out) == data


def test_the_text_and_json_load_no_pandas(tmp_path):
    """``camelup best`` prints its text and JSON from the advice table:
    pandas (0.3 s of the start) stays out; a chart needs it."""
    path = write_state(tmp_path, STATE_P2)
    script = ("import contextlib, io, sys; from advisor.cli import main\n"
              "with contextlib.redirect_stdout(io.StringIO()):\n"
              f"    codes = [main(['best', *{FAST!r}, *extra]) for extra in ([], ['--json'], [{path!r}, '--player', '2'])]\n"
              "print(codes, 'pandas' in sys.modules)")
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["[0,", "0,", "0]", "False"]


def _same(a, b) -> bool:
    """Equal values of the same type (NaN equal to NaN)."""
    if type(a) is not type(b):
        return False
    return (math.isnan(a) and math.isnan(b)) if isinstance(a, float) and math.isnan(a) else a == b


SIX = {"board": "2:BG 3:R 5:Y 7:P 9:k 12:w +4@1 dice:BGPx legtiles:G322", "players": [
    {"money": 5, "partner": 3}, {"money": 2}, {"money": 7, "leg_tiles": ["G5"]}, {"money": 4, "partner": 0},
    {"money": 1}, {"money": 6, "overall_cards": "BGPR"}], "to_move": 1, "winner_pile": [{"player": 0}]}


@pytest.mark.parametrize("source,player", [
    (BOARD, None), ("first 3:BG 4:O 6:YW +5 -8 dice:BOW legtiles:B2", None), ("16:BGPRY 8:wk dice:Bx", None),
    (STATE_P2, 2), (SIX, None)], ids=["example", "first", "last-leg", "state-p2", "six-players"])
@pytest.mark.parametrize("race,objective,chances", [(True, "win", False), (True, "ev", True), (True, "ev", False),
                                                    (False, "win", False)], ids=["win", "ev-chances", "ev", "quick"])
def test_the_advice_table_reads_as_the_best_moves_frame(source, player, race, objective, chances):
    """The command line's advice table gives, row by row and value by
    value (types included), what ``best_moves``' DataFrame gives; its
    columns and attrs are the frame's."""
    state = GameState.from_json(source) if isinstance(source, dict) else source
    kwargs = dict(precision=0.02, seed=7, race=race, objective=objective, chances=chances)
    table = advice_table(state, player, **kwargs)
    frame = best_moves(state, player, **kwargs)
    assert list(table.columns) == list(frame.columns)
    assert table.attrs == frame.attrs
    ours, theirs = table.to_dict(orient="records"), frame.to_dict(orient="records")
    assert len(ours) == len(theirs) == len(frame)
    for mine, row in zip(ours, theirs):
        assert list(mine) == list(row)
        assert all(_same(mine[key], row[key]) for key in row), (mine, row)
    assert table.frame().equals(frame)


# ---------------------------------------------------------------- bad input

def bad_state_files(tmp_path):
    files = {
        "invalid-json": "{bad json",
        "money": json.dumps({"board": "1:B 2:YG 3:PR 14:w 15:k", "players": [{}, {"money": -1}, {}, {}]}),
        "bad-board": json.dumps({"board": "1:B 2:YG 3:PR 14:w 15:k 9:Q"}),
        "not-object": "[1, 2, 3]",
        "valid": json.dumps(STATE_P2),
    }
    return {k: _write(tmp_path / f"{k}.json", v) for k, v in files.items()}


def _write(path, text):
    path.write_text(text)
    return str(path)


BAD = [
    ("bad-token", ["1:B 2:YG 3:PR 14:w 15:k 9:Q"], "invalid token '9:Q'"),
    ("bad-token-split", ["1:B", "2:YG", "3:PR", "14:w", "15:k", "hello"], "invalid token 'hello'"),
    ("missing-json", ["{tmp}/nope.json"], "nope.json"),
    ("invalid-json", ["{file:invalid-json}"], "not valid JSON"),
    ("not-object", ["{file:not-object}"], "JSON object"),
    ("money", ["{file:money}"], "players[1].money"),
    ("state-bad-board", ["{file:bad-board}"], "invalid token '9:Q'"),
    ("player-7", ["--player", "7", BOARD], "player"),
    ("player-7-state", ["--player", "7", "{file:valid}"], "0..3"),
    ("player-negative", ["--player", "-1", BOARD], "--player"),
    ("players-2-second", ["--players", "2", BOARD], "3-8"),
    ("players-9-first", ["--players", "9", "first 1:BG 2:OY 3:W"], "2-8"),
    ("players-0", ["--players", "0", BOARD], "--players"),
    ("players-with-file", ["--players", "4", "{file:valid}"], "--players"),
    ("precision-0", ["--precision", "0", BOARD], "--precision"),
    ("precision-word", ["--precision", "fine", BOARD], "--precision"),
    ("seed-negative", ["--seed", "-3", BOARD], "--seed"),
]


def _expand(argv, tmp_path):
    files = bad_state_files(tmp_path)
    out = []
    for a in argv:
        if a.startswith("{file:"):
            a = files[a[len("{file:"):-1]]
        out.append(a.replace("{tmp}", str(tmp_path)))
    return out


@pytest.mark.parametrize("json_flag", [False, True], ids=["table", "json"])
@pytest.mark.parametrize("argv,fragment", [c[1:] for c in BAD], ids=[c[0] for c in BAD])
def test_bad_input_one_line_exit_2(tmp_path, capsys, argv, fragment, json_flag):
    argv = _expand(argv, tmp_path)
    code, out, err = run(["best", *(["--json"] if json_flag else []), "--no-denial", *argv], capsys)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    assert fragment in err
    assert "Traceback" not in err


def test_player_7_message_names_the_player(capsys):
    code, out, err = run(["best", "--player", "7", BOARD], capsys)
    assert code == 2 and "7" in err and "0..3" in err


# ---------------------------------------------------------------- bugs: tracebacks instead of exit 2

BUG_FILES = [
    # UnicodeDecodeError from Path.read_text escapes GameState.load
    ("non-utf8", b"\xff\xfe\x00{"),
    # AttributeError: 'list' object has no attribute 'items' (pile_model)
    ("pile-model-list", json.dumps({"board": "1:B 2:YG 3:PR 14:w 15:k", "pile_model": [0.2] * 5}).encode()),
    # TypeError: 'in <string>' requires string as left operand, not int (pile colour)
    ("pile-colour-int", json.dumps({"board": "1:B 2:YG 3:PR 14:w 15:k",
                                    "winner_pile": [{"player": 1, "colour": 5}]}).encode()),
    # ValueError from int('²') in the leg tile parser
    ("leg-tile-superscript", json.dumps({"board": "1:B 2:YG 3:PR 14:w 15:k",
                                         "players": [{"leg_tiles": ["B²"]}, {}, {}]}).encode()),
]


@pytest.mark.parametrize("content", [c[1] for c in BUG_FILES], ids=[c[0] for c in BUG_FILES])
def test_bad_state_file_is_a_user_error_not_a_traceback(tmp_path, capsys, content):
    """BUG: these user errors escape cli.main as non-AdvisorError exceptions
    (a traceback and exit status 1) instead of one line and exit status 2."""
    path = tmp_path / "state.json"
    path.write_bytes(content)
    code, out, err = run(["best", "--json", "--no-denial", *FAST, str(path)], capsys)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("camelup: error:")

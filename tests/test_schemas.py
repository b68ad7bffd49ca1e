"""The JSON schemas of docs/schemas/ describe what the package writes and
reads: game states (``GameState.to_json``, the example of docs/notation.md)
and the lines of game records (as ``simulate`` writes them); what the
readers refuse for its shape, the schemas refuse too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "docs" / "schemas"

EXAMPLE_STATE = {
    "board": "1:B 2:YG 3:PR 14:w 15:k +5@1 dice:GPRx legtiles:B322",
    "players": [{"money": 3, "leg_tiles": ["B5"], "pyramid_tiles": 1, "overall_cards": "GPRY", "partner": None},
                {"money": 4}, {"money": 2}, {"money": 3}],
    "to_move": 0,
    "winner_pile": [{"player": 2}, {"player": 0, "colour": "B"}],
    "loser_pile": [],
    "pile_model": {"winner": {"B": 0.2, "G": 0.2, "P": 0.2, "R": 0.2, "Y": 0.2}},
}


def validator(name):
    schema = json.loads((SCHEMAS / name).read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_game_states_written_and_read_fit_the_schema():
    from advisor import GameState

    check = validator("game-state.schema.json")
    state = GameState.from_json(EXAMPLE_STATE)
    for data in (EXAMPLE_STATE, state.to_json(), {"board": "1:B 2:YG 3:PR 14:w 15:k", "players": 5}):
        assert not list(check.iter_errors(data)), data


@pytest.mark.parametrize("change", [{"colour": "B"}, {"players": "four"}, {"to_move": -1}],
                         ids=["unknown key", "players not a list", "negative to_move"])
def test_a_state_the_reader_refuses_for_its_shape_fails_the_schema(change):
    from advisor import GameState, StateError

    data = {**EXAMPLE_STATE, **change}
    assert list(validator("game-state.schema.json").iter_errors(data))
    with pytest.raises(StateError):
        GameState.from_json(data)


def test_record_lines_written_by_a_game_fit_the_schema():
    from advisor._tools.jsonio import SCHEMA
    from advisor.simulate.games import play_game

    check = validator("record-line.schema.json")
    setup = check.schema["oneOf"][0]["properties"]["schema"]
    assert setup["maximum"] == SCHEMA  # the schema document is the layout this version writes
    record = play_game(["random", "random", "random"], seed=3)
    assert {line["type"] for line in record} >= {"setup", "action", "end"}
    for line in record:
        assert not list(check.iter_errors(line)), line


@pytest.mark.parametrize("line", [{"type": "action", "action": "pyramid"},
                                  {"type": "setup", "edition": "third", "players": 3, "seed": 1, "start": 0,
                                   "board": "1:B"},
                                  {"type": "reveal", "pile": "middle", "index": 0, "colour": "B"},
                                  {"type": "turn"}],
                         ids=["action without player", "unknown edition", "unknown pile", "unknown type"])
def test_a_line_the_reader_refuses_fails_the_schema(line):
    from advisor.game import check_entry

    assert check_entry(line) is not None
    assert list(validator("record-line.schema.json").iter_errors(line))

"""The one reader of user input (:mod:`advisor.inputs`): each kind of input
told apart and read, each bad kind refused with one line naming what is
wrong, a UTF-8 byte order mark accepted and UTF-16 named; and the command
line and the web layer both reading through it."""

from __future__ import annotations

import io
import json

import pytest

from advisor import EXAMPLE_POSITION, GameState, Position, inputs, parse_position
from advisor.cards import CardsPosition
from advisor.cli.command import main
from advisor.errors import AdvisorError, PositionError
from advisor.rules.editions import rules_from_json
from advisor.rules.state import StateError

BOARD = "1:B 2:YG 3:PR 14:w 15:k"
CARDS = "cards 0:BG 2:OW 3:Y deck:4 known:B1G2"
STATE = {"board": BOARD, "players": 4}
CARDS_SETUP = {"type": "setup", "game": "cards"}
BOARD_SETUP = {"type": "setup", "edition": "second"}


def _write(path, data: bytes) -> str:
    path.write_bytes(data)
    return str(path)


def _one_line(exc: pytest.ExceptionInfo) -> str:
    text = str(exc.value)
    assert text and "\n" not in text
    return text


# --------------------------------------------------------------------------
# Each kind, told apart and read
# --------------------------------------------------------------------------


def test_a_board_string_is_read_into_a_position():
    read = inputs.read_input(BOARD)
    assert read.kind == "board" and read.text == BOARD
    assert isinstance(read.value, Position) and str(read.value) == str(parse_position(BOARD))
    assert inputs.read_input("first 1:B 2:YG 3:OW").value.rules.name == "first"


def test_a_board_string_is_read_with_a_rule_variant():
    house = rules_from_json("second", {"name": "house", "money_floor": None})
    read = inputs.read_input(BOARD, rules=house)
    assert read.value.rules == house


def test_a_cards_position_is_read():
    read = inputs.read_input(CARDS)
    assert read.kind == "cards" and isinstance(read.value, CardsPosition)
    assert inputs.input_kind(CARDS, files=True) == "cards"  # the token decides before any file


def test_a_game_state_file_is_read_only_when_files_are_asked_for(tmp_path):
    path = _write(tmp_path / "s.json", json.dumps(STATE).encode())
    read = inputs.read_input(path, files=True)
    assert read.kind == "state" and isinstance(read.value, GameState) and read.value.n_players == 4
    other = _write(tmp_path / "state.txt", json.dumps(STATE).encode())  # any existing file is a state file
    assert inputs.input_kind(other, files=True) == "state"
    # without files (the web page) a name is a board string, never a path
    assert inputs.input_kind(path) == "board"
    with pytest.raises(PositionError):
        inputs.read_input(path)


def test_files_of_records_are_named_by_their_game(tmp_path):
    cards = _write(tmp_path / "c.jsonl", (json.dumps(CARDS_SETUP) + "\n").encode())
    board = _write(tmp_path / "b.JSONL", (json.dumps(BOARD_SETUP) + "\n").encode())
    assert inputs.read_input(cards, files=True) == inputs.Input("cards-records", cards, cards)
    assert inputs.read_input(board, files=True) == inputs.Input("records", board, board)
    assert inputs.input_kind(str(tmp_path / "missing.jsonl"), files=True) == "records"  # its reader says why
    assert inputs.record_kind(cards) == "cards-records" and inputs.record_kind(board) == "records"


def test_a_kind_decided_first_is_read_as_that_kind():
    assert inputs.read_input(BOARD, kind="board").kind == "board"
    with pytest.raises(PositionError):
        inputs.read_input(CARDS, kind="board")  # a Camel Up Cards string is no board string


def test_the_state_of_a_request_and_of_standard_input(monkeypatch):
    assert inputs.state_from_json(STATE).n_players == 4
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"\xef\xbb\xbf" + json.dumps(STATE).encode())))
    assert inputs.load_state("-").n_players == 4


# --------------------------------------------------------------------------
# Each bad kind: one line naming what is wrong
# --------------------------------------------------------------------------


def test_a_bad_board_string_names_the_token():
    with pytest.raises(PositionError) as info:
        inputs.read_input("1:B 2:YG 3:PR 14:w 0:k")
    assert info.value.token == "0:k" and "'0:k'" in _one_line(info)


def test_a_bad_cards_position_is_one_line():
    with pytest.raises(PositionError) as info:
        inputs.read_input("cards 0:BG 2:OW 3:Y deck:x")
    assert "deck" in _one_line(info)


def test_a_bad_game_state_file_names_the_file(tmp_path):
    missing = str(tmp_path / "none.json")
    with pytest.raises(StateError) as info:
        inputs.read_input(missing, files=True)
    assert "cannot read" in _one_line(info) and missing in str(info.value)
    bad = _write(tmp_path / "bad.json", b'{"board": "1:B 2:YG", ')
    with pytest.raises(StateError) as info:
        inputs.read_input(bad, files=True)
    assert f"{bad}: not valid JSON" in _one_line(info)


def test_a_bad_state_object_names_the_field():
    with pytest.raises(StateError) as info:
        inputs.state_from_json(["not", "an", "object"])
    assert "must be a JSON object" in _one_line(info)
    with pytest.raises(StateError) as info:
        inputs.state_from_json({"board": BOARD, "players": [{"money": "three"}] * 4})
    assert "money" in _one_line(info)


def test_a_rule_variant_is_refused_for_anything_but_a_board_string(tmp_path):
    house = rules_from_json("second", {"name": "house", "money_floor": None})
    with pytest.raises(AdvisorError) as info:
        inputs.read_input(CARDS, rules=house)
    assert _one_line(info) == "a rule variant applies to a board string, not to a Camel Up Cards position"


def test_an_unknown_kind_is_a_bug_not_a_user_error():
    with pytest.raises(ValueError, match="unknown kind of input 'fen'") as info:
        inputs.read_input(BOARD, kind="fen")
    assert not isinstance(info.value, AdvisorError)


# --------------------------------------------------------------------------
# Text encodings
# --------------------------------------------------------------------------


def test_a_utf8_byte_order_mark_is_accepted(tmp_path):
    path = _write(tmp_path / "bom.json", b"\xef\xbb\xbf" + json.dumps(STATE).encode())
    assert inputs.read_input(path, files=True).value.n_players == 4
    records = _write(tmp_path / "bom.jsonl", b"\xef\xbb\xbf" + json.dumps(CARDS_SETUP).encode() + b"\n")
    assert inputs.input_kind(records, files=True) == "cards-records"


def test_utf16_is_named_as_not_utf8(tmp_path):
    path = _write(tmp_path / "s16.json", json.dumps(STATE).encode("utf-16"))
    with pytest.raises(StateError) as info:
        inputs.read_input(path, files=True)
    assert "not UTF-8 text (it is UTF-16: save it as UTF-8)" in _one_line(info)


# --------------------------------------------------------------------------
# The command line and the web layer read through the one reader
# --------------------------------------------------------------------------


class _Reader:
    """Stands in for :func:`advisor.inputs.read_input`: records each call and refuses it."""

    def __init__(self):
        self.calls = []

    def __call__(self, text, **kwargs):
        self.calls.append((text, kwargs.get("kind")))
        raise AdvisorError(f"read by the one reader: {text}")


@pytest.fixture
def reader(monkeypatch):
    fake = _Reader()
    monkeypatch.setattr(inputs, "read_input", fake)
    return fake


def test_the_command_line_reads_through_the_one_reader(reader, tmp_path, capsys):
    state = _write(tmp_path / "s.json", json.dumps(STATE).encode())
    for argv, read in ((["odds", BOARD], (BOARD, "board")), (["odds", CARDS], (CARDS, "cards")),
                       (["best", BOARD], (BOARD, "board")), (["best", CARDS], (CARDS, "cards")),
                       (["best", state], (state, "state")),
                       (["show", CARDS, "-o", str(tmp_path / "p.png")], (CARDS, "cards"))):
        assert main(argv) == 2
        assert capsys.readouterr().err == f"camelup: error: read by the one reader: {read[0]}\n"
        assert reader.calls[-1] == read


def test_the_command_line_example_is_read_through_the_one_reader(reader, capsys):
    assert main(["odds", "--json"]) == 2
    assert reader.calls == [(EXAMPLE_POSITION, "board")]
    assert capsys.readouterr().err.endswith(f"camelup: error: read by the one reader: {EXAMPLE_POSITION}\n")


def test_the_web_layer_reads_through_the_one_reader(reader, tmp_path):
    from advisor.web.inputs import subject

    for body, read in (({"board": BOARD}, (BOARD, "board")), ({"board": CARDS}, (CARDS, "cards"))):
        with pytest.raises(AdvisorError, match="read by the one reader"):
            subject(body)
        assert reader.calls[-1] == read


def test_the_web_layer_asks_the_one_reader_which_input_it_has(monkeypatch):
    """The kind of a request's board string and of an uploaded file of
    records comes from :func:`advisor.inputs.input_kind` too."""
    from advisor.web.inputs import subject
    from advisor.web.work import game_load

    asked = []

    def kind(text, files=False):
        asked.append((text, files))
        return "cards-records" if files else "board"

    monkeypatch.setattr(inputs, "input_kind", kind)
    assert subject({"board": BOARD}).game == "second"
    assert asked == [(BOARD, False)]
    line = json.dumps(BOARD_SETUP)  # a board-game setup line: only the reader's answer makes it Camel Up Cards
    with pytest.raises(AdvisorError):
        game_load(line + "\n", 0)
    assert asked[-1][1] is True and asked[-1][0].endswith(".jsonl")

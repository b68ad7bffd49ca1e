"""Inputs refused by name: empty record files, duplicate JSON keys, leg
tiles taken on the board but held by nobody, UTF-16 text, a path under a
file; a UTF-8 byte order mark accepted by every reader."""

import json

import pytest

from advisor.cli.command import main
from advisor.errors import AdvisorError
from advisor._tools.files import check_output
from advisor._tools.jsonio import loads
from advisor.rules.state import GameState, StateError

BOARD = "1:B 2:YG 3:PR 14:w 15:k legtiles:B2"


def _err(capsys) -> str:
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("argv", [
    ["review", "{f}"],
    ["chart", "{f}", "-o", "{d}/x.png"],
    ["best", "{f}"],
    ["play", "--load", "{f}"],
])
@pytest.mark.parametrize("content", [b"", b"\n\n"])
def test_an_empty_record_file_is_an_error_naming_it(tmp_path, capsys, argv, content):
    """BUG: `: > e.jsonl; camelup review e.jsonl` printed nothing, exit 0."""
    f = tmp_path / "e.jsonl"
    f.write_bytes(content)
    assert main([a.replace("{f}", str(f)).replace("{d}", str(tmp_path)) for a in argv]) == 2
    err = _err(capsys)
    assert str(f) in err and "empty" in err


def test_cards_records_reader_refuses_an_empty_file(tmp_path):
    from advisor.cards.record import read_cards_records

    (tmp_path / "e.jsonl").write_text("")
    with pytest.raises(AdvisorError, match="empty"):
        read_cards_records(tmp_path / "e.jsonl")


def test_leg_tiles_taken_on_the_board_must_be_held():
    """BUG: a board with three blue tiles taken and one held was accepted."""
    players = [{"money": 3, "leg_tiles": ["B5"]}, {"money": 3}, {"money": 3}, {"money": 3}]
    with pytest.raises(StateError) as info:
        GameState.from_json({"board": BOARD, "players": players})
    text = str(info.value)
    assert "leg_tiles" in text and "3 B leg tile(s) taken" in text and "hold 1" in text and "\n" not in text
    players[0]["leg_tiles"] = ["B5", "B3"]
    players[1]["leg_tiles"] = ["B2"]
    assert GameState.from_json({"board": BOARD, "players": players}).players[1].leg_tiles == (("B", 2),)
    GameState.from_json({"board": BOARD, "players": 4})  # a bare count: nothing to check against


def test_duplicate_keys_are_refused_naming_the_key(tmp_path, capsys):
    with pytest.raises(AdvisorError, match="'to_move' is given twice"):
        loads('{"board": "1:B", "to_move": 1, "to_move": 0}')
    f = tmp_path / "s.json"
    f.write_text('{"board": "1:B 2:YG 3:PR 14:w 15:k", "players": [{"money": 3, "money": 9}, {"money": 3}, '
                 '{"money": 3}, {"money": 3}]}')
    assert main(["best", str(f)]) == 2
    assert "'money' is given twice" in _err(capsys)


def test_utf16_is_named_and_a_utf8_bom_accepted(tmp_path, capsys):
    state = {"board": "1:B 2:YG 3:PR 14:w 15:k", "players": 4}
    f = tmp_path / "s.json"
    f.write_bytes(json.dumps(state).encode("utf-16"))
    assert main(["best", str(f)]) == 2
    assert "UTF-16" in _err(capsys)
    with pytest.raises(AdvisorError, match="UTF-16"):
        loads(json.dumps(state).encode("utf-16-le"))  # no byte order mark: its NUL bytes tell
    assert loads(b"\xef\xbb\xbf" + json.dumps(state).encode()) == state
    assert loads("\ufeff" + json.dumps(state)) == state
    assert GameState.load(_write(tmp_path / "bom.json", b"\xef\xbb\xbf" + json.dumps(state).encode())).players


def _write(path, data: bytes):
    path.write_bytes(data)
    return path


def test_records_with_a_bom_are_read(tmp_path):
    from advisor.cards.record import is_cards_file, iter_cards_records
    from advisor.game import iter_records

    setup = {"type": "setup", "game": "cards"}
    f = _write(tmp_path / "c.jsonl", b"\xef\xbb\xbf" + json.dumps(setup).encode() + b"\n")
    assert is_cards_file(f) and [r for _, r in iter_cards_records(f)] == [[setup]]
    f16 = _write(tmp_path / "c16.jsonl", (json.dumps(setup) + "\n").encode("utf-16"))
    with pytest.raises(AdvisorError, match="UTF-16"):
        list(iter_records(f16))


def test_a_path_under_a_file_is_named_as_such(tmp_path):
    """BUG: out/x.csv under a file 'out' was reported as 'folder does not exist'."""
    (tmp_path / "afile").write_text("x")
    with pytest.raises(AdvisorError) as info:
        check_output(tmp_path / "afile" / "sub" / "out.csv")
    assert "afile is not a folder (it is a file)" in str(info.value) and "does not exist" not in str(info.value)
    with pytest.raises(AdvisorError, match="does not exist"):
        check_output(tmp_path / "missing" / "out.csv")


def test_the_web_api_refuses_a_key_given_twice():
    from advisor.web.inputs import InputError, parse_body

    with pytest.raises(InputError, match="'board' twice"):
        parse_body(b'{"board": "1:B 2:YG 3:PR 14:w 15:k", "board": "1:B"}', "/api/odds")




def test_play_save_under_a_file_names_the_file(tmp_path):
    import io

    from advisor.cli.table import play

    (tmp_path / "afile").write_text("x")
    out = io.StringIO()
    lines = iter([f"save {tmp_path}/afile/g.jsonl", "quit"])
    play(["human", "random", "random", "random"], seed=22, read=lambda prompt="": next(lines), out=out)
    assert "afile is not a folder (it is a file)" in out.getvalue()

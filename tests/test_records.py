"""Game record files: read one game at a time, any malformed line named by
file and line; `camelup chart` on bad files: one line, exit 2."""

import json

import pytest

from advisor.cli.command import main
from advisor.errors import AdvisorError
from advisor.game import RecordError, iter_records, read_records, replay, write_records
from advisor.simulate.games import play_game


@pytest.fixture(scope="module")
def games():
    return [play_game(["random"] * 3, seed=s) for s in (4, 5)]


@pytest.fixture
def good(tmp_path, games):
    path = tmp_path / "g.jsonl"
    write_records(games, path)
    return path


def test_iter_records_yields_games_with_their_first_line(good, games):
    got = list(iter_records(good))
    assert [r for _, r in got] == games
    assert [line for line, _ in got] == [1, len(games[0]) + 1]
    assert read_records(good) == games


def _lines(path):
    return path.read_text().splitlines()


@pytest.mark.parametrize("edit,line,fragment", [
    (lambda ls: ls[:2] + ["5"] + ls[2:], 3, "JSON object, not int"),
    (lambda ls: ls[:2] + ["[1, 2]"] + ls[2:], 3, "JSON object, not list"),
    (lambda ls: ls[:2] + ["{not json"] + ls[2:], 3, "not valid JSON"),
    (lambda ls: ls[:2] + ['{"type": "bet"}'] + ls[2:], 3, "'type'"),
    (lambda ls: ls[:2] + ['{"type": "action", "player": 0}'] + ls[2:], 3, "'action'"),
    (lambda ls: ls[:2] + ['{"type": "action", "player": 0, "action": "pyramid", "roll": {"die": "BG", "value": 1}}']
     + ls[2:], 3, "'roll'"),
    (lambda ls: ls[1:], 1, "starts with its setup line"),
    (lambda ls: [ls[0].replace('"players": 3', '"players": "3"')] + ls[1:], 1, "'players'"),
    (lambda ls: [ls[0].replace('"edition": "second"', '"edition": "third"')] + ls[1:], 1, "'edition'"),
    (lambda ls: ls[:4] + ["[" * 100_000 + "]" * 100_000] + ls[4:], 5, "nested"),
])
def test_malformed_line_is_named_by_file_and_line(good, edit, line, fragment):
    """BUG: a line holding 5 raised AttributeError ('int' object has no
    attribute 'get')."""
    good.write_text("\n".join(edit(_lines(good))) + "\n")
    with pytest.raises(RecordError) as info:
        read_records(good)
    assert str(info.value).startswith(f"{good}:{line}: ") and fragment in str(info.value)


def test_unreadable_files(tmp_path):
    binary = tmp_path / "b.jsonl"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe")
    with pytest.raises(RecordError, match=f"{binary}:1: not UTF-8"):
        read_records(binary)
    with pytest.raises(RecordError, match="no such file"):
        read_records(tmp_path / "missing.jsonl")
    with pytest.raises(RecordError, match="cannot read"):
        read_records(tmp_path)


def test_replay_errors_are_record_errors(games):
    record = [dict(e) for e in games[0]]
    record[2] = {**record[2], "player": (record[2]["player"] + 1) % 3}
    with pytest.raises(RecordError, match="not to move"):
        replay(record)
    with pytest.raises(RecordError, match="setup line"):
        replay([])
    with pytest.raises(RecordError, match="'roll'"):
        replay([games[0][0], {"type": "action", "turn": 0, "player": 0, "action": "pyramid",
                              "roll": {"die": "B", "value": 1, "extra": 1}}])
    end = dict(games[0][-1], money=[1, 2, 3])
    with pytest.raises(RecordError, match="'money'"):
        replay(games[0][:-1] + [end])


def test_a_roll_names_one_die(games):
    """BUG: a roll of die 'BG' passed the check 'die in pyramid' (a
    substring test) and moved B, taking both dice out of the pyramid."""
    from advisor.errors import IllegalActionError
    from advisor.game import Game, Roll

    game = Game("second", 3, seed=1, start=0)
    for die in ("", "BG"):
        with pytest.raises(IllegalActionError, match="one die"):
            game.apply("pyramid", Roll(die, 1))


def test_write_records_is_whole_or_nothing(tmp_path, games):
    path = tmp_path / "g.jsonl"
    path.write_text("old\n")
    with pytest.raises(TypeError):
        write_records([games[0], [{"type": "setup", "x": object()}]], path)
    assert path.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["g.jsonl"]


# --------------------------------------------------------------------------
# camelup chart
# --------------------------------------------------------------------------
@pytest.mark.parametrize("content,fragment", [
    (b"5\n", ":1: a record line is a JSON object"),
    (b"\x89PNG\r\n\x1a\n\x00\xff", ":1: not UTF-8"),
    (b'{"type": "action", "player": 0, "action": "pyramid"}\n', ":1: a game record starts with its setup line"),
    (b"", "empty (no game in it)"),
])
def test_chart_on_a_bad_file_is_one_line(tmp_path, capsys, content, fragment):
    path = tmp_path / "g.jsonl"
    path.write_bytes(content)
    assert main(["chart", str(path), "-o", str(tmp_path / "c.png")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and fragment in err and str(path) in err
    assert not (tmp_path / "c.png").exists()


def test_chart_names_the_line_of_a_game_that_does_not_replay(tmp_path, capsys, games):
    record = [dict(e) for e in games[1]]
    record[3]["player"] = (record[3]["player"] + 1) % 3
    path = tmp_path / "g.jsonl"
    write_records([games[0], record], path)
    assert main(["chart", str(path), "--game", "1", "-o", str(tmp_path / "c.png")]) == 2
    err = capsys.readouterr().err
    assert f"{path}:{len(games[0]) + 1}: game 1" in err and "not to move" in err


def test_chart_needs_a_whole_game(tmp_path, capsys, games):
    path = tmp_path / "g.jsonl"
    write_records([games[0][:5]], path)
    assert main(["chart", str(path), "-o", str(tmp_path / "c.png")]) == 2
    assert "no end line" in capsys.readouterr().err


def test_chart_reads_only_up_to_its_game(tmp_path, capsys, games, monkeypatch):
    """Game 0 is charted even if later lines are broken (one game in memory
    at a time; nothing after it is read)."""
    import advisor.plotting

    path = tmp_path / "g.jsonl"
    write_records([games[0]], path)
    with open(path, "a") as fh:
        fh.write("5\n")
    seen = []
    monkeypatch.setattr(advisor.plotting, "game_odds", lambda record, **k: seen.append(record) or _stop())
    with pytest.raises(_Stop):
        main(["chart", str(path), "-o", str(tmp_path / "c.png")])
    assert seen == [games[0]]


class _Stop(Exception):
    pass


def _stop():
    raise _Stop()


def test_records_are_strict_json(tmp_path, games):
    path = tmp_path / "g.jsonl"
    write_records(games, path)
    for line in path.read_text().splitlines():
        json.loads(line, parse_constant=lambda c: (_ for _ in ()).throw(AssertionError(c)))


def test_record_error_is_an_advisor_error():
    assert issubclass(RecordError, AdvisorError) and issubclass(RecordError, ValueError)

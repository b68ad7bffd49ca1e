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


def _face_down_game():
    """A game whose first action places a winner card face down; its
    colour is revealed (a reveal line) when the race ends."""
    from advisor.game import Game
    from advisor.rules.turn import UnrevealedCards

    game = Game("second", 3, seed=2, start=0)
    game.apply("winner:?")
    while not game.finished:
        try:
            game.apply("pyramid")
        except UnrevealedCards:
            game.reveal("winner", 0, "B")
    return game.record


@pytest.fixture(scope="module")
def records(games):
    return games + [_face_down_game()]


def test_replay_visits_every_action_line_in_order_with_the_game_before_it(records):
    from advisor.game import boards

    for record in records:
        seen = []

        def visit(step):
            assert step.done is None and step.game.turns == step.turn and step.game.state is step.before
            seen.append((step.line, step.entry, step.turn, step.player, step.leg, str(step.before.position),
                         step.action, step.roll))

        game = replay(record, visit=visit)
        lines = [k + 1 for k, e in enumerate(record) if e["type"] == "action"]
        entries = [e for e in record if e["type"] == "action"]
        legs = [1 + sum(1 for e in entries[:t] if e.get("leg_over")) for t in range(len(entries))]
        assert [s[0] for s in seen] == lines
        assert all(s[1] is e for s, e in zip(seen, entries))
        assert [s[2] for s in seen] == list(range(len(entries))) == [e["turn"] for e in entries]
        assert [s[3] for s in seen] == [e["player"] for e in entries]
        assert [s[4] for s in seen] == legs
        assert [s[5] for s in seen] == boards(record)[:-1]
        assert [s[6] for s in seen] == [e["action"] for e in entries]
        assert [s[7] and s[7].to_json() for s in seen] == [e.get("roll") for e in entries]
        assert game.finished and game.summary() == record[-1]


def test_a_replay_with_a_visit_ends_in_the_game_without_one(records):
    def play(step):
        assert step.play() is step.play()  # played once
        assert step.game.turns == step.turn + 1

    for record in records:
        plain = replay(record)
        for visit in (None, lambda step: None, play):
            game = replay(record, visit=visit)
            assert game.record == plain.record == record
            assert game.state == plain.state and game.summary() == plain.summary()
        for upto in (0, 1, 7):
            turns = []
            game = replay(record, upto, visit=lambda step: turns.append(step.turn))
            assert turns == list(range(upto)) and game.state == replay(record, upto).state


def test_a_step_played_shows_what_the_action_did(records):
    from advisor.game import Replay

    for record in records:
        replayed = Replay(record)
        assert replayed.game.state == replay(record, 0).state
        for step in replayed:
            done = step.play()
            assert done == step.entry and step.done is done
            assert replayed.game.board() == step.entry["board"]
        assert replayed.game.summary() == record[-1]
        with pytest.raises(RuntimeError, match="once"):
            iter(replayed)


def test_reveal_lines_are_played_between_the_steps(records):
    record = records[-1]
    reveal = next(k for k, e in enumerate(record) if e["type"] == "reveal")
    piles = []
    replay(record, visit=lambda step: piles.append((step.line > reveal + 1,
                                                   tuple(c.colour for c in step.before.winner_pile))))
    assert piles[0] == (False, ()) and piles[-1] == (True, ("B",))
    assert {pile for after, pile in piles[1:] if not after} == {(None,)}


def test_the_replay_with_a_visit_stops_where_the_replay_does(games):
    """The visit has seen every step before the line at fault; the error is
    the replay's own."""
    from advisor.errors import IllegalActionError

    record = [dict(e) for e in games[0]]
    record[6] = {**record[6], "action": "leg:Q"}
    with pytest.raises(IllegalActionError) as plain:
        replay(record)
    turns = []
    with pytest.raises(IllegalActionError) as visited:
        replay(record, visit=lambda step: turns.append(step.turn))
    assert str(visited.value) == str(plain.value) and turns == [0, 1, 2, 3, 4, 5]
    record = [dict(e) for e in games[0]]
    record[6] = {**record[6], "board": "1:B"}
    with pytest.raises(RecordError, match="^turn 5: the record's board '1:B' does not match"):
        replay(record, visit=lambda step: step.play())


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

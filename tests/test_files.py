"""advisor._tools.files: output paths checked before work, files written whole;
and every command that writes a file uses them."""

import os

import pytest

from advisor.cli.command import main
from advisor.errors import AdvisorError
from advisor._tools.files import atomic_output, check_input, check_output, commit, partial_path

EXAMPLE = "1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx"


# --------------------------------------------------------------------------
# check_output / check_input
# --------------------------------------------------------------------------
def test_check_output_accepts_a_new_or_existing_file(tmp_path):
    assert check_output(tmp_path / "new.csv", suffixes=(".csv",)) == tmp_path / "new.csv"
    (tmp_path / "old.CSV").write_text("x")
    check_output(tmp_path / "old.CSV", suffixes=(".csv",))
    assert sorted(os.listdir(tmp_path)) == ["old.CSV"]  # the probe leaves nothing behind


@pytest.mark.parametrize("name,fragment", [
    ("missing/out.csv", "does not exist"),
    ("folder", "is a folder"),
    ("out.txt", "use one of .csv"),
    ("afile/out.csv", "is not a folder"),
    ("", "no file name"),
])
def test_check_output_refuses_with_one_line(tmp_path, name, fragment):
    (tmp_path / "folder").mkdir()
    (tmp_path / "afile").write_text("x")
    path = tmp_path / name if name else ""
    with pytest.raises(AdvisorError) as info:
        check_output(path, suffixes=(".csv",) if name != "folder" else None)
    assert fragment in str(info.value) and "\n" not in str(info.value)


def test_check_output_refuses_a_folder_it_cannot_write(tmp_path):
    if os.geteuid() == 0:  # root writes anywhere: a read-only mount is the real case
        ro = "/proc/out.csv"
    else:
        folder = tmp_path / "ro"
        folder.mkdir()
        folder.chmod(0o500)
        ro = folder / "out.csv"
    with pytest.raises(AdvisorError, match="cannot write in the folder"):
        check_output(ro)


def test_check_output_refuses_the_input_however_spelled(tmp_path, monkeypatch):
    (tmp_path / "data.csv").write_text("position\n")
    monkeypatch.chdir(tmp_path)
    for spelling in ("data.csv", "./data.csv", str(tmp_path / "data.csv"), "../" + tmp_path.name + "/data.csv"):
        with pytest.raises(AdvisorError, match="is the input"):
            check_output(spelling, inputs=["data.csv"])
    os.symlink(tmp_path / "data.csv", tmp_path / "link.csv")
    with pytest.raises(AdvisorError, match="is the input"):
        check_output("link.csv", inputs=["data.csv"])


def test_check_output_refuses_a_device(tmp_path):
    with pytest.raises(AdvisorError, match="not a regular file"):
        check_output("/dev/null")


def test_check_input(tmp_path):
    (tmp_path / "in.txt").write_text("x")
    assert check_input(tmp_path / "in.txt") == tmp_path / "in.txt"
    with pytest.raises(AdvisorError, match="no such file"):
        check_input(tmp_path / "missing.txt")
    with pytest.raises(AdvisorError, match="not a regular file"):
        check_input(tmp_path)


# --------------------------------------------------------------------------
# atomic_output
# --------------------------------------------------------------------------
def test_atomic_output_appears_only_when_complete(tmp_path):
    path = tmp_path / "out.txt"
    with atomic_output(path) as tmp:
        assert tmp.parent == tmp_path and tmp != path
        tmp.write_text("new")
        assert not path.exists()
    assert path.read_text() == "new"
    assert os.listdir(tmp_path) == ["out.txt"]
    assert path.stat().st_mode & 0o777 == 0o666 & ~_umask()


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


@pytest.mark.parametrize("error", [RuntimeError, KeyboardInterrupt])
def test_atomic_output_keeps_the_old_file_on_failure(tmp_path, error):
    path = tmp_path / "out.txt"
    path.write_text("old")
    with pytest.raises(error):
        with atomic_output(path) as tmp:
            tmp.write_text("half")
            raise error()
    assert path.read_text() == "old"
    assert os.listdir(tmp_path) == ["out.txt"]


def test_atomic_output_write_error_is_one_line(tmp_path):
    path = tmp_path / "out.txt"
    with pytest.raises(AdvisorError, match="cannot write"):
        with atomic_output(path):
            raise OSError(28, "No space left on device")
    assert os.listdir(tmp_path) == []


def test_atomic_output_through_a_link_replaces_the_linked_file(tmp_path):
    (tmp_path / "real.txt").write_text("old")
    os.symlink(tmp_path / "real.txt", tmp_path / "link.txt")
    with atomic_output(tmp_path / "link.txt") as tmp:
        tmp.write_text("new")
    assert os.path.islink(tmp_path / "link.txt") and (tmp_path / "real.txt").read_text() == "new"


def test_partial_path_and_commit(tmp_path):
    part = partial_path(tmp_path / "g.jsonl")
    assert part == tmp_path / "g.jsonl.part"
    part.write_text("x")
    commit(part, tmp_path / "g.jsonl")
    assert os.listdir(tmp_path) == ["g.jsonl"]


# --------------------------------------------------------------------------
# every command that writes a file checks the path before any work
# --------------------------------------------------------------------------
WRITERS = [
    (["simulate", "--games", "2", "-o"], ".jsonl", "advisor.simulate.games", "play_game"),
    (["tournament", "--games", "2", "-o"], ".jsonl", "advisor.simulate.games", "play_game"),
    (["show", EXAMPLE, "-o"], ".png", "advisor.plotting", "plot_board"),
    (["best", EXAMPLE, "--seed", "1", "--chart"], ".png", "advisor.valuation.engine", "advice_table"),
    (["chart", "RECORDS", "-o"], ".png", "advisor.plotting", "game_odds"),
]


@pytest.fixture
def records_file(tmp_path):
    from advisor.simulate.games import play_game
    from advisor.game import write_records

    path = tmp_path / "g.jsonl"
    write_records([play_game(["random"] * 3, seed=4)], path)
    return path


@pytest.mark.parametrize("argv,suffix,module,name", WRITERS, ids=[w[0][0] for w in WRITERS])
@pytest.mark.parametrize("where,fragment", [
    ("/nonexistent/out", "does not exist"),
    ("FOLDER", "is a folder"),
    ("out.bad", "use one of"),
])
def test_every_writer_checks_its_output_before_work(tmp_path, monkeypatch, capsys, records_file,
                                                    argv, suffix, module, name, where, fragment):
    """BUG: simulate / tournament -o /nonexistent/g.jsonl failed with a
    traceback after playing every game."""
    import importlib

    def fail(*a, **k):
        raise AssertionError("work began before the output path was checked")

    monkeypatch.setattr(importlib.import_module(module), name, fail)
    folder = tmp_path / ("x" + suffix)
    folder.mkdir()
    out = {"FOLDER": str(folder), "out.bad": str(tmp_path / "out.bad")}.get(where, where + suffix)
    argv = [str(records_file) if a == "RECORDS" else a for a in argv]
    assert main(argv + [out]) == 2
    err = capsys.readouterr().err
    assert fragment in err and len(err.strip().splitlines()) == 1


def test_pictures_appear_only_when_complete(tmp_path, monkeypatch, capsys):
    """A failed drawing leaves the old picture as it was."""
    out = tmp_path / "board.png"
    out.write_bytes(b"old picture")
    import matplotlib.figure

    def broken(self, *a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", broken)
    assert main(["show", EXAMPLE, "-o", str(out), "--overwrite"]) == 2
    assert "cannot write" in capsys.readouterr().err
    assert out.read_bytes() == b"old picture" and os.listdir(tmp_path) == ["board.png"]


@pytest.mark.parametrize("argv", [
    ["best", "a" * 300],
    ["best", "a" * 300 + ".json"],
    ["chart", "a" * 300 + ".jsonl", "-o", "x.png"],
    ["show", "-o", "a" * 300 + ".png"],
    ["simulate", "--games", "1", "-o", "a" * 300 + ".jsonl"],
    ["batch", "in.txt", "-o", "a" * 300 + ".csv"],
])
def test_names_the_system_refuses_are_one_line(tmp_path, monkeypatch, capsys, argv):
    """BUG: `camelup best` with one long argument asked Path.is_file(),
    which raised OSError (File name too long): a traceback."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in.txt").write_text(EXAMPLE + "\n")
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err and len(err) < 400

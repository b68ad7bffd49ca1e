"""Help texts: rendered for every subcommand, true to the repository."""

import re
from pathlib import Path

import pytest

from advisor.bots.policies import BOTS
from advisor.cli.command import main
from advisor.cli.parser import build_parser

ROOT = Path(__file__).resolve().parent.parent


def commands():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    return sorted(sub.choices)


def test_every_command_has_a_handler():
    """The parser's commands and the handlers of main are the same."""
    from advisor.cli.command import COMMANDS

    assert sorted(COMMANDS) == commands()


def help_of(command, capsys):
    assert main([command, "--help"]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("command", commands())
def test_help_has_no_escaped_percent(command, capsys):
    """BUG: odds --help and tournament --help printed a literal '95%%'."""
    text = help_of(command, capsys)
    assert "%%" not in text


@pytest.mark.parametrize("command", commands() + [None])
def test_help_names_only_files_of_the_repository(command, capsys):
    """BUG: --json help said 'see NOTATION.md', which the repository does
    not hold.  Documents named in a help text must exist."""
    if command is None:
        assert main(["--help"]) == 0
        text = capsys.readouterr().out
    else:
        text = help_of(command, capsys)
    for name in re.findall(r"[\w./-]+\.(?:md|rst|txt|ipynb|py|toml)\b", text):
        if name.startswith(("games.", "positions.", "data.")):  # example file names
            continue
        assert list(ROOT.glob(f"**/{Path(name).name}")), f"{command} --help names {name}, absent from the repository"


@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_bots_listed_are_the_bots(command, capsys):
    """BUG: simulate --help listed 3 of the 5 bots."""
    text = " ".join(help_of(command, capsys).split())
    board, cards = text.split("Bots:", 1)[1].split("options:")[0].split("Camel Up Cards bots:")
    listed = re.findall(r"([\w-]+) \(", board)
    assert listed == list(BOTS)
    for cls in BOTS.values():
        assert " ".join(cls.summary.split()) in text
    from advisor.cards.bots import CARDS_BOTS

    for name, cls in CARDS_BOTS.items():
        assert f"{name} ({' '.join(cls.summary.split())})" in cards


def test_json_help_points_to_the_docs_section(capsys):
    text = " ".join(help_of("odds", capsys).split())
    assert 'docs/notation.md, "Machine output"' in text
    assert "\n## Machine output\n" in (ROOT / "docs" / "notation.md").read_text()


@pytest.mark.parametrize("command", commands() + [None])
def test_help_points_at_docs_pages_that_exist(command, capsys):
    """BUG: help texts sent the reader to README sections that moved to the
    documentation.  A help text names docs pages (and their sections) that
    exist, never the README."""
    if command is None:
        assert main(["--help"]) == 0
        text = " ".join(capsys.readouterr().out.split())
    else:
        text = " ".join(help_of(command, capsys).split())
    assert "README" not in text
    for page, section in re.findall(r'(docs/[\w/-]+\.md)(?:, \\?"([^"]+)\\?")?', text):
        assert (ROOT / page).is_file(), f"{command} --help names {page}, absent"
        if section:
            assert re.search(rf"^#+ {re.escape(section)}( \(.*\))?$", (ROOT / page).read_text(), re.M), (page, section)


def test_batch_help_mentions_parquet(capsys):
    text = help_of("batch", capsys)
    assert text.count(".parquet") >= 2 and "pip install" in text


def test_readme_documents_every_command():
    readme = (ROOT / "README.md").read_text()
    for command in commands():
        assert f"camelup {command}" in readme, command

"""camelup play: a scripted human at the table."""

import io

import pytest

from advisor.cli import main
from advisor.play import play, render


def scripted(lines):
    it = iter(lines)

    def read(prompt):
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return read


def test_a_human_types_commands_and_actions():
    out = io.StringIO()
    game = play(["human", "heuristic", "random"], seed=3,
                read=scripted(["help", "actions", "leg:Z", "pyramid", "leg:B", "quit"]), out=out)
    text = out.getvalue()
    assert "Type an action or a command" in text          # help
    assert "Not possible:" in text and "leg:Z" in text     # an illegal action is refused
    assert "P0: pyramid: die" in text                      # the human's roll is described
    assert "Game left." in text
    humans = [e for e in game.record[1:] if e["player"] == 0]
    assert [e["action"] for e in humans] == ["pyramid", "leg:B"]


def test_odds_and_best_on_request():
    out = io.StringIO()
    play(["human", "random", "random"], seed=5, read=scripted(["odds", "best"]), out=out)
    text = out.getvalue()
    assert "Leg odds, exact" in text and "Race odds" in text
    assert "The advisor's ranking" in text


def test_bots_alone_finish_the_game():
    out = io.StringIO()
    game = play(["heuristic", "random", "random"], seed=9, read=scripted([]), out=out)
    assert game.finished and "The race is over" in out.getvalue() and "Winner(s)" in out.getvalue()


def test_render_shows_the_table():
    from advisor.game import Game

    game = Game("first", 2, seed=1)
    text = render(game)
    assert "Pyramid: B G O Y W" in text and "Leg tiles left: B:532" in text and "P0" in text and "P1" in text


@pytest.mark.parametrize("argv, fragment", [
    (["play", "--seats", "human,robot,random"], "unknown seat 'robot'"),
    (["play", "--seats", "human,random"], "3-8 players"),
])
def test_bad_seats(argv, fragment, capsys):
    assert main(argv) == 2
    assert fragment in capsys.readouterr().err
